"""PlacesStage: resolution on the seeds (hand-checked GeoNames ids) and on varied text."""

from __future__ import annotations

import re

import pytest
from spacy.language import Language

from conftest import shared_path
from corroborator.models import PlaceRef
from corroborator.nlp.pipeline import DocContext, load_nlp
from corroborator.nlp.stages.entities import EntitiesStage
from corroborator.nlp.stages.places import PlacesStage

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
    for path in sorted(shared_path("seeds").glob("*.txt")):
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


def test_a_village_after_a_city_s_name_is_one_of_its_region(nlp: Language) -> None:
    """'an occupied Kherson village' is in the Kherson region; 'Hrakove village' is Hrakove."""
    text = (
        "A man was killed in an occupied Kherson village, his daughter said. Soldiers shot "
        "two men in Hrakove village on Monday."
    )
    got = [(p.text, p.precision) for p in places(nlp, text)]
    assert got == [("Kherson", "admin1"), ("Hrakove", "settlement")]


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


def test_village_of_unknown_name_gets_its_region_from_the_phrase(nlp: Language) -> None:
    text = (
        "Soldiers shot four farmers near the village of Kravtsivka in Kherson region, "
        "officials in Ukraine said. In Kravtsivka, residents buried them on Friday."
    )
    refs = [p for p in places(nlp, text) if p.text == "Kravtsivka"]
    assert len(refs) == 2  # the later bare mention is the same village
    for ref in refs:
        assert (ref.name, ref.precision, ref.geonames_id) == ("Kravtsivka", "settlement", None)
        assert (ref.admin1, ref.country) == ("Kherson", "UA")
        # no id, but the position of the region the text puts it in
        assert ref.lat is not None and ref.lon is not None
        assert 45.5 < ref.lat < 47.5 and 32 < ref.lon < 35


def test_appositive_and_possessive_region_cues(nlp: Language) -> None:
    mali = {
        p.text: p
        for p in places(
            nlp, "Gunmen killed twelve people in Dundoura, a village near Mopti, the army said."
        )
    }
    assert mali["Dundoura"].precision == "settlement"
    assert (mali["Dundoura"].admin1, mali["Dundoura"].country) == ("Mopti", "ML")
    ng = {
        p.text: p
        for p in places(
            nlp, "Militiamen torched the hamlet of Yelwata Kasa in Nigeria's Benue state on Sunday."
        )
    }
    assert (ng["Yelwata Kasa"].admin1, ng["Yelwata Kasa"].country) == ("Benue", "NG")
    ua = {p.text: p for p in places(nlp, "Shells hit Zelenopillia village overnight near Kharkiv.")}
    assert ua["Zelenopillia"].precision == "settlement" and ua["Zelenopillia"].country == "UA"


def test_a_name_read_as_an_organisation_near_a_region_is_a_settlement(nlp: Language) -> None:
    """ "near Umm Baru in North Darfur": the model calls the name an organisation, but only
    a place stands between "near" and "in <region>"; with no region after it, or after a
    word other than near/outside, nothing is guessed."""
    text = (
        "Gunmen killed nine herders at a water point near Umm Baru in North Darfur on Sunday."
        " Two wounded men reached Umm Baru on foot."
    )
    refs = [p for p in places(nlp, text) if p.text == "Umm Baru"]
    assert len(refs) == 2 and {(p.precision, p.admin1, p.country) for p in refs} == {
        ("settlement", "North Darfur", "SD")
    }
    for other in (
        "Gunmen killed nine herders near Umm Baru on Sunday, officials in Sudan said.",
        "A lawyer for Brixworthy Holdings in North Darfur said the herders fled.",
    ):
        assert not [p for p in places(nlp, other) if p.precision == "settlement"]


def test_settlement_without_region_phrase_takes_document_country(nlp: Language) -> None:
    text = (
        "The army in Myanmar has bombed villages for months. Last week jets struck the "
        "hamlet of Nyaung Pin Tha, residents told reporters."
    )
    refs = {p.text: p for p in places(nlp, text)}
    assert refs["Nyaung Pin Tha"].country == "MM" and refs["Nyaung Pin Tha"].admin1 is None


