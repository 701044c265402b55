"""Feed state for incremental `fetch --feed`: HTTP validators and entries already captured."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from corroborator.storage.db import Store, now


@dataclass(frozen=True)
class FeedState:
    feed_url: str
    etag: str | None
    last_modified: str | None
    last_fetched: str
    seen: frozenset[str]  # entry keys and links already captured


def load_feed_state(store: Store, feed_url: str) -> FeedState | None:
    row = store.one("SELECT * FROM feed_state WHERE feed_url = ?", (feed_url,))
    if row is None:
        return None
    seen = store.rows("SELECT entry_key, link FROM feed_entries WHERE feed_url = ?", (feed_url,))
    keys = {r["entry_key"] for r in seen} | {r["link"] for r in seen}
    return FeedState(
        feed_url, row["etag"], row["last_modified"], row["last_fetched"], frozenset(keys)
    )


def save_feed_state(
    store: Store,
    feed_url: str,
    validators: tuple[str | None, str | None] | None,
    captured: Iterable[tuple[str, str]],
) -> None:
    """Record a poll; `validators` (etag, last-modified) None keeps the stored ones, so a
    run that failed on some entry asks for the whole feed again next time."""
    stamp = now()
    with store.transaction():
        row = store.one(
            "SELECT etag, last_modified FROM feed_state WHERE feed_url = ?", (feed_url,)
        )
        etag, modified = validators or (
            (row["etag"], row["last_modified"]) if row else (None, None)
        )
        if row:
            store.execute(
                "UPDATE feed_state SET etag = ?, last_modified = ?, last_fetched = ? WHERE feed_url = ?",
                (etag, modified, stamp, feed_url),
            )
        else:
            store.execute(
                "INSERT INTO feed_state (feed_url, etag, last_modified, last_fetched) VALUES (?,?,?,?)",
                (feed_url, etag, modified, stamp),
            )
        for key, link in captured:
            if not store.one(
                "SELECT 1 AS x FROM feed_entries WHERE feed_url = ? AND entry_key = ?",
                (feed_url, key),
            ):
                store.execute(
                    "INSERT INTO feed_entries (feed_url, entry_key, link, seen_at) VALUES (?,?,?,?)",
                    (feed_url, key, link, stamp),
                )
