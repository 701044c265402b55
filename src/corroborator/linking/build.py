"""Rebuild the derived link tables from stored extractions: copies, entities, stories,
cross-document incidents with corroboration, and quotes.

Derived rows are replaced in one transaction; documents, ledger and reviews underneath are
never touched, so a rerun after an upgrade or a review is always safe. Each step is a
blocked, near-linear pass (LSH for copies, phonetic keys for names, rare-term blocks for
stories, type/place/date blocks for incidents): nothing compares all pairs. After a full
rebuild the link state (`state.py`) lets later ingests link only their new documents
(`incremental.py`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from corroborator.forked import Child, can_fork
from corroborator.linking import (
    copies,
    corroboration,
    declared,
    minhash,
    names,
    state,
    stories,
    suggest,
)
from corroborator.linking import incidents as incident_links
from corroborator.models import incident_from_dict
from corroborator.nlp import gazetteer, geotagger
from corroborator.storage.db import Store

VILLAGE_LEAD = 1000  # characters: a village named this early is in the lead (500-2500 alike)

if TYPE_CHECKING:
    from corroborator.linking.prepare import Prepared


class AliasLookup(Protocol):
    """Lower-cased alias -> entity record (a dict, or the stored lookup of incremental linking)."""

    def get(self, alias: str, /) -> dict[str, Any] | None: ...


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
    mode: str = "full"  # or "incremental"
    seconds: float = 0.0


def relink(
    store: Store,
    new_ids: list[str] | None = None,
    jobs: int = 1,
    prepared: Prepared | None = None,
) -> Links:
    """Bring the link tables up to date.

    With `new_ids` (documents just extracted) and usable stored link state, only those
    documents are linked against what they touch; otherwise everything is rebuilt from the
    extractions and the state is written afresh, story pairs scored over `jobs` processes
    (what `prepared` read ahead of documents' words is not read again).
    """
    start = time.perf_counter()
    if new_ids is not None and state.usable(store, new_ids):
        from corroborator.linking.incremental import link_new

        links = link_new(store, new_ids)
        links.mode = "incremental"
    else:
        links = _relink_all(store, jobs, prepared)
    if store.one("SELECT review_id FROM reviews LIMIT 1"):
        from corroborator.review import refresh

        refresh(store)  # reviewers' decisions stay on top of the fresh machine output
    links.seconds = time.perf_counter() - start
    return links


def _relink_all(store: Store, jobs: int = 1, prepared: Prepared | None = None) -> Links:
    docs = store.documents()
    declared.annotate(store, docs)
    extractions = store.extractions()
    sigs = store_signatures(store, docs)
    links = Links()
    links.duplicate_of = find_copies(docs, sigs)
    rows = mention_rows(docs, extractions)
    links.entities = entities_from_mentions(rows)
    alias_index = index_aliases(links.entities)
    story_index = stories.StoryIndex(jobs=jobs)
    readings, origins = (prepared.readings, prepared.origins) if prepared else ({}, {})
    links.story_of = build_stories(
        docs, extractions, links.duplicate_of, alias_index, story_index, readings
    )
    rows_of_state = partial(state.state_rows, docs, sigs, rows, links.entities, story_index)
    beside = Child(rows_of_state, "link-state rows") if jobs > 1 and can_fork() else None
    items = incident_items(docs, extractions, links.duplicate_of, links.story_of, origins)
    groups, suggestions = incident_links.link([it for it, _ in items])
    links.incidents = incident_records([it for it, _ in items], groups, alias_index)
    links.suggestions = [{"a": s.a, "b": s.b, "score": s.score} for s in suggestions]
    links.quotes = build_quotes(docs, extractions, alias_index)
    with store.transaction():
        _write(store, docs, links)
        built = beside.result() if beside else rows_of_state()
        state.save_all(store, built, links, items, groups)
        plain = [it for it, _ in items]
        cluster_of = {
            plain[i].key: rec["incident_id"]
            for g, rec in zip(groups, links.incidents, strict=True)
            for i in g
        }
        types = {it.key: it.incident.type for it in plain}
        suggest.write_incident_suggestions(store, suggestions, cluster_of, types)
        suggest.write_story_suggestions(store, story_index.near)
    return links


def store_signatures(store: Store, docs: list[dict[str, Any]]) -> dict[str, bytes]:
    """Each document's MinHash signature, computed and stored where missing or in the
    format of datasketch 1 (older databases), which the copy index does not read."""
    stored = {
        r["document_id"]: bytes.fromhex(r["signature"])
        for r in store.rows("SELECT document_id, signature FROM signatures")
    }
    have = {doc_id: sig for doc_id, sig in stored.items() if minhash.current(sig)}
    new = [
        (d["document_id"], copies.signature(d["text"]))
        for d in docs
        if d["document_id"] not in have
    ]
    if new:
        with store.transaction():
            old = [(i,) for i, _ in new if i in stored]
            store.executemany("DELETE FROM signatures WHERE document_id = ?", old)
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
        doc_id = d["document_id"]
        forward_of = d.get("forward_of")  # a forward repeats its original, whichever came first
        found = (
            (forward_of, 1.0)
            if forward_of
            else copies.find_original(doc_id, d["text"], sigs[doc_id], index, texts)
        )
        if found:
            orig, share = found
            root = out.get(orig, (orig, 1.0))[0]
            if root != doc_id:
                out[doc_id] = (root, share)
        index.add(doc_id, sigs[doc_id], d["text"])
    return out


def build_entities(docs: list[dict[str, Any]], extractions: dict[str, Any]) -> list[dict[str, Any]]:
    """One entity per real person/group/place across documents and spellings."""
    return entities_from_mentions(mention_rows(docs, extractions))


def mention_rows(docs: list[dict[str, Any]], extractions: dict[str, Any]) -> list[dict[str, Any]]:
    """Compact entity mentions in ledger order: all that entity resolution reads, so it can
    be stored and re-resolved without parsing whole extraction payloads again."""
    out: list[dict[str, Any]] = []
    for d in docs:
        doc_id = d["document_id"]
        ex = extractions.get(doc_id, {})
        places = {(p["start"], p["end"]): p for p in ex.get("places", [])}
        for i, m in enumerate(ex.get("entities", [])):
            p = places.get((m["start"], m["end"])) if m["kind"] == "place" else None
            geo = (
                {k: p[k] for k in ("name", "geonames_id", "lat", "lon")}
                if p and p.get("geonames_id")
                else None
            )
            out.append(
                {
                    "document_id": doc_id,
                    "seq": d["ledger_seq"],
                    "idx": i,
                    "start": m["start"],
                    "end": m["end"],
                    "text": m["text"],
                    "kind": m["kind"],
                    "surface": m.get("canonical") or m["text"],
                    "place": geo,
                }
            )
    return out


def entities_from_mentions(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Resolve mention rows (see `mention_rows`) into entity records."""
    out: list[dict[str, Any]] = []
    # places resolved to one GeoNames entry group by that entry, whatever the spelling
    by_geo: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rest: list[dict[str, Any]] = []
    for r in rows:
        if r["place"]:
            by_geo[r["place"]["geonames_id"]].append(r)
        else:
            rest.append(r)
    for geo_id, members in by_geo.items():
        p0 = members[0]["place"]
        out.append(
            _entity("place", p0["name"], members, geonames_id=geo_id, lat=p0["lat"], lon=p0["lon"])
        )
    clusters = names.resolve([(r["document_id"], r["surface"], r["kind"]) for r in rest])
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
    members: list[dict[str, Any]],
    geonames_id: int | None = None,
    lat: float | None = None,
    lon: float | None = None,
    extra_aliases: list[str] | None = None,
) -> dict[str, Any]:
    aliases = {m["text"] for m in members} | set(extra_aliases or []) | {name}
    return {
        "entity_id": stable_id("e", kind, name.lower()),
        "name": name,
        "kind": kind,
        "aliases": sorted(aliases),
        "geonames_id": geonames_id,
        "lat": lat,
        "lon": lon,
        "document_ids": sorted({m["document_id"] for m in members}),
        "mentions": [
            {
                "document_id": m["document_id"],
                "start": m["start"],
                "end": m["end"],
                "text": m["text"],
            }
            for m in members
        ],
    }


