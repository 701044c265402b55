"""Readers turn one input file into raw records, or a one-line reason it cannot be read.

Each reader yields `RawRecord | Rejection`; a bad record inside a container (one broken
JSON line) is rejected on its own while the file's good records are still stored.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from corroborator.errors import InputError
from corroborator.models import RawRecord, Rejection

DOCUMENT_MAX_BYTES = 20 * 1024 * 1024  # one article; anything bigger is a dump to split
CONTAINER_MAX_BYTES = 2 * 1024 * 1024 * 1024  # JSONL/WARC collections
PDF_MAX_BYTES = 512 * 1024 * 1024  # scanned annexes make reports large
SUFFIXES = (
    ".txt",
    ".text",
    ".md",
    ".html",
    ".htm",
    ".json",
    ".jsonl",
    ".warc",
    ".warc.gz",
    ".pdf",
    "result.json (Telegram export)",
)

Item = RawRecord | Rejection


def kind_of(path: Path) -> str | None:
    name = path.name.lower()
    if name == "result.json":
        return ".telegram"
    for suffix in (
        ".pdf",
        ".warc.gz",
        ".warc",
        ".jsonl",
        ".json",
        ".html",
        ".htm",
        ".txt",
        ".text",
        ".md",
    ):
        if name.endswith(suffix):
            return {".htm": ".html", ".text": ".txt", ".md": ".txt"}.get(suffix, suffix)
    return None


def decode_text(data: bytes, source: str) -> str:
    """Strict UTF-8 (BOM allowed); binary or undecodable bytes are refused, never guessed."""
    if not data.strip():
        raise InputError(source, "empty file")
    if b"\x00" in data:
        raise InputError(source, "binary content (NUL bytes), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            source, f"not valid UTF-8 (byte {exc.start}); convert it to UTF-8 first"
        ) from None


def read_path(path: Path) -> Iterator[Item]:
    """All records of one file; raises InputError for a file that yields nothing usable."""
    kind = kind_of(path)
    name = path.name
    if kind is None:
        raise InputError(str(path), f"unsupported file type; expected one of {', '.join(SUFFIXES)}")
    try:
        size = path.stat().st_size
        limit = {
            ".txt": DOCUMENT_MAX_BYTES,
            ".html": DOCUMENT_MAX_BYTES,
            ".pdf": PDF_MAX_BYTES,
        }.get(kind, CONTAINER_MAX_BYTES)
        if size > limit:
            raise InputError(
                str(path),
                f"too large for one {kind[1:]} file ({size / 2**20:.1f} MB > "
                f"{limit / 2**20:.0f} MB); split it into articles or records",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from None
    container = str(path)
    if kind == ".txt":
        text = decode_text(data, name)
        yield RawRecord(source_file=name, original=data, text=text, container_path=container)
    elif kind == ".html":
        text = decode_text(data, name)
        yield html_record(name, data, text, container)
    elif kind in (".json", ".jsonl"):
        yield from json_records(name, data, container)
    elif kind == ".telegram":
        from corroborator.ingest.telegram import telegram_records

        yield from telegram_records(path, data, container)
    elif kind == ".pdf":
        from corroborator.ingest.pdf import pdf_records

        yield from pdf_records(name, data, container)
    else:
        from corroborator.ingest.warc import warc_records

        yield from warc_records(name, data, container)


def html_record(
    source: str,
    original: bytes,
    html: str,
    container: str,
    url: str | None = None,
    published: str | None = None,
) -> RawRecord:
    from corroborator.ingest.html import extract_html

    page = extract_html(html, source, url=url)
    return RawRecord(
        source_file=source,
        original=original,
        text=page.text,
        container_path=container,
        url=url or page.url,
        title=page.title,
        outlet=page.outlet,
        published=published or page.published,
        language=page.language,
        media_type="text/html",
    )


def _published(value: object) -> str | None:
    if value in (None, ""):
        return None
    s = str(value).strip()
    parts = s[:10].split("-")
    if not parts or not all(p.isdigit() for p in parts) or len(parts[0]) != 4:
        raise ValueError(f"'published' must be YYYY, YYYY-MM or YYYY-MM-DD, got {s!r}")
    return s[:10]


def _loads(text: str) -> Any:
    """json.loads; nesting and number-size limits raise ValueError like syntax errors do."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _json_reason(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"line {exc.lineno}: {exc.msg}"
    return str(exc).split(";")[0]  # e.g. "Exceeds the limit (4300 digits) for integer ..."


