"""Link newly extracted documents against the stored link state, touching only their blocks.

Each new document, in ledger order, finds copy candidates through its LSH band and long
sentence keys, re-resolves only the entities sharing a phonetic or alias key with its
mentions, joins a story through a partial story index holding just its terms' document
frequencies and its candidates' vectors, and re-links only the incident clusters some new
incident could join. Only rows that changed are written; no other document's text is read
unless it is a copy candidate.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections import Counter, defaultdict
from typing import Any

from corroborator.linking import build, copies, declared, names, state, stories, suggest
from corroborator.linking import incidents as incident_links
from corroborator.linking.build import Links
from corroborator.storage.db import Store

_DAY = dt.timedelta(days=1)


def link_new(store: Store, new_ids: list[str]) -> Links:
    links = Links()
    n_docs = int(state.meta(store)["n_docs"])
    docs = store.documents(new_ids)
    declared.annotate(store, docs)
    extractions = store.extractions(new_ids)
    with store.transaction():
        for d in docs:
            doc_id = d["document_id"]
            ex = extractions.get(doc_id, {})
            found = _copy_of(store, d)
            if found:
                links.duplicate_of[doc_id] = found
            entities, aliases = _entities(store, d, ex)
            links.entities += entities
            sdoc = build.story_doc(d, ex, links.duplicate_of, aliases)
            moved: dict[str, str] = {}
            links.story_of[doc_id] = _story(store, sdoc, n_docs, moved)
            links.story_of.update(moved)
            links.incidents += _incidents(store, d, ex, links, aliases, set(moved))
            quotes = build.build_quotes([d], {doc_id: ex}, aliases)
            links.quotes += quotes
            store.execute("DELETE FROM quotes WHERE document_id = ?", (doc_id,))
            store.executemany(build.QUOTE_INSERT, [build.quote_row(q) for q in quotes])
            store.executemany(state.REF_INSERT, state.quote_refs(quotes))
            store.execute(build.DOCUMENT_UPDATE, build.document_row(doc_id, links))
            n_docs += 1
        state.set_meta(store, n_docs=n_docs)
    return links


# ------------------------------------------------------------------ copies


def _signature(store: Store, d: dict[str, Any]) -> bytes:
    row = store.one("SELECT signature FROM signatures WHERE document_id = ?", (d["document_id"],))
    if row:
        return bytes.fromhex(row["signature"])
    sig = copies.signature(d["text"])
    store.execute(
        "INSERT INTO signatures (document_id, signature) VALUES (?, ?)",
        (d["document_id"], sig.hex()),
    )
    return sig


def _copy_of(store: Store, d: dict[str, Any]) -> tuple[str, float] | None:
    """The earlier document this one repeats (as `build.find_copies`), then index it."""
    doc_id, text = d["document_id"], d["text"]
    bands = state.band_keys(_signature(store, d))
    sents = state.sentence_keys(text)
    hits = state.select_in(
        store, "SELECT key, document_id, seq FROM copy_keys WHERE key", [*bands, *sents]
    )
    per_key = Counter(h["key"] for h in hits)
    band_set = set(bands)
    seq_of = {
        h["document_id"]: h["seq"]
        for h in hits
        if h["key"] in band_set or per_key[h["key"]] <= copies.MAX_POSTINGS
    }
    seq_of.pop(doc_id, None)
    best: tuple[str, float] | None = None
    originals: dict[str, str | None] = {}
    if seq_of:
        for other in store.documents(sorted(seq_of, key=seq_of.__getitem__)):
            originals[other["document_id"]] = other["duplicate_of"]
            share = copies.containment(text, other["text"])
            if share >= copies.COPY_SHARE and (best is None or share > best[1] + 1e-9):
                best = (other["document_id"], share)
    rows = [(k, doc_id, d["ledger_seq"]) for k in bands]
    rows += [(k, doc_id, d["ledger_seq"]) for k in sents if per_key[k] <= copies.MAX_POSTINGS]
    store.executemany("INSERT INTO copy_keys (key, document_id, seq) VALUES (?,?,?)", rows)
    if d.get("forward_of"):  # a forward repeats its original, whichever came first
        row = store.one(
            "SELECT duplicate_of FROM documents WHERE document_id = ?", (d["forward_of"],)
        )
        best = (d["forward_of"], 1.0)
        originals[best[0]] = row["duplicate_of"] if row else None
    if best is None:
        return None
    root = originals.get(best[0]) or best[0]
    return None if root == doc_id else (root, best[1])


# ------------------------------------------------------------------ entities


class StoredAliases:
    """Alias lookup: the entities just re-resolved first, then the stored alias keys."""

    def __init__(self, store: Store, local: dict[str, dict[str, Any]]) -> None:
        self.store = store
        self.local = local
        self.cache: dict[str, dict[str, Any] | None] = {}

    def get(self, alias: str) -> dict[str, Any] | None:
        if alias in self.local:
            return self.local[alias]
        if alias not in self.cache:
            row = self.store.one(
                "SELECT e.record FROM entity_keys k JOIN entities e ON e.entity_id = k.entity_id"
                " WHERE k.key = ? ORDER BY e.entity_id LIMIT 1",
                ("a:" + alias,),
            )
            self.cache[alias] = json.loads(row["record"]) if row else None
        return self.cache[alias]


def _entities(
    store: Store, d: dict[str, Any], ex: dict[str, Any]
) -> tuple[list[dict[str, Any]], StoredAliases]:
    """Re-resolve the new mentions with every stored entity they could join."""
    rows = build.mention_rows([d], {d["document_id"]: ex})
    keys = {"a:" + r["text"].lower() for r in rows}
    for r in rows:
        keys |= state.mention_keys(r)
    hits = state.select_in(store, "SELECT key, entity_id FROM entity_keys WHERE key", keys)
    per_key = Counter(h["key"] for h in hits)
    old_ids = {h["entity_id"] for h in hits if per_key[h["key"]] <= names.MAX_BLOCK}
    while True:
        stored = sorted(
            state.select_in(
                store,
                "SELECT seq, idx, entity_id, payload FROM entity_mentions WHERE entity_id",
                old_ids,
            ),
            key=lambda r: (r["seq"], r["idx"]),
        )
        old_rows = [json.loads(r["payload"]) for r in stored]
        was = [r["entity_id"] for r in stored]
        entities = build.entities_from_mentions(old_rows + rows)
        new_ids = {e["entity_id"] for e in entities}
        clash = {
            r["entity_id"]
            for r in state.select_in(
                store, "SELECT entity_id FROM entities WHERE entity_id", new_ids - old_ids
            )
        }
        if not clash:  # a renamed entity met a stored one of that name: resolve them together
            break
        old_ids |= clash
    old_names = _write_entities(store, entities, old_ids, old_rows, rows)
    _follow_renames(store, entities, old_rows, was, old_names)
    return entities, StoredAliases(store, build.index_aliases(entities))


def _write_entities(
    store: Store,
    entities: list[dict[str, Any]],
    old_ids: set[str],
    old_rows: list[dict[str, Any]],
    rows: list[dict[str, Any]],
) -> dict[str, str]:
    """Write the entities that changed; return the stored names of those re-resolved."""
    found = state.select_in(
        store, "SELECT entity_id, name, record FROM entities WHERE entity_id", old_ids
    )
    stored = {r["entity_id"]: r["record"] for r in found}
    new_ids = {e["entity_id"] for e in entities}
    for eid in old_ids - new_ids:
        store.execute("DELETE FROM entities WHERE entity_id = ?", (eid,))
    owner = state.mention_entities(entities)
    members: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in old_rows + rows:
        members[owner[(r["document_id"], r["start"], r["end"])]].append(r)
    for e in entities:
        eid = e["entity_id"]
        record = build.entity_row(e)
        if stored.get(eid) == record[3]:
            continue
        store.execute("DELETE FROM entities WHERE entity_id = ?", (eid,))
        store.execute(build.ENTITY_INSERT, record)
        store.execute("DELETE FROM entity_keys WHERE entity_id = ?", (eid,))
        store.executemany(
            "INSERT INTO entity_keys (key, entity_id) VALUES (?, ?)",
            [(k, eid) for k in sorted(state.entity_keys(e, members[eid]))],
        )
    for eid in old_ids - new_ids:
        store.execute("DELETE FROM entity_keys WHERE entity_id = ?", (eid,))
    for r in old_rows:
        eid = owner[(r["document_id"], r["start"], r["end"])]
        store.execute(
            "UPDATE entity_mentions SET entity_id = ? WHERE document_id = ? AND idx = ?"
            " AND entity_id <> ?",
            (eid, r["document_id"], r["idx"], eid),
        )
    store.executemany(
        "INSERT INTO entity_mentions (document_id, idx, seq, entity_id, payload) VALUES (?,?,?,?,?)",
        [
            (
                r["document_id"],
                r["idx"],
                r["seq"],
                owner[(r["document_id"], r["start"], r["end"])],
                json.dumps(r),
            )
            for r in rows
        ],
    )
    return {r["entity_id"]: r["name"] for r in found}


def _follow_renames(
    store: Store,
    entities: list[dict[str, Any]],
    old_rows: list[dict[str, Any]],
    was: list[str],
    old_names: dict[str, str],
) -> None:
    """Point the quotes and incidents that named a re-resolved entity at its new record
    (the entity holding that entity's first mention), as a full relink would."""
    owner = state.mention_entities(entities)
    by_id = {e["entity_id"]: e for e in entities}
    moved: dict[str, dict[str, Any]] = {}
    for r, old_id in zip(old_rows, was, strict=True):
        if old_id not in moved:
            moved[old_id] = by_id[owner[(r["document_id"], r["start"], r["end"])]]
    for old_id, ent in moved.items():
        if ent["entity_id"] == old_id and ent["name"] == old_names.get(old_id):
            continue
        refs = store.rows("SELECT ref_kind, ref_id FROM entity_refs WHERE entity_id = ?", (old_id,))
        for ref in refs:
            table, key = (
                ("quotes", "quote_id")
                if ref["ref_kind"] == "quote"
                else ("incidents", "incident_id")
            )
            row = store.one(f"SELECT record FROM {table} WHERE {key} = ?", (ref["ref_id"],))
            if not row:
                continue
            rec = json.loads(row["record"])
            named = [rec] if table == "quotes" else rec["perpetrators"]
            id_field, name_field = (
                ("speaker_entity_id", "speaker") if table == "quotes" else ("entity_id", "name")
            )
            for n in named:
                if n.get(id_field) == old_id:
                    n[id_field], n[name_field] = ent["entity_id"], ent["name"]
            body = json.dumps(rec, ensure_ascii=False)
            if body != row["record"]:
                store.execute(
                    f"UPDATE {table} SET record = ? WHERE {key} = ?", (body, ref["ref_id"])
                )
        if ent["entity_id"] != old_id:
            store.execute(
                "UPDATE entity_refs SET entity_id = ? WHERE entity_id = ?",
                (ent["entity_id"], old_id),
            )


# ------------------------------------------------------------------ stories


class _StoredCounts(stories.HashedCounts):
    """The hashed document frequencies, read from `term_df` slot by slot as needed."""

    def __init__(self, store: Store, bits: int = stories.DF_BITS) -> None:
        self._mask = (1 << bits) - 1
        self.store = store
        self.counts: dict[int, int] = {}
        self.dirty: set[int] = set()

    def load(self, keys: set[str]) -> None:
        want = {self._slot(k) for k in keys} - self.counts.keys()
        for r in state.select_in(self.store, "SELECT slot, n FROM term_df WHERE slot", want):
            self.counts[r["slot"]] = r["n"]
        for slot in want:
            self.counts.setdefault(slot, 0)

    def add(self, keys: Any) -> None:
        keys = set(keys)
        self.load(keys)
        for slot in {self._slot(k) for k in keys}:
            self.counts[slot] += 1
            self.dirty.add(slot)

    def __getitem__(self, key: str) -> int:
        slot = self._slot(key)
        if slot not in self.counts:
            self.load({key})
        return self.counts[slot]


class _StoredStoryIndex(stories.StoryIndex):
    """A story index holding only what one new document touches, loaded on demand."""

    def __init__(self, store: Store, n_docs: int) -> None:
        super().__init__()
        self.store = store
        self.n_docs = n_docs
        self.df = _StoredCounts(store)
        self._full: set[str] = set()  # documents whose whole vector is loaded (not a stub)

    def load_stories(self, doc_ids: set[str]) -> None:
        """story_of for `doc_ids` and the member lists of their stories."""
        want = doc_ids - self.story_of.keys()
        rows = state.select_in(
            self.store, "SELECT document_id, story_id FROM story_vectors WHERE document_id", want
        )
        stories_ = {r["story_id"] for r in rows} - self.members.keys()
        for r in state.select_in(
            self.store,
            "SELECT document_id, story_id, day FROM story_vectors WHERE story_id",
            stories_,
        ):
            self.story_of[r["document_id"]] = r["story_id"]
            self.day_of[r["document_id"]] = r["day"]
            self.members[r["story_id"]].append(r["document_id"])
        for story in stories_:
            self.members[story].sort(key=self._rank)

    def _load_vectors(self, doc_ids: list[str]) -> None:
        """The stored vectors of story members a linkage reads (candidates' are loaded)."""
        want = [d for d in doc_ids if d not in self._full]
        for r in state.select_in(
            self.store, "SELECT document_id, payload FROM story_vectors WHERE document_id", want
        ):
            self._vecs[r["document_id"]] = state.vec_from_json(r["document_id"], r["payload"])
        self._full.update(want)

    def load_postings(self, keys: list[str]) -> None:
        want = [k for k in keys if k not in self._postings]
        rows = state.select_in(
            self.store,
            "SELECT b.key, b.document_id, v.day FROM story_blocks b"
            " JOIN story_vectors v ON v.document_id = b.document_id WHERE b.key",
            want,
        )
        for r in rows:
            self._postings[r["key"]].append(r["document_id"])
            if r["document_id"] not in self._vecs:  # a stub: `candidates` reads only the day
                self._vecs[r["document_id"]] = stories.Vec(
                    r["document_id"], {}, 1.0, frozenset(), r["day"]
                )

    def candidates(self, vec: stories.Vec) -> set[str]:
        self.load_postings(stories.lookup_keys(vec.blocks))
        found = super().candidates(vec)
        self._load_vectors(sorted(found))
        self.load_stories(found)
        return found


def _story(store: Store, doc: stories.StoryDoc, n_docs: int, moved_to: dict[str, str]) -> str:
    """The new document's story; older documents whose story it merged go into `moved_to`."""
    index = _StoredStoryIndex(store, n_docs)
    reading = stories.read(doc)
    df = index.df
    assert isinstance(df, _StoredCounts)
    df.load({*reading.counts, *stories.entity_keys(doc), *stories.quote_shingles(doc.quotes)})
    if doc.duplicate_of:
        index.load_stories({doc.duplicate_of})
    story = index.link(doc, reading)
    vec = index._vecs[doc.doc_id]
    index.load_postings(vec.blocks)
    store.execute(
        "INSERT INTO story_vectors (document_id, story_id, day, payload) VALUES (?,?,?,?)",
        (doc.doc_id, story, vec.day, state.vec_json(vec)),
    )
    # The new report bridged stories: their older members now carry the merged story's id.
    moved = sorted(index.moved.items())
    for doc_id, new_story in moved:
        store.execute(
            "UPDATE story_vectors SET story_id = ? WHERE document_id = ?", (new_story, doc_id)
        )
        store.execute(
            "UPDATE documents SET story_id = ? WHERE document_id = ?", (new_story, doc_id)
        )
    moved_to.update(moved)
    store.executemany(
        "INSERT INTO story_blocks (key, document_id) VALUES (?, ?)",
        [(k, doc.doc_id) for k in vec.blocks if doc.doc_id in index._postings[k]],
    )
    for slot in sorted(df.dirty):
        store.execute("DELETE FROM term_df WHERE slot = ?", (slot,))
        store.execute("INSERT INTO term_df (slot, n) VALUES (?, ?)", (slot, df.counts[slot]))
    suggest.write_story_suggestions(store, index.near, only=doc.doc_id)
    return story


# ------------------------------------------------------------------ incidents


def _candidate_rows(store: Store, item: incident_links.IncidentItem) -> list[dict[str, Any]]:
    """Stored items in a block this item matches (unknown place or date is a wildcard) whose
    dates can overlap its own; the rest could never be compared with it."""
    sql = "SELECT item_key, incident_id, payload FROM incident_items WHERE type = ?"
    params: list[Any] = [item.incident.type]
    country = incident_links.block_keys(item)[0][1]
    if country != "*":
        sql += " AND (country = ? OR country = '*')"
        params.append(country)
    iv = incident_links.date_interval(item.incident.date)
    if iv:
        sql += " AND (day_lo IS NULL OR (day_lo <= ? AND day_hi >= ?))"
        params += [(iv[1] + _DAY).isoformat(), (iv[0] - _DAY).isoformat()]
    return store.rows(sql, params)


def _incidents(
    store: Store,
    d: dict[str, Any],
    ex: dict[str, Any],
    links: Links,
    aliases: StoredAliases,
    moved: set[str],
) -> list[dict[str, Any]]:
    """Re-link the clusters some new incident could join, and those of documents whose
    story the new one merged (one story anchors their incidents); rewrite only those that
    changed."""
    new = build.incident_items([d], {d["document_id"]: ex}, links.duplicate_of, links.story_of)
    touched = {
        r["incident_id"]
        for r in state.select_in(
            store, "SELECT incident_id FROM incident_items WHERE document_id", moved
        )
    }
    if not new and not touched:
        return []
    for item, _ in new:
        keys = incident_links.block_keys(item)
        for row in _candidate_rows(store, item):
            other, _raw = state.item_from_json(row["payload"])
            if not any(
                incident_links._matches(k, o)
                for k in keys
                for o in incident_links.block_keys(other)
            ):
                continue
            ps = incident_links.compare(item, other)
            if ps.compatible and ps.score >= incident_links.SUGGEST_THRESHOLD:
                touched.add(row["incident_id"])
    old: dict[str, set[str]] = defaultdict(set)
    pool: list[tuple[incident_links.IncidentItem, dict[str, Any]]] = []
    for row in state.select_in(
        store, "SELECT incident_id, payload FROM incident_items WHERE incident_id", touched
    ):
        item, raw = state.item_from_json(row["payload"])
        old[row["incident_id"]].add(item.key)
        pool.append((item, raw))
    stored_story = {
        r["document_id"]: r["story_id"]
        for r in state.select_in(
            store,
            "SELECT document_id, story_id FROM story_vectors WHERE document_id",
            {it.document_id for it, _ in pool},
        )
    }
    pool = [
        (dataclasses.replace(it, story=stored_story.get(it.document_id)), raw) for it, raw in pool
    ]
    pool += new
    items = [it for it, _ in pool]
    groups, suggestions = incident_links.link(items)
    written: list[dict[str, Any]] = []
    kept: set[str] = set()
    cluster_of: dict[str, str] = {}
    for g in groups:
        members = [items[i] for i in g]
        cid = incident_links.cluster_id(members)
        kept.add(cid)
        cluster_of.update((m.key, cid) for m in members)
        if old.get(cid) == {m.key for m in members}:
            continue  # unchanged: its stored row (and any review on it) stays as it is
        rec = build.incident_record(members, aliases)
        written.append(rec)
        store.execute("DELETE FROM incidents WHERE incident_id = ?", (cid,))
        store.execute(build.INCIDENT_INSERT, build.incident_row(rec))
        store.execute("DELETE FROM entity_refs WHERE ref_id = ?", (cid,))
        store.executemany(state.REF_INSERT, state.incident_refs([rec]))
        for i in g:
            store.execute("DELETE FROM incident_items WHERE item_key = ?", (items[i].key,))
            store.execute(state.ITEM_INSERT, state.item_row(*pool[i], cid))
    for cid in set(old) - kept:
        store.execute("DELETE FROM incidents WHERE incident_id = ?", (cid,))
        store.execute("DELETE FROM entity_refs WHERE ref_id = ?", (cid,))
    types = {it.key: it.incident.type for it in items}
    suggest.write_incident_suggestions(store, suggestions, cluster_of, types, set(cluster_of))
    return written
