"""Reviewers' decisions: an append-only log replayed on top of machine output.

Machine records are never edited in place by hand. Each decision is a row in `reviews`
plus a ledger entry (same transaction), and `apply_reviews` replays the whole log on
freshly linked records, so re-running extraction or linking keeps every decision. Each
step is idempotent (replaying it on records that already carry it changes nothing), and
an `undo` review switches an earlier review off: undoing an undo switches it back on.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable
from typing import Any

from corroborator.errors import CorroboratorError
from corroborator.ledger import canonical
from corroborator.models import DATE_PRECISIONS, INCIDENT_TYPES, STATUSES, VICTIM_GROUPS
from corroborator.storage.db import Store, now

ACTIONS = (
    "confirm",
    "reject",
    "merge",
    "split",
    "correct",
    "copy",
    "undo",
    "keep_apart",  # a suggested pair is two events (or stories): stop suggesting it
    "same_story",  # two documents report one story: their stories become one
    "other_story",  # a document tells another story than the rest of its story: it leaves it
)
PAIR_KINDS = ("incident", "story")
CORRECTABLE = (
    "type",
    "summary",
    "status",
    "perpetrators",
    "victims",
    "killed",
    "wounded",
    "location",
    "date",
    "evidence_types",
)
NEEDS_REASON = tuple(a for a in ACTIONS if a != "confirm")  # a confirmation may go unexplained


class ReviewError(CorroboratorError):
    """A review action that cannot be recorded (unknown target, bad value...)."""


# -- recording ---------------------------------------------------------------------------
def record_review(
    store: Store, action: str, target: str, payload: dict[str, Any], reviewer: str, reason: str = ""
) -> dict[str, Any]:
    """Validate, then store the review row and its ledger entry in one transaction."""
    reviewer, reason = reviewer.strip(), reason.strip()
    if action not in ACTIONS:
        raise ReviewError(f"unknown action {action!r}; one of {', '.join(ACTIONS)}")
    if not reviewer:
        raise ReviewError("a reviewer name is required")
    if action in NEEDS_REASON and not reason:
        raise ReviewError(f"{action} needs a reason")
    payload = _validate(store, action, target, payload)
    review_id = "r" + uuid.uuid4().hex[:16]
    created = now()
    body = {
        "review_id": review_id,
        "action": action,
        "target": target,
        "payload": payload,
        "reviewer": reviewer,
        "reason": reason,
        "created_at": created,
    }
    digest = hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()
    with store.transaction():
        entry = store.append_ledger("review", review_id, digest, reviewer, body)
        store.execute(
            "INSERT INTO reviews (review_id, action, target, payload, reviewer, reason, created_at,"
            " ledger_seq) VALUES (?,?,?,?,?,?,?,?)",
            (
                review_id,
                action,
                target,
                json.dumps(payload, ensure_ascii=False),
                reviewer,
                reason,
                created,
                entry.seq,
            ),
        )
    return dict(body, ledger_seq=entry.seq)


def _incident_exists(store: Store, incident_id: str) -> bool:
    return (
        store.one("SELECT 1 AS x FROM incidents WHERE incident_id = ?", (incident_id,)) is not None
    )


def _validate(store: Store, action: str, target: str, payload: dict[str, Any]) -> dict[str, Any]:
    if action == "undo":
        if not store.one("SELECT 1 AS x FROM reviews WHERE review_id = ?", (target,)):
            raise ReviewError(f"no review {target!r} to undo")
        return {}
    if action == "copy":
        original = str(payload.get("original") or "")
        found = store.documents([target, original], with_text=False) if original else []
        if original == target or len(found) != 2:
            raise ReviewError("copy needs two different stored documents (target and original)")
        was = next(d["duplicate_of"] for d in found if d["document_id"] == target)
        return {"original": original, "was": was}
    if action == "other_story":
        if not store.documents([target], with_text=False):
            raise ReviewError(f"no document {target!r}")
        return {}
    if action == "same_story" or (action == "keep_apart" and payload.get("kind") == "story"):
        other = str(payload.get("other") or "")
        found = store.documents([target, other], with_text=False) if other else []
        if other == target or len(found) != 2:
            raise ReviewError(f"{action} needs two different stored documents (target and other)")
        return {"other": other, "kind": "story"} if action == "keep_apart" else {"other": other}
    if action == "keep_apart" and payload.get("kind", "incident") != "incident":
        raise ReviewError(f"keep_apart kind is one of {', '.join(PAIR_KINDS)}")
    if not _incident_exists(store, target):
        raise ReviewError(f"no incident {target!r}")
    if action in ("merge", "keep_apart"):
        other = str(payload.get("other") or "")
        if other == target or not _incident_exists(store, other):
            raise ReviewError(f"{action} needs another existing incident id in 'other'")
        return {"other": other, "kind": "incident"} if action == "keep_apart" else {"other": other}
    if action == "split":
        keys = [_mention_key(m) for m in payload.get("mentions") or []]
        if not keys:
            raise ReviewError("split needs at least one mention")
        return {"mentions": [{"document_id": d, "start": s, "end": e} for d, s, e in keys]}
    if action == "correct":
        field = str(payload.get("field") or "")
        return {"field": field, "value": check_value(field, payload.get("value"))}
    return {}


def _mention_key(m: Any) -> tuple[str, int, int]:
    try:
        return str(m["document_id"]), int(m["start"]), int(m["end"])
    except (TypeError, KeyError, ValueError):
        raise ReviewError("a mention is {document_id, start, end}") from None


def _range(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ReviewError("a count is {low, high, approx}")
    low, high = value.get("low"), value.get("high")
    for v in (low, high):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise ReviewError("low and high are non-negative integers or null")
    if low is not None and high is not None and low > high:
        raise ReviewError("low is above high")
    return {"low": low, "high": high, "approx": bool(value.get("approx", False))}


def check_value(field: str, value: Any) -> Any:
    """The corrected value in contract shape, or ReviewError saying what is wrong."""
    if field not in CORRECTABLE:
        raise ReviewError(f"field must be one of {', '.join(CORRECTABLE)}")
    if field in ("type", "status", "summary"):
        allowed = {"type": INCIDENT_TYPES, "status": STATUSES}.get(field)
        if not isinstance(value, str) or (allowed and value not in allowed) or not value.strip():
            raise ReviewError(f"{field} must be " + (", ".join(allowed) if allowed else "text"))
        return value.strip()
    if field in ("killed", "wounded"):
        return _range(value)
    if field in ("victims", "evidence_types", "perpetrators"):
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ReviewError(f"{field} is a list of names")
        if field == "victims" and not set(value) <= set(VICTIM_GROUPS):
            raise ReviewError(f"victims are from {', '.join(VICTIM_GROUPS)}")
        if field == "perpetrators":
            return [{"name": v.strip(), "entity_id": None} for v in value]
        return [v.strip() for v in value]
    if field == "date":
        if not isinstance(value, dict) or value.get("precision", "unknown") not in DATE_PRECISIONS:
            raise ReviewError("date is {start, end, precision}")
        return {
            "start": value.get("start"),
            "end": value.get("end") or value.get("start"),
            "precision": value.get("precision", "day"),
        }
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        raise ReviewError("location is {name, lat, lon, admin1, country, precision}")
    keys = ("name", "geonames_id", "lat", "lon", "admin1", "country", "precision")
    loc = {k: value.get(k) for k in keys}
    loc["precision"] = loc["precision"] or "settlement"
    return loc


def reviews(store: Store) -> list[dict[str, Any]]:
    rows = store.rows("SELECT * FROM reviews ORDER BY ledger_seq")
    for r in rows:
        r["payload"] = json.loads(r["payload"])
    return rows


def active_reviews(log: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], set[str]]:
    """Non-undo reviews still in force, in order, and the ids switched off by undos."""
    undoers: dict[str, list[str]] = {}
    for r in log:
        if r["action"] == "undo":
            undoers.setdefault(r["target"], []).append(r["review_id"])
    active: dict[str, bool] = {}
    for r in reversed(log):  # an undo is always later than what it targets
        active[r["review_id"]] = not any(
            active.get(u, False) for u in undoers.get(r["review_id"], [])
        )
    live = [r for r in log if r["action"] != "undo" and active[r["review_id"]]]
    return live, {rid for rid, on in active.items() if not on}


# -- replay ------------------------------------------------------------------------------
def _roots(mentions: Iterable[dict[str, Any]], copies: dict[str, str | None]) -> set[str]:
    return {copies.get(m["document_id"]) or m["document_id"] for m in mentions}


def _recount(inc: dict[str, Any], copies: dict[str, str | None]) -> None:
    """Re-derive document counts after mentions moved; copies count once."""
    cor = dict(inc.get("corroboration") or {})
    cor["documents"] = len({m["document_id"] for m in inc["mentions"]})
    cor["independent_sources"] = min(len(_roots(inc["mentions"], copies)), cor["documents"])
    cor.setdefault("score", 0.0)
    inc["corroboration"] = cor


def _note(inc: dict[str, Any], review: dict[str, Any]) -> None:
    ids = inc.setdefault("review_ids", [])
    if review["review_id"] not in ids:
        ids.append(review["review_id"])


def _union(a: list[Any], b: list[Any]) -> list[Any]:
    out = list(a)
    for x in b:
        if x not in out:
            out.append(x)
    return out


def _merge(keep: dict[str, Any], gone: dict[str, Any], copies: dict[str, str | None]) -> None:
    seen = {(m["document_id"], m["start"], m["end"]) for m in keep["mentions"]}
    keep["mentions"] = keep["mentions"] + [
        m for m in gone["mentions"] if (m["document_id"], m["start"], m["end"]) not in seen
    ]
    for field in ("perpetrators", "victims", "evidence_types", "hedges"):
        keep[field] = _union(keep.get(field) or [], gone.get(field) or [])
    spans = dict(keep.get("field_spans") or {})
    for field, rows in (gone.get("field_spans") or {}).items():
        spans[field] = _union(spans.get(field) or [], rows)
    keep["field_spans"] = spans
    contradictions = list(keep.get("contradictions") or [])
    for field in ("killed", "wounded", "location", "date"):
        a, b = keep.get(field) or {}, gone.get(field) or {}
        if _known(b) and not _known(a):
            keep[field] = b
        elif _known(a) and _known(b) and _brief(a) != _brief(b):
            doc_a, doc_b = keep["mentions"][0]["document_id"], gone["mentions"][0]["document_id"]
            contradictions.append(
                {
                    "field": field,
                    "values": [
                        {"value": _brief(a), "document_id": doc_a},
                        {"value": _brief(b), "document_id": doc_b},
                    ],
                }
            )
    keep["contradictions"] = contradictions
    keep["merged_from"] = _union(keep.get("merged_from") or [], [gone["incident_id"]])
    _recount(keep, copies)


def _known(v: dict[str, Any]) -> bool:
    return any(v.get(k) is not None for k in ("low", "high", "name", "start"))


def _brief(v: dict[str, Any]) -> Any:
    if "name" in v:
        return v.get("name")
    if "start" in v:
        return v.get("start")
    return f"{v.get('low')}-{v.get('high')}" if v.get("low") != v.get("high") else v.get("low")


def _split(
    inc: dict[str, Any],
    review: dict[str, Any],
    by_id: dict[str, dict[str, Any]],
    copies: dict[str, str | None],
) -> dict[str, Any] | None:
    new_id = "i" + hashlib.sha256(review["review_id"].encode()).hexdigest()[:12]
    if new_id in by_id:
        return None
    keys = {(m["document_id"], m["start"], m["end"]) for m in review["payload"]["mentions"]}
    moved = [m for m in inc["mentions"] if (m["document_id"], m["start"], m["end"]) in keys]
    kept = [m for m in inc["mentions"] if (m["document_id"], m["start"], m["end"]) not in keys]
    if not moved or not kept:
        return None
    new = json.loads(json.dumps(inc))
    new.update(
        incident_id=new_id,
        mentions=moved,
        split_from=inc["incident_id"],
        review_ids=[],
        contradictions=[],
        merged_from=[],
    )
    inc["mentions"] = kept
    for rec in (inc, new):
        _recount(rec, copies)
        docs = {m["document_id"] for m in rec["mentions"]}
        rec["field_spans"] = {  # each part keeps the words of its own reports
            f: [w for w in rows if w["document_id"] in docs]
            for f, rows in (rec.get("field_spans") or {}).items()
        }
    return new


def apply_reviews(
    store: Store, incidents: list[dict[str, Any]], documents: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Replay every review still in force, in order, on freshly linked records.

    Returns new lists (the inputs are not modified). Reviews whose target no longer exists
    (e.g. the linker already merged two incidents) are skipped: nothing is forced.
    """
    live, _undone = active_reviews(reviews(store))
    incs = [json.loads(json.dumps(i)) for i in incidents]
    docs = [dict(d) for d in documents]
    doc_by_id = {d["document_id"]: d for d in docs}
    for r in live:
        if r["action"] == "copy" and r["target"] in doc_by_id:
            doc_by_id[r["target"]]["duplicate_of"] = r["payload"]["original"]
            doc_by_id[r["target"]]["copy_review_id"] = r["review_id"]
        if r["action"] == "same_story":
            _same_story(docs, doc_by_id, r["target"], r["payload"]["other"])
        if r["action"] == "other_story":
            _other_story(docs, doc_by_id, r["target"])
    copies = {d["document_id"]: d.get("duplicate_of") for d in docs}
    by_id = {i["incident_id"]: i for i in incs}
    order = [i["incident_id"] for i in incs]
    for r in live:
        act, target = r["action"], r["target"]
        if act == "copy":
            for inc in by_id.values():
                if any(m["document_id"] == target for m in inc["mentions"]):
                    _recount(inc, copies)
            continue
        inc = by_id.get(target)
        if inc is None or act in ("keep_apart", "same_story", "other_story"):  # not incidents
            continue
        if act in ("confirm", "reject"):
            inc["review_state"] = "confirmed" if act == "confirm" else "rejected"
        elif act == "correct":
            field, value = r["payload"]["field"], r["payload"]["value"]
            fixes = [c for c in inc.get("corrections") or [] if c["review_id"] != r["review_id"]]
            old = next(
                (
                    c["old"]
                    for c in inc.get("corrections") or []
                    if c["review_id"] == r["review_id"]
                ),
                inc.get(field),
            )
            inc[field] = value
            fixes.append(
                {
                    "field": field,
                    "old": old,
                    "new": value,
                    "reason": r["reason"],
                    "reviewer": r["reviewer"],
                    "review_id": r["review_id"],
                }
            )
            inc["corrections"] = fixes
        elif act == "merge":
            other = by_id.pop(r["payload"]["other"], None)
            if other is None:
                continue
            _merge(inc, other, copies)
        elif act == "split":
            new = _split(inc, r, by_id, copies)
            if new is None:
                continue
            by_id[new["incident_id"]] = new
            order.append(new["incident_id"])
            _note(new, r)
        _note(inc, r)
    return [by_id[i] for i in dict.fromkeys(order) if i in by_id], docs