def index_aliases(entities: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
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
    index: stories.StoryIndex | None = None,
    readings: Mapping[str, stories.Reading] | None = None,
) -> dict[str, str]:
    items = [story_doc(d, extractions.get(d["document_id"], {}), dups, alias_index) for d in docs]
    return stories.assign_stories(items, index=index, known=readings)


def story_doc(
    d: dict[str, Any],
    ex: dict[str, Any],
    dups: dict[str, tuple[str, float]],
    alias_index: AliasLookup,
) -> stories.StoryDoc:
    """What story linking reads of one document: its text, date, named actors and towns,
    quoted words and figures."""
    found = (
        alias_index.get(m["text"].lower())
        for m in ex.get("entities", [])
        if m["kind"] in ("person", "armed_group", "organization")
    )
    resolved = [e for e in found if e]
    ents = {e["name"] for e in resolved}
    towns = [p for p in ex.get("places", []) if p.get("precision") == "settlement"]
    places = {p["name"] for p in towns}
    actors = Counter(e["name"] for e in resolved if e["kind"] != "organization")
    return stories.StoryDoc(
        doc_id=d["document_id"],
        text=stories.headed(d.get("title"), d["text"]),
        published=d["published"],
        entities=tuple(sorted(ents)),
        places=tuple(sorted(places)),
        duplicate_of=dups.get(d["document_id"], (None, 0))[0],
        quotes=tuple(q["text"] for q in ex.get("quotes", [])),
        people=tuple(sorted({e["name"] for e in resolved if e["kind"] == "person"})),
        main_places=_main_places(towns, d["text"]),
        main_actors=tuple(sorted(n for n, c in actors.items() if c >= 2)),
        **_main_incident(ex.get("incidents", [])),
        act_days=_act_days(ex.get("incidents", [])),
        villages=_villages(towns),
        language=d.get("language"),
        figures=tuple(
            sorted({n for c in ex.get("counts", []) for n in (c["low"], c["high"]) if n})
        ),
    )


