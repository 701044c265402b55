"""Blind held-out gold: ten composed articles nobody tuned on, scored through the real CLI.

The texts (tests/fixtures/blind/docs) differ from the seeds in conflict, outlet and style:
AP wire with a dateline, a second outlet retelling the same shelling with a revised toll,
a look-alike market strike that must stay apart, a UN panel excerpt with numbers in
words, a British long-form feature with multi-paragraph single quotes, an official
denial, an intercepted call with nested quotes, an NGO follow-up, a Q/A testimony
transcript and an HTML page with boilerplate. Floors sit a little under the figures
measured when the set was written, so regressions show; known gaps are strict xfails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import gold_set_texts, gold_strings, ingest_and_score
from corroborator.evaluation import load_gold

BLIND = Path(__file__).parent / "fixtures" / "blind"
DOCS = BLIND / "docs"
GOLD = BLIND / "gold.jsonl"

# Measured on first run, before anyone tuned on this set (incidents .598, quotes .943, with
# speaker .657, same_story 1, entities .741, overall .749). After two rounds of general fixes
# driven by its failure list (so no longer blind): incidents .737, quotes and with speaker
# 1.0, entities .970, overall .927; fields killed_low .857, location .643, date .786.
# Date 8/12 since an act's date no longer comes from a sentence that recalls another act
# outside its own ("the fourth facility hit in May 2019 alone" here; +7 on other sets).
# Date 8/13 since the report's one date no longer dates an act told before it (session 35):
# a feature here dates its killing only in a later summary its extraction reads as another
# incident; the rule gave 29 right dates more on nine precision sets for this one.
FLOORS = {
    "incidents": 0.65,
    "quotes": 0.92,
    "quotes_with_speaker": 0.9,
    "same_story": 1.0,
    "entities": 0.88,
}
FIELD_FLOORS = {"killed_low": 0.75, "location": 0.55, "date": 0.6}
OVERALL_FLOOR = 0.85


def _gold() -> list[dict[str, Any]]:
    return load_gold(GOLD)


def _source_texts() -> dict[str, str]:
    return gold_set_texts(DOCS)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Ingest the blind folder once into a fresh database; score and export it."""
    return ingest_and_score(tmp_path_factory.mktemp("blind"), DOCS, GOLD)


def test_gold_strings_occur_verbatim_in_sources() -> None:
    texts = _source_texts()
    missing = [(f, s) for f, s in gold_strings(_gold()) if s not in texts[f]]
    assert not missing
    corpus = "\n".join(texts.values())
    aliases = [a for r in _gold() if r["kind"] == "entity" for a in r["aliases"]]
    assert aliases and all(a in corpus for a in aliases)


def test_gold_mentions_are_five_to_twenty_words() -> None:
    lengths = [
        len(m["quote"].split()) for r in _gold() if r["kind"] == "incident" for m in r["mentions"]
    ]
    assert lengths and all(5 <= n <= 20 for n in lengths)


def test_gold_strings_occur_in_working_texts(run: dict[str, Any]) -> None:
    """The HTML page's extracted text (not only its markup) holds every gold string."""
    texts = {d["source_file"]: d["text"] for d in run["documents"]}
    assert len(texts) == 10
    assert [(f, s) for f, s in gold_strings(_gold()) if s not in texts[f]] == []


def test_html_page_metadata_and_boilerplate(run: dict[str, Any]) -> None:
    page = next(d for d in run["documents"] if d["source_file"] == "gaza_shelter.html")
    assert page["outlet"] == "The Levant Ledger"
    assert page["published"] == "2024-07-07"
    for boilerplate in ("Most read", "All rights reserved", "Subscribe for just", "picnic"):
        assert boilerplate not in page["text"]


@pytest.mark.parametrize("kind", sorted(FLOORS))
def test_f1_floor(run: dict[str, Any], kind: str) -> None:
    assert run["report"][kind]["f1"] >= FLOORS[kind], run["report"][kind]


@pytest.mark.parametrize("field", sorted(FIELD_FLOORS))
def test_field_floor(run: dict[str, Any], field: str) -> None:
    assert run["report"]["fields"][field]["accuracy"] >= FIELD_FLOORS[field]


def test_overall_floor(run: dict[str, Any]) -> None:
    assert run["report"]["overall_f1"] >= OVERALL_FLOOR


def test_look_alike_strike_stays_apart(run: dict[str, Any]) -> None:
    """Nyala (Oct 2023, army jet) and El Fasher (Jun 2024, RSF shells) share no incident."""
    stories = {d["source_file"]: d["story_id"] for d in run["documents"]}
    assert stories["b01-ap-elfasher"] == stories["b02-courier-alfashir"]
    assert stories["b03-nilewire-nyala"] != stories["b01-ap-elfasher"]
    ids = {d["document_id"]: d["source_file"] for d in run["documents"]}
    for incident in run["incidents"]:
        files = {ids[m["document_id"]] for m in incident["mentions"]}
        assert not (
            "b03-nilewire-nyala" in files and files & {"b01-ap-elfasher", "b02-courier-alfashir"}
        )


def test_cross_document_incident_link(run: dict[str, Any]) -> None:
    assert run["report"]["cross_document_links"]["recall"] >= 1.0


def test_testimony_transcript_incidents(run: dict[str, Any]) -> None:
    """The Q/A testimony transcript (first-person answers, no reporting verbs) had yielded
    no incident until session 31: 'drove me to the building of the regional police' now
    tells the detention."""
    ids = {d["document_id"]: d["source_file"] for d in run["documents"]}
    files = {ids[m["document_id"]] for i in run["incidents"] for m in i["mentions"]}
    assert "testimony_k14.txt" in files


def _denial_stances(run: dict[str, Any]) -> tuple[int, int]:
    """(gold 'denies' quotes the system also marks 'denies', gold 'denies' quotes)."""
    gold = [r for r in _gold() if r["kind"] == "quote" and r["stance"] == "denies"]
    ids = {d["document_id"]: d["source_file"] for d in run["documents"]}
    hits = 0
    for g in gold:
        head = g["text"][:25]
        hits += any(
            ids[q["document_id"]] == g["source_file"]
            and head in q["text"]
            and q["stance"] == "denies"
            for q in run["quotes"]
        )
    return hits, len(gold)


def test_denial_stance_floor(run: dict[str, Any]) -> None:
    hits, total = _denial_stances(run)
    assert total == 6 and hits >= 2


def test_denial_stance_most(run: dict[str, Any]) -> None:
    hits, total = _denial_stances(run)
    assert hits >= 5
