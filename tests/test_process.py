"""Extraction over stored documents: offsets exact everywhere, only stale documents redone."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLE_DOCS, run_fresh
from corroborator.exports.records import all_records
from corroborator.nlp.pipeline import extract
from corroborator.storage.db import archive_root_for, open_store


def _spans(record: Any) -> list[dict[str, Any]]:
    """Every nested dict that carries start/end/text."""
    found = []
    if isinstance(record, dict):
        if {"start", "end", "text"} <= set(record) and isinstance(record["start"], int):
            found.append(record)
        for v in record.values():
            found.extend(_spans(v))
    elif isinstance(record, list):
        for v in record:
            found.extend(_spans(v))
    return found


def test_every_stored_span_points_at_its_words(cli, db: Path) -> None:
    assert cli("ingest", "--quiet", str(EXAMPLE_DOCS)).exit_code == 0
    store = open_store(str(db))
    texts = {d["document_id"]: d["text"] for d in store.documents()}
    checked = 0
    for doc_id, payload in store.extractions().items():
        for span in _spans(payload):
            assert texts[doc_id][span["start"] : span["end"]] == span["text"]
            checked += 1
    recs = all_records(store, archive_root_for(str(db)))
    for kind in ("incidents", "quotes", "entities"):
        for rec in recs[kind]:
            for m in rec.get("mentions", []) + ([rec] if kind == "quotes" else []):
                assert texts[m["document_id"]][m["start"] : m["end"]] == m["text"]
                checked += 1
    assert checked > 300


def test_extract_redoes_only_stale_documents(cli, db: Path) -> None:
    assert cli("ingest", "--quiet", str(EXAMPLE_DOCS)).exit_code == 0
    assert cli("extract", "--quiet").output.strip() == "0 document(s) extracted"
    conn = sqlite3.connect(db)
    conn.execute(
        "UPDATE documents SET extracted_version = 'older' WHERE source_file = 'oicha_feature.txt'"
    )
    conn.commit()
    assert cli("extract", "--quiet").output.strip() == "1 document(s) extracted"
    assert cli("extract", "--all", "--quiet").output.strip() == "11 document(s) extracted"
    versions = conn.execute("SELECT COUNT(DISTINCT version) FROM extractions").fetchone()[0]
    assert versions == 1  # same stages: the stored output is refreshed, not duplicated
    out = cli("export", "--what", "incidents").output.splitlines()
    assert out and all(json.loads(x)["mentions"] for x in out)


def test_extraction_is_deterministic_on_an_example() -> None:
    text = (EXAMPLE_DOCS / "oicha_feature.txt").read_text(encoding="utf-8")
    assert extract(text) == extract(text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=1, max_size=400))
def test_extraction_never_crashes_on_arbitrary_text(text: str) -> None:
    ex = extract(text)
    for group in (ex.entities, ex.places, ex.dates, ex.counts, ex.quotes, ex.hedges):
        for rec in group:
            assert text[rec.start : rec.end] == rec.text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(
            [
                "He said: ‘We were ordered to shoot.",
                "“They killed 40 people,” she said.",
                "Shelling hit Kharkiv on 24 February.",
                "Soldiers’ families weren’t told.",
                "between 300 and 400 civilians were killed",
                "\n",
                " ",
                "‘",
                "’",
                "“",
                '"',
            ]
        ),
        min_size=1,
        max_size=12,
    ).map("".join)
)
def test_quote_heavy_fragments_keep_offsets(text: str) -> None:
    ex = extract(text)
    for q in ex.quotes:
        assert text[q.start : q.end] == q.text
    for inc in ex.incidents:
        for m in inc.mentions:
            assert text[m.start : m.end] == m.text


@pytest.mark.skipif(sys.platform != "linux", reason="the archiving child is Linux-only")
def test_warm_up_beside_returns_the_childs_result_and_raises_its_error() -> None:
    """In a fresh interpreter: once an earlier test has used Dask, this process keeps a
    thread, and nothing forks beside a thread. What follows the run (`then`) runs in a
    second child once the run is done, and its failure costs only itself (the caller does
    that work itself)."""
    out = run_fresh(
        """
        import os
        from corroborator.errors import CorroboratorError, InputError
        from corroborator.process import warm_up_beside

        child, then = warm_up_beside(lambda: os.getpid(), 2, lambda pid: (pid, os.getpid()))
        here, none = warm_up_beside(lambda: os.getpid(), 1, lambda pid: (pid, os.getpid()))
        kept, lost = warm_up_beside(lambda: "stored", 2, lambda done: 1 / 0)
        assert (kept, lost()) == ("stored", None)
        then, none = then(), none()
        assert then[0] == child and then[1] not in (child, os.getpid())

        def fail():
            raise InputError("x.txt", "unreadable")

        try:
            warm_up_beside(fail, jobs=2)
        except CorroboratorError as exc:
            print(child != os.getpid(), here == os.getpid(), none, exc)
        """
    )
    assert out.startswith("True True None ") and out.endswith("x.txt: unreadable"), out


def test_a_document_the_stages_fail_on_costs_only_itself(
    cli, db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stage's bug on one hostile text (here one injected into the numbers stage) once
    failed the whole ingest, and every later one, since the failing document stayed
    pending. Now it is archived, listed with its reason, and the rest is extracted."""
    from click.testing import CliRunner

    from corroborator.cli import cli as group
    from corroborator.nlp.stages import numbers

    real = numbers.NumbersStage.__call__

    def poisoned(self: numbers.NumbersStage, ctx: Any) -> None:
        if "POISON" in ctx.doc.text:
            raise ValueError("overlapping spans")
        real(self, ctx)

    monkeypatch.setattr(numbers.NumbersStage, "__call__", poisoned)
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "bad.txt").write_text("POISON. Shelling killed 3 people in Kherson on Monday.\n")
    (inputs / "good.txt").write_text("Shelling killed 4 people in Kharkiv on Tuesday.\n")
    run = CliRunner().invoke(group, ["ingest", "--quiet", "--jobs", "1", str(inputs)])
    assert run.exit_code == 1
    assert "not extracted: bad.txt: ValueError: overlapping spans" in run.output
    store = open_store(str(db))
    docs = {d["source_file"]: d["document_id"] for d in store.documents(with_text=False)}
    ex = store.extractions()
    assert set(docs) == {"bad.txt", "good.txt"}
    assert ex[docs["good.txt"]]["incidents"] and not ex[docs["bad.txt"]]["incidents"]
    assert [r["source_file"] for r in store.rejections()] == ["bad.txt"]
    later = tmp_path / "later.txt"
    later.write_text("Shelling killed 5 people in Sumy on Friday.\n")
    assert cli("ingest", "--quiet", str(later)).exit_code == 0  # bad.txt is not retried


