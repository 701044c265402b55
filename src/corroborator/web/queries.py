"""Read queries behind the pages and the API: filtering, sorting and paging incidents.

Column filters run in SQL (indexed columns of `incidents`); filters that need the JSON
record (perpetrator, review state) narrow with LIKE in SQL and are checked exactly in
Python, so counts and pages stay right.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from corroborator.storage.db import Store

SORTS = {
    "score": "score",
    "date": "date_start",
    "type": "type",
    "status": "status",
    "place": "place",
    "documents": "documents",
    "independent": "independent_sources",
}


@dataclass
class IncidentFilter:
    type: str | None = None
    status: str | None = None
    place: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    perpetrator: str | None = None
    min_sources: int | None = None
    contradiction: bool | None = None
    review: str | None = None  # confirmed | rejected | unreviewed
    q: str | None = None

    def active(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, "")}


def _like(value: str) -> str:
    escaped = value.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _where(f: IncidentFilter) -> tuple[str, list[Any]]:
    parts: list[str] = []
    params: list[Any] = []
    for col, value in (("type", f.type), ("status", f.status)):
        if value:
            parts.append(f"{col} = ?")
            params.append(value)
    if f.place:
        parts.append("LOWER(COALESCE(place, '')) LIKE ? ESCAPE '\\'")
        params.append(_like(f.place))
    if f.date_from:
        parts.append("date_start >= ?")
        params.append(f.date_from)
    if f.date_to:
        parts.append("date_start <= ?")
        params.append(f.date_to)
    if f.min_sources is not None:
        parts.append("independent_sources >= ?")
        params.append(f.min_sources)
    if f.contradiction is not None:
        parts.append("has_contradiction = ?")
        params.append(1 if f.contradiction else 0)
    for text in (f.q, f.perpetrator):
        if text:
            parts.append("LOWER(record) LIKE ? ESCAPE '\\'")
            params.append(_like(text))
    return (" WHERE " + " AND ".join(parts)) if parts else "", params


def _exact(rec: dict[str, Any], f: IncidentFilter) -> bool:
    if f.perpetrator:
        want = f.perpetrator.lower()
        if not any(want in (p.get("name") or "").lower() for p in rec.get("perpetrators") or []):
            return False
    if f.review:
        state = rec.get("review_state") or "unreviewed"
        if state != f.review:
            return False
    return True


def order_by(sort: str) -> str:
    key = sort.lstrip("-")
    col = SORTS.get(key, "score")
    desc = sort.startswith("-") if key in SORTS else True
    return f" ORDER BY {col} {'DESC' if desc else 'ASC'}, incident_id"


def search_incidents(
    store: Store, f: IncidentFilter, sort: str = "-score", page: int = 1, per_page: int = 50
) -> tuple[int, list[dict[str, Any]]]:
    """(number matching, the records of one page)."""
    where, params = _where(f)
    offset = (max(page, 1) - 1) * per_page
    if not (f.perpetrator or f.review):
        total_row = store.one(f"SELECT COUNT(*) AS n FROM incidents{where}", params)
        rows = store.rows(
            f"SELECT record FROM incidents{where}{order_by(sort)} LIMIT ? OFFSET ?",
            [*params, per_page, offset],
        )
        return int(total_row["n"]) if total_row else 0, [json.loads(r["record"]) for r in rows]
    recs = [
        json.loads(r["record"])
        for r in store.rows(f"SELECT record FROM incidents{where}{order_by(sort)}", params)
    ]
    recs = [r for r in recs if _exact(r, f)]
    return len(recs), recs[offset : offset + per_page]


def facet_counts(store: Store, f: IncidentFilter) -> dict[str, dict[str, int]]:
    """Counts by type and status of the incidents matching the column filters."""
    where, params = _where(f)
    out: dict[str, dict[str, int]] = {}
    for col in ("type", "status"):
        rows = store.rows(
            f"SELECT {col} AS k, COUNT(*) AS n FROM incidents{where} GROUP BY {col}", params
        )
        out[col] = {r["k"]: int(r["n"]) for r in sorted(rows, key=lambda r: -int(r["n"]))}
    return out


def incident_total(store: Store) -> int:
    row = store.one("SELECT COUNT(*) AS n FROM incidents")
    return int(row["n"]) if row else 0


def get_incident(store: Store, incident_id: str) -> dict[str, Any] | None:
    row = store.one("SELECT record FROM incidents WHERE incident_id = ?", (incident_id,))
    return json.loads(row["record"]) if row else None


def incidents_in_documents(store: Store, doc_ids: list[str]) -> list[dict[str, Any]]:
    """Incidents with a mention in any of these documents (LIKE narrows, Python checks)."""
    out: dict[str, dict[str, Any]] = {}
    wanted = set(doc_ids)
    for doc_id in doc_ids:
        for r in store.rows("SELECT record FROM incidents WHERE record LIKE ?", (f"%{doc_id}%",)):
            rec = json.loads(r["record"])
            if any(m["document_id"] in wanted for m in rec["mentions"]):
                out[rec["incident_id"]] = rec
    return list(out.values())


def all_incident_records(store: Store, f: IncidentFilter | None = None) -> list[dict[str, Any]]:
    f = f or IncidentFilter()
    return search_incidents(store, f, "-score", 1, 10**9)[1]


def story_members(store: Store, doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The other documents of `doc`'s story, earliest first (undated last)."""
    story = doc.get("story_id") or doc["document_id"]
    return store.rows(
        "SELECT document_id, title, outlet, published, source_file FROM documents"
        " WHERE story_id = ? AND document_id <> ?"
        " ORDER BY published IS NULL, published, document_id",
        (story, doc["document_id"]),
    )


