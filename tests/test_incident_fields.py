"""incident_fields.choose_place on real text, and how an uncharted village fares downstream."""

from __future__ import annotations

import pytest
from spacy.language import Language

from corroborator.exports import geojson
from corroborator.linking.incidents import place_relation
from corroborator.models import Location, PlaceRef
from corroborator.nlp.incidents.fields import choose_place
from corroborator.nlp.pipeline import DocContext, load_nlp
from corroborator.nlp.stages.entities import EntitiesStage
from corroborator.nlp.stages.places import PlacesStage


@pytest.fixture(scope="module")
def nlp() -> Language:
    return load_nlp()


def pick(nlp: Language, text: str, sentence: int = 0) -> PlaceRef | None:
    """The place chosen for an incident reported in the given sentence."""
    ctx = DocContext(doc=nlp(text))
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    sent = list(ctx.doc.sents)[sentence]
    span = (sent.start_char, sent.end_char)
    return choose_place(ctx.doc, ctx.extraction.places, [span], sent.root.idx)


def test_uncharted_village_beats_its_region(nlp: Language) -> None:
    p = pick(
        nlp, "Soldiers executed nine detainees near the village of Kravtsivka in Kherson region."
    )
    assert p is not None
    assert (p.name, p.precision, p.geonames_id, p.admin1, p.country) == (
        "Kravtsivka",
        "settlement",
        None,
        "Kherson",
        "UA",
    )


def test_village_beats_an_officials_region_title(nlp: Language) -> None:
    text = (
        "Shelling destroyed eleven houses in the village of Pylypenkove overnight, "
        "Sumy regional Gov. Ivan Petrenko said."
    )
    p = pick(nlp, text)
    assert p is not None and p.name == "Pylypenkove" and p.country == "UA"


def test_later_bare_mention_of_the_village_is_the_incident_place(nlp: Language) -> None:
    text = (
        "Soldiers entered the hamlet of Tinbaraden in Mali's Mopti region on Sunday. "
        "In Tinbaraden, they shot fourteen men, witnesses said."
    )
    p = pick(nlp, text, sentence=1)
    assert p is not None and p.name == "Tinbaraden" and p.country == "ML"


def test_place_the_model_tags_after_a_locative_preposition_needs_no_gazetteer_entry(
    nlp: Language,
) -> None:
    """'near Umm Sayala', 'outside Ndoloka': too small for GeoNames, still the act's place,
    in the country the report names; the same name as a part of a named city ('Gaza City's
    Umm Sayala') leaves the city the place."""
    p = pick(
        nlp,
        "A drone struck a wedding party near Umm Sayala on Friday, killing six guests, "
        "Sudan's health ministry said.",
    )
    assert p is not None
    assert (p.name, p.geonames_id, p.country, p.precision) == (
        "Umm Sayala",
        None,
        "SD",
        "settlement",
    )
    p = pick(
        nlp,
        "Fighters took her from her field outside Ndoloka and kept her for five months, the "
        "witness said. The court sits in Bukavu, Democratic Republic of Congo.",
    )
    assert p is not None and (p.name, p.country) == ("Ndoloka", "CD")
    p = pick(
        nlp,
        "An air strike hit a school in Gaza City's Umm Sayala overnight, killing nine people. "
        "Rescuers in Umm Sayala said more bodies were under the rubble.",
        sentence=1,
    )
    assert p is not None and p.name == "Gaza City"


@pytest.mark.parametrize(
    ("text", "area"),
    [
        ("Drones struck a market in Darfur on Monday, killing nine, Sudanese doctors said.", ""),
        ("Soldiers burned homes in Mbuji on Monday, residents in Congo said.", "Mbuji"),
    ],
)
def test_an_area_the_report_names_as_one_is_no_village(nlp: Language, text: str, area: str) -> None:
    """'in Darfur', 'in Mbuji' beside 'Mbuji province' or 'eastern Mbuji': a region, not a
    settlement the gazetteer lacks (the bare 'in Mbuji' alone still is one)."""
    assert [p.name for p in _unlisted(nlp, text)] == ([area] if area else [])
    for named in (" Mbuji province is far from the capital.", " Eastern Mbuji is far away."):
        assert not _unlisted(nlp, text + named)


def _unlisted(nlp: Language, text: str) -> list[PlaceRef]:
    return [p for p in _all_places(nlp, text) if p.geonames_id is None]


def test_a_district_named_after_its_town_is_less_precise_than_a_village_in_it(
    nlp: Language,
) -> None:
    """'the Bilozerka district' (read as its town, the district being gone from GeoNames)
    and 'Maru local government area' are districts: the village the report names in them is
    the act's place."""
    p = pick(
        nlp,
        "A drone hit a minibus in the Bilozerka district of Kherson region as it left the "
        "village of Tomyna Balka, killing the driver.",
    )
    assert p is not None and p.name == "Tomyna Balka"
    areas = _all_places(
        nlp,
        "Gunmen raided a village in Zamfara state's Maru local "
        "government area on Wednesday, abducting 37 people.",
    )
    assert [(p.text, p.precision) for p in areas if p.text == "Maru"] == [("Maru", "admin2")]


def _all_places(nlp: Language, text: str) -> list[PlaceRef]:
    ctx = DocContext(doc=nlp(text))
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    return ctx.extraction.places


def test_mention_without_a_place_falls_back_to_the_documents_main_place(nlp: Language) -> None:
    text = "Missiles hit Odesa and Odesa again. Two men were killed, officials said."
    p = pick(nlp, text, sentence=1)
    assert p is not None and p.name == "Odesa" and p.geonames_id is not None


def test_settlement_without_coordinates_links_with_its_region_and_exports() -> None:
    village = Location("Kravtsivka", None, None, None, "Kherson", "UA", "settlement")
    region = Location("Kherson", 706442, 46.6, 32.6, "Kherson", "UA", "admin1")
    other_region = Location("Sumy", 692196, 50.9, 34.8, "Sumy", "UA", "admin1")
    assert place_relation(village, region) == "contains"
    assert place_relation(village, other_region) == "incompatible"
    same = Location("Kravtsivka", None, None, None, "Kherson", "UA", "settlement")
    assert place_relation(village, same) == "same"
    inc = {"incident_id": "i1", "location": village.__dict__, "mentions": []}
    assert geojson([inc])["features"][0]["geometry"] is None


def test_country_after_an_upper_case_dateline_city_is_not_the_place(nlp: Language) -> None:
    text = "NAIROBI, Kenya — Militiamen killed 19 herders near Gode in eastern Ethiopia."
    p = pick(nlp, text)
    assert p is not None and p.name != "Kenya"
