"""Review log: recorded with a ledger entry, replayed idempotently, undone by later reviews."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from corroborator import review
from corroborator.cli import cli
from corroborator.ledger import check_chain
from corroborator.storage.db import Store, open_store

TEXTS = {
    "a.txt": "Soldiers shot three civilians in the village square on Monday, witnesses said.",
    "b.txt": "Three civilians were shot dead in the village square, a local official said.",
    "c.txt": "Soldiers shot three civilians in the village square on Monday, witnesses said. (wire)",
}


def _incident(iid: str, doc_id: str, killed: int, place: str) -> dict[str, Any]:
    return {
        "incident_id": iid,
        "type": "killing_civilians",
        "summary": f"{killed} civilians shot.",
        "perpetrators": [{"name": "soldiers", "entity_id": None}],
        "victims": ["civilians"],
        "killed": {"low": killed, "high": killed, "approx": False},
        "wounded": {"low": None, "high": None, "approx": False},
        "location": {
            "name": place,
            "geonames_id": None,
            "lat": 48.0,
            "lon": 37.0,
            "admin1": None,
            "country": None,
            "precision": "settlement",
        },
        "date": {"start": "2023-03-06", "end": "2023-03-06", "precision": "day"},
        "evidence_types": ["witness_testimony"],
        "status": "alleged",
        "hedges": [],
        "corroboration": {"documents": 1, "independent_sources": 1, "score": 0.3},
        "contradictions": [],
        "mentions": [
            {
                "document_id": doc_id,
                "source_file": "x.txt",
                "start": 0,
                "end": 20,
                "text": "x" * 20,
            },
            {
                "document_id": doc_id,
                "source_file": "x.txt",
                "start": 30,
                "end": 40,
                "text": "y" * 10,
            },
        ],
    }


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    src = tmp_path / "in"
    src.mkdir()
    for name, text in TEXTS.items():
        (src / name).write_text(text, encoding="utf-8")
    db = str(tmp_path / "r.db")
    result = CliRunner().invoke(cli, ["--db", db, "ingest", "--no-extract", "--quiet", str(src)])
    assert result.exit_code == 0, result.output
    s = open_store(db)
    docs = s.documents(with_text=False)
    incs = [
        _incident("iA", docs[0]["document_id"], 3, "Village"),
        _incident("iB", docs[1]["document_id"], 5, "Village"),
    ]
    review.write_incidents(s, incs)
    return s


def _docs(store: Store) -> list[str]:
    return [d["document_id"] for d in store.documents(with_text=False)]


def _table(store: Store) -> dict[str, dict[str, Any]]:
    return {
        json.loads(r["record"])["incident_id"]: json.loads(r["record"])
        for r in store.rows("SELECT record FROM incidents")
    }


def test_review_is_a_row_and_a_chained_ledger_entry(store: Store) -> None:
    before = len(store.ledger())
    done = review.submit(store, "confirm", "iA", {}, "ana", "checked against video")
    row = store.one("SELECT * FROM reviews WHERE review_id = ?", (done["review_id"],))
    assert row is not None and row["reviewer"] == "ana" and row["action"] == "confirm"
    entries = store.ledger()
    assert len(entries) == before + 1 and entries[-1].kind == "review"
    assert entries[-1].subject == done["review_id"] and row["ledger_seq"] == entries[-1].seq
    assert check_chain(entries) == []
    assert _table(store)["iA"]["review_state"] == "confirmed"


def test_bad_reviews_are_refused_and_leave_nothing(store: Store) -> None:
    n = len(store.ledger())
    for action, target, payload, reason in [
        ("merge", "iA", {"other": "iA"}, "same"),  # merge with itself
        ("merge", "iA", {"other": "nope"}, "x"),  # unknown partner
        ("correct", "iA", {"field": "killed", "value": {"low": 5, "high": 2}}, "typo"),
        ("correct", "iA", {"field": "type", "value": "massacre"}, "x"),  # not in taxonomy
        ("correct", "iA", {"field": "killed", "value": {"low": 1, "high": 2}}, ""),  # no reason
        ("reject", "missing", {}, "x"),
        ("undo", "r-none", {}, "x"),
    ]:
        with pytest.raises(review.ReviewError):
            review.submit(store, action, target, payload, "ana", reason)
    assert len(store.ledger()) == n and store.rows("SELECT * FROM reviews") == []


def test_merge_keeps_both_figures_as_a_contradiction(store: Store) -> None:
    review.submit(store, "merge", "iA", {"other": "iB"}, "ana", "same shooting, two outlets")
    table = _table(store)
    assert set(table) == {"iA"}
    merged = table["iA"]
    assert merged["merged_from"] == ["iB"] and len(merged["mentions"]) == 4
    assert merged["corroboration"]["documents"] == 2
    killed = [c for c in merged["contradictions"] if c["field"] == "killed"]
    assert [v["value"] for v in killed[0]["values"]] == [3, 5]


def test_replay_is_idempotent_and_survives_fresh_machine_output(store: Store) -> None:
    machine = list(_table(store).values())
    review.submit(store, "merge", "iA", {"other": "iB"}, "ana", "same event")
    review.submit(
        store,
        "correct",
        "iA",
        {"field": "killed", "value": {"low": 4, "high": 4}},
        "ben",
        "official toll",
    )
    once = _table(store)
    docs = store.documents(with_text=False)
    again, _ = review.apply_reviews(store, list(once.values()), docs)
    assert again == list(once.values())  # replaying on reviewed records changes nothing
    fresh, _ = review.apply_reviews(store, machine, docs)  # as after a relink
    assert fresh == list(once.values())
    assert fresh[0]["killed"] == {"low": 4, "high": 4, "approx": False}
    assert fresh[0]["corrections"][0]["old"] == {"low": 3, "high": 3, "approx": False}


def test_undo_switches_a_review_off_and_undoing_the_undo_back_on(store: Store) -> None:
    machine = list(_table(store).values())
    docs = store.documents(with_text=False)
    merge = review.record_review(store, "merge", "iA", {"other": "iB"}, "ana", "same event")
    undo = review.record_review(store, "undo", merge["review_id"], {}, "ben", "different days")
    incs, _ = review.apply_reviews(store, machine, docs)
    assert {i["incident_id"] for i in incs} == {"iA", "iB"}
    review.record_review(store, "undo", undo["review_id"], {}, "ana", "video shows one event")
    incs, _ = review.apply_reviews(store, machine, docs)
    assert {i["incident_id"] for i in incs} == {"iA"}
    hist = review.history(store, ["iB"])
    assert [h["action"] for h in hist] == ["merge", "undo", "undo"]
    assert [h["undone"] for h in hist] == [False, True, False]


def test_split_moves_mentions_to_a_new_incident(store: Store) -> None:
    a = _table(store)["iA"]
    m = a["mentions"][1]
    done = review.submit(
        store, "split", "iA", {"mentions": [m]}, "ana", "second paragraph is a different attack"
    )
    table = _table(store)
    new = [i for i in table.values() if i.get("split_from") == "iA"]
    assert len(new) == 1 and new[0]["mentions"] == [m]
    assert table["iA"]["mentions"] == [a["mentions"][0]]
    assert done["review_id"] in new[0]["review_ids"]
    # splitting every mention out would leave an empty incident: nothing happens
    review.submit(store, "split", "iA", {"mentions": table["iA"]["mentions"]}, "ana", "all")
    assert len(_table(store)) == 3


def test_copy_mark_counts_the_copy_once(store: Store) -> None:
    d0, d1, _d2 = _docs(store)
    review.submit(store, "merge", "iA", {"other": "iB"}, "ana", "same event")
    assert _table(store)["iA"]["corroboration"]["independent_sources"] == 2
    review.submit(store, "copy", d1, {"original": d0}, "ana", "reprint of the wire story")
    assert store.documents([d1], with_text=False)[0]["duplicate_of"] == d0
    assert _table(store)["iA"]["corroboration"]["independent_sources"] == 1
    assert _table(store)["iA"]["corroboration"]["documents"] == 2
