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
    return _records(store, "quotes", "document_id, start_char")


def entities(store: Store) -> list[dict[str, Any]]:
    return _records(store, "entities", "kind, name")


def incidents(store: Store) -> list[dict[str, Any]]:
    return _records(store, "incidents", "score DESC, independent_sources DESC, incident_id")


def all_records(store: Store, archive_root: Path) -> dict[str, list[dict[str, Any]]]:
    return {
        "documents": documents(store, archive_root),
        "quotes": quotes(store),
        "entities": entities(store),
        "incidents": incidents(store),
    }
