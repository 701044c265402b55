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
