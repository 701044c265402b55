"""Rebuild the derived link tables from stored extractions: copies, entities, stories,
cross-document incidents with corroboration, and quotes.

Derived rows are replaced in one transaction; documents, ledger and reviews underneath are
never touched, so a rerun after an upgrade or a review is always safe. Each step is a
blocked, near-linear pass (LSH for copies, phonetic keys for names, rare-term blocks for
stories, type/place/date blocks for incidents): nothing compares all pairs.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from corroborator.linking import copies, corroboration, names, stories
from corroborator.linking import incidents as incident_links
from corroborator.models import incident_from_dict
from corroborator.storage.db import Store


def stable_id(prefix: str, *parts: str) -> str:
    return prefix + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12]


@dataclass
class Links:
    duplicate_of: dict[str, tuple[str, float]] = field(default_factory=dict)
    story_of: dict[str, str] = field(default_factory=dict)
    entities: list[dict[str, Any]] = field(default_factory=list)
    incidents: list[dict[str, Any]] = field(default_factory=list)
    quotes: list[dict[str, Any]] = field(default_factory=list)
    suggestions: list[dict[str, Any]] = field(default_factory=list)


def relink(store: Store) -> Links:
    docs = store.documents()
    extractions = store.extractions()
    sigs = _signatures(store, docs)
    links = Links()
    links.duplicate_of = find_copies(docs, sigs)
    links.entities = build_entities(docs, extractions)
    alias_index = _alias_index(links.entities)
    links.story_of = build_stories(docs, extractions, links.duplicate_of, alias_index)
    links.incidents, links.suggestions = build_incidents(
        docs, extractions, links.duplicate_of, alias_index
    )
    links.quotes = build_quotes(docs, extractions, alias_index)
    _write(store, docs, links)
    from corroborator.review import refresh

    refresh(store)  # reviewers' decisions stay on top of the fresh machine output
    return links


def _signatures(store: Store, docs: list[dict[str, Any]]) -> dict[str, bytes]:
    have = {
        r["document_id"]: bytes.fromhex(r["signature"])
        for r in store.rows("SELECT document_id, signature FROM signatures")
    }
    new = [
        (d["document_id"], copies.signature(d["text"]))
        for d in docs
        if d["document_id"] not in have
    ]
    if new:
        with store.transaction():
            store.executemany(
                "INSERT INTO signatures (document_id, signature) VALUES (?, ?)",
                [(i, s.hex()) for i, s in new],
            )
        have.update(new)
    return have


def find_copies(docs: list[dict[str, Any]], sigs: dict[str, bytes]) -> dict[str, tuple[str, float]]:
    """Each document that repeats an earlier-ingested one, with the shared proportion."""
    index = copies.CopyIndex()
    texts = {d["document_id"]: d["text"] for d in docs}
    out: dict[str, tuple[str, float]] = {}
    for d in docs:  # ledger order: the earlier document is the original
        found = copies.find_original(
            d["document_id"], d["text"], sigs[d["document_id"]], index, texts
        )
        if found:
            orig, share = found
            out[d["document_id"]] = (out.get(orig, (orig, 1.0))[0], share)
        index.add(d["document_id"], sigs[d["document_id"]], d["text"])
    return out


def build_entities(docs: list[dict[str, Any]], extractions: dict[str, Any]) -> list[dict[str, Any]]:
    """One entity per real person/group/place across documents and spellings."""
    mentions: list[tuple[str, dict[str, Any]]] = []
    for d in docs:
        for m in extractions.get(d["document_id"], {}).get("entities", []):
            mentions.append((d["document_id"], m))
    places: dict[tuple[str, int, int], dict[str, Any]] = {}
    for doc_id, ex in extractions.items():
        for p in ex.get("places", []):
            places[(doc_id, p["start"], p["end"])] = p
    out: list[dict[str, Any]] = []
    # places resolved to one GeoNames entry group by that entry, whatever the spelling
    by_geo: dict[int, list[tuple[str, dict[str, Any], dict[str, Any]]]] = defaultdict(list)
    rest: list[tuple[str, dict[str, Any]]] = []
    for doc_id, m in mentions:
        p = places.get((doc_id, m["start"], m["end"])) if m["kind"] == "place" else None
        if p and p.get("geonames_id"):
            by_geo[p["geonames_id"]].append((doc_id, m, p))
        else:
            rest.append((doc_id, m))
    for geo_id, members in by_geo.items():
        p0 = members[0][2]
        out.append(
            _entity(
                "place",
                p0["name"],
                [(d, m) for d, m, _ in members],
                geonames_id=geo_id,
                lat=p0["lat"],
                lon=p0["lon"],
            )
        )
    clusters = names.resolve([(d, m.get("canonical") or m["text"], m["kind"]) for d, m in rest])
    for c in clusters:
        out.append(_entity(c.kind, c.name, [rest[i] for i in c.members], extra_aliases=c.aliases))
    return _merge_same_id(out)


def _merge_same_id(entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two groups that end with one canonical name and kind are one entity."""
    by_id: dict[str, dict[str, Any]] = {}
    for e in entities:
        have = by_id.get(e["entity_id"])
        if have is None:
            by_id[e["entity_id"]] = e
            continue
        have["aliases"] = sorted(set(have["aliases"]) | set(e["aliases"]))
        have["document_ids"] = sorted(set(have["document_ids"]) | set(e["document_ids"]))
        have["mentions"] += e["mentions"]
        for k in ("geonames_id", "lat", "lon"):
            have[k] = have[k] if have[k] is not None else e[k]
    return list(by_id.values())


