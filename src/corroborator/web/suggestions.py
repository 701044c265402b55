"""The suggestions still waiting for a reviewer, with both sides' records for comparison.

A stored pair is shown once per incident (or document) pair, at its best item score, and
only while it is open: both sides still exist, they are not already one incident or one
story, and no review in force has merged, joined or kept them apart.
"""

from __future__ import annotations

import json
from typing import Any

from corroborator import review
from corroborator.storage.db import Store


def decided(store: Store) -> set[tuple[str, str, str]]:
    """(kind, a, b) pairs (a < b) a review in force has settled."""
    live, _undone = review.active_reviews(review.reviews(store))
    kinds = {"merge": "incident", "same_story": "story"}
    out: set[tuple[str, str, str]] = set()
    for r in live:
        kind = kinds.get(r["action"]) or (
            r["payload"].get("kind") if r["action"] == "keep_apart" else None
        )
        other = r["payload"].get("other")
        if kind and other:
            a, b = sorted((r["target"], other))
            out.add((kind, a, b))
    return out


def _best(store: Store, kind: str | None, about: str | None) -> list[dict[str, Any]]:
    sql = "SELECT kind, a, b, score, reason, created_at FROM link_suggestions"
    where, params = [], []
    if kind:
        where.append("kind = ?")
        params.append(kind)
    if about:
        where.append("(a = ? OR b = ?)")
        params += [about, about]
    if where:
        sql += " WHERE " + " AND ".join(where)
    best: dict[tuple[str, str, str], dict[str, Any]] = {}
    for r in store.rows(sql, params):
        a, b = sorted((r["a"], r["b"]))
        key = (r["kind"], a, b)
        if key not in best or r["score"] > best[key]["score"]:
            best[key] = dict(r, a=a, b=b)
    return list(best.values())


def _incidents(store: Store, ids: set[str]) -> dict[str, dict[str, Any]]:
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    rows = store.rows(f"SELECT record FROM incidents WHERE incident_id IN ({marks})", list(ids))
    return {rec["incident_id"]: rec for rec in (json.loads(r["record"]) for r in rows)}


def pending(
    store: Store, kind: str | None = None, about: str | None = None
) -> list[dict[str, Any]]:
    """Open suggestions, best first: {kind, a, b, score, reason, created_at, left, right}.

    `left`/`right` are the two incident records, or the two documents (with text) for
    stories. `about` keeps those touching one incident or document.
    """
    settled = decided(store)
    rows = [r for r in _best(store, kind, about) if (r["kind"], r["a"], r["b"]) not in settled]
    ids = {x for r in rows if r["kind"] == "incident" for x in (r["a"], r["b"])}
    incs = _incidents(store, ids)
    doc_ids = sorted({x for r in rows if r["kind"] == "story" for x in (r["a"], r["b"])})
    docs = {d["document_id"]: d for d in store.documents(doc_ids)} if doc_ids else {}
    out = []
    for r in rows:
        side = incs if r["kind"] == "incident" else docs
        left, right = side.get(r["a"]), side.get(r["b"])
        if left is None or right is None:
            continue  # merged away, or gone
        if r["kind"] == "story" and (left["story_id"] or r["a"]) == (right["story_id"] or r["b"]):
            continue
        out.append(dict(r, left=left, right=right))
    return sorted(out, key=lambda r: (-r["score"], r["kind"], r["a"], r["b"]))


def public(s: dict[str, Any]) -> dict[str, Any]:
    """The JSON form: incident records as they are; documents without their full text."""
    out = {k: s[k] for k in ("kind", "a", "b", "score", "reason", "created_at")}
    for side in ("left", "right"):
        rec = s[side]
        if s["kind"] == "story":
            rec = {k: v for k, v in rec.items() if k != "text"} | {"lead": lead(rec)}
        out[side] = rec
    return out


def lead(doc: dict[str, Any], chars: int = 400) -> str:
    text = " ".join(doc.get("text", "").split())
    return text if len(text) <= chars else text[:chars].rsplit(" ", 1)[0] + " …"
