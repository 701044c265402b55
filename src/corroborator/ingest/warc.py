"""HTML responses of a WARC file, each with its target URI and capture date.

Only successful (2xx) responses are documents: a crawl also records redirects and error
pages. The page's own publication date wins over the capture date, which is only the
fallback (an article captured today may have been published years ago).
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from dataclasses import replace

from corroborator.errors import InputError
from corroborator.ingest.readers import Item, decode_text, html_record
from corroborator.models import Rejection


def warc_records(name: str, data: bytes, container: str) -> Iterator[Item]:
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    found = 0
    n = 0
    try:
        for rec in ArchiveIterator(io.BytesIO(data)):
            if rec.rec_type != "response":
                continue
            ctype = (rec.http_headers.get_header("Content-Type") or "") if rec.http_headers else ""
            status = rec.http_headers.get_statuscode() if rec.http_headers else ""
            if "html" not in ctype.lower() or not status.startswith("2"):
                continue
            n += 1
            uri = rec.rec_headers.get_header("WARC-Target-URI")
            date = (rec.rec_headers.get_header("WARC-Date") or "")[:10] or None
            where = f"{name}:{uri or n}"
            payload = rec.content_stream().read()
            if getattr(rec.raw_stream, "limit", 0):
                yield Rejection(where, "WARC record truncated (shorter than its Content-Length)")
                continue
            try:
                html = decode_text(payload, where)
                item = html_record(where, payload, html, container, url=uri)
                yield item if item.published else replace(item, published=date)
                found += 1
            except InputError as exc:
                yield Rejection(where, exc.reason)
    except (ArchiveLoadFailed, EOFError, OSError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        yield from _malformed(name, found, reason)
        return
    except Exception as exc:  # warcio trips over records it cannot parse (AttributeError...)
        yield from _malformed(name, found, f"unreadable record headers ({type(exc).__name__})")
        return
    if name.lower().endswith(".gz") and not _gzip_complete(data):
        if not found:
            raise InputError(name, "truncated WARC (gzip stream ends early)")
        yield Rejection(name, f"WARC truncated after {found} record(s) (gzip stream ends early)")
        return
    if n == 0:
        raise InputError(name, "WARC holds no HTML response records")


def _malformed(name: str, found: int, reason: str) -> Iterator[Item]:
    """The file's good records are kept; with none, the whole file is refused."""
    if found:
        yield Rejection(name, f"WARC truncated or malformed after {found} record(s): {reason}")
        return
    raise InputError(name, f"malformed or truncated WARC: {reason}")


def _gzip_complete(data: bytes) -> bool:
    try:
        gzip.decompress(data)
    except (EOFError, OSError, zlib.error):
        return False
    return True