def _main_incident(incidents: list[dict[str, Any]]) -> dict[str, Any]:
    """The town, day and toll of the incident the report tells most (first told, on a tie).
    Without a toll of its own, it takes that of an incident of its kind in its town: the
    act told apart once more (a lead sentence with the toll, which the headline's group
    did not take in)."""
    located = [i for i in incidents if (i.get("location") or {}).get("precision") == "settlement"]
    if not located:
        return {}
    main = max(located, key=lambda i: (len(i["mentions"]), -min(m["start"] for m in i["mentions"])))
    date = main.get("date") or {}
    day = date.get("start") if date.get("precision") == "day" else None
    town = main["location"]["name"]
    alike = [
        i for i in located if i.get("type") == main.get("type") and i["location"]["name"] == town
    ]
    tolls = [(i.get("killed") or {}).get("low") for i in alike if i is not main]
    killed = (main.get("killed") or {}).get("low")
    if killed is None:
        killed = max((k for k in tolls if k is not None), default=None)
    return {
        "event_place": main["location"]["name"],
        "event_day": day,
        "event_killed": killed,
        "event_population": _population(main["location"].get("geonames_id")),
    }


def _act_days(incidents: list[dict[str, Any]]) -> tuple[str, ...]:
    """The days (ISO) the report dates any of its incidents to."""
    dates = (i.get("date") or {} for i in incidents)
    return tuple(
        sorted({d["start"] for d in dates if d.get("precision") == "day" and d.get("start")})
    )


def _population(geonames_id: int | None) -> int | None:
    """GeoNames' count of the people of a town (0 where it has none: mostly villages; 0 too
    for a village GeoNames lacks, which extraction reads from its cue words, "the village
    of Mabuo", and keeps with no id)."""
    if geonames_id is None:
        return 0
    place = gazetteer.load().places.get(geonames_id)
    return place.population if place is not None else None


def _dateline(place: dict[str, Any], text: str) -> bool:
    """The place is a dateline's, as the geotagger reads one (`geotagger._dateline_at`):
    written in capitals, opening a paragraph, followed by a comma, a bracket or a dash."""
    if not place["text"].isupper():
        return False
    before = text[: place["start"]].rstrip(" \t")
    after = text[place["end"] : place["end"] + 3].lstrip(" \t")
    return (not before or before.endswith("\n")) and after[:1] in geotagger.DATELINE_STOPS


def _villages(towns: list[dict[str, Any]]) -> tuple[str, ...]:
    """The villages and small towns a report is about: those it names in its lead or more
    than once (a photo caption's village, named once far down, is no evidence)."""
    counts = Counter(p["name"] for p in towns)
    return tuple(
        sorted(
            {
                p["name"]
                for p in towns
                if (p["start"] < VILLAGE_LEAD or counts[p["name"]] >= 2)
                and _small(p.get("geonames_id"))
            }
        )
    )


def _small(geonames_id: int | None) -> bool:
    population = _population(geonames_id)
    return population is not None and population < stories.FOLLOW_UP_POPULATION


def _main_places(towns: list[dict[str, Any]], text: str) -> tuple[str, ...]:
    """The towns a report is about: the one it names first and any it names most (twice or
    more); a town named once in passing is no evidence of another story, nor is the town
    of a dateline ("KYIV, April 12 (Wire) -") named there only."""
    counts = Counter(p["name"] for p in towns)
    towns = [p for p in towns if counts[p["name"]] > 1 or not _dateline(p, text)]
    if not towns:
        return ()
    most = max(counts.values())
    first = min(towns, key=lambda p: p["start"])["name"]
    return tuple(
        sorted({first} | ({n for n, c in counts.items() if c == most} if most >= 2 else set()))
    )


