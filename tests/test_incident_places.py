"""Incident precision and place on the second precision sets, through the real CLI.

tests/fixtures/precision/dev2 (4 reports) and held2 (2, scored once after the rules were
final) were written for issue 11 item 3: a headline naming where the news is, a town in a
list of front-line towns, a victim's home town beside the act's place, an earlier strike
the report dates its news by, a campaign's count, a generic accusation. Floors sit just
under the figures measured: dev2 before .800/.800, location .500; after 1.0/1.0, location
1.0. held2 scored once .250/.333 (location 0/1) before and after; the seeds' location
field .571 -> .607 (the caption fold).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import gold_set_texts, ingest_and_score, shared_path

PRECISION = Path(__file__).parent / "fixtures" / "precision"

# part: (incident precision, recall, location accuracy) floors
FLOORS = {"dev2": (0.95, 0.95, 0.95), "held2": (0.25, 0.33, 0.0)}


@pytest.fixture(scope="module", params=sorted(FLOORS))
def scored(request, tmp_path_factory) -> tuple[str, dict[str, Any]]:
    part = request.param
    folder = PRECISION / part
    return part, ingest_and_score(
        tmp_path_factory.mktemp(part), folder / "docs", folder / "gold.jsonl"
    )


def test_gold_strings_occur_verbatim() -> None:
    for part in FLOORS:
        texts = gold_set_texts(PRECISION / part / "docs")
        gold = [json.loads(line) for line in (PRECISION / part / "gold.jsonl").open()]
        mentions = [(m["source_file"], m["quote"]) for g in gold for m in g["mentions"]]
        assert all(q in texts[f] for f, q in mentions)
        assert all(5 <= len(q.split()) <= 20 for _, q in mentions)


def test_incident_and_location_floors(scored) -> None:
    part, out = scored
    p_floor, r_floor, loc_floor = FLOORS[part]
    report = out["report"]
    assert report["incidents"]["precision"] >= p_floor, report["incidents"]
    assert report["incidents"]["recall"] >= r_floor, report["incidents"]
    assert report["fields"]["location"]["accuracy"] >= loc_floor, report["fields"]
    assert report["grounding"]["field_spans"]["accuracy"] == 1.0


def test_every_location_keeps_its_words(scored) -> None:
    _, out = scored
    texts = {d["document_id"]: d["text"] for d in out["documents"]}
    located = [i for i in out["incidents"] if (i.get("location") or {}).get("name")]
    assert located
    for inc in located:
        for span in inc["field_spans"]["location"]:
            assert texts[span["document_id"]][span["start"] : span["end"]] == span["text"]


def test_seed_location_field_floor(tmp_path: Path) -> None:
    """A photo caption hosts no retelling: .571 -> .607 (17/28) on the seeds. Then 16/28:
    the Kharkiv POW's account in one report names its place only as "Ukrainian", and now
    that a shared story joins it to the other outlet's retelling (cross-document links
    .50 -> .75), the merged record carries that country, not Kharkiv."""
    out = ingest_and_score(tmp_path, shared_path("seeds"), shared_path("gold", "seeds.jsonl"))
    assert out["report"]["fields"]["location"]["accuracy"] >= 0.57
    assert out["report"]["cross_document_links"]["recall"] >= 0.75
