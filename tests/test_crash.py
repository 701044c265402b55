"""Killed runs leave whole records or nothing, and a rerun completes them.

The slow test drives `benchmarks/crash.py` (SIGKILL of real CLI and server processes) at a
small size; the others pin the two bugs it found, without a kill.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from corroborator import review
from corroborator.linking import state
from corroborator.process import extract_batch, process
from corroborator.storage.db import Store, open_store

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _bench(name: str) -> Any:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def _ingested(tmp_path: Path, cli_args: list[str]) -> Store:
    from click.testing import CliRunner

    from corroborator.cli import cli

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text(
        "Soldiers shot three civilians in the village square of Marivka on 6 March, "
        "witnesses told the Northern Dispatch.",
        encoding="utf-8",
    )
    (folder / "b.txt").write_text(
        "Rockets hit a school in Kamianka on 2 May, killing two teachers, officials said.",
        encoding="utf-8",
    )
    db = str(tmp_path / "c.db")
    done = CliRunner().invoke(cli, ["--db", db, "ingest", "--quiet", *cli_args, str(folder)])
    assert done.exit_code == 0, done.output
    return open_store(db)


def test_documents_extracted_but_killed_before_linking_are_linked_by_the_next_run(
    tmp_path: Path,
) -> None:
    from corroborator.nlp.pipeline import default_stages, stages_version

    store = _ingested(tmp_path, ["--no-extract"])
    docs = store.documents()
    version = stages_version(default_stages())
    # what a run killed after saving its extractions, before linking them, leaves behind
    for doc_id, payload in extract_batch(
        [(d["document_id"], d["text"], d["published"], d["language"]) for d in docs]
    ):
        store.save_extraction(doc_id, version, payload)
    assert store.stale_documents(version) == [] and state.behind(store)
    done = process(store)
    assert done.extracted == 0 and done.link_mode == "full"
    assert not state.behind(store)
    stories = [d["story_id"] for d in store.documents(with_text=False)]
    assert len(stories) == 2 and all(stories)
    assert process(store).link_mode is None  # nothing left to do


def test_a_review_that_dies_before_it_is_shown_is_not_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _ingested(tmp_path, ["--no-extract"])
    doc = store.documents(with_text=False)[0]["document_id"]
    incident = {
        "incident_id": "iA",
        "type": "killing_civilians",
        "status": "alleged",
        "summary": "Three civilians were allegedly shot.",
        "corroboration": {"documents": 1, "independent_sources": 1, "score": 0.3},
        "mentions": [{"document_id": doc, "source_file": "a.txt", "start": 0, "end": 8}],
    }
    review.write_incidents(store, [incident])
    entries = len(store.ledger())

    def dies(_store: Store, _incidents: list[dict[str, Any]]) -> None:
        raise KeyboardInterrupt  # the process stops between logging and showing

    monkeypatch.setattr(review, "write_incidents", dies)
    with pytest.raises(KeyboardInterrupt):
        review.submit(store, "confirm", "iA", {}, "ana")
    assert store.rows("SELECT * FROM reviews") == []
    assert len(store.ledger()) == entries
    monkeypatch.undo()
    review.submit(store, "confirm", "iA", {}, "ana")
    shown = store.one("SELECT record FROM incidents WHERE incident_id = 'iA'")
    assert shown and '"review_state": "confirmed"' in shown["record"]


@pytest.mark.slow
def test_killed_ingest_extract_and_review_lose_nothing() -> None:
    crash = _bench("crash")
    out = crash.main(
        [
            "--runs",
            "5",
            "--docs",
            "100",
            "--extract-runs",
            "3",
            "--extract-docs",
            "12",
            "--review-runs",
            "2",
            "--seed",
            "3",
        ]
    )
    ing, ext, rev = out["ingest"], out["extract"], out["review"]
    assert ing.runs == 5 and ing.failed_reruns == 0, ing.notes
    assert ing.lost == ing.changed == 0
    assert ing.final_missing == ing.final_duplicates == ing.final_wrong_hash == 0
    assert ing.partial_verify_problems == ing.final_verify_problems == ing.orphans == 0
    assert ext.failed_reruns == 0, ext.notes
    assert ext.half_written == ext.differs_from_reference == ext.verify_problems == 0
    assert ext.final_unextracted == ext.final_unlinked == ext.final_link_diffs == 0
    assert rev.runs == 2 and rev.acknowledged > 0
    assert rev.acknowledged_missing == rev.ledger_mismatches == 0
    assert rev.unapplied == rev.verify_problems == 0


def test_ingest_sweeps_partial_archive_files_of_dead_writers(tmp_path: Path) -> None:
    import subprocess

    from corroborator.ingest.archive import INCOMING, Archive
    from corroborator.ingest.runner import ingest_paths

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    root = tmp_path / "c.archive"
    (root / "ab").mkdir(parents=True)
    stale = root / "ab" / f"{INCOMING}{dead.stdout.strip()}-x1"
    live = root / "ab" / f"{INCOMING}{os.getpid()}-x2"
    for f in (stale, live):
        f.write_bytes(b"half a file")
    doc = tmp_path / "a.txt"
    doc.write_text(
        "Shelling hit the market in Kamianka on Monday, officials said.", encoding="utf-8"
    )
    store = open_store(str(tmp_path / "c.db"))
    assert len(ingest_paths(store, Archive(root), [str(doc)]).stored) == 1
    assert not stale.exists() and live.exists()