def incident_items(
    docs: list[dict[str, Any]],
    extractions: dict[str, Any],
    dups: dict[str, tuple[str, float]],
    story_of: dict[str, str],
    origins: Mapping[str, list[str]] | None = None,
) -> list[tuple[incident_links.IncidentItem, dict[str, Any]]]:
    """Each document incident as a linkable item, beside its stored (JSON) form
    (`origins`: the origins documents cite, where read ahead)."""
    origins = origins or {}
    items: list[tuple[incident_links.IncidentItem, dict[str, Any]]] = []
    for d in docs:
        doc_id = d["document_id"]
        ex = extractions.get(doc_id)
        if not ex or not ex.get("incidents"):
            continue
        # an article's first cited origin is usually its lead's source
        cited = origins.get(doc_id)
        lead_origin = tuple((cited if cited is not None else copies.origin_names(d["text"]))[:1])
        for n, inc in enumerate(ex["incidents"]):
            item = incident_links.IncidentItem(
                document_id=doc_id,
                index=n,
                incident=incident_from_dict(inc),
                duplicate_of=dups.get(doc_id, (None, 0))[0],
                origins=_incident_origins(inc, lead_origin),
                outlet=d["outlet"],
                published=d["published"],
                source_file=d["source_file"],
                seq=d["ledger_seq"],
                media=tuple(d.get("media_origins", ())),
                source_outlet=d.get("source_outlet"),
                story=story_of.get(doc_id),
            )
            items.append((item, inc))
    return items


def incident_records(
    items: list[incident_links.IncidentItem],
    groups: list[list[int]],
    alias_index: AliasLookup,
) -> list[dict[str, Any]]:
    """One incident record per cluster; perpetrators named as their resolved entities."""
    records = []
    for g in groups:
        members = [items[i] for i in g]
        records.append(incident_record(members, alias_index))
    return records


def incident_record(
    members: list[incident_links.IncidentItem], alias_index: AliasLookup
) -> dict[str, Any]:
    rec = corroboration.incident_record(members, incident_links.cluster_id(members))
    for p in rec["perpetrators"]:
        ent = alias_index.get(p["name"].lower())
        if ent:
            p["entity_id"] = ent["entity_id"]
            p["name"] = ent["name"]
    return rec


def _incident_origins(inc: dict[str, Any], lead_origin: tuple[str, ...]) -> tuple[str, ...]:
    """Origins cited in the incident's own sentences, else the article's lead source.

    Counting every origin an article names anywhere would let one article count as several
    independent sources for an incident only one of them reported.
    """
    own = copies.origin_names(" ".join(m["text"] for m in inc["mentions"]))
    return tuple(own) or lead_origin


def build_quotes(
    docs: list[dict[str, Any]], extractions: dict[str, Any], alias_index: AliasLookup
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
                    # the words naming the speaker by the quote, and the name resolved to
                    "speaker_mention": q.get("speaker_mention"),
                    "speaker_name_span": q.get("speaker_name_span"),
                }
            )
    return out


QUOTE_INSERT = (
    "INSERT INTO quotes (quote_id, document_id, start_char, end_char, record) VALUES (?,?,?,?,?)"
)
ENTITY_INSERT = "INSERT INTO entities (entity_id, name, kind, record) VALUES (?,?,?,?)"
INCIDENT_INSERT = (
    "INSERT INTO incidents (incident_id, type, status, score, documents, independent_sources,"
    " has_contradiction, date_start, place, record) VALUES (?,?,?,?,?,?,?,?,?,?)"
)
DOCUMENT_UPDATE = (
    "UPDATE documents SET duplicate_of = ?, shared = ?, story_id = ? WHERE document_id = ?"
)


def quote_row(q: dict[str, Any]) -> tuple[Any, ...]:
    return (
        q["quote_id"],
        q["document_id"],
        q["start"],
        q["end"],
        json.dumps(q, ensure_ascii=False),
    )


def entity_row(e: dict[str, Any]) -> tuple[Any, ...]:
    return (e["entity_id"], e["name"], e["kind"], json.dumps(e, ensure_ascii=False))


def incident_row(i: dict[str, Any]) -> tuple[Any, ...]:
    return (
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


def document_row(doc_id: str, links: Links) -> tuple[Any, ...]:
    dup, share = links.duplicate_of.get(doc_id, (None, None))
    return (dup, share, links.story_of.get(doc_id), doc_id)


def _write(store: Store, docs: list[dict[str, Any]], links: Links) -> None:
    with store.transaction():
        store.executemany(DOCUMENT_UPDATE, [document_row(d["document_id"], links) for d in docs])
        store.execute("DELETE FROM quotes")
        store.executemany(QUOTE_INSERT, [quote_row(q) for q in links.quotes])
        store.execute("DELETE FROM entities")
        store.executemany(ENTITY_INSERT, [entity_row(e) for e in links.entities])
        store.execute("DELETE FROM incidents")
        store.executemany(INCIDENT_INSERT, [incident_row(i) for i in links.incidents])