def quotes_for(store: Store, doc_ids: list[str]) -> list[dict[str, Any]]:
    if not doc_ids:
        return []
    marks = ", ".join("?" for _ in doc_ids)
    rows = store.rows(
        f"SELECT record FROM quotes WHERE document_id IN ({marks})"
        " ORDER BY document_id, start_char",
        doc_ids,
    )
    return [json.loads(r["record"]) for r in rows]


def search_quotes(
    store: Store,
    document_id: str | None,
    speaker: str | None,
    role: str | None,
    stance: str | None,
    q: str | None,
    page: int,
    per_page: int,
) -> tuple[int, list[dict[str, Any]]]:
    parts, params = [], []
    if document_id:
        parts.append("document_id = ?")
        params.append(document_id)
    for text in (speaker, role, stance, q):
        if text:
            parts.append("LOWER(record) LIKE ? ESCAPE '\\'")
            params.append(_like(text))
    where = (" WHERE " + " AND ".join(parts)) if parts else ""
    recs = [
        json.loads(r["record"])
        for r in store.rows(
            f"SELECT record FROM quotes{where} ORDER BY document_id, start_char", params
        )
    ]
    recs = [
        r
        for r in recs
        if (not speaker or speaker.lower() in (r.get("speaker") or "").lower())
        and (not role or r.get("speaker_role") == role)
        and (not stance or r.get("stance") == stance)
    ]
    off = (max(page, 1) - 1) * per_page
    return len(recs), recs[off : off + per_page]


def search_entities(
    store: Store, kind: str | None, q: str | None, page: int, per_page: int
) -> tuple[int, list[dict[str, Any]]]:
    parts, params = [], []
    if kind:
        parts.append("kind = ?")
        params.append(kind)
    if q:
        parts.append("LOWER(record) LIKE ? ESCAPE '\\'")
        params.append(_like(q))
    where = (" WHERE " + " AND ".join(parts)) if parts else ""
    total = store.one(f"SELECT COUNT(*) AS n FROM entities{where}", params)
    rows = store.rows(
        f"SELECT record FROM entities{where} ORDER BY kind, name LIMIT ? OFFSET ?",
        [*params, per_page, (max(page, 1) - 1) * per_page],
    )
    return int(total["n"]) if total else 0, [json.loads(r["record"]) for r in rows]


def search_documents(
    store: Store, q: str | None, outlet: str | None, page: int, per_page: int
) -> tuple[int, list[dict[str, Any]]]:
    docs = store.documents(with_text=False)
    if outlet:
        docs = [d for d in docs if outlet.lower() in (d.get("outlet") or "").lower()]
    if q:
        ql = q.lower()
        docs = [
            d
            for d in docs
            if any(
                ql in (d.get(k) or "").lower() for k in ("title", "source_file", "url", "outlet")
            )
        ]
    off = (max(page, 1) - 1) * per_page
    return len(docs), docs[off : off + per_page]
