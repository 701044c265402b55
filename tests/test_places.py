"""PlacesStage: resolution on the seeds (hand-checked GeoNames ids) and on varied text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from spacy.language import Language

from corroborator.models import PlaceRef
from corroborator.nlp.pipeline import DocContext, load_nlp
from corroborator.nlp.stages.entities import EntitiesStage
from corroborator.nlp.stages.places import PlacesStage

SEEDS = Path("/work/shared/seeds")
if not SEEDS.exists():
    SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"

UA, RU, KYIV, DONETSK_OBLAST, DONETSK_CITY = 690791, 2017370, 703448, 709716, 709717
# every occurrence of each surface form in the seed must resolve to one of the ids
GOLD: dict[str, dict[str, list[int]]] = {
    "000": {"Bakhmut": [713174], "Soledar": [706757], "Russia": [RU], "Ukraine": [UA]},
    "001": {
        "KYIV": [KYIV],
        "Ukraine": [UA],
        "Russia": [RU],
        "Soledar": [706757],
        "Bakhmut": [713174],
        "Donestk": [DONETSK_OBLAST],
    },
    "002": {
        "Kharkiv": [706483],
        "Ukraine": [UA],
        "Russia": [RU],
        "Sumy": [692194],
        "India": [1269750],
        "China": [1814991],
        "Persian Gulf": [-1],
        "Luhansk": [702658, 702657],
        "Budapest": [3054643],
        "Zahony": [713929],
        "Hungary": [719819],
        "Mariupol": [701822],
    },
    "003": {
        "Ukraine": [UA],
        "Moscow": [524901],
        "Bucha": [711350],
        "Kyiv": [KYIV],
        "Russia": [RU],
        "Kherson": [706442],
        "Donetsk": [DONETSK_OBLAST],
        "Mykolaiv": [700567],
    },
    "004": {
        "Ukraine": [UA],
        "Donetsk": [DONETSK_CITY],
        "Russia": [RU],
        "Byshiv": [711013],
        "Kyiv": [KYIV],
        "Kharkiv": [706483],
        "Schast’ye": [694725],
        "US": [6252001],
        "Mariupol": [701822],
        "Vasylkiv": [690412],
    },
}


@pytest.fixture(scope="session")
def nlp() -> Language:
    return load_nlp()


def places(nlp: Language, text: str) -> list[PlaceRef]:
    ctx = DocContext(doc=nlp(text))
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    for p in ctx.extraction.places:
        assert text[p.start : p.end] == p.text
    return ctx.extraction.places


def test_seed_place_mentions_resolve(nlp: Language) -> None:
    right = total = extra = 0
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        refs = {p.start: p for p in places(nlp, text)}
        gold_starts = set()
        for name, ids in GOLD[path.name[:3]].items():
            for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text):
                total += 1
                gold_starts.add(m.start())
                ref = refs.get(m.start())
                right += ref is not None and ref.geonames_id in ids and ref.end == m.end()
        extra += len(set(refs) - gold_starts)
    # measured 93/97: the misses are "Persian Gulf" (not in the data) and country names
    # inside armed-group names ("Moscow's forces", "Armed Forces of Ukraine")
    assert right / total >= 0.93, (right, total)
    assert extra == 0


def test_misspelt_region_resolves_in_document_country(nlp: Language) -> None:
    text = (
        "The men say these events took place in Soledar and Bakhmut in eastern "
        "Ukraine's Donestk region in February 2023."
    )
    refs = {p.text: p for p in places(nlp, text)}
    assert refs["Donestk"].geonames_id == DONETSK_OBLAST
    assert refs["Donestk"].precision == "admin1" and refs["Donestk"].admin1 == "Donetsk"
    assert refs["Bakhmut"].precision == "settlement" and refs["Bakhmut"].country == "UA"
    assert refs["Ukraine"].precision == "country"


def test_region_word_picks_the_oblast_bare_name_the_city(nlp: Language) -> None:
    text = (
        "Shelling hit Kharkiv overnight. Officials in the Kharkiv region said villages "
        "in the eastern Donetsk and southern Zaporizhzhia regions lost power."
    )
    refs = places(nlp, text)
    got = [(p.text, p.precision) for p in refs]
    assert got[0] == ("Kharkiv", "settlement")
    assert ("Kharkiv", "admin1") in got
    assert ("Donetsk", "admin1") in got and ("Zaporizhzhia", "admin1") in got


def test_unknown_names_and_the_west_do_not_break_others(nlp: Language) -> None:
    text = "Troops moved from Zzyzxograd to Kyiv, and the West condemned the attack."
    refs = places(nlp, text)
    assert [(p.text, p.geonames_id) for p in refs] == [("Kyiv", KYIV)]


def test_document_country_decides_ambiguous_towns(nlp: Language) -> None:
    ua = {p.text: p for p in places(nlp, "Russian forces shelled Kharkiv, Odesa and Donetsk.")}
    assert ua["Donetsk"].country == "UA"
    us = {p.text: p for p in places(nlp, "Flooding hit Paris, Texas, and Dallas on Sunday.")}
    assert us["Paris"].country == "US"


def test_namesake_abroad_loses_to_no_resolution(nlp: Language) -> None:
    # Kassel (Germany, ~200k people) in a story set in Sudan: a namesake, not the place
    text = (
        "Sudan's army said militias burned homes near Kassel overnight. Officials in "
        "Khartoum and Omdurman confirmed the attack in Sudan."
    )
    refs = {p.text: p for p in places(nlp, text)}
    assert "Kassel" not in refs
    assert refs["Khartoum"].country == "SD" and refs["Sudan"].precision == "country"
    # with no country context the same name still resolves
    alone = {p.text: p for p in places(nlp, "Militias burned homes near Kassel overnight.")}
    assert alone["Kassel"].country == "DE"


def test_regional_title_names_the_region_and_small_dateline_towns_resolve(
    nlp: Language,
) -> None:
    text = (
        "IRPIN, Ukraine (AP) — Shelling destroyed a school in the town, Zhytomyr "
        "regional Gov. Vitaliy Bunechko said."
    )
    got = [(p.text, p.name, p.precision) for p in places(nlp, text)]
    assert got[0] == ("IRPIN", "Irpin", "settlement")
    assert ("Zhytomyr", "Zhytomyr", "admin1") in got