def test_words_read_ahead_link_as_the_relink_would_read_them(tmp_path: Path) -> None:
    """What the archiving child reads ahead of linking (signatures, story terms, cited
    origins) gives the stories, incidents and signatures a relink reading them itself
    gives; where the new documents will be linked incrementally nothing is read ahead."""
    from corroborator.ingest.archive import Archive
    from corroborator.ingest.runner import ingest_paths
    from corroborator.linking.prepare import prepare
    from corroborator.process import process

    folders = [str(Path(__file__).parent / "fixtures" / "linking"), str(EXAMPLE_DOCS)]
    tables = []
    for ahead in (False, True):
        store = open_store(str(tmp_path / f"{ahead}.db"))
        stored = ingest_paths(store, Archive(tmp_path / f"{ahead}.archive"), folders).stored
        prepared = prepare(store, stored) if ahead else None
        assert not ahead or (prepared and len(prepared.readings) == len(stored) > 10)
        process(store, jobs=1, ahead=lambda read=prepared: read)
        tables.append(
            (
                store.rows("SELECT incident_id, record FROM incidents ORDER BY incident_id"),
                store.rows("SELECT document_id, story_id FROM documents ORDER BY document_id"),
                store.rows("SELECT document_id, signature FROM signatures ORDER BY document_id"),
            )
        )
    assert tables[0] == tables[1] and len(tables[0][0]) > 3
    one = tmp_path / "one"
    one.mkdir()
    (one / "late.txt").write_text(
        "KHERSON - A drone struck a bus in Bilozerka on Monday, killing two, officials said.\n",
        encoding="utf-8",
    )
    late = ingest_paths(store, Archive(tmp_path / "True.archive"), [str(one)]).stored
    assert late and prepare(store, late) is None
