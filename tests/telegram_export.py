"""Builds a Telegram Desktop JSON export on disk, laid out and serialised as Telegram writes it.

Two channels: "Kharkiv Watch" posts; "Frontline Dispatch" forwards two of its posts and
re-posts its photograph re-encoded at another size and JPEG quality. Shared by the tests
and the reader benchmark.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

NOT_INCLUDED = "(File not included. Change data exporting settings to download.)"

SHELLING = [
    "Russian artillery ",
    {"type": "bold", "text": "shelled a residential block"},
    " in Kupiansk on 14 March 2024, killing three civilians, the regional prosecutor's office said. Details: ",
    {"type": "link", "text": "https://example.org/kupiansk-report"},
    " and the ",
    {"type": "text_link", "text": "full statement", "href": "https://example.org/statement"},
    ". ",
    {"type": "hashtag", "text": "#Kupiansk"},
]
BUS = (
    "A drone struck a passenger bus near Beryslav on 2 April 2024, killing two civilians"
    " and wounding five, according to the district administration."
)
REPOST = (
    "Three civilians were killed when Russian artillery hit an apartment building in"
    " Kupiansk on 14 March 2024, residents told our correspondent."
)
CLIP = "Footage filmed by a resident shows smoke rising over the shelled block in Kupiansk."
MISSING = "Residents queued for water in Kupiansk on 15 March 2024 after the strike."


def photo(quality: int = 92, size: tuple[int, int] = (320, 240)) -> bytes:
    """A real JPEG with structure (bands, a disc, noise), so pHash has something to see."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (320, 240), (70, 90, 120))
    draw = ImageDraw.Draw(img)
    for x in range(0, 320, 40):
        draw.rectangle([x, 0, x + 18, 240], fill=(200, 170, 60))
    draw.ellipse([110, 60, 230, 180], fill=(30, 30, 30))
    draw.polygon([(0, 240), (160, 120), (320, 240)], fill=(150, 40, 40))
    rng = random.Random(7)
    for _ in range(400):
        x, y = rng.randrange(320), rng.randrange(240)
        draw.point((x, y), fill=(255, 255, 255))
    if size != img.size:
        img = img.resize(size)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=quality)
    return out.getvalue()


def other_photo() -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (320, 240), (240, 240, 235))
    draw = ImageDraw.Draw(img)
    for y in range(0, 240, 30):
        draw.line([0, y, 320, 240 - y], fill=(10, 120, 10), width=6)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def _msg(mid: int, date: str, sender: str, peer: str, text: Any, **extra: Any) -> dict[str, Any]:
    entities = (
        [{"type": "plain", "text": p} if isinstance(p, str) else p for p in text]
        if isinstance(text, list)
        else [{"type": "plain", "text": text}]
    )
    return {
        "id": mid,
        "type": "message",
        "date": date,
        "date_unixtime": "1710400000",
        **extra,
        "from": sender,
        "from_id": peer,
        "text": text,
        "text_entities": entities,
    }


def write_export(root: Path, username: str | None = None) -> dict[str, bytes]:
    """Write result.json and its media under `root`; returns the media bytes by path."""
    media = {
        "photos/photo_1@14-03-2024_09-10-00.jpg": photo(92),
        "photos/photo_2@14-03-2024_11-40-00.jpg": photo(55, (256, 192)),
        "photos/photo_3@16-03-2024_08-00-00.png": other_photo(),
        "video_files/clip.mp4": b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 40,
        "video_files/clip.mp4_thumb.jpg": photo(70, (160, 120)),
    }
    for rel, data in media.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    watch: dict[str, Any] = {
        "name": "Kharkiv Watch",
        "type": "public_channel",
        "id": 1001,
        "messages": [
            {
                "id": 40,
                "type": "service",
                "date": "2024-03-01T08:00:00",
                "date_unixtime": "1709280000",
                "actor": "Kharkiv Watch",
                "actor_id": "channel1001",
                "action": "create_channel",
                "title": "Kharkiv Watch",
                "text": "",
                "text_entities": [],
            },
            _msg(
                41,
                "2024-03-14T09:10:00",
                "Kharkiv Watch",
                "channel1001",
                SHELLING,
                edited="2024-03-14T09:30:00",
                edited_unixtime="1710408600",
                author="O. Melnyk",
                photo="photos/photo_1@14-03-2024_09-10-00.jpg",
                width=320,
                height=240,
            ),
            _msg(
                42,
                "2024-03-14T10:00:00",
                "Kharkiv Watch",
                "channel1001",
                CLIP,
                file="video_files/clip.mp4",
                thumbnail="video_files/clip.mp4_thumb.jpg",
                media_type="video_file",
                mime_type="video/mp4",
                duration_seconds=12,
                width=640,
                height=360,
            ),
            _msg(43, "2024-04-02T07:45:00", "Kharkiv Watch", "channel1001", BUS),
            _msg(
                44,
                "2024-03-15T12:00:00",
                "Kharkiv Watch",
                "channel1001",
                MISSING,
                photo=NOT_INCLUDED,
            ),
        ],
    }
    if username:
        watch["username"] = username
    dispatch = {
        "name": "Frontline Dispatch",
        "type": "public_channel",
        "id": 2002,
        "messages": [
            _msg(
                7,
                "2024-03-14T09:20:00",
                "Frontline Dispatch",
                "channel2002",
                SHELLING,
                forwarded_from="Kharkiv Watch",
                forwarded_from_id="channel1001",
            ),
            _msg(
                8,
                "2024-03-14T11:40:00",
                "Frontline Dispatch",
                "channel2002",
                REPOST,
                photo="photos/photo_2@14-03-2024_11-40-00.jpg",
                width=256,
                height=192,
            ),
            _msg(
                9,
                "2024-04-02T08:00:00",
                "Frontline Dispatch",
                "channel2002",
                BUS,
                forwarded_from="Kharkiv Watch",
            ),
            _msg(
                10,
                "2024-03-16T08:00:00",
                "Frontline Dispatch",
                "channel2002",
                "",
                photo="photos/photo_3@16-03-2024_08-00-00.png",
            ),
        ],
    }
    export = {
        "about": "Here is the data you requested.",
        "personal_information": {"user_id": 5, "first_name": "Analyst", "last_name": ""},
        # the forwarding channel first: the forward is read before its original
        "chats": {"about": "This page lists all chats.", "list": [dispatch, watch]},
    }
    (root / "result.json").write_text(_telegram_json(export), encoding="utf-8")
    return media


def _telegram_json(value: Any) -> str:
    """Telegram's layout: one-space indentation, non-ASCII kept as is."""
    return json.dumps(value, ensure_ascii=False, indent=1)
