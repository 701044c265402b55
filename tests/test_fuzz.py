"""Hostile input files: every reader refuses with one line, never raises, never loses data.

The last test runs `benchmarks/fuzz.py` at a CI size; the others pin what it found.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from corroborator.errors import InputError
from corroborator.ingest.archive import Archive
from corroborator.ingest.readers import read_path
from corroborator.ingest.runner import ingest_paths
from corroborator.models import RawRecord, Rejection
from corroborator.storage.db import archive_root_for, open_store
from corroborator.verify import verify
from test_crash import _bench

GOOD = {"id": "good-1", "text": "Shelling destroyed two homes in Borova on Monday, officials said."}


def _one_line(source: str, reason: str) -> bool:
    return len(f"rejected: {source}: {reason}".splitlines()) == 1


def _read(path: Path) -> list[RawRecord | Rejection]:
    return list(read_path(path))


@pytest.mark.parametrize(
    "body",
    [
        "[" * 50_000 + "]" * 50_000,  # RecursionError in json.loads
        '[{"id": ' + "9" * 5000 + ', "text": "x"}]',  # int-digits ValueError
    ],
)
def test_json_nesting_and_number_limits_are_malformed_json(tmp_path: Path, body: str) -> None:
    path = tmp_path / "dump.json"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError) as err:
        _read(path)
    assert err.value.source == "dump.json" and "malformed JSON" in err.value.reason
    assert _one_line(err.value.source, err.value.reason)


def test_jsonl_bad_lines_are_rejected_alone(tmp_path: Path) -> None:
    lines = [
        json.dumps(GOOD),
        '{"text": ' * 5000 + '"x"' + "}" * 5000,
        '{"id": ' + "9" * 5000 + "}",
        '{"id": "s1", "text": "lone \\ud800 surrogate"}',
        '{"id": "a\\nb\\u2028c", "text": "t", "published": "last\\nweek"}',
    ]
    path = tmp_path / "feed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    items = _read(path)
    assert [type(i).__name__ for i in items] == ["RawRecord"] + ["Rejection"] * 4
    reasons = [i.reason for i in items if isinstance(i, Rejection)]
    assert "nested too deeply" in reasons[0] and "4300 digits" in reasons[1]
    assert "surrogate" in reasons[2] and "'published'" in reasons[3]
    assert all(_one_line(i.source_file, i.reason) for i in items if isinstance(i, Rejection))
    assert items[4].source_file == "a\\nb\\u2028c"  # escaped, still recognisable


def test_surrogate_record_is_refused_and_the_store_stays_intact(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    store, archive = open_store(db), Archive(archive_root_for(db))
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    assert len(ingest_paths(store, archive, [str(good)]).stored) == 1
    bad = tmp_path / "bad.json"  # a list item, then a pretty-printed object
    bad.write_text('[{"text": "a \\udfff b"}, {"text": "fine words here"}]', encoding="utf-8")
    pretty = tmp_path / "pretty.json"
    pretty.write_text('{\n "title": "\\ud83d",\n "text": "x"\n}\n', encoding="utf-8")
    report = ingest_paths(store, archive, [str(bad), str(pretty)])
    assert len(report.stored) == 1
    assert [r.source_file for r in report.rejected] == ["bad.json:1", "pretty.json:1"]
    assert store.document_count() == 2 and verify(store, archive).ok


def test_warc_record_without_target_uri_is_a_malformed_warc(tmp_path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=False)
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    rec = writer.create_warc_record(
        "https://example.org/a",
        "response",
        payload=io.BytesIO(b"<html><body><p>Shelling hit the town.</p></body></html>"),
        http_headers=headers,
    )
    writer.write_record(rec)
    path = tmp_path / "crawl.warc"
    path.write_bytes(buf.getvalue().replace(b"WARC-Target-URI", b"SARC-Target-URI"))
    with pytest.raises(InputError) as err:  # warcio itself raises AttributeError here
        _read(path)
    assert err.value.source == "crawl.warc" and "malformed" in err.value.reason


def test_every_reader_survives_fuzzed_files_and_keeps_stored_data() -> None:
    fuzz = _bench("fuzz")
    tallies, same, problems = fuzz.fuzz(examples=300, base=150, every=30, rnd=11)
    assert {t.reader for t in tallies} == {r.name for r in fuzz.READERS}
    for t in tallies:
        assert t.inputs == 300 and t.accepted + t.rejected == t.inputs, t.reader
        assert t.unhandled == t.multiline == t.ingest_unhandled == 0, (t.reader, t.examples)
        assert t.ingested == 10
    assert same and problems == []
