"""The Russian/Ukrainian development set (tests/fixtures/ru_uk), scored by `corroborator eval`.

25 short reports written for the project: Russian and Ukrainian retellings of incidents
with English counterparts, plus single reports. Floors sit a little under the figures
measured when the set was tuned, so a regression shows.
"""

from __future__ import annotations

import json
from pathlib import Path

from corroborator.exports.records import incidents
from corroborator.storage.db import open_store

HERE = Path(__file__).parent / "fixtures" / "ru_uk"


def _ingest(cli) -> None:
    assert cli("ingest", "--quiet", str(HERE / "docs.jsonl")).exit_code == 0


def test_eval_figures(cli, db: Path) -> None:
    _ingest(cli)
    result = cli("eval", "--json", str(HERE / "gold.jsonl"))
    figures = json.loads(result.output)
    f1 = {k: v["f1"] for k, v in figures.items() if isinstance(v, dict) and "f1" in v}
    assert f1["incidents"] >= 0.85
    assert f1["quotes_with_speaker"] >= 0.85
    assert f1["same_story"] >= 0.9
    assert f1["entities"] >= 0.7
    assert f1["cross_document_links"] >= 0.6


def test_languages_detected_and_one_incident_across_three_languages(cli, db: Path) -> None:
    _ingest(cli)
    store = open_store(str(db))
    docs = {d["document_id"]: d for d in store.documents(with_text=False)}
    by_file = {d["source_file"]: d for d in docs.values()}
    assert {f: by_file[f]["language"] for f in ("en_01", "uk_01", "ru_01")} == {
        "en_01": "en",
        "uk_01": "uk",
        "ru_01": "ru",
    }
    assert len({by_file[f]["story_id"] for f in ("en_01", "uk_01", "ru_01")}) == 1
    market = [
        i
        for i in incidents(store)
        if {"en_01", "uk_01"} <= {docs[m["document_id"]]["source_file"] for m in i["mentions"]}
    ]
    assert len(market) == 1
    assert market[0]["location"]["geonames_id"] == 705104  # Kostiantynivka, Donetsk
    assert market[0]["corroboration"]["independent_sources"] == 3


def test_heldout_figures(cli, db: Path) -> None:
    """Five texts written after tuning (scored once: incidents 0.667, overall 0.867)."""
    held = HERE / "heldout"
    assert cli("ingest", "--quiet", str(held / "docs.jsonl")).exit_code == 0
    figures = json.loads(cli("eval", "--json", str(held / "gold.jsonl")).output)
    assert figures["incidents"]["f1"] >= 0.6
    assert figures["quotes_with_speaker"]["f1"] >= 0.9
    assert figures["same_story"]["f1"] >= 0.9
