"""Telegram Desktop JSON exports (`result.json` beside `photos/`, `video_files/`, ...).

One document per message with text. Each message's original is its own byte slice of
result.json (the decoder walks the file keeping positions), so the archived file proves
every message. Text entities (bold, links, hashtags) keep the offsets of their words in
the working text. A forward names the channel it came from; when that channel's message is
in the same export (same text, not later) the forward points at its record, so linking
counts the two as one source. Media files are resolved inside the export folder only.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from corroborator.errors import InputError
from corroborator.ingest.media import media_type_of
from corroborator.ingest.normalize import normalize, to_working
from corroborator.models import Forward, MediaRef, RawRecord, Rejection

Item = RawRecord | Rejection

MAX_TEXT_CHARS = 20 * 1024 * 1024
_DEC = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
# Telegram writes control characters as \xHH, which JSON does not allow
_BAD_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\x([0-9A-Fa-f]{2})")
_CHAT_LISTS = ("chats", "left_chats")
_USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{3,31}")
_CHANNEL_TYPES = {"public_channel", "private_channel", "public_supergroup", "private_supergroup"}
_USER_TYPES = {"personal_chat", "bot_chat", "saved_messages", "replies"}
_MEDIA_FIELDS = (("photo", "photo"), ("file", "file"), ("thumbnail", "thumbnail"))
_FACT_FIELDS = (
    "date",
    "date_unixtime",
    "edited",
    "edited_unixtime",
    "from",
    "from_id",
    "author",
    "forwarded_from",
    "forwarded_from_id",
    "saved_from",
    "reply_to_message_id",
    "media_type",
    "mime_type",
    "duration_seconds",
    "width",
    "height",
)


@dataclass
class _Located:
    """A decoded message and where its text lies in result.json."""

    value: Any
    start: int
    end: int


@dataclass
class _Chat:
    name: str
    type: str
    id: str
    username: str | None
    messages: list[_Located]

    @property
    def peer(self) -> str:
        """The id form messages use in `forwarded_from_id` ("channel123", "user45")."""
        if self.type in _CHANNEL_TYPES:
            return f"channel{self.id}"
        return f"user{self.id}" if self.type in _USER_TYPES else f"chat{self.id}"


# ------------------------------------------------------------------ positions


def _ws(s: str, i: int) -> int:
    m = _WS.match(s, i)
    return m.end() if m else i


def _expect(s: str, i: int, ch: str) -> int:
    if not s.startswith(ch, i):
        raise json.JSONDecodeError(f"expected {ch!r}", s, i)
    return i + 1


def _array(s: str, i: int, item: Any) -> tuple[list[Any], int]:
    i = _ws(s, _expect(s, i, "["))
    out: list[Any] = []
    if s.startswith("]", i):
        return out, i + 1
    while True:
        value, i = item(s, _ws(s, i))
        out.append(value)
        i = _ws(s, i)
        if s.startswith("]", i):
            return out, i + 1
        i = _expect(s, i, ",")


def _message(s: str, i: int) -> tuple[_Located, int]:
    value, end = _DEC.raw_decode(s, i)
    return _Located(value, i, end), end


def _object(s: str, i: int, path: tuple[str, ...]) -> tuple[dict[str, Any], int]:
    """Decode an object, descending (with positions) only where chats and messages live."""
    i = _ws(s, _expect(s, i, "{"))
    out: dict[str, Any] = {}
    if s.startswith("}", i):
        return out, i + 1
    while True:
        key, i = json.decoder.scanstring(s, _expect(s, i, '"'))  # type: ignore[attr-defined]
        i = _ws(s, _expect(s, _ws(s, i), ":"))
        here = (*path, key)
        if key == "messages" and s.startswith("[", i):
            out[key], i = _array(s, i, _message)
        elif key in _CHAT_LISTS and len(path) == 0 and s.startswith("{", i):
            out[key], i = _object(s, i, here)
        elif key == "list" and len(path) == 1 and s.startswith("[", i):
            out[key], i = _array(s, i, partial(_object, path=here))
        else:
            out[key], i = _DEC.raw_decode(s, i)
        i = _ws(s, i)
        if s.startswith("}", i):
            return out, i + 1
        i = _ws(s, _expect(s, i, ","))


def _parse(name: str, text: str) -> dict[str, Any]:
    try:
        top, end = _object(text, _ws(text, 0), ())
    except json.JSONDecodeError as exc:
        raise InputError(name, f"malformed JSON at line {exc.lineno}: {exc.msg}") from None
    except RecursionError:
        raise InputError(name, "JSON nested too deeply") from None
    if text[end:].strip():
        raise InputError(name, "malformed JSON: data after the export object")
    return top


def _chats(name: str, top: dict[str, Any]) -> list[_Chat]:
    raw: list[Any] = []
    if "messages" in top:
        raw.append(top)
    for key in _CHAT_LISTS:
        block = top.get(key)
        if isinstance(block, dict) and isinstance(block.get("list"), list):
            raw.extend(block["list"])
    if not raw:
        raise InputError(name, "not a Telegram Desktop export (no 'messages' or 'chats' list)")
    chats = []
    for n, c in enumerate(raw, 1):
        if not isinstance(c, dict) or not isinstance(c.get("messages"), list):
            continue
        kind = str(c.get("type") or "")
        chat_id = str(c.get("id") or n)
        label = c.get("name") if isinstance(c.get("name"), str) and c.get("name") else None
        username = c.get("username") if isinstance(c.get("username"), str) else None
        if username and not _USERNAME.fullmatch(username.lstrip("@")):
            username = None  # only a real Telegram username makes a t.me link
        chats.append(
            _Chat(
                name=label or (kind.replace("_", " ") or "chat") + f" {chat_id}",
                type=kind,
                id=chat_id,
                username=(username or "").lstrip("@") or None,
                messages=c["messages"],
            )
        )
    return chats


# ------------------------------------------------------------------ text


def flatten(text: Any, entities: Any) -> tuple[str, list[dict[str, Any]]]:
    """Plain working text and its formatted spans (`text_entities`, else the `text` list).

    Offsets refer to the returned (normalised) text: `text[start:end] == entity["text"]`.
    """
    parts = entities if isinstance(entities, list) else text
    if isinstance(parts, str):
        parts = [parts]
    if not isinstance(parts, list):
        return "", []
    raw: list[str] = []
    spans: list[tuple[int, int, dict[str, Any]]] = []
    pos = 0
    for part in parts:
        if isinstance(part, str):
            piece, meta = part, None
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            piece = part["text"]
            meta = {k: v for k, v in part.items() if k != "text" and isinstance(v, str | int)}
        else:
            continue
        raw.append(piece)
        if meta and meta.get("type") not in (None, "plain") and piece:
            spans.append((pos, pos + len(piece), meta))
        pos += len(piece)
    working, points = normalize("".join(raw))
    out = []
    for start, end, meta in spans:
        ws, we = to_working(start, points), to_working(end, points)
        if we > ws:
            entity = {"type": str(meta["type"]), "start": ws, "end": we, "text": working[ws:we]}
            if meta["type"] == "link":
                entity["href"] = working[ws:we]
            for key in ("href", "user_id", "language", "document_id"):
                if key in meta:
                    entity[key] = meta[key]
            out.append(entity)
    return working, out


# ------------------------------------------------------------------ records


def _url(chat: _Chat, msg_id: str) -> str:
    if chat.username:
        return f"https://t.me/{chat.username}/{msg_id}"
    if chat.type in _CHANNEL_TYPES:
        return f"tg://privatepost?channel={chat.id}&post={msg_id}"
    return f"tg://openmessage?chat_id={chat.id}&message_id={msg_id}"


def _published(date: Any) -> str | None:
    if isinstance(date, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:T.*)?", date):
        return date[:10]
    return None


def _media(root: Path, msg: dict[str, Any]) -> tuple[MediaRef, ...]:
    found = []
    role = str(msg.get("media_type") or "")
    for field_name, kind in _MEDIA_FIELDS:
        value = msg.get(field_name)
        if not isinstance(value, str) or not value:
            continue
        declared = msg.get("mime_type") if field_name == "file" else None
        mtype = media_type_of(value, declared if isinstance(declared, str) else None)
        if kind == "photo" and mtype == "application/octet-stream":
            mtype = "image/jpeg"
        if value.startswith("(") and value.endswith(")"):
            found.append(MediaRef(kind, value, mtype, missing=value[1:-1], role=role))
            continue
        found.append(_resolve(root, value, kind, mtype, role))
    return tuple(found)


def _resolve(root: Path, name: str, kind: str, mtype: str, role: str) -> MediaRef:
    try:
        path = (root / name).resolve()
        inside = path.is_relative_to(root.resolve())
        exists = inside and path.is_file()
    except (OSError, ValueError):
        inside = exists = False
    if not inside:
        return MediaRef(
            kind, name, mtype, missing="path points outside the export folder", role=role
        )
    if not exists:
        return MediaRef(kind, name, mtype, missing="file not found in the export folder", role=role)
    return MediaRef(kind, name, mtype, path=path, role=role)


def _original_bytes(text: str, loc: _Located) -> bytes:
    return text[loc.start : loc.end].encode("utf-8")


def _originals(text: str, chats: list[_Chat]) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(chat name or peer id, message text) -> [(date, record sha256)] of non-forwards."""
    index: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for chat in chats:
        for loc in chat.messages:
            msg = loc.value
            if (
                not isinstance(msg, dict)
                or msg.get("forwarded_from")
                or msg.get("type") != "message"
            ):
                continue
            body, _ = flatten(msg.get("text"), msg.get("text_entities"))
            if not body.strip():
                continue
            sha = hashlib.sha256(_original_bytes(text, loc)).hexdigest()
            entry = (str(msg.get("date") or ""), sha)
            for key in (chat.name, chat.peer):
                index.setdefault((key, body), []).append(entry)
    return index