def _same_story(
    docs: list[dict[str, Any]], doc_by_id: dict[str, dict[str, Any]], a: str, b: str
) -> None:
    """Every document of b's story joins a's story (a story is its members, not one pair)."""
    if a not in doc_by_id or b not in doc_by_id:
        return
    keep = doc_by_id[a].get("story_id") or a
    gone = doc_by_id[b].get("story_id") or b
    for d in docs:
        if (d.get("story_id") or d["document_id"]) == gone:
            d["story_id"] = keep


def _other_story(
    docs: list[dict[str, Any]], doc_by_id: dict[str, dict[str, Any]], target: str
) -> None:
    """The document, with its copies, becomes a story of its own; the rest of its story
    stays together, under its earliest remaining member's id when the story bore the
    leaving document's (a story's id is its earliest member's, as the linker gives it)."""
    doc = doc_by_id.get(target)
    if doc is None:
        return
    story = doc.get("story_id") or target
    members = [d for d in docs if (d.get("story_id") or d["document_id"]) == story]
    leaving = [d for d in members if target in (d["document_id"], d.get("duplicate_of"))]
    rest = [d for d in members if target not in (d["document_id"], d.get("duplicate_of"))]
    if story == target and rest:
        first = min(
            rest, key=lambda d: (not d.get("published"), d.get("published") or "", d["document_id"])
        )
        for d in rest:
            d["story_id"] = first["document_id"]
    for d in leaving:
        d["story_id"] = target


