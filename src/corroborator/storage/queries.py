"""Named read queries shared by the CLI, exports and the web UI."""

from __future__ import annotations

import json
from typing import Any

from corroborator.storage.db import Store


def list_incidents(store: Store, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    rows = store.rows(
        "SELECT * FROM incidents ORDER BY score DESC, independent_sources DESC, documents DESC,"
        " incident_id LIMIT ? OFFSET ?",
        (limit, offset),
    )
    for r in rows:
        r["record"] = json.loads(r["record"])
    return rows


def get_incident(store: Store, incident_id: str) -> dict[str, Any] | None:
    row = store.one("SELECT record FROM incidents WHERE incident_id = ?", (incident_id,))
    return json.loads(row["record"]) if row else None