def _encodable(obj: object) -> bool:
    """False for a record holding an unpaired surrogate escape ("\\ud800"): valid JSON,
    but no UTF-8 text, so it could be neither hashed nor stored."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def json_records(name: str, data: bytes, container: str) -> Iterator[Item]:
    """`.jsonl`: one object per line; `.json`: an object or a list of objects."""
    text = decode_text(data, name)
    stripped = text.lstrip()
    if name.lower().endswith(".json") and stripped.startswith("["):
        try:
            items = _loads(text)
        except ValueError as exc:
            raise InputError(name, f"malformed JSON at {_json_reason(exc)}") from None
        for n, obj in enumerate(items, 1):
            if not _encodable(obj):
                yield Rejection(f"{name}:{n}", SURROGATE)
                continue
            line = json.dumps(obj, ensure_ascii=False, sort_keys=True).encode()
            yield _json_record(name, n, obj, line, container)
        return
    raw_lines = data.split(b"\n")
    if name.lower().endswith(".json") and len([ln for ln in raw_lines if ln.strip()]) > 1:
        try:  # a pretty-printed single object
            obj = _loads(text)
            yield _json_record(name, 1, obj, data.strip(), container)
            return
        except ValueError:
            pass
    for n, raw in enumerate(raw_lines, 1):
        line = raw.rstrip(b"\r")
        if not line.strip():
            continue
        try:
            obj = _loads(line.decode("utf-8-sig"))
        except UnicodeDecodeError:
            yield Rejection(f"{name}:{n}", "malformed JSON line: not UTF-8")
            continue
        except ValueError as exc:
            yield Rejection(f"{name}:{n}", f"malformed JSON line: {_json_reason(exc)}")
            continue
        yield _json_record(name, n, obj, line, container)


SURROGATE = "JSON record holds an unpaired surrogate escape (\\ud800-\\udfff), not text"


def _json_record(name: str, n: int, obj: object, line: bytes, container: str) -> Item:
    where = f"{name}:{n}"
    if not isinstance(obj, dict):
        return Rejection(where, "JSON record is not an object")
    if not _encodable(obj):
        return Rejection(where, SURROGATE)
    source = str(obj["id"]) if obj.get("id") not in (None, "") else where
    try:
        published = _published(obj.get("published"))
    except ValueError as exc:
        return Rejection(source, str(exc))
    body = obj.get("text")
    html = obj.get("html")
    meta = {
        "url": _opt(obj.get("url")),
        "title": _opt(obj.get("title")),
        "outlet": _opt(obj.get("outlet")),
        "language": _opt(obj.get("language")),
    }
    for field_value in (body, html):
        if isinstance(field_value, str) and len(field_value) > DOCUMENT_MAX_BYTES:
            return Rejection(
                source, f"record too large (> {DOCUMENT_MAX_BYTES // 2**20} MB of text)"
            )
    try:
        if isinstance(body, str) and body.strip():
            return RawRecord(
                source_file=source,
                original=line,
                text=body,
                container_path=container,
                published=published,
                record_id=_opt(obj.get("id")),
                url=meta["url"],
                title=meta["title"],
                outlet=meta["outlet"],
                language=meta["language"],
            )
        if isinstance(html, str) and html.strip():
            rec = html_record(source, line, html, container, url=meta["url"], published=published)
            return RawRecord(
                source_file=source,
                original=line,
                text=rec.text,
                container_path=container,
                url=meta["url"] or rec.url,
                title=meta["title"] or rec.title,
                outlet=meta["outlet"] or rec.outlet,
                published=published or rec.published,
                language=meta["language"] or rec.language,
                record_id=_opt(obj.get("id")),
                media_type="text/html",
            )
    except InputError as exc:
        return Rejection(source, exc.reason)
    return Rejection(source, "record has no non-empty 'text' or 'html' field")


def _opt(value: object) -> str | None:
    return None if value in (None, "") else str(value)


def walk(paths: list[str]) -> Iterator[Path | Rejection]:
    """Files under the given paths (folders recurse, sorted for a stable order).

    A folder holding `result.json` is a Telegram export: that file stands for the folder
    (its media are read through it), so photos are not offered as inputs of their own.
    """
    for p in paths:
        path = Path(p)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                if "result.json" in files:
                    dirs.clear()
                    yield Path(root) / "result.json"
                    continue
                dirs.sort()
                for f in sorted(files):
                    if not f.startswith("."):
                        yield Path(root) / f
        elif path.exists():
            yield path
        else:
            yield Rejection(p, "no such file or directory")
