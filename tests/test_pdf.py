"""PDF reports: text page by page, page numbers on spans, scanned pages reported."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from corroborator.errors import InputError
from corroborator.exports.records import incidents, quotes
from corroborator.ingest.archive import Archive
from corroborator.ingest.pdf import join_pages, page_of, pdf_records
from corroborator.models import RawRecord, Rejection
from corroborator.storage.db import open_store
from corroborator.web.app import create_app
from pdf_report import PAGES, build_pdf


@pytest.fixture
def report(cli, db: Path, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "kherson_report.pdf"
    path.write_bytes(build_pdf())
    result = cli("ingest", "--quiet", str(path))
    assert result.exit_code == 0, result.output
    store = open_store(str(db))
    (doc,) = store.documents()
    facts = store.document_facts([doc["document_id"]])[doc["document_id"]]
    return {"path": path, "store": store, "doc": doc, "facts": facts, "output": result.output}


def test_text_page_by_page(report: dict[str, Any], db: Path) -> None:
    doc, facts = report["doc"], report["facts"]
    assert facts["reader"] == "pdf" and facts["pages"] == 4
    assert facts["no_text_pages"] == [3]
    assert doc["title"] == "Kherson monitoring report"
    for number, page in enumerate(PAGES, 1):
        if page is None:
            continue
        title, paragraphs = page
        start = doc["text"].index(title)
        assert page_of({"facts": facts}, start) == number
        for p in paragraphs:  # lines the layout wrapped are whole sentences again
            offset = doc["text"].index(p)
            assert page_of(facts, offset + len(p) - 1) == number
    # the original PDF is archived byte for byte
    archived = Archive(db.with_suffix(".archive")).read(doc["archive_relpath"])
    assert archived == report["path"].read_bytes()


def test_scanned_page_is_reported(report: dict[str, Any]) -> None:
    assert (
        "warning: kherson_report.pdf: no text layer on page(s) 3 of 4 (scanned?)"
        in report["output"]
    )


def test_spans_carry_page_numbers(report: dict[str, Any]) -> None:
    store = report["store"]
    (quote,) = [q for q in quotes(store) if "phones" in q["text"]]
    assert quote["page"] == 4
    pages = {
        m["text"]: m["page"] for inc in incidents(store) for m in inc["mentions"] if "page" in m
    }
    market = {p for text, p in pages.items() if "market in Beryslav" in text}
    assert market == {2}
    assert any(p == 4 and "Hola Prystan" in text for text, p in pages.items())


def test_dossier_and_show_cite_pages(cli, report: dict[str, Any], db: Path) -> None:
    store = report["store"]
    (inc,) = [
        i for i in incidents(store) if any("Hola Prystan" in m["text"] for m in i["mentions"])
    ]
    shown = cli("show", inc["incident_id"]).output
    assert "kherson_report.pdf" in shown and ", page 4]" in shown
    page = TestClient(create_app(str(db), db.with_suffix(".archive"))).get(
        f"/incidents/{inc['incident_id']}"
    )
    assert page.status_code == 200 and "· page 4" in page.text
    doc_page = TestClient(create_app(str(db), db.with_suffix(".archive"))).get(
        f"/documents/{report['doc']['document_id']}"
    )
    assert "PDF, 4 page(s) · no text layer on page(s) 3" in doc_page.text
    csv_out = cli("export", "--what", "quotes", "--format", "csv").output
    assert csv_out.splitlines()[0].endswith(",page")


def test_reingest_adds_nothing(cli, report: dict[str, Any], db: Path) -> None:
    again = cli("ingest", "--quiet", str(report["path"]))
    assert "0 new document(s) stored, 1 already stored" in again.output
    assert open_store(str(db)).document_count() == 1


def _encrypted() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(build_pdf())))
    writer.encrypt("open sesame", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_bad_pdfs_are_rejected_in_one_line(cli, db: Path, tmp_path: Path) -> None:
    inputs = {
        "scan.pdf": build_pdf([None, None]),
        "locked.pdf": _encrypted(),
        "cut.pdf": build_pdf()[:300],
        "junk.pdf": b"%PDF-1.7\n" + b"\x00garbage" * 50,
    }
    for name, data in inputs.items():
        (tmp_path / name).write_bytes(data)
    result = cli("ingest", "--quiet", "--no-extract", *(str(tmp_path / n) for n in inputs))
    assert result.exit_code == 1
    lines = [ln for ln in result.output.splitlines() if ln.startswith("rejected:")]
    assert len(lines) == 4, result.output
    text = "\n".join(lines)
    assert "scan.pdf: no text layer on any of its 2 page(s) (scanned?); run OCR first" in text
    assert "locked.pdf: encrypted PDF (needs a password)" in text
    assert "cut.pdf: malformed PDF" in text or "cut.pdf: PDF has no pages" in text
    assert "junk.pdf: malformed PDF" in text
    assert open_store(str(db)).document_count() == 0


def test_join_pages_places_empty_pages() -> None:
    body, starts = join_pages(["one", "", "three", ""])
    assert body == "one\n\nthree"
    assert starts == [0, 5, 5, 10]
    assert [page_of({"page_starts": starts}, o) for o in (0, 4, 5, 9)] == [1, 1, 3, 3]
    assert page_of({"facts": {}}, 3) is None  # not a PDF


_SAMPLE = build_pdf(PAGES[:2])


@settings(max_examples=300, deadline=None)
@given(
    cut=st.integers(min_value=0, max_value=len(_SAMPLE)),
    flips=st.lists(st.integers(min_value=0, max_value=len(_SAMPLE) - 1), max_size=8),
    noise=st.binary(max_size=200),
)
def test_reader_raises_only_input_errors(cut: int, flips: list[int], noise: bytes) -> None:
    damaged = bytearray(_SAMPLE)
    for i in flips:
        damaged[i] ^= 0x5A
    for data in (_SAMPLE[:cut], bytes(damaged), b"%PDF-1.4\n" + noise):
        try:
            for item in pdf_records("fuzz.pdf", data, "fuzz.pdf"):
                assert isinstance(item, RawRecord | Rejection)
                json.dumps(item.facts)
        except InputError:
            pass
