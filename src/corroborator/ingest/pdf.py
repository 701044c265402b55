"""PDF reports: the text layer page by page (pypdf), with a page map for every offset.

The working text joins the pages with a blank line; `facts["page_starts"]` holds where
each page begins, so any extracted span's page is one bisection away (`page_of`). Lines a
layout wrapped are joined back into sentences (a line that fills the page's width runs
on), because sentence splitting, quotes and copy detection need whole sentences. Pages
without a text layer (scans) are named in a warning, never silently empty.
"""

from __future__ import annotations

import bisect
import datetime as dt
import io
import logging
import re
from collections.abc import Iterator, Mapping
from typing import Any

from corroborator.errors import InputError
from corroborator.ingest.normalize import normalize
from corroborator.models import RawRecord, Rejection

Item = RawRecord | Rejection

PAGE_BREAK = "\n\n"
MAX_TEXT_CHARS = 20 * 1024 * 1024
_FULL_LINE = 0.8  # of the page's typical long line: wrapped, not the end of a paragraph
_PDF_DATE = re.compile(r"^D:(\d{4})(\d{2})?(\d{2})?")


def _reflow(page: str) -> str:
    lines = [ln.strip() for ln in page.split("\n")]
    lengths = sorted(len(ln) for ln in lines if ln)
    if not lengths:
        return ""
    typical = lengths[int(0.9 * (len(lengths) - 1))]
    paragraphs: list[str] = []
    current = ""
    runs_on = False
    for ln in lines:
        if not ln:
            if current:
                paragraphs.append(current)
            current, runs_on = "", False
            continue
        if current and runs_on:
            current += ("" if current.endswith("-") else " ") + ln
        else:
            if current:
                paragraphs.append(current)
            current = ln
        runs_on = len(ln) >= _FULL_LINE * typical
    if current:
        paragraphs.append(current)
    return "\n".join(paragraphs)


def _published(meta: Any) -> str | None:
    raw = meta.get("/CreationDate") if meta else None
    m = _PDF_DATE.match(str(raw)) if raw else None
    if not m:
        return None
    parts = [p for p in m.groups() if p]
    nums = [int(p) for p in parts] + [1] * (3 - len(parts))
    try:
        dt.date(*nums)
    except ValueError:
        return None  # a creation date no calendar has: better none than a wrong one
    return "-".join(parts)


def pdf_records(name: str, data: bytes, container: str) -> Iterator[Item]:
    """One document per PDF; raises InputError for encrypted, malformed or textless files."""
    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # hostile files warn on every object
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputError(name, "encrypted PDF (needs a password); save a decrypted copy")
        raw_pages = list(reader.pages)
        meta = reader.metadata
        title = (meta.title or None) if meta else None
        published = _published(meta)
    except InputError:
        raise
    except Exception as exc:  # pypdf raises many types on broken files
        raise InputError(name, f"malformed PDF: {_reason(exc)}") from None
    if not raw_pages:
        raise InputError(name, "PDF has no pages")
    texts: list[str] = []
    unreadable: list[int] = []
    for page in raw_pages:
        try:
            texts.append(_reflow(normalize(page.extract_text() or "")[0]))
        except Exception:  # one broken content stream spoils its page, not the report
            texts.append("")
            unreadable.append(len(texts))
    empty = [n for n, t in enumerate(texts, 1) if not t.strip()]
    if len(empty) == len(texts):
        raise InputError(
            name, f"no text layer on any of its {len(texts)} page(s) (scanned?); run OCR first"
        )
    body, starts = join_pages(texts)
    if len(body) > MAX_TEXT_CHARS:
        raise InputError(name, f"too much text (> {MAX_TEXT_CHARS // 2**20} MB)")
    warnings = []
    scanned = [n for n in empty if n not in unreadable]
    if scanned:
        warnings.append(
            f"{name}: no text layer on page(s) {', '.join(map(str, scanned))} of {len(texts)}"
            " (scanned?); their words are not in the text"
        )
    if unreadable:
        warnings.append(
            f"{name}: page(s) {', '.join(map(str, unreadable))} could not be read; skipped"
        )
    yield RawRecord(
        source_file=name,
        original=data,
        text=body,
        container_path=container,
        title=str(title) if title else None,
        published=published,
        media_type="application/pdf",
        reader="pdf",
        facts={"pages": len(texts), "page_starts": starts, "no_text_pages": empty},
        warnings=tuple(warnings),
    )


def join_pages(texts: list[str]) -> tuple[str, list[int]]:
    """The pages' texts joined by PAGE_BREAK, and each page's start (an empty page starts
    where the next page with text does)."""
    body = ""
    starts: list[int] = []
    pending: list[int] = []
    for n, t in enumerate(texts):
        if not t.strip():
            pending.append(n)
            starts.append(-1)
            continue
        if body:
            body += PAGE_BREAK
        for p in pending:
            starts[p] = len(body)
        pending.clear()
        starts.append(len(body))
        body += t
    for p in pending:
        starts[p] = len(body)
    return body, starts


def page_of(document: Mapping[str, Any], offset: int) -> int | None:
    """1-based page of a working-text offset, for a document read from a PDF (else None).

    `document` is a stored document with its reader facts (`facts`), or the facts themselves.
    """
    facts = document.get("facts", document)
    starts = facts.get("page_starts") if isinstance(facts, Mapping) else None
    if not starts:
        return None
    return max(1, bisect.bisect_right(starts, offset))


def _reason(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"[:200] if text else type(exc).__name__
