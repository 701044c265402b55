"""Store the "possible same incident / same story" pairs a relink scored just below its bar.

Rows are kept per item pair (incident items, or documents for stories) so an incremental
relink replaces only the pairs it scored again; `a`/`b` follow the items to the incident
ids they belong to after each relink, and pairs now inside one incident are dropped.
Reviewers' decisions on them live in the review log, never here.
"""

from __future__ import annotations

from collections.abc import Iterable

from corroborator.linking import stories
from corroborator.linking.incidents import Suggestion
from corroborator.storage.db import Store, now

INSERT = (
    "INSERT INTO link_suggestions (kind, item_a, item_b, a, b, score, reason, created_at)"
    " VALUES (?,?,?,?,?,?,?,?)"
)


def incident_reason(inc_type: str, reasons: Iterable[str]) -> str:
    """What the pair shares, in the words `incidents.compare` recorded."""
    return "; ".join(["same type " + inc_type, *reasons])


def _created(store: Store, kind: str) -> dict[tuple[str, str], str]:
    rows = store.rows(
        "SELECT item_a, item_b, created_at FROM link_suggestions WHERE kind = ?", (kind,)
    )
    return {(r["item_a"], r["item_b"]): r["created_at"] for r in rows}


def write_incident_suggestions(
    store: Store,
    found: Iterable[Suggestion],
    cluster_of: dict[str, str],
    types: dict[str, str],
    rescored: set[str] | None = None,
) -> None:
    """Replace the pairs among `rescored` item keys (all pairs when None) with `found`.

    `cluster_of` maps every item key just linked to its incident id; stored pairs touching
    those items are pointed at their new ids. Call inside the relink's transaction.
    """
    seen = _created(store, "incident")
    if rescored is None:
        store.execute("DELETE FROM link_suggestions WHERE kind = 'incident'")
    else:
        for x, y in seen:
            if x in rescored and y in rescored:
                store.execute(
                    "DELETE FROM link_suggestions WHERE kind = 'incident' AND item_a = ?"
                    " AND item_b = ?",
                    (x, y),
                )
        for key, cid in cluster_of.items():
            for side in ("a", "b"):
                store.execute(
                    f"UPDATE link_suggestions SET {side} = ? WHERE kind = 'incident'"
                    f" AND item_{side} = ? AND {side} <> ?",
                    (cid, key, cid),
                )
    stamp = now()
    rows = [
        (
            "incident",
            s.a,
            s.b,
            cluster_of[s.a],
            cluster_of[s.b],
            s.score,
            incident_reason(types[s.a], s.reasons),
            seen.get((s.a, s.b), stamp),
        )
        for s in found
        if cluster_of[s.a] != cluster_of[s.b]
    ]
    store.executemany(INSERT, rows)
    store.execute("DELETE FROM link_suggestions WHERE kind = 'incident' AND a = b")


def story_reason(score: float) -> str:
    return (
        f"words, names, places and figures shared: {score:.2f} likely one story;"
        f" one story needs {stories.THRESHOLD}"
    )


def _story_row(doc_id: str, near: tuple[str, float], stamp: str) -> tuple[object, ...]:
    a, b = sorted((doc_id, near[0]))
    return ("story", a, b, a, b, near[1], story_reason(near[1]), stamp)


def write_story_suggestions(
    store: Store, near: dict[str, tuple[str, float]], only: str | None = None
) -> None:
    """All story near-misses of a full relink, or (`only`) those of one new document."""
    seen = _created(store, "story")
    stamp = now()
    if only is None:
        store.execute("DELETE FROM link_suggestions WHERE kind = 'story'")
        todo = near
    else:
        store.execute(
            "DELETE FROM link_suggestions WHERE kind = 'story' AND (item_a = ? OR item_b = ?)",
            (only, only),
        )
        todo = {only: near[only]} if only in near else {}
    rows = {}
    for doc_id, pair in todo.items():
        row = _story_row(doc_id, pair, stamp)
        key = (str(row[1]), str(row[2]))
        rows[key] = (*row[:7], seen.get(key, stamp))
    store.executemany(INSERT, list(rows.values()))
