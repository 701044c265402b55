"""Everything the incident dossier shows, gathered from the store in one place.

Sources are grouped by original: a document marked as a copy (`duplicate_of`) is folded
under the document it repeats, so a wire story reprinted ten times reads as one source.
The words behind each field are the incident record's `field_spans`: the words in each
report that back the merged value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from corroborator import eval_grounding, review
from corroborator.exports import records
from corroborator.storage.db import Store
from corroborator.web import queries

CONTEXT = 80
FIELDS = (*eval_grounding.LIST_FIELDS, *eval_grounding.SINGLE_FIELDS)


@dataclass
class SourceWords:
    document_id: str
    source_file: str
    start: int
    end: int
    before: str
    text: str
    after: str


@dataclass
class SourceGroup:
    original: dict[str, Any]
    copies: list[dict[str, Any]] = field(default_factory=list)
    mentions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Dossier:
    incident: dict[str, Any]
    groups: list[SourceGroup]
    field_sources: dict[str, list[SourceWords]]
    empty_fields: set[str]
    quotes: list[dict[str, Any]]
    docs: dict[str, dict[str, Any]]
    history: list[dict[str, Any]]
    hedge_words: list[SourceWords]
    media: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # by document


def words(doc: dict[str, Any], start: int, end: int) -> SourceWords:
    text = doc["text"]
    return SourceWords(
        doc["document_id"],
        doc["source_file"],
        start,
        end,
        text[max(0, start - CONTEXT) : start],
        text[start:end],
        text[end : end + CONTEXT],
    )


def build(store: Store, incident_id: str) -> Dossier | None:
    inc = queries.get_incident(store, incident_id)
    if inc is None:
        return None
    doc_ids = list(dict.fromkeys(m["document_id"] for m in inc["mentions"]))
    docs = {d["document_id"]: d for d in store.documents(doc_ids)}
    groups: dict[str, SourceGroup] = {}
    for doc_id in doc_ids:
        d = docs.get(doc_id)
        if d is None:
            continue
        root = d["duplicate_of"] if d.get("duplicate_of") in docs else doc_id
        if root not in groups:
            groups[root] = SourceGroup(docs[root])
        if root != doc_id:
            groups[root].copies.append(d)
    for m in inc["mentions"]:
        d = docs.get(m["document_id"])
        if d is None:
            continue
        root = d["duplicate_of"] if d.get("duplicate_of") in docs else d["document_id"]
        groups[root].mentions.setdefault(m["document_id"], []).append(m)
    field_sources: dict[str, list[SourceWords]] = {}
    for fname, rows in (inc.get("field_spans") or {}).items():
        for r in rows:
            if r["document_id"] in docs:
                field_sources.setdefault(fname, []).append(
                    words(docs[r["document_id"]], r["start"], r["end"])
                )
    hedge_words = field_sources.get("hedges", [])
    empty = {name for name in FIELDS if not eval_grounding.field_values(inc, name)}
    quotes = queries.quotes_for(store, doc_ids)
    records.add_pages(store, [*inc["mentions"], *quotes])
    ids = [
        incident_id,
        *inc.get("merged_from", []),
        *([inc["split_from"]] if inc.get("split_from") else []),
    ]
    return Dossier(
        inc,
        sorted(groups.values(), key=lambda g: g.original["ledger_seq"]),
        field_sources,
        empty,
        quotes,
        docs,
        review.history(store, ids),
        hedge_words,
        store.document_media(doc_ids),
    )