def _forward(
    msg: dict[str, Any], body: str, originals: dict[tuple[str, str], list[tuple[str, str]]]
) -> Forward | None:
    origin = msg.get("forwarded_from")
    origin_id = msg.get("forwarded_from_id")
    if not isinstance(origin, str) or not origin:
        if not isinstance(origin_id, str) or not origin_id:
            return None
        origin = origin_id
    oid = origin_id if isinstance(origin_id, str) and origin_id else None
    date = str(msg.get("date") or "")
    candidates = originals.get((oid, body), []) if oid else []
    candidates = candidates or originals.get((origin, body), [])
    earlier = sorted(c for c in candidates if not date or not c[0] or c[0] <= date)
    return Forward(origin, oid, earlier[0][1] if earlier else None)


def telegram_records(path: Path, data: bytes, container: str) -> Iterator[Item]:
    from corroborator.ingest.readers import decode_text

    name = f"{path.parent.name}/{path.name}" if path.parent.name else path.name
    text = decode_text(data, name)
    if text.lstrip()[:1] != "{":
        raise InputError(name, "not a Telegram Desktop export (result.json is not a JSON object)")
    try:
        top = _parse(name, text)
    except InputError:
        fixed = _BAD_ESCAPE.sub(r"\1\\u00\2", text)
        if fixed == text:
            raise
        text = fixed  # message slices are then re-encoded, and archived on their own
        top = _parse(name, text)
    chats = _chats(name, top)
    originals = _originals(text, chats)
    root = path.parent
    stored = 0
    for chat in chats:
        for n, loc in enumerate(chat.messages, 1):
            item = _record(chat, n, loc, text, root, container, originals)
            if item is not None:
                stored += isinstance(item, RawRecord)
                yield item
    if not stored:
        raise InputError(name, "the Telegram export holds no message with text or media")