def _entity(
    kind: str,
    name: str,
    members: list[tuple[str, dict[str, Any]]],
    geonames_id: int | None = None,
    lat: float | None = None,
    lon: float | None = None,
    extra_aliases: list[str] | None = None,
) -> dict[str, Any]:
    aliases = {m["text"] for _, m in members} | set(extra_aliases or []) | {name}
    return {
        "entity_id": stable_id("e", kind, name.lower()),
        "name": name,
        "kind": kind,
        "aliases": sorted(aliases),
        "geonames_id": geonames_id,
        "lat": lat,
        "lon": lon,
        "document_ids": sorted({d for d, _ in members}),
        "mentions": [
            {"document_id": d, "start": m["start"], "end": m["end"], "text": m["text"]}
            for d, m in members
        ],
    }


def _alias_index(entities: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    index: dict[str, dict[str, Any]] = {}
    for e in entities:
        for a in e["aliases"]:
            index.setdefault(a.lower(), e)
    return index


def build_stories(
    docs: list[dict[str, Any]],
    extractions: dict[str, Any],
    dups: dict[str, tuple[str, float]],
    alias_index: dict[str, dict[str, Any]],
) -> dict[str, str]:
    items = []
    for d in docs:
        ex = extractions.get(d["document_id"], {})
        ents = {
            alias_index[m["text"].lower()]["name"]
            for m in ex.get("entities", [])
            if m["kind"] in ("person", "armed_group", "organization")
            and m["text"].lower() in alias_index
        }
        places = {p["name"] for p in ex.get("places", []) if p.get("precision") == "settlement"}
        items.append(
            stories.StoryDoc(
                doc_id=d["document_id"],
                text=d["text"],
                published=d["published"],
                entities=tuple(sorted(ents)),
                places=tuple(sorted(places)),
                duplicate_of=dups.get(d["document_id"], (None, 0))[0],
            )
        )
    return stories.assign_stories(items)


def build_incidents(
    docs: list[dict[str, Any]],
    extractions: dict[str, Any],
    dups: dict[str, tuple[str, float]],
    alias_index: dict[str, dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    items: list[incident_links.IncidentItem] = []
    for d in docs:
        doc_id = d["document_id"]
        ex = extractions.get(doc_id)
        if not ex or not ex.get("incidents"):
            continue
        # an article's first cited origin is usually its lead's source
        lead_origin = tuple(copies.origins(d["text"])[:1])
        for n, inc in enumerate(ex["incidents"]):
            items.append(
                incident_links.IncidentItem(
                    document_id=doc_id,
                    index=n,
                    incident=incident_from_dict(inc),
                    duplicate_of=dups.get(doc_id, (None, 0))[0],
                    origins=_incident_origins(inc, lead_origin),
                    outlet=d["outlet"],
                    published=d["published"],
                    source_file=d["source_file"],
                    seq=d["ledger_seq"],
                )
            )
    groups, suggestions = incident_links.link(items)
    records = []
    for g in groups:
        members = [items[i] for i in g]
        rec = corroboration.incident_record(members, incident_links.cluster_id(members))
        for p in rec["perpetrators"]:
            ent = alias_index.get(p["name"].lower())
            if ent:
                p["entity_id"] = ent["entity_id"]
                p["name"] = ent["name"]
        records.append(rec)
    sugg = [{"a": s.a, "b": s.b, "score": s.score} for s in suggestions] if suggestions else []
    return records, sugg


def _incident_origins(inc: dict[str, Any], lead_origin: tuple[str, ...]) -> tuple[str, ...]:
    """Origins cited in the incident's own sentences, else the article's lead source.

    Counting every origin an article names anywhere would let one article count as several
    independent sources for an incident only one of them reported.
    """
    own = copies.origins(" ".join(m["text"] for m in inc["mentions"]))
    return tuple(own) or lead_origin


def build_quotes(
    docs: list[dict[str, Any]], extractions: dict[str, Any], alias_index: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    out = []
    for d in docs:
        doc_id = d["document_id"]
        for q in extractions.get(doc_id, {}).get("quotes", []):
            ent = alias_index.get((q["speaker"] or "").lower())
            out.append(
                {
                    "quote_id": stable_id("q", doc_id, str(q["start"]), str(q["end"])),
                    "document_id": doc_id,
                    "source_file": d["source_file"],
                    "start": q["start"],
                    "end": q["end"],
                    "text": q["text"],
                    "speaker": ent["name"] if ent else q["speaker"],
                    "speaker_entity_id": ent["entity_id"] if ent else None,
                    "speaker_role": q["speaker_role"],
                    "stance": q["stance"],
                }
            )
    return out


def _write(store: Store, docs: list[dict[str, Any]], links: Links) -> None:
    with store.transaction():
        store.executemany(
            "UPDATE documents SET duplicate_of = ?, shared = ?, story_id = ? WHERE document_id = ?",
            [
                (
                    links.duplicate_of.get(d["document_id"], (None, None))[0],
                    links.duplicate_of.get(d["document_id"], (None, None))[1],
                    links.story_of.get(d["document_id"]),
                    d["document_id"],
                )
                for d in docs
            ],
        )
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
                for q in links.quotes
            ],
        )
        store.execute("DELETE FROM entities")
        store.executemany(
            "INSERT INTO entities (entity_id, name, kind, record) VALUES (?,?,?,?)",
            [
                (e["entity_id"], e["name"], e["kind"], json.dumps(e, ensure_ascii=False))
                for e in links.entities
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
                for i in links.incidents
            ],
        )
