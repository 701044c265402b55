"""One capture run: fetch pages and feeds, write one WARC, archive it, ingest it.

The WARC goes through the same path as a WARC the user brings (`ingest_paths`), so a
fetched page is stored, deduplicated and ledgered exactly like any other original.
"""

from __future__ import annotations

import http
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from corroborator.fetch.client import Client, Exchange, FetchError
from corroborator.fetch.feeds import Entry, FeedError, decoded_body, feed_entries
from corroborator.fetch.warcfile import write_warc
from corroborator.ingest.archive import Archive
from corroborator.ingest.runner import IngestReport, ingest_paths
from corroborator.storage.db import Store, now
from corroborator.storage.feeds import load_feed_state, save_feed_state


@dataclass
class Failure:
    url: str
    reason: str
    refused: bool = False


@dataclass
class FeedPoll:
    """What one feed poll found; entries are marked seen only once their WARC is ingested."""

    url: str
    answered: bool = False  # the feed was read, or reported not modified
    not_modified: bool = False
    new: int = 0
    already: int = 0
    before_since: int = 0
    captured: list[Entry] = field(default_factory=list)
    validators: tuple[str | None, str | None] | None = None  # None: keep the stored ones


@dataclass
class CaptureRun:
    exchanges: list[Exchange] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)  # final URLs of captured HTML pages
    failures: list[Failure] = field(default_factory=list)
    feeds: list[FeedPoll] = field(default_factory=list)
    warc_name: str | None = None
    warc_relpath: str | None = None
    ingest: IngestReport | None = None
    requested: dict[str, bool] = field(default_factory=dict)  # URL -> captured

    def capture_page(self, client: Client, url: str) -> bool:
        """Fetch one page (and its redirects) into the run; False with a failure noted."""
        if url not in self.requested:
            self.requested[url] = self._capture(client, url)
        return self.requested[url]

    def _capture(self, client: Client, url: str) -> bool:
        try:
            hops = client.get(url)
        except FetchError as exc:
            self.failures.append(Failure(url, exc.reason, exc.refused))
            return False
        self.exchanges.extend(hops)
        final = hops[-1]
        if not 200 <= final.status < 300:
            self.failures.append(Failure(url, f"HTTP {final.status} {_phrase(final.status)}"))
            return False
        ctype = (final.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if "html" not in ctype:
            self.failures.append(
                Failure(url, f"not HTML ({ctype or 'no Content-Type'}): kept in the WARC only")
            )
            return False
        self.pages.append(final.url)
        return True

    def capture_feed(self, client: Client, store: Store, url: str, since: str | None) -> None:
        poll = FeedPoll(url)
        self.feeds.append(poll)
        state = load_feed_state(store, url)
        conditional: dict[str, str] = {}
        if state and state.etag:
            conditional["If-None-Match"] = state.etag
        if state and state.last_modified:
            conditional["If-Modified-Since"] = state.last_modified
        try:
            hops = client.get(url, conditional)
        except FetchError as exc:
            self.failures.append(Failure(url, exc.reason, exc.refused))
            return
        final = hops[-1]
        if final.status == 304:
            poll.answered = poll.not_modified = True
            return
        self.exchanges.extend(hops)
        if not 200 <= final.status < 300:
            self.failures.append(Failure(url, f"HTTP {final.status} {_phrase(final.status)}"))
            return
        try:
            entries = feed_entries(decoded_body(final, client.limits.max_bytes), final.url)
        except FeedError as exc:
            self.failures.append(Failure(url, str(exc)))
            return
        poll.answered = True
        seen = state.seen if state else frozenset()
        ok = True
        for entry in entries:
            if entry.key in seen or entry.link in seen:
                poll.already += 1
            elif since and entry.published and entry.published < since:
                poll.before_since += 1
            else:
                poll.new += 1
                if self.capture_page(client, entry.link):
                    poll.captured.append(entry)
                else:
                    ok = False
        if ok:
            poll.validators = (final.headers.get("ETag"), final.headers.get("Last-Modified"))

    def store(self, store: Store, archive: Archive, warc_out: Path | None = None) -> None:
        """Write the WARC, archive it, ingest its pages, then remember what the feeds gave."""
        if self.exchanges:
            name = warc_out.name if warc_out else f"corroborator-fetch-{_stamp()}.warc.gz"
            with tempfile.TemporaryDirectory(prefix="corroborator-fetch-") as tmp:
                path = Path(tmp) / name
                write_warc(path, self.exchanges)
                data = path.read_bytes()
                digest, rel = archive.put(data, ".warc.gz")
                store.add_archive_file(digest, rel, len(data), f"fetch {name}")
                self.warc_name, self.warc_relpath = name, rel
                if self.pages:
                    self.ingest = ingest_paths(store, archive, [str(path)])
                if warc_out:
                    shutil.copyfile(path, warc_out)
        for poll in self.feeds:
            if not poll.answered:
                continue
            captured = [(e.key, e.link) for e in poll.captured]
            save_feed_state(store, poll.url, poll.validators, captured)


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


def _stamp() -> str:
    return now().replace("-", "").replace(":", "")