def _record(
    chat: _Chat,
    n: int,
    loc: _Located,
    text: str,
    root: Path,
    container: str,
    originals: dict[tuple[str, str], list[tuple[str, str]]],
) -> Item | None:
    msg = loc.value
    if not isinstance(msg, dict):
        return Rejection(f"{chat.name}/#{n}", "message is not a JSON object")
    if msg.get("type", "message") != "message":
        return None  # service entries (joins, pins, calls) report nothing
    msg_id = msg.get("id")
    if not isinstance(msg_id, int | str) or isinstance(msg_id, bool) or str(msg_id) == "":
        return Rejection(f"{chat.name}/#{n}", "message has no id")
    if not str(msg_id).isdigit():
        return Rejection(f"{chat.name}/#{n}", f"message id {str(msg_id)[:40]!r} is not a number")
    source = f"{chat.name}/{msg_id}"
    body, entities = flatten(msg.get("text"), msg.get("text_entities"))
    if len(body) > MAX_TEXT_CHARS:
        return Rejection(source, f"message too large (> {MAX_TEXT_CHARS // 2**20} MB of text)")
    media = _media(root, msg)
    if not body.strip() and not media:
        return None  # an empty message (a deleted poll, a bare sticker reference)
    facts: dict[str, Any] = {
        "chat": {"name": chat.name, "type": chat.type, "id": chat.id},
        "message_id": msg_id,
        "entities": entities,
    }
    if chat.username:
        facts["chat"]["username"] = chat.username
    for key in _FACT_FIELDS:
        value = msg.get(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool) and value != "":
            facts[key] = value
    return RawRecord(
        source_file=source,
        original=_original_bytes(text, loc),
        text=body,
        container_path=container,
        url=_url(chat, str(msg_id)),
        outlet=chat.name,
        published=_published(msg.get("date")),
        record_id=f"{chat.id}/{msg_id}",
        media_type="application/json",
        reader="telegram",
        facts=facts,
        media=media,
        forward=_forward(msg, body, originals) if body.strip() else None,
    )
