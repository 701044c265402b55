"""Persisted link state: what incremental linking reads instead of every stored document.

Plain rows only (TEXT/INTEGER, JSON as TEXT, hex for bytes), never pickles: an archive
handed to another investigator must not carry executable data, and PostgreSQL stores the
same rows. The state is written in full by every full relink and extended row by row by
incremental linking; `usable` says when the incremental path may trust it.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from corroborator import __version__
from corroborator.linking import copies, minhash, names, stories
from corroborator.linking import incidents as incident_links
from corroborator.models import incident_from_dict
from corroborator.storage.db import Store

if TYPE_CHECKING:
    from corroborator.linking.build import Links

STATE_VERSION = "6"  # bump when the shape or meaning of any state row changes
CHUNK = 500  # ids per IN (...) list: well under every backend's parameter limit


def version() -> str:
    return f"{STATE_VERSION}/{__version__}"


def meta(store: Store) -> dict[str, str]:
    return {r["name"]: r["value"] for r in store.rows("SELECT name, value FROM link_meta")}


def set_meta(store: Store, **values: object) -> None:
    for name, value in values.items():
        store.execute("DELETE FROM link_meta WHERE name = ?", (name,))
        store.execute("INSERT INTO link_meta (name, value) VALUES (?, ?)", (name, str(value)))


def usable(store: Store, new_ids: Sequence[str]) -> bool:
    """True when the state covers exactly the documents other than `new_ids`, was written
    by this version, and the batch is small enough that linking it piecemeal is cheaper."""
    m = meta(store)
    if m.get("version") != version() or "n_docs" not in m:
        return False
    n_docs, fresh = int(m["n_docs"]), set(new_ids)
    if not fresh or len(fresh) > max(100, n_docs):
        return False
    if n_docs + len(fresh) != store.document_count():
        return False
    return not select_in(store, "SELECT document_id FROM story_vectors WHERE document_id", fresh)


def behind(store: Store) -> bool:
    """True when the links do not cover every stored document: a run killed between
    saving extractions and linking them leaves nothing stale, yet nothing linked."""
    n_docs = meta(store).get("n_docs")
    return store.document_count() != (int(n_docs) if n_docs is not None else 0)


def select_in(
    store: Store, sql: str, values: Iterable[Any], extra: Sequence[Any] = ()
) -> list[dict[str, Any]]:
    """`sql` ending in a column, completed with `IN (...)` over `values` in chunks."""
    vals = list(dict.fromkeys(values))
    out: list[dict[str, Any]] = []
    for i in range(0, len(vals), CHUNK):
        part = vals[i : i + CHUNK]
        out += store.rows(f"{sql} IN ({', '.join('?' for _ in part)})", [*extra, *part])
    return out


# ------------------------------------------------------------------ copies


@cache
def _short(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:16]


def band_keys(sig: bytes) -> list[str]:
    """The MinHash LSH bands of a stored signature, as the copy index buckets them."""
    return [f"b{i:02d}{_short(band)}" for i, band in enumerate(minhash.bands(sig))]


def sentence_keys(text: str) -> list[str]:
    return ["s" + _short(k.encode()) for k in copies._sentence_keys(text)]


# ------------------------------------------------------------------ codecs


def vec_json(vec: stories.Vec) -> str:
    return json.dumps(
        {
            "terms": vec.terms,
            "norm": vec.norm,
            "keys": sorted(vec.keys),
            "day": vec.day,
            "blocks": vec.blocks,
            "places": sorted(vec.places),
            "quotes": sorted(vec.quotes),
            "figures": sorted(vec.figures),
            "name_norm": vec.name_norm,
            "actors": sorted(vec.actors),
            "protagonist": vec.protagonist,
            "language": vec.language,
            "event_place": vec.event_place,
            "event_day": vec.event_day,
            "event_killed": vec.event_killed,
            "event_small": vec.event_small,
            "sites": sorted(vec.sites),
            "lead_sites": sorted(vec.lead_sites),
            "skeletons": sorted(vec.skeletons),
            "concepts": vec.concepts,
            "concept_norm": vec.concept_norm,
            "act_dates": sorted(vec.act_dates),
            "villages": sorted(vec.villages),
        },
        ensure_ascii=False,
    )


def vec_from_json(doc_id: str, payload: str) -> stories.Vec:
    d = json.loads(payload)
    return stories.Vec(
        doc_id,
        d["terms"],
        d["norm"],
        frozenset(d["keys"]),
        d["day"],
        d["blocks"],
        frozenset(d["places"]),
        frozenset(d["quotes"]),
        frozenset(d["figures"]),
        d["name_norm"],
        frozenset(d["actors"]),
        d["protagonist"],
        d.get("language"),
        d.get("event_place", ""),  # vectors stored before these were kept
        d.get("event_day"),
        d.get("event_killed"),
        d.get("event_small", False),
        frozenset(d.get("sites", ())),
        frozenset(d.get("lead_sites", ())),
        frozenset(d.get("skeletons", ())),
        d.get("concepts", {}),
        d.get("concept_norm", 1.0),
        frozenset(d.get("act_dates", ())),
        frozenset(d.get("villages", ())),
    )


def item_json(item: incident_links.IncidentItem, raw: dict[str, Any]) -> str:
    return json.dumps(
        {
            "document_id": item.document_id,
            "index": item.index,
            "incident": raw,
            "duplicate_of": item.duplicate_of,
            "origins": list(item.origins),
            "outlet": item.outlet,
            "published": item.published,
            "source_file": item.source_file,
            "seq": item.seq,
            "media": list(item.media),
            "source_outlet": item.source_outlet,
            "story": item.story,
        },
        ensure_ascii=False,
    )


def item_from_json(payload: str) -> tuple[incident_links.IncidentItem, dict[str, Any]]:
    d = json.loads(payload)
    raw = d.pop("incident")
    d["origins"] = tuple(d["origins"])
    d["media"] = tuple(d.get("media", ()))
    return incident_links.IncidentItem(incident=incident_from_dict(raw), **d), raw


def item_row(
    item: incident_links.IncidentItem, raw: dict[str, Any], incident_id: str
) -> tuple[Any, ...]:
    """(item_key, document_id, incident_id, type, country, day_lo, day_hi, payload)."""
    country = incident_links.block_keys(item)[0][1]
    iv = incident_links.date_interval(item.incident.date)
    lo, hi = (iv[0].isoformat(), iv[1].isoformat()) if iv else (None, None)
    return (
        item.key,
        item.document_id,
        incident_id,
        item.incident.type,
        country,
        lo,
        hi,
        item_json(item, raw),
    )


ITEM_INSERT = (
    "INSERT INTO incident_items (item_key, document_id, incident_id, type, country, day_lo,"
    " day_hi, payload) VALUES (?,?,?,?,?,?,?,?)"
)


def mention_keys(row: dict[str, Any]) -> set[str]:
    keys = names.blocking_keys(row["surface"], row["kind"])
    if row["place"]:
        keys.add(f"g:{row['place']['geonames_id']}")
    return keys


def entity_keys(entity: dict[str, Any], rows: Iterable[dict[str, Any]]) -> set[str]:
    """Blocking keys of every member mention plus its aliases ("a:" + lower-cased)."""
    keys = {"a:" + a.lower() for a in entity["aliases"]}
    for r in rows:
        keys |= mention_keys(r)
    return keys


def mention_entities(entities: Iterable[dict[str, Any]]) -> dict[tuple[str, int, int], str]:
    return {
        (m["document_id"], m["start"], m["end"]): e["entity_id"]
        for e in entities
        for m in e["mentions"]
    }


REF_INSERT = "INSERT INTO entity_refs (entity_id, ref_kind, ref_id) VALUES (?, ?, ?)"


def quote_refs(quotes: Iterable[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (q["speaker_entity_id"], "quote", q["quote_id"]) for q in quotes if q["speaker_entity_id"]
    ]


def incident_refs(incidents: Iterable[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (eid, "incident", i["incident_id"])
        for i in incidents
        for eid in sorted({p["entity_id"] for p in i["perpetrators"] if p.get("entity_id")})
    ]


# ------------------------------------------------------------------ full write

_TABLES = (
    "copy_keys",
    "story_vectors",
    "story_blocks",
    "term_df",
    "entity_mentions",
    "entity_keys",
    "incident_items",
    "entity_refs",
    "link_meta",
)


@dataclass(frozen=True)
class StateRows:
    """The rows of a full relink's state that its stories, copies and entities decide:
    built apart from the writing (`state_rows`), so a forked child can build them while
    the parent links incidents."""

    copy_keys: list[tuple[str, str, int]]
    story_vectors: list[tuple[str, str, int | None, str]]
    story_blocks: list[tuple[str, str]]
    term_df: list[tuple[int, int]]
    entity_mentions: list[tuple[str, int, int, str, str]]
    entity_keys: list[tuple[str, str]]
    n_docs: int


def state_rows(
    docs: list[dict[str, Any]],
    sigs: dict[str, bytes],
    rows: list[dict[str, Any]],
    entities: list[dict[str, Any]],
    story_index: stories.StoryIndex,
) -> StateRows:
    postings: defaultdict[str, int] = defaultdict(int)
    key_rows: list[tuple[str, str, int]] = []
    for d in docs:
        doc_id, seq = d["document_id"], d["ledger_seq"]
        key_rows += [(k, doc_id, seq) for k in band_keys(sigs[doc_id])]
        for k in sentence_keys(d["text"]):
            if postings[k] <= copies.MAX_POSTINGS:
                postings[k] += 1
                key_rows.append((k, doc_id, seq))
    owner = mention_entities(entities)
    by_entity: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    mention_rows = []
    for r in rows:
        eid = owner[(r["document_id"], r["start"], r["end"])]
        by_entity[eid].append(r)
        mention_rows.append((r["document_id"], r["idx"], r["seq"], eid, json.dumps(r)))
    table = story_index.df._table
    slots = np.nonzero(table)[0]
    return StateRows(
        copy_keys=key_rows,
        story_vectors=[
            (d, story_index.story_of[d], v.day, vec_json(v)) for d, v in story_index._vecs.items()
        ],
        story_blocks=[(k, d) for k, ids in story_index._postings.items() for d in ids],
        term_df=list(zip(slots.tolist(), table[slots].tolist(), strict=True)),
        entity_mentions=mention_rows,
        entity_keys=[
            (k, e["entity_id"])
            for e in entities
            for k in sorted(entity_keys(e, by_entity[e["entity_id"]]))
        ],
        n_docs=len(docs),
    )


def save_all(
    store: Store,
    built: StateRows,
    links: Links,
    items: list[tuple[incident_links.IncidentItem, dict[str, Any]]],
    groups: list[list[int]],
) -> None:
    """Replace the whole state with that of a full relink (call inside its transaction)."""
    for table in _TABLES:
        store.execute(f"DELETE FROM {table}")
    store.executemany(
        "INSERT INTO copy_keys (key, document_id, seq) VALUES (?,?,?)", built.copy_keys
    )
    store.executemany(
        "INSERT INTO story_vectors (document_id, story_id, day, payload) VALUES (?,?,?,?)",
        built.story_vectors,
    )
    store.executemany(
        "INSERT INTO story_blocks (key, document_id) VALUES (?, ?)", built.story_blocks
    )
    store.executemany("INSERT INTO term_df (slot, n) VALUES (?, ?)", built.term_df)
    store.executemany(
        "INSERT INTO entity_mentions (document_id, idx, seq, entity_id, payload) VALUES (?,?,?,?,?)",
        built.entity_mentions,
    )
    store.executemany("INSERT INTO entity_keys (key, entity_id) VALUES (?, ?)", built.entity_keys)
    item_rows = []
    for g in groups:
        cid = incident_links.cluster_id(items[i][0] for i in g)
        item_rows += [item_row(*items[i], cid) for i in g]
    store.executemany(ITEM_INSERT, item_rows)
    store.executemany(REF_INSERT, quote_refs(links.quotes) + incident_refs(links.incidents))
    set_meta(store, version=version(), n_docs=built.n_docs)
