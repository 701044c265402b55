"""Incremental linking: one new document re-links only what it touches, with the result a
full relink would give."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import EXAMPLE_DOCS
from corroborator.linking import copies, incremental, minhash, state, stories
from corroborator.linking.build import relink
from corroborator.storage.db import Store, open_store

INPUT_FILES = sorted(EXAMPLE_DOCS.iterdir())  # every format; outlets.jsonl holds 3 records
TEXT_FILES = sorted(EXAMPLE_DOCS.glob("*.txt"))
N_DOCS = 11

UNRELATED = """FLOODS: Three villagers were killed when soldiers opened fire on a crowd near the river
port of Vellmora on Tuesday, the regional prosecutor Hanna Osterby said.

"They shot at people who were carrying sandbags," a fisherman told the Coastal Herald.
Osterby said an investigation had been opened into the shooting of civilians.
"""


def _ingest(db: str, *paths: Path, env: dict[str, str] | None = None) -> None:
    from corroborator.cli import cli

    result = CliRunner().invoke(
        cli, ["--db", db, "ingest", "--quiet", *map(str, paths)], env=env, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output


def _groups(store: Store) -> dict[str, Any]:
    """Story groups, incident mention sets and entity alias groups, by file name not id."""
    docs = store.documents(with_text=False)
    name = {d["document_id"]: d["source_file"] for d in docs}
    by_story: dict[str, set[str]] = {}
    for d in docs:
        by_story.setdefault(d["story_id"], set()).add(d["source_file"])
    incidents = [json.loads(r["record"]) for r in store.rows("SELECT record FROM incidents")]
    entities = [json.loads(r["record"]) for r in store.rows("SELECT record FROM entities")]
    return {
        "stories": sorted(sorted(g) for g in by_story.values()),
        "incidents": sorted(
            sorted((m["source_file"], m["start"], m["end"]) for m in i["mentions"])
            for i in incidents
        ),
        "entities": sorted(sorted(e["aliases"]) for e in entities),
        "duplicates": sorted(
            (d["source_file"], name.get(d["duplicate_of"] or "")) for d in docs if d["duplicate_of"]
        ),
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The examples ingested together, and one file per run (counting incremental relinks)."""
    root = tmp_path_factory.mktemp("incremental")
    together, apart = root / "together.db", root / "apart.db"
    calls: list[list[str]] = []
    real = incremental.link_new

    def spy(store: Store, new_ids: list[str]) -> Any:
        calls.append(list(new_ids))
        return real(store, new_ids)

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("CORROBORATOR_ARCHIVE", raising=False)
        mp.setattr(incremental, "link_new", spy)
        _ingest(str(together), *INPUT_FILES)
        together_calls = len(calls)
        for f in INPUT_FILES:
            _ingest(str(apart), f)
    yield {"together": together, "apart": apart, "calls": calls, "together_calls": together_calls}


def _copy_db(src: Path, dest: Path) -> Path:
    for part in src.parent.glob(src.name + "*"):  # the database and its WAL
        shutil.copy(part, dest / part.name)
    shutil.copytree(src.with_suffix(".archive"), dest / src.with_suffix(".archive").name)
    return dest / src.name


def test_one_file_at_a_time_links_like_all_together(built: dict[str, Any]) -> None:
    assert built["together_calls"] == 0  # an empty database is linked in full
    assert len(built["calls"]) == len(INPUT_FILES) - 1  # every later file incrementally
    together = _groups(open_store(str(built["together"])))
    apart = _groups(open_store(str(built["apart"])))
    assert together["stories"] == apart["stories"]
    assert any(len(g) > 1 for g in apart["stories"])
    assert together["incidents"] == apart["incidents"]
    assert any(len({m[0] for m in i}) > 1 for i in apart["incidents"]), "no cross-document link"
    assert together["entities"] == apart["entities"]
    assert together["duplicates"] == apart["duplicates"]


def test_quotes_follow_entities_renamed_by_later_documents(built: dict[str, Any]) -> None:
    def quotes(path: Path) -> dict[str, str]:
        rows = sqlite3.connect(path).execute("SELECT quote_id, record FROM quotes").fetchall()
        return dict(rows)

    assert quotes(built["together"]) == quotes(built["apart"])


