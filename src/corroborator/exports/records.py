"""Contract records (CONTRACT.md "Exported records") read from the store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from corroborator.storage.db import Store

DOCUMENT_FIELDS = (
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
)


def document_record(row: dict[str, Any], archive_root: Path) -> dict[str, Any]:
    """The contract record of one `Store.documents()` row."""
    rec = {k: row.get(k) for k in DOCUMENT_FIELDS}
    rec["archive_path"] = str(archive_root / row["archive_relpath"])
    return rec


def documents(store: Store, archive_root: Path) -> list[dict[str, Any]]:
    return [document_record(d, archive_root) for d in store.documents()]


def _records(store: Store, table: str, order: str) -> list[dict[str, Any]]:
    return [
        json.loads(r["record"]) for r in store.rows(f"SELECT record FROM {table} ORDER BY {order}")
    ]


def quotes(store: Store) -> list[dict[str, Any]]:
    found = _records(store, "quotes", "document_id, start_char")
    add_pages(store, found)
    return found


def entities(store: Store) -> list[dict[str, Any]]:
    return _records(store, "entities", "kind, name")


def incidents(store: Store) -> list[dict[str, Any]]:
    found = _records(store, "incidents", "score DESC, independent_sources DESC, incident_id")
    add_pages(store, [m for inc in found for m in inc["mentions"]])
    return found


def add_pages(store: Store, spans: list[dict[str, Any]]) -> None:
    """`page` (1-based) on each {document_id, start} span whose document is a PDF."""
    from corroborator.ingest.pdf import page_of

    facts = store.document_facts(sorted({s["document_id"] for s in spans}))
    for span in spans:
        page = page_of(facts.get(span["document_id"], {}), span["start"])
        if page is not None:
            span["page"] = page


def all_records(store: Store, archive_root: Path) -> dict[str, list[dict[str, Any]]]:
    return {
        "documents": documents(store, archive_root),
        "quotes": quotes(store),
        "entities": entities(store),
        "incidents": incidents(store),
    }
