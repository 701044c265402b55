"""Rebuild the derived link tables (quotes, entities, incidents) from stored extractions.

Derived rows are replaced wholesale in one transaction; the documents, ledger and reviews
underneath are never touched, so a rerun after an upgrade or a review is always safe.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from typing import Any

from corroborator.storage.db import Store


def stable_id(prefix: str, *parts: str) -> str:
    return prefix + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12]


def relink(store: Store) -> None:
    docs = {d["document_id"]: d for d in store.documents(with_text=False)}
    extractions = store.extractions()
    quotes = build_quotes(docs, extractions)
    entities = build_entities(docs, extractions)
    incidents = build_incidents(docs, extractions)
    with store.transaction():
        store.execute("DELETE FROM quotes")
        store.executemany(
            "INSERT INTO quotes (quote_id, document_id, start_char, end_char, record) VALUES (?,?,?,?,?)",
            [
                (
                    q["quote_id"],
                    q["document_id"],
                    q["start"],
                    q["end"],
                    json.dumps(q, ensure_ascii=False),
                )
                for q in quotes
            ],
        )
        store.execute("DELETE FROM entities")
        store.executemany(
            "INSERT INTO entities (entity_id, name, kind, record) VALUES (?,?,?,?)",
            [
                (e["entity_id"], e["name"], e["kind"], json.dumps(e, ensure_ascii=False))
                for e in entities
            ],
        )
        store.execute("DELETE FROM incidents")
        store.executemany(
            "INSERT INTO incidents (incident_id, type, status, score, documents, independent_sources,"
            " has_contradiction, date_start, place, record) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    i["incident_id"],
                    i["type"],
                    i["status"],
                    i["corroboration"]["score"],
                    i["corroboration"]["documents"],
                    i["corroboration"]["independent_sources"],
                    1 if i["contradictions"] else 0,
                    i["date"]["start"],
                    i["location"]["name"],
                    json.dumps(i, ensure_ascii=False),
                )
                for i in incidents
            ],
        )


def build_quotes(docs: dict[str, Any], extractions: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for doc_id, ex in extractions.items():
        for q in ex.get("quotes", []):
            out.append(
                {
                    "quote_id": stable_id("q", doc_id, str(q["start"]), str(q["end"])),
                    "document_id": doc_id,
                    "source_file": docs[doc_id]["source_file"],
                    "start": q["start"],
                    "end": q["end"],
                    "text": q["text"],
                    "speaker": q["speaker"],
                    "speaker_entity_id": None,
                    "speaker_role": q["speaker_role"],
                    "stance": q["stance"],
                }
            )
    return out


def build_entities(docs: dict[str, Any], extractions: dict[str, Any]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for doc_id, ex in extractions.items():
        for m in ex.get("entities", []):
            name = m.get("canonical") or m["text"]
            groups[(name.lower(), m["kind"])].append((doc_id, m))
    places = {}
    for ex in extractions.values():
        for p in ex.get("places", []):
            places.setdefault(p["text"].lower(), p)
    out = []
    for (_key, kind), members in groups.items():
        name = members[0][1].get("canonical") or members[0][1]["text"]
        place = places.get(name.lower()) if kind == "place" else None
        out.append(
            {
                "entity_id": stable_id("e", kind, name.lower()),
                "name": name,
                "kind": kind,
                "aliases": sorted({m["text"] for _, m in members}),
                "geonames_id": place and place["geonames_id"],
                "lat": place and place["lat"],
                "lon": place and place["lon"],
                "document_ids": sorted({d for d, _ in members}),
                "mentions": [
                    {"document_id": d, "start": m["start"], "end": m["end"], "text": m["text"]}
                    for d, m in members
                ],
            }
        )
    return out


def build_incidents(docs: dict[str, Any], extractions: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for doc_id, ex in extractions.items():
        for n, inc in enumerate(ex.get("incidents", [])):
            first = inc["mentions"][0] if inc["mentions"] else {"start": 0, "end": 0}
            out.append(
                {
                    "incident_id": stable_id("i", doc_id, str(n), str(first["start"])),
                    "type": inc["type"],
                    "summary": inc["summary"],
                    "perpetrators": [{"name": p, "entity_id": None} for p in inc["perpetrators"]],
                    "victims": inc["victims"],
                    "killed": inc["killed"],
                    "wounded": inc["wounded"],
                    "location": inc["location"],
                    "date": inc["date"],
                    "evidence_types": inc["evidence_types"],
                    "status": inc["status"],
                    "hedges": [h["text"] for h in inc["hedges"]],
                    "corroboration": {"documents": 1, "independent_sources": 1, "score": 0.0},
                    "contradictions": [],
                    "mentions": [
                        {"document_id": doc_id, "source_file": docs[doc_id]["source_file"], **m}
                        for m in inc["mentions"]
                    ],
                }
            )
    return out
