"""Everything the incident dossier shows, gathered from the store in one place.

Sources are grouped by original: a document marked as a copy (`duplicate_of`) is folded
under the document it repeats, so a wire story reprinted ten times reads as one source.
The words behind each field come from the per-document extraction whose mentions overlap
the incident's (`DocIncident.sources`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from corroborator import review
from corroborator.exports import records
from corroborator.storage.db import Store
from corroborator.web import queries

CONTEXT = 80


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


def _overlaps(a: dict[str, Any], spans: list[tuple[int, int]]) -> bool:
    return any(a["start"] < e and s < a["end"] for s, e in spans)


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
    hedge_words: list[SourceWords] = []
    extractions = store.extractions(doc_ids)
    for doc_id, ex in extractions.items():
        spans = [(m["start"], m["end"]) for m in inc["mentions"] if m["document_id"] == doc_id]
        doc = docs[doc_id]
        for di in ex.get("incidents", []):
            if not any(_overlaps(m, spans) for m in di.get("mentions", [])):
                continue
            for fname, fspans in (di.get("sources") or {}).items():
                for s in fspans:
                    field_sources.setdefault(fname, []).append(words(doc, s["start"], s["end"]))
            for h in di.get("hedges", []):
                hedge_words.append(words(doc, h["start"], h["end"]))
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
        quotes,
        docs,
        review.history(store, ids),
        hedge_words,
        store.document_media(doc_ids),
    )