def test_no_settlement_without_a_settlement_cue(nlp: Language) -> None:
    text = (
        "Anna Kowalczyk, a town councillor, said Brixworthy Holdings had fled to the "
        "village of his birth. Fighting raged in Darfur in western Sudan."
    )
    names = {p.text for p in places(nlp, text)}
    assert names == {"Sudan"}


def test_surface_alternate_name_is_kept_as_name(nlp: Language) -> None:
    text = "Witnesses in El Geneina said militias burned homes across Sudan."
    refs = {p.text: p for p in places(nlp, text)}
    assert refs["El Geneina"].name == "El Geneina" and refs["El Geneina"].geonames_id
    assert refs["El Geneina"].country == "SD"
    # a misspelling keeps the gazetteer's spelling; a primary name is unchanged
    assert refs["Sudan"].name == "Sudan"
    typo = {p.text: p for p in places(nlp, "Shelling in Bakhmut and Donestk region, Ukraine.")}
    assert typo["Donestk"].name == "Donetsk"


def test_one_spelling_per_place_the_sources_most_common(nlp: Language) -> None:
    text = (
        "Ethiopian troops shelled Mekelle on Monday. Residents of Mekelle fled, and "
        "the United Nations said aid to Mek'ele and Ethiopia would resume."
    )
    refs = [p for p in places(nlp, text) if p.country == "ET" and p.precision == "settlement"]
    assert len(refs) == 3 and len({p.geonames_id for p in refs}) == 1
    assert {p.name for p in refs} == {"Mekelle"}


def test_unfamiliar_village_name_tagged_norp_still_resolves(nlp: Language) -> None:
    from spacy.tokens import Span

    text = "Troops shot two prisoners near the village of Tarnyne in the Kherson region."
    doc = nlp(text)
    i = next(t.i for t in doc if t.text == "Tarnyne")
    others = [e for e in doc.ents if not e.start <= i < e.end]
    doc.set_ents([*others, Span(doc, i, i + 1, label="NORP")])  # the small model's guess
    ctx = DocContext(doc=doc)
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    refs = {p.text: p for p in ctx.extraction.places}
    assert refs["Tarnyne"].admin1 == "Kherson" and refs["Tarnyne"].country == "UA"
    doc = nlp("Gunmen burned a Fulani village near Djibo, in Burkina Faso, on Monday.")
    ctx = DocContext(doc=doc)
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    assert "Fulani" not in {p.text for p in ctx.extraction.places}


def test_person_described_as_from_a_town_is_not_a_town(nlp: Language) -> None:
    text = '"We buried them at night," said Khalid al-Rashid, a teacher from the town of Rumbek.'
    assert {p.text for p in places(nlp, text)} <= {"Rumbek"}


def test_district_of_a_city_is_that_city_not_a_namesake_elsewhere(nlp: Language) -> None:
    """A city's district or neighbourhood shares its name with villages and other cities'
    districts across the country; the city the text names is where it happened."""
    texts = {
        "A missile struck a warehouse in the Industrialnyi district of Kharkiv, killing four.": (
            "Industrialnyi",
            "Kharkiv",
        ),
        "A shell struck a bus stop in the Kyivskyi district of Odesa, killing two.": (
            "Kyivskyi district",
            "Odesa",
        ),
        "Rescuers worked overnight in Kharkiv's Industrialnyi district after the strike.": (
            "Industrialnyi",
            "Kharkiv",
        ),
    }
    for text, (part, city) in texts.items():
        refs = {p.text: p for p in places(nlp, text)}
        assert refs[part].admin1 == refs[city].admin1, text
        assert abs(refs[part].lat - refs[city].lat) < 0.25, text
        assert abs(refs[part].lon - refs[city].lon) < 0.35, text
