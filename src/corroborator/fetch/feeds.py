"""RSS/Atom feeds: which entries to capture (new since the last poll, not before --since)."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from urllib.parse import urljoin

from corroborator.fetch.client import Exchange


@dataclass(frozen=True)
class Entry:
    key: str  # the entry's id, else its link
    link: str
    published: str | None  # YYYY-MM-DD from the feed, when it gives one


class FeedError(Exception):
    """Feed bytes that hold no RSS or Atom entries; the message is one line."""


def decoded_body(ex: Exchange, limit: int) -> bytes:
    """The body without Content-Encoding (we ask for identity, but servers may not listen)."""
    coding = (ex.headers.get("Content-Encoding") or "identity").strip().lower()
    if coding in ("identity", ""):
        return ex.body
    if coding not in ("gzip", "x-gzip", "deflate"):
        raise FeedError(f"unsupported Content-Encoding {coding!r}")
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 32 if coding != "deflate" else zlib.MAX_WBITS)
    try:
        out = inflater.decompress(ex.body, limit + 1)
    except zlib.error as exc:
        raise FeedError(f"bad {coding} body: {exc}") from None
    if len(out) > limit:
        raise FeedError(f"feed larger than {limit} bytes once decompressed")
    return out


def feed_entries(data: bytes, base_url: str) -> list[Entry]:
    """Entries in feed order, links made absolute; duplicates (same key or link) once."""
    import feedparser

    parsed = feedparser.parse(data, response_headers={"content-location": base_url})
    if not parsed.get("version") and not parsed.entries:
        cause = parsed.get("bozo_exception")
        detail = str(cause).splitlines()[0] if cause else "no entries"
        raise FeedError(f"not an RSS or Atom feed ({detail})")
    found: list[Entry] = []
    seen: set[str] = set()
    for e in parsed.entries:
        link = (e.get("link") or "").strip()
        if not link:
            continue
        link = urljoin(base_url, link)
        key = (e.get("id") or "").strip() or link
        if key in seen or link in seen:
            continue
        seen |= {key, link}
        stamp = e.get("published_parsed") or e.get("updated_parsed")
        found.append(Entry(key, link, time.strftime("%Y-%m-%d", stamp) if stamp else None))
    return found