def test_copy_ingested_later_is_marked_and_touches_only_new_rows(
    built: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CORROBORATOR_ARCHIVE", raising=False)
    db = _copy_db(built["apart"], tmp_path)
    store = open_store(str(db))
    before = {r["incident_id"]: r["record"] for r in store.rows("SELECT * FROM incidents")}
    source = EXAMPLE_DOCS / "balakliia_report.txt"
    text = source.read_text("utf-8")
    wire = tmp_path / "reprint.txt"
    wire.write_text("REPRINTED from a wire service.\n\n" + text.replace("\n\n", "\n", 3), "utf-8")
    _ingest(str(db), wire)
    docs = {d["source_file"]: d for d in open_store(str(db)).documents(with_text=False)}
    original = docs[source.name]
    assert docs["reprint.txt"]["duplicate_of"] == original["document_id"]
    assert docs["reprint.txt"]["story_id"] == original["story_id"]
    store = open_store(str(db))
    after = {r["incident_id"]: r["record"] for r in store.rows("SELECT * FROM incidents")}
    assert set(before) <= set(after)
    for inc_id in (i for i in before if before[i] != after[i]):
        # rewritten only because the copy joins it, or names its perpetrator the copy's way
        old, new = json.loads(before[inc_id]), json.loads(after[inc_id])
        joined = "reprint.txt" in {m["source_file"] for m in new["mentions"]}
        assert joined or {k for k in old if old[k] != new[k]} == {"perpetrators"}
    # and the incremental result is exactly what a full relink writes
    incremental_rows = {t: _records(store, t) for t in ("incidents", "entities", "quotes")}
    assert relink(store).mode == "full"
    assert incremental_rows == {t: _records(store, t) for t in ("incidents", "entities", "quotes")}


def _records(store: Store, table: str) -> set[str]:
    return {r["record"] for r in store.rows(f"SELECT record FROM {table}")}


def test_unrelated_document_reads_no_other_text_and_rewrites_nothing(
    built: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CORROBORATOR_ARCHIVE", raising=False)
    db = _copy_db(built["apart"], tmp_path)
    store = open_store(str(db))
    tables = {
        "incidents": "incident_id",
        "entities": "entity_id",
        "quotes": "quote_id",
        "story_vectors": "document_id",
    }
    before = {t: {r[k]: r for r in store.rows(f"SELECT * FROM {t}")} for t, k in tables.items()}
    docs_before = {d["document_id"]: d for d in store.documents(with_text=False)}
    new = tmp_path / "vellmora.txt"
    new.write_text(UNRELATED, "utf-8")
    asked: list[tuple[tuple[str, ...] | None, bool]] = []
    real = Store.documents

    def spy(self: Store, ids: Any = None, with_text: bool = True) -> list[dict[str, Any]]:
        asked.append((tuple(ids) if ids is not None else None, with_text))
        return real(self, ids, with_text)

    monkeypatch.setattr(Store, "documents", spy)
    _ingest(str(db), new)
    monkeypatch.undo()
    store = open_store(str(db))
    new_id = next(
        d["document_id"]
        for d in store.documents(with_text=False)
        if d["source_file"] == "vellmora.txt"
    )
    texts_read = [ids for ids, with_text in asked if with_text]
    assert texts_read and all(ids is not None and set(ids) == {new_id} for ids in texts_read)
    assert store.rows("SELECT 1 AS x FROM incidents WHERE record LIKE '%vellmora.txt%'")
    for table, key in tables.items():
        after = {r[key]: r for r in store.rows(f"SELECT * FROM {table}")}
        for k, row in before[table].items():
            assert after.get(k) == row, (table, k)
    for d in store.documents(with_text=False):
        if d["document_id"] in docs_before:
            assert d == docs_before[d["document_id"]]
    assert store.one("SELECT value FROM link_meta WHERE name = 'n_docs'") == {
        "value": str(N_DOCS + 1)
    }


def test_band_keys_find_what_datasketch_lsh_finds() -> None:
    from datasketch import LeanMinHash, MinHash, MinHashLSH

    texts = [p.read_text("utf-8") for p in TEXT_FILES]
    edited = texts[1].replace("said", "says", 4)
    sigs = [copies.signature(t) for t in [*texts, edited]]
    lsh = MinHashLSH(threshold=0.3, num_perm=minhash.NUM_PERM)
    assert (lsh.b, lsh.r) == (minhash.BANDS, minhash.ROWS)
    for i, (t, s) in enumerate(zip([*texts, edited], sigs, strict=True)):
        m = MinHash(num_perm=minhash.NUM_PERM, seed=minhash.SEED, hashfunc=copies._hash32)
        m.update_batch(list(copies._shingles(t)))
        lean = LeanMinHash(m)
        buf = bytearray(lean.bytesize())
        lean.serialize(buf)
        assert bytes(buf) == s  # the signatures datasketch stored before
        if i < len(texts):
            lsh.insert(i, lean)
    found = set(lsh.query(LeanMinHash.deserialize(bytearray(sigs[-1]))))
    keys = set(state.band_keys(sigs[-1]))
    shared = {i for i, s in enumerate(sigs[:-1]) if keys & set(state.band_keys(s))}
    index = copies.CopyIndex()
    for i, s in enumerate(sigs[:-1]):
        index.add(str(i), s)
    assert found == shared == {int(i) for i in index.query(sigs[-1])} == {1}


def test_story_vector_round_trips_through_json() -> None:
    index = stories.StoryIndex()
    docs = [
        stories.StoryDoc(
            p.name,
            p.read_text("utf-8"),
            "2023-05-01",
            ("Someone",),
            ("Town",),
            event_place="Town",
            event_day="2023-04-30",
            act_days=("2023-04-29", "2023-04-30"),
            villages=("Town",),
        )
        for p in TEXT_FILES[:2]
    ]
    stories.assign_stories(docs, index=index)
    for doc_id, vec in index._vecs.items():
        assert len(vec.villages) == 1
        back = state.vec_from_json(doc_id, state.vec_json(vec))
        assert back == vec
        assert index.similarity(back, vec) == index.similarity(vec, vec)


PG = os.environ.get("CORROBORATOR_TEST_PG")


@pytest.mark.postgres
@pytest.mark.skipif(not PG, reason="CORROBORATOR_TEST_PG not set")
def test_incremental_on_postgres_matches_sqlite(
    built: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    assert PG
    name = "t_" + uuid.uuid4().hex[:10]
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = PG.rsplit("/", 1)[0] + "/" + name
    try:
        monkeypatch.setenv("CORROBORATOR_ARCHIVE", str(tmp_path / "archive"))
        calls: list[list[str]] = []
        real = incremental.link_new
        monkeypatch.setattr(
            incremental, "link_new", lambda s, ids: calls.append(ids) or real(s, ids)
        )
        for f in INPUT_FILES:
            _ingest(url, f)
        assert len(calls) == len(INPUT_FILES) - 1
        store = open_store(url)
        assert _groups(store) == _groups(open_store(str(built["together"])))
        assert store.one("SELECT value FROM link_meta WHERE name = 'n_docs'") == {
            "value": str(N_DOCS)
        }
        store.close()
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


BRIDGE = {
    "a_wire.txt": "Shelling hit the covered market in Vovchansk on Tuesday morning, killing seven "
    "traders. Rescuers pulled two women from the rubble of the market hall.\n",
    # the note shares no event word with the wire, even through the concept dictionary
    "c_note.txt": "Голова обласної адміністрації Олег Синєгубов висловив співчуття рідним. "
    "У місті оголосили день жалоби.\n",
    "b_full.txt": "Seven traders were killed when shells struck the market in Vovchansk, governor "
    "Oleh Syniehubov said on Tuesday, and the town declared a day of mourning. Rescuers "
    "worked in the market hall until evening.\n",
}


def test_a_new_report_bridging_two_stories_merges_them_in_the_database(tmp_path: Path) -> None:
    """An English wire naming only the town and a Ukrainian note naming only the governor
    stay apart; a report naming both joins them, and the older documents' stored story ids
    follow, as a full relink of all three would have them."""
    for name, text in BRIDGE.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    db = str(tmp_path / "inc.db")
    _ingest(db, tmp_path / "a_wire.txt", tmp_path / "c_note.txt")
    assert _groups(open_store(db))["stories"] == [["a_wire.txt"], ["c_note.txt"]]
    _ingest(db, tmp_path / "b_full.txt")
    store = open_store(db)
    assert _groups(store)["stories"] == [["a_wire.txt", "b_full.txt", "c_note.txt"]]
    stored = {r["story_id"] for r in store.rows("SELECT story_id FROM story_vectors")}
    assert stored == {d["story_id"] for d in store.documents(with_text=False)}
    assert relink(store).mode == "full"
    assert _groups(store)["stories"] == [["a_wire.txt", "b_full.txt", "c_note.txt"]]


FOLLOW_UP = {
    "wire.jsonl": {
        "id": "w1",
        "title": "Shelling kills four at a well in the village of Prydorozhne",
        "published": "2024-03-12",
        "text": "Russian artillery shelled the village of Prydorozhne in Zaporizhzhia region on "
        "Tuesday, killing four people who were queuing for water at the village well, regional "
        "officials said.\n\nThe dead were three women and a 70-year-old man, said the head of "
        "the village council, Petro Danylyuk. Two more residents were wounded and taken to "
        'hospital in Orikhiv.\n\n"They came to the well every morning because there has been '
        'no water in the pipes since autumn," Danylyuk said. Prosecutors opened a war crimes '
        "case over the shelling of Prydorozhne.",
    },
    "trial.jsonl": {
        "id": "t1",
        "title": "Court hears case over deadly shelling of Prydorozhne well",
        "published": "2024-07-20",
        "text": "A court in Zaporizhzhia began hearing in absentia the case of a Russian "
        "artillery commander charged over the shelling that killed four villagers at a well "
        "in Prydorozhne on 12 March.\n\nProsecutors say the officer ordered his battery to fire "
        "on the village although no Ukrainian positions were nearby. Three women and an "
        "elderly man died at the well, and two residents were wounded.\n\nThe village council "
        "head, Petro Danylyuk, told the court that residents had queued for water there every "
        "morning since the pipes froze.",
    },
}


def test_a_follow_up_months_on_joins_its_story_one_file_at_a_time(tmp_path: Path) -> None:
    """A trial four months after a strike on a village is its follow-up, outside the date
    window: stored reports are loaded whole to tell so, not read from their day alone, and
    the new report joins the story a full relink gives it."""
    for name, record in FOLLOW_UP.items():
        (tmp_path / name).write_text(json.dumps(record) + "\n", encoding="utf-8")
    db = str(tmp_path / "inc.db")
    _ingest(db, tmp_path / "wire.jsonl")
    _ingest(db, tmp_path / "trial.jsonl")
    store = open_store(db)
    assert _groups(store)["stories"] == [["t1", "w1"]]
    assert relink(store).mode == "full"
    assert _groups(store)["stories"] == [["t1", "w1"]]
