"""Ingest of every input format, idempotency, and the one-line errors for bad input."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from conftest import EXAMPLE_DOCS
from corroborator.exports.records import documents
from corroborator.ingest.furniture import furniture_ranges
from corroborator.storage.db import archive_root_for, open_store

CONTRACT_DOCUMENT_FIELDS = {
    "document_id",
    "sha256",
    "source_file",
    "url",
    "title",
    "outlet",
    "published",
    "language",
    "ingested_at",
    "duplicate_of",
    "story_id",
    "ledger_seq",
    "archive_path",
    "text",
}


def test_ingest_examples_is_idempotent(cli, db: Path) -> None:
    first = cli("ingest", "--quiet", "--no-extract", str(EXAMPLE_DOCS))
    assert first.exit_code == 0, first.output
    assert "11 new document(s) stored" in first.output
    again = cli("ingest", "--quiet", "--no-extract", str(EXAMPLE_DOCS))
    assert again.exit_code == 0
    assert "0 new document(s) stored, 11 already stored" in again.output
    assert "already stored: market_wire.txt" in again.output
    assert "already stored: digest-market-copy" in again.output
    store = open_store(str(db))
    assert store.document_count() == 11
    # one entry per archived file (8 inputs, 2 WARC records) and one per document
    assert len(store.ledger()) == 21


def test_export_documents_has_every_contract_field(cli, db: Path) -> None:
    cli("ingest", "--quiet", "--no-extract", str(EXAMPLE_DOCS))
    out = cli("export", "--what", "documents", "--format", "jsonl")
    recs = [json.loads(line) for line in out.output.splitlines()]
    assert len(recs) == 11
    for rec in recs:
        assert set(rec) == CONTRACT_DOCUMENT_FIELDS
        assert Path(rec["archive_path"]).is_file()
    plain = [r for r in recs if r["source_file"].endswith(".txt")]
    assert len(plain) == 4
    for rec in plain:
        original = (EXAMPLE_DOCS / rec["source_file"]).read_bytes()
        assert Path(rec["archive_path"]).read_bytes() == original
        raw = original.decode("utf-8")  # the examples are already NFC; only furniture leaves
        kept, pos = [], 0
        for start, end in furniture_ranges(raw):
            kept.append(raw[pos:start])
            pos = end
        assert rec["text"] == "".join(kept) + raw[pos:]
    copy = next(r for r in recs if r["source_file"] == "digest-market-copy")
    assert Path(copy["archive_path"]).read_bytes() == (EXAMPLE_DOCS / "outlets.jsonl").read_bytes()
    assert len({r["ledger_seq"] for r in recs}) == 11


def test_jsonl_records_hash_their_line(cli, db: Path, tmp_path: Path) -> None:
    lines = [
        {
            "id": "a1",
            "text": "Shelling hit the town of Izium on 3 May.",
            "outlet": "Wire",
            "published": "2022-05-04",
            "url": "https://example.org/a1",
            "title": "Izium shelled",
        },
        {"text": "Second record without id.", "language": "en"},
    ]
    raw = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
    path = tmp_path / "batch.jsonl"
    path.write_text(raw, encoding="utf-8")
    assert cli("ingest", "--quiet", "--no-extract", str(path)).exit_code == 0
    store = open_store(str(db))
    recs = {r["source_file"]: r for r in documents(store, archive_root_for(str(db)))}
    assert set(recs) == {"a1", "batch.jsonl:2"}
    import hashlib

    first_line = raw.split("\n")[0].encode("utf-8")
    assert recs["a1"]["sha256"] == hashlib.sha256(first_line).hexdigest()
    assert recs["a1"]["published"] == "2022-05-04"
    assert recs["a1"]["outlet"] == "Wire"
    assert recs["batch.jsonl:2"]["language"] == "en"


HTML_PAGE = """<!doctype html><html><head><title>Shelling of Kharkiv | Example News</title>
<meta property="og:site_name" content="Example News">
<meta property="article:published_time" content="2022-03-02T10:00:00Z">
</head><body><nav>Home | World | Sport</nav><article><h1>Shelling of Kharkiv</h1>
<p>Rockets struck a residential district of Kharkiv on Tuesday, killing at least nine
people, regional officials said. Residents described hours of shelling.</p>
<p>The regional governor said the strikes hit apartment blocks and a school, and that
rescue teams were still searching the rubble on Wednesday morning.</p></article>
<footer>Copyright Example News. All rights reserved.</footer></body></html>"""


def test_html_main_text_and_metadata(cli, db: Path, tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(HTML_PAGE, encoding="utf-8")
    assert cli("ingest", "--quiet", "--no-extract", str(path)).exit_code == 0
    store = open_store(str(db))
    (rec,) = documents(store, archive_root_for(str(db)))
    assert "Rockets struck a residential district of Kharkiv" in rec["text"]
    assert "All rights reserved" not in rec["text"]
    assert rec["published"] == "2022-03-02"
    assert rec["outlet"] == "Example News"
    assert "Shelling of Kharkiv" in rec["title"]


def _warc(records: list[tuple[str, str]]) -> bytes:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True)
    for uri, html in records:
        headers = StatusAndHeaders(
            "200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1"
        )
        rec = writer.create_warc_record(
            uri,
            "response",
            payload=io.BytesIO(html.encode()),
            http_headers=headers,
            warc_headers_dict={"WARC-Date": "2022-03-05T12:00:00Z"},
        )
        writer.write_record(rec)
    return buf.getvalue()


def test_warc_html_responses(cli, db: Path, tmp_path: Path) -> None:
    page2 = HTML_PAGE.replace("Kharkiv", "Chernihiv")
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(
        _warc([("https://example.org/k", HTML_PAGE), ("https://example.org/c", page2)])
    )
    assert cli("ingest", "--quiet", "--no-extract", str(path)).exit_code == 0
    store = open_store(str(db))
    recs = sorted(documents(store, archive_root_for(str(db))), key=lambda r: r["url"])
    assert [r["url"] for r in recs] == ["https://example.org/c", "https://example.org/k"]
    assert "Chernihiv" in recs[0]["text"]
    # the WARC file itself is archived too, beside each response payload
    assert any(
        f["relpath"].endswith(".warc.gz") for f in store.rows("SELECT relpath FROM archive_files")
    )


def test_truncated_warc_keeps_good_records(cli, db: Path, tmp_path: Path) -> None:
    data = _warc([("https://example.org/k", HTML_PAGE), ("https://example.org/c", HTML_PAGE + " ")])
    one = _warc([("https://example.org/k", HTML_PAGE)])
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(data[: len(one) + 40])  # second record cut mid-stream
    result = cli("ingest", "--quiet", "--no-extract", str(path))
    assert result.exit_code == 1
    assert "cut.warc.gz" in result.output and "truncated" in result.output
    assert open_store(str(db)).document_count() == 1


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    files = {
        "empty": ("empty.txt", b"", "empty file"),
        "binary": ("blob.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        "latin1": ("latin1.txt", "Kharkiv café résumé".encode("latin-1"), "not valid UTF-8"),
        "nobody": (
            "nobody.html",
            b"<html><head><title>x</title></head><body></body></html>",
            "no main text",
        ),
        "badjson": (
            "bad.jsonl",
            b'{"text": "fine record here"}\n{"text": broken\n',
            "malformed JSON",
        ),
        "badwarc": ("bad.warc", b"WARC/1.0\r\nthis is not a warc\r\n", "WARC"),
        "unknown": ("data.docx", b"PK\x03\x04", "unsupported file type"),
        "badpdf": ("data.pdf", b"%PDF-1.4", "malformed PDF"),
    }
    out = {}
    for key, (name, data, reason) in files.items():
        p = tmp_path / "in" / name
        p.parent.mkdir(exist_ok=True)
        p.write_bytes(data)
        out[key] = (p, reason)
    return out


def test_bad_inputs_are_named_and_the_rest_stored(cli, db: Path, tmp_path: Path) -> None:
    bad = _bad_inputs(tmp_path)
    good = tmp_path / "in" / "good.txt"
    good.write_text("Officials said three civilians were killed in shelling.", encoding="utf-8")
    result = cli(
        "ingest", "--quiet", "--no-extract", str(tmp_path / "in"), str(tmp_path / "missing.txt")
    )
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.startswith("rejected:")]
    for _key, (path, reason) in bad.items():
        hits = [ln for ln in lines if path.name in ln]
        assert hits, f"{path.name} not named"
        assert any(reason in ln for ln in hits), hits
    assert any("missing.txt" in ln and "no such file" in ln for ln in lines)
    store = open_store(str(db))
    names = {d["source_file"] for d in store.documents(with_text=False)}
    assert names == {"good.txt", "bad.jsonl:1"}
    assert len(store.rejections()) == len(lines)  # nothing dropped silently


def test_huge_text_is_refused_with_reason(cli, db: Path, tmp_path: Path) -> None:
    big = tmp_path / "huge.txt"
    with big.open("wb") as fh:
        line = b"Residents said the shelling continued through the night near the river.\n"
        fh.write(line * (50 * 2**20 // len(line) + 1))
    ok = tmp_path / "ok.txt"
    ok.write_text("A short report of shelling.", encoding="utf-8")
    result = cli("ingest", "--quiet", "--no-extract", str(big), str(ok))
    assert result.exit_code == 1
    assert "huge.txt" in result.output and "too large" in result.output
    assert open_store(str(db)).document_count() == 1


@pytest.mark.skipif(__import__("os").geteuid() == 0, reason="root can read any file")
def test_unreadable_file(cli, db: Path, tmp_path: Path) -> None:
    p = tmp_path / "secret.txt"
    p.write_text("text")
    p.chmod(0)
    result = cli("ingest", "--quiet", "--no-extract", str(p))
    assert result.exit_code == 1 and "cannot read" in result.output


def test_unreadable_path_is_named(cli, db: Path, tmp_path: Path) -> None:
    # a directory entry that is a broken symlink cannot be read even by root
    link = tmp_path / "dangling.txt"
    link.symlink_to(tmp_path / "nowhere.txt")
    result = cli("ingest", "--quiet", "--no-extract", str(link))
    assert result.exit_code == 1
    assert "dangling.txt" in result.output


def test_gzip_is_not_mistaken_for_text(cli, db: Path, tmp_path: Path) -> None:
    p = tmp_path / "report.txt"
    p.write_bytes(gzip.compress(b"hello world " * 100))
    result = cli("ingest", "--quiet", "--no-extract", str(p))
    assert result.exit_code == 1 and "report.txt" in result.output