# -- writing the reviewed state back -----------------------------------------------------
def _incident_row(i: dict[str, Any]) -> tuple[Any, ...]:
    cor = i["corroboration"]
    return (
        i["incident_id"],
        i["type"],
        i["status"],
        cor.get("score") or 0.0,
        cor["documents"],
        cor["independent_sources"],
        1 if i.get("contradictions") else 0,
        (i.get("date") or {}).get("start"),
        (i.get("location") or {}).get("name"),
        json.dumps(i, ensure_ascii=False),
    )


def write_incidents(store: Store, incidents: list[dict[str, Any]]) -> None:
    with store.transaction():
        store.execute("DELETE FROM incidents")
        store.executemany(
            "INSERT INTO incidents (incident_id, type, status, score, documents, independent_sources,"
            " has_contradiction, date_start, place, record) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [_incident_row(i) for i in incidents],
        )


def _current(store: Store) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    incs = [json.loads(r["record"]) for r in store.rows("SELECT record FROM incidents")]
    docs = store.documents(with_text=False)
    return incs, docs


def _store_docs(store: Store, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    old = {d["document_id"]: d for d in before}
    for d in after:
        was = old.get(d["document_id"], {})
        for col in ("duplicate_of", "story_id"):
            if d.get(col) != was.get(col):
                store.execute(
                    f"UPDATE documents SET {col} = ? WHERE document_id = ?",
                    (d.get(col), d["document_id"]),
                )


def _machine_stories(store: Store, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The documents with the linker's own story ids (kept in its story state), so story
    reviews replay on machine output however often they are replayed."""
    machine = {
        r["document_id"]: r["story_id"]
        for r in store.rows("SELECT document_id, story_id FROM story_vectors")
    }
    return [dict(d, story_id=machine.get(d["document_id"], d.get("story_id"))) for d in docs]


def refresh(store: Store, relink_first: bool = False) -> None:
    """Make the derived tables show every review in force.

    Without `relink_first` the log is replayed on the current rows (idempotent, cheap);
    an undo needs the machine output underneath, so it relinks first.
    """
    if relink_first:
        from corroborator.linking.build import relink

        relink(store)
        log = reviews(store)
        _live, undone = active_reviews(log)
        with store.transaction():
            for r in log:  # an undone copy mark gives the document back its earlier value
                if r["action"] == "copy" and r["review_id"] in undone:
                    store.execute(
                        "UPDATE documents SET duplicate_of = ? WHERE document_id = ?"
                        " AND duplicate_of = ?",
                        (r["payload"].get("was"), r["target"], r["payload"]["original"]),
                    )
    incs, docs = _current(store)
    new_incs, new_docs = apply_reviews(store, incs, _machine_stories(store, docs))
    with store.transaction():
        write_incidents(store, new_incs)
        _store_docs(store, docs, new_docs)


def submit(
    store: Store, action: str, target: str, payload: dict[str, Any], reviewer: str, reason: str = ""
) -> dict[str, Any]:
    """Record a review and make it visible at once, in one transaction: a process killed
    in between must not leave a logged decision that the pages do not show."""
    with store.transaction():
        done = record_review(store, action, target, payload, reviewer, reason)
        refresh(store, relink_first=action == "undo")
    return done


def history(store: Store, ids: Iterable[str]) -> list[dict[str, Any]]:
    """Reviews that touched any of `ids` (as target, merge partner or undone review), oldest first."""
    wanted = set(ids)
    log = reviews(store)
    _live, undone = active_reviews(log)
    hit: set[str] = set()
    for r in log:
        p = r["payload"]
        if r["target"] in wanted or p.get("other") in wanted or p.get("original") in wanted:
            hit.add(r["review_id"])
    for r in log:
        if r["action"] == "undo" and r["target"] in hit:
            hit.add(r["review_id"])
    return [dict(r, undone=r["review_id"] in undone) for r in log if r["review_id"] in hit]
