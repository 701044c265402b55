"""Telegram Desktop exports, end to end from the CLI: messages, entities, forwards, media."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corroborator.errors import InputError
from corroborator.ingest import media as media_files
from corroborator.ingest.archive import Archive
from corroborator.ingest.telegram import flatten, telegram_records
from corroborator.linking.corroboration import source_keys
from corroborator.linking.incidents import IncidentItem
from corroborator.models import DocIncident, RawRecord, Rejection, Span
from corroborator.storage.db import open_store
from corroborator.web.app import create_app
from telegram_export import BUS, write_export


def _rows(db: Path, sql: str) -> list[dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute(sql)]
    finally:
        conn.close()


def _counts(db: Path) -> dict[str, int]:
    tables = ("documents", "ledger", "archive_files", "document_media", "media_keys")
    return {t: _rows(db, f"SELECT COUNT(*) AS n FROM {t}")[0]["n"] for t in tables}


@pytest.fixture
def export(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    root = tmp_path / "ChatExport_2024-04-05"
    root.mkdir()
    return root, write_export(root)


@pytest.fixture
def ingested(cli, db: Path, export: tuple[Path, dict[str, bytes]]) -> dict[str, Any]:
    root, media = export
    result = cli("ingest", "--quiet", str(root))
    assert result.exit_code == 0, result.output
    store = open_store(str(db))
    docs = {d["source_file"]: d for d in store.documents()}
    return {"root": root, "media": media, "docs": docs, "store": store, "output": result.output}


def test_messages_become_documents(ingested: dict[str, Any], db: Path) -> None:
    docs = ingested["docs"]
    assert set(docs) == {
        "Kharkiv Watch/41",
        "Kharkiv Watch/42",
        "Kharkiv Watch/43",
        "Kharkiv Watch/44",
        "Frontline Dispatch/7",
        "Frontline Dispatch/8",
        "Frontline Dispatch/9",
    }  # the service message and the photo-only message are not documents
    d = docs["Kharkiv Watch/41"]
    assert d["outlet"] == "Kharkiv Watch"
    assert d["published"] == "2024-03-14"
    assert d["url"] == "tg://privatepost?channel=1001&post=41"  # no username in the export
    assert docs["Kharkiv Watch/43"]["text"] == BUS
    assert docs["Kharkiv Watch/43"]["published"] == "2024-04-02"
    # the message's original is its own byte slice of result.json
    archive = Archive(db.with_suffix(".archive"))
    raw = archive.read(d["archive_relpath"], d["archive_start"], d["archive_end"])
    assert hashlib.sha256(raw).hexdigest() == d["sha256"]
    assert json.loads(raw)["id"] == 41
    assert raw in (ingested["root"] / "result.json").read_bytes()


def test_entities_keep_offsets_and_edits_are_recorded(ingested: dict[str, Any]) -> None:
    d = ingested["docs"]["Kharkiv Watch/41"]
    facts = ingested["store"].document_facts([d["document_id"]])[d["document_id"]]
    assert facts["reader"] == "telegram"
    assert facts["edited"] == "2024-03-14T09:30:00"
    assert facts["edited_unixtime"] == "1710408600"
    assert facts["author"] == "O. Melnyk"
    by_type = {e["type"]: e for e in facts["entities"]}
    assert set(by_type) == {"bold", "link", "text_link", "hashtag"}
    for e in facts["entities"]:
        assert d["text"][e["start"] : e["end"]] == e["text"]
    assert by_type["bold"]["text"] == "shelled a residential block"
    assert by_type["hashtag"]["text"] == "#Kupiansk"
    assert by_type["link"]["href"] == "https://example.org/kupiansk-report"
    assert by_type["text_link"] == {
        "type": "text_link",
        "start": d["text"].index("full statement"),
        "end": d["text"].index("full statement") + len("full statement"),
        "text": "full statement",
        "href": "https://example.org/statement",
    }


def test_media_archived_byte_for_byte(ingested: dict[str, Any], db: Path) -> None:
    store, docs, media = ingested["store"], ingested["docs"], ingested["media"]
    archive = Archive(db.with_suffix(".archive"))
    ledgered = {r["sha256"] for r in _rows(db, "SELECT sha256 FROM ledger WHERE kind = 'archive'")}
    files = store.document_media([d["document_id"] for d in docs.values()])
    seen = {}
    for doc_files in files.values():
        for f in doc_files:
            if f["sha256"]:
                seen[f["name"]] = f
                data = media[f["name"]]
                assert f["sha256"] == hashlib.sha256(data).hexdigest()
                assert f["size_bytes"] == len(data)
                assert archive.read(f["relpath"]) == data
                assert f["sha256"] in ledgered
    assert set(seen) == {
        "photos/photo_1@14-03-2024_09-10-00.jpg",
        "photos/photo_2@14-03-2024_11-40-00.jpg",
        "video_files/clip.mp4",
        "video_files/clip.mp4_thumb.jpg",
    }
    video = seen["video_files/clip.mp4"]
    assert (video["kind"], video["role"], video["media_type"]) == (
        "file",
        "video_file",
        "video/mp4",
    )
    assert video["phash"] is None and video["media_origin"].startswith("file:")
    # a photo-only message is not a document, but its photo is archived and ledgered
    lone = hashlib.sha256(media["photos/photo_3@16-03-2024_08-00-00.png"]).hexdigest()
    assert lone in ledgered
    assert "Frontline Dispatch/10: no text; 1 media file(s) archived" in ingested["output"]
    # a file the export left out is recorded with Telegram's reason, and reported
    (missing,) = files[docs["Kharkiv Watch/44"]["document_id"]]
    assert missing["sha256"] is None
    assert missing["missing"].startswith("File not included")
    assert "warning: Kharkiv Watch/44: photo not archived: File not included" in ingested["output"]


def test_reencoded_photo_is_one_origin(ingested: dict[str, Any]) -> None:
    store, docs = ingested["store"], ingested["docs"]
    first = store.document_media([docs["Kharkiv Watch/41"]["document_id"]])
    second = store.document_media([docs["Frontline Dispatch/8"]["document_id"]])
    (a,) = next(iter(first.values()))
    (b,) = next(iter(second.values()))
    assert a["sha256"] != b["sha256"]  # other size, other JPEG quality
    assert media_files.distance(a["phash"], b["phash"]) <= media_files.MAX_DISTANCE
    assert a["media_origin"] == b["media_origin"]
    thumb = [
        f
        for fs in store.document_media([docs["Kharkiv Watch/42"]["document_id"]]).values()
        for f in fs
        if f["kind"] == "thumbnail"
    ]
    assert thumb[0]["phash"] and thumb[0]["media_origin"] is None  # thumbnails are not evidence


def test_forward_is_linked_to_its_original_and_counts_once(ingested: dict[str, Any]) -> None:
    store, docs = ingested["store"], ingested["docs"]
    original = docs["Kharkiv Watch/41"]
    forward = docs["Frontline Dispatch/7"]
    # the forward was read first (its channel comes first in the export), yet it is the copy
    assert forward["ledger_seq"] < original["ledger_seq"]
    assert forward["duplicate_of"] == original["document_id"]
    assert original["duplicate_of"] is None
    origin = store.document_origins([forward["document_id"]])[forward["document_id"]]
    assert (origin["origin"], origin["origin_id"]) == ("Kharkiv Watch", "channel1001")
    assert origin["original_id"] == original["document_id"]
    bus = [
        i
        for i in json.loads(json.dumps(_incidents(store)))
        if any(m["source_file"] == "Kharkiv Watch/43" for m in i["mentions"])
    ]
    assert len(bus) == 1
    files = {m["source_file"] for m in bus[0]["mentions"]}
    assert files == {"Kharkiv Watch/43", "Frontline Dispatch/9"}
    assert bus[0]["corroboration"]["documents"] == 1
    assert bus[0]["corroboration"]["independent_sources"] == 1


def test_shelling_reported_twice_with_one_photo_is_one_source(ingested: dict[str, Any]) -> None:
    (shelling,) = [
        i
        for i in _incidents(ingested["store"])
        if any(m["source_file"] == "Frontline Dispatch/8" for m in i["mentions"])
    ]
    files = {m["source_file"] for m in shelling["mentions"]}
    assert {"Kharkiv Watch/41", "Frontline Dispatch/7", "Frontline Dispatch/8"} <= files
    assert shelling["corroboration"]["documents"] == 2  # the forward folds into its original
    assert shelling["corroboration"]["independent_sources"] == 1  # one photograph
    assert shelling["status"] == "alleged"


def _incidents(store: Any) -> list[dict[str, Any]]:
    from corroborator.exports.records import incidents

    return incidents(store)


def test_reingest_adds_nothing(cli, ingested: dict[str, Any], db: Path) -> None:
    before = _counts(db)
    again = cli("ingest", "--quiet", str(ingested["root"]))
    assert again.exit_code == 0
    assert "0 new document(s) stored, 7 already stored, 0 rejected" in again.output
    again = cli("ingest", "--quiet", str(ingested["root"] / "result.json"))
    assert _counts(db) == before


def test_dossier_and_show_list_media(cli, ingested: dict[str, Any], db: Path) -> None:
    (shelling,) = [
        i
        for i in _incidents(ingested["store"])
        if any(m["source_file"] == "Frontline Dispatch/8" for m in i["mentions"])
    ]
    photo = ingested["media"]["photos/photo_1@14-03-2024_09-10-00.jpg"]
    sha = hashlib.sha256(photo).hexdigest()
    shown = cli("show", shelling["incident_id"]).output
    assert f"media: photo image/jpeg sha256 {sha} {len(photo)} bytes  phash " in shown
    assert "forwarded from Kharkiv Watch" in shown
    page = TestClient(create_app(str(db), db.with_suffix(".archive"))).get(
        f"/incidents/{shelling['incident_id']}"
    )
    assert page.status_code == 200
    assert sha in page.text and "perceptual hash" in page.text and "image/jpeg" in page.text
    forward = ingested["docs"]["Frontline Dispatch/7"]["document_id"]
    doc_page = TestClient(create_app(str(db), db.with_suffix(".archive"))).get(
        f"/documents/{forward}"
    )
    assert (
        "Forwarded from Kharkiv Watch" in doc_page.text and "the original message" in doc_page.text
    )
    edited = ingested["docs"]["Kharkiv Watch/41"]["document_id"]
    doc_page = TestClient(create_app(str(db), db.with_suffix(".archive"))).get(
        f"/documents/{edited}"
    )
    assert "Edited 2024-03-14T09:30:00" in doc_page.text and sha in doc_page.text


def test_single_chat_export_with_username_links_to_t_me(cli, db: Path, tmp_path: Path) -> None:
    root = tmp_path / "full"
    root.mkdir()
    write_export(root, username="kharkivwatch")
    full = json.loads((root / "result.json").read_text(encoding="utf-8"))
    single = tmp_path / "single"
    single.mkdir()
    (single / "result.json").write_text(
        json.dumps(full["chats"]["list"][1], ensure_ascii=False, indent=1), encoding="utf-8"
    )
    result = cli("ingest", "--quiet", "--no-extract", str(single / "result.json"))
    assert result.exit_code == 0, result.output
    docs = {d["source_file"]: d for d in open_store(str(db)).documents(with_text=False)}
    assert docs["Kharkiv Watch/41"]["url"] == "https://t.me/kharkivwatch/41"
    # the media are not beside this copy: recorded as missing, the messages still stored
    assert (
        "Kharkiv Watch/41: photo photos/photo_1@14-03-2024_09-10-00.jpg not archived: file not found"
        in result.output
    )


def test_bad_exports_are_named(cli, db: Path, tmp_path: Path) -> None:
    cases = {
        "notexport": b'{"about": "nothing here"}',
        "broken": b'{"name": "X", "messages": [ {"id": 1,',
        "array": b"[1, 2, 3]",
    }
    for name, data in cases.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "result.json").write_bytes(data)
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    messages = [
        {
            "id": 1,
            "type": "message",
            "date": "2024-05-01T10:00:00",
            "text": "Shelling reported overnight.",
            "photo": "../../../etc/passwd",
        },
        {"type": "message", "text": "no id"},
        "not an object",
        {
            "id": 3,
            "type": "message",
            "date": "2024-05-01T11:00:00",
            "text": "Tab\x0bcontrol char kept out.",
        },
    ]
    body = json.dumps(
        {"name": "Hostile", "type": "private_group", "id": 9, "messages": messages}, indent=1
    )
    (hostile / "result.json").write_text(body.replace("\\u000b", "\\x0B"), encoding="utf-8")
    result = cli("ingest", "--quiet", "--no-extract", str(tmp_path))
    assert result.exit_code == 1
    out = result.output
    assert "rejected: notexport/result.json: not a Telegram Desktop export" in out
    assert "rejected: broken/result.json: malformed JSON" in out
    assert "rejected: array/result.json: not a Telegram Desktop export" in out
    assert "rejected: Hostile/#2: message has no id" in out
    assert "rejected: Hostile/#3: message is not a JSON object" in out
    assert (
        "Hostile/1: photo ../../../etc/passwd not archived: path points outside the export folder"
        in out
    )
    docs = {d["source_file"]: d for d in open_store(str(db)).documents()}
    assert set(docs) == {"Hostile/1", "Hostile/3"}
    assert docs["Hostile/3"]["text"] == "Tab control char kept out."  # \x0B read, made a space
    assert docs["Hostile/1"]["url"] == "tg://openmessage?chat_id=9&message_id=1"


def test_source_keys_merge_reports_sharing_a_picture() -> None:
    text = "Artillery hit a school in Izium on 3 May 2024, killing two civilians."
    inc = DocIncident(type="attack_populated_area", mentions=[Span(0, len(text), text)])

    def item(doc: str, outlet: str, media: tuple[str, ...] = (), **kw: Any) -> IncidentItem:
        return IncidentItem(doc, 0, inc, outlet=outlet, media=media, **kw)

    assert len(source_keys([item("a", "A"), item("b", "B")])) == 2
    assert source_keys([item("a", "A", ("image:1",)), item("b", "B", ("image:1",))]) == ["outlet:a"]
    assert len(source_keys([item("a", "A", ("image:1",)), item("b", "B", ("image:2",))])) == 2
    # a forward counts under the channel it repeats, even without its original
    assert source_keys([item("a", "A"), item("f", "F", source_outlet="A")]) == ["outlet:a"]
    # one report's three photos are still one source
    assert len(source_keys([item("a", "A", ("image:1", "image:2", "image:3"))])) == 1
    # a cited origin and a report repeating its picture: the cited origin alone
    cited = item("a", "A", ("image:1",), origins=("Reuters",))
    assert source_keys([cited, item("b", "B", ("image:1",))]) == ["Reuters"]


def test_flatten_maps_offsets_through_normalisation() -> None:
    text, entities = flatten(
        [
            "Caf",
            {"type": "plain", "text": "e\u0301\u00a0in "},
            {"type": "bold", "text": "Kherson\u200b"},
            ".",
        ],
        None,
    )
    assert text == "Café in Kherson."
    (bold,) = entities
    assert text[bold["start"] : bold["end"]] == bold["text"] == "Kherson"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "type",
                    "text",
                    "text_entities",
                    "photo",
                    "file",
                    "thumbnail",
                    "messages",
                    "chats",
                    "list",
                    "name",
                    "date",
                    "forwarded_from",
                    "forwarded_from_id",
                    "media_type",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=25,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=_json, cut=st.integers(min_value=0, max_value=400), raw=st.binary(max_size=64))
def test_reader_raises_only_input_errors(tmp_path: Path, value: Any, cut: int, raw: bytes) -> None:
    shaped = {
        "name": "Fuzz",
        "type": "public_channel",
        "id": 1,
        "messages": [value, {"id": 2, "type": "message", "text": value}],
    }
    for data in (
        json.dumps(shaped).encode(),
        json.dumps({"chats": {"list": [shaped, value]}}).encode(),
        json.dumps(shaped).encode()[:cut],
        raw,
        b"{" + raw,
    ):
        try:
            for item in telegram_records(tmp_path / "result.json", data, "result.json"):
                assert isinstance(item, RawRecord | Rejection)
        except InputError:
            pass


def test_channels_exported_apart_link_incrementally(cli, db: Path, tmp_path: Path) -> None:
    """Each channel exported on its own, ingested one after the other: the forward has no
    original in its export, yet copy detection and the shared photograph still make the
    shelling one source, through incremental linking."""
    import shutil

    full = tmp_path / "full"
    full.mkdir()
    write_export(full)
    chats = json.loads((full / "result.json").read_text(encoding="utf-8"))["chats"]["list"]
    for n, chat in enumerate(chats):
        folder = tmp_path / f"export{n}"
        folder.mkdir()
        for sub in ("photos", "video_files"):
            shutil.copytree(full / sub, folder / sub)
        (folder / "result.json").write_text(
            json.dumps(chat, ensure_ascii=False, indent=1), encoding="utf-8"
        )
    first = cli("ingest", "--quiet", str(tmp_path / "export1"))  # Kharkiv Watch
    assert first.exit_code == 0, first.output
    second = cli("ingest", "--quiet", str(tmp_path / "export0"))  # Frontline Dispatch
    assert second.exit_code == 0, second.output
    assert "linked (incremental)" in second.output
    store = open_store(str(db))
    docs = {d["source_file"]: d for d in store.documents(with_text=False)}
    assert docs["Frontline Dispatch/7"]["duplicate_of"] == docs["Kharkiv Watch/41"]["document_id"]
    origin = store.document_origins([docs["Frontline Dispatch/7"]["document_id"]])
    assert next(iter(origin.values()))["original_id"] is None  # not in its own export
    (shelling,) = [
        i
        for i in _incidents(store)
        if any(m["source_file"] == "Frontline Dispatch/8" for m in i["mentions"])
    ]
    assert shelling["corroboration"]["independent_sources"] == 1


def test_hostile_names_are_escaped(cli, db: Path, tmp_path: Path) -> None:
    root = tmp_path / "evil"
    root.mkdir()
    msg = {
        "id": 1,
        "type": "message",
        "date": "2024-05-01T10:00:00",
        "forwarded_from": "<img src=x onerror=alert(2)>",
        "file": "<b>clip</b>.mp4",
        "media_type": "<i>video_file</i>",
        "text": [{"type": "bold", "text": "<script>alert(1)</script> shelling reported"}],
    }
    chat = {
        "name": "<script>alert(3)</script>",
        "type": "public_channel",
        "id": 5,
        "messages": [msg],
    }
    (root / "result.json").write_text(json.dumps(chat), encoding="utf-8")
    assert cli("ingest", "--quiet", "--no-extract", str(root)).exit_code == 0
    (doc,) = open_store(str(db)).documents(with_text=False)
    page = TestClient(create_app(str(db), db.with_suffix(".archive"))).get(
        f"/documents/{doc['document_id']}"
    )
    assert page.status_code == 200
    for raw in ("<script>alert", "<img src=x", "<b>clip", "<i>video"):
        assert raw not in page.text
    assert "&lt;img src=x onerror=alert(2)&gt;" in page.text
