"""Reports in a Latin-script language without a pipeline (German, French, Spanish):
read for names and places only, never through the English model."""

from __future__ import annotations

from conftest import one_document_page
from corroborator.nlp.lang.latin.extract import extract
from corroborator.nlp.pipeline import extract_many

GERMAN = (
    "Charkiw, 4. Mai. Nach Angaben der Gebietsverwaltung schlug am Morgen eine Rakete in "
    "ein Wohnhaus in Lozowa ein. Unter den Toten ist ein Mann aus dem Dorf. Die Ermittler "
    "des SBU befragten Nachbarn. Der Gouverneur Oleh Synjehubow sprach von einem gezielten "
    "Angriff. Synjehubow kündigte eine Untersuchung an."
)
FRENCH = (
    "Au moins douze civils ont été tués mardi à Beni, dans le Nord-Kivu, selon "
    "Kambale Muhindo, porte-parole du Comité local de la Croix-Rouge. L'armée accuse les "
    "ADF. Au Soudan voisin, Human Rights Watch dénonce d'autres attaques."
)
SPANISH = (
    "Los ataques en Tibú, en Norte de Santander, dejaron tres muertos, según la "
    "Defensoría del Pueblo. El gobernador Wilmer Quintero culpó al ELN."
)


def _kinds(text: str, language: str) -> dict[str, str]:
    ex = extract(text, language)
    return {e.text: e.kind for e in ex.entities}


def test_german_nouns_are_no_names_and_full_names_are_people() -> None:
    found = _kinds(GERMAN, "de")
    assert found["Oleh Synjehubow"] == "person"
    assert found["Synjehubow"] == "person"  # the family name of someone named in full
    assert found["SBU"] == "organization"
    # capitalised nouns: 'Angaben', 'Gebietsverwaltung', 'Rakete', 'Ermittler', 'Mann'
    assert not {"Angaben", "Rakete", "Ermittler", "Mann", "Gouverneur"} & set(found)
    assert not any("Nach" in name or "Dorf" in name for name in found)


def test_places_in_the_report_s_own_spelling_resolve_and_a_noun_is_no_country() -> None:
    ex = extract(GERMAN, "de")
    names = {(p.text, p.name, p.country) for p in ex.places}
    assert ("Charkiw", "Kharkiv", "UA") in names
    assert ("Lozowa", "Lozova", "UA") in names
    assert all(p.country == "UA" for p in ex.places)  # 'Mann' is not the Isle of Man
    for p in ex.places:
        assert GERMAN[p.start : p.end] == p.text


def test_french_names_groups_and_places() -> None:
    found = _kinds(FRENCH, "fr")
    assert found["Kambale Muhindo"] == "person"
    assert found["ADF"] == "organization"
    assert found["Human Rights Watch"] == "organization"
    places = {p.text: p.name for p in extract(FRENCH, "fr").places}
    assert places["Beni"] == "Beni"
    assert places["Soudan"] == "Sudan"
    assert "Au" not in places  # a sentence's first word, not Australia


def test_a_turkish_case_ending_is_no_part_of_the_name() -> None:
    """'İdlib'e bağlı Sarmada'da' (in Sarmada, of Idlib): the name ends at the apostrophe;
    'Türkiye' is Turkish for Turkey."""
    text = (
        "Suriye'nin kuzeyindeki İdlib'e bağlı Sarmada'da bir pazar yerine saldırı düzenlendi. "
        "Yaralılar Türkiye'deki hastanelere sevk edildi, dedi Mehmet Kaya'nın ailesi."
    )
    ex = extract(text, "tr")
    assert [(p.text, p.country) for p in ex.places] == [("İdlib", "SY"), ("Türkiye", "TR")]
    assert {e.text for e in ex.entities} == {"İdlib", "Türkiye", "Mehmet Kaya"}


def test_regions_named_with_a_direction_are_no_people_in_turkish_dutch_or_czech() -> None:
    """'Batı Şeria' (the West Bank), 'Zuid-Oekraïense', 'Východní Ukrajina': a capitalised
    run with a word of direction or of a place's kind names a region, never a person; a
    direction that is also a Turkish given name (Doğu) is left to the name rules."""
    cases = [
        ("tr", "Yerleşimciler Batı Şeria'daki bir köyde evleri ateşe verdi, dedi Ahmet Yılmaz."),
        (
            "nl",
            "Volgens Pieter de Vries zijn in het Zuid-Oekraïense Bilozerka drie burgers gedood.",
        ),
        ("cs", "Ve Východní Ukrajině podle Jana Nováka zahynuli tři civilisté."),
    ]
    for language, text in cases:
        people = {e.text for e in extract(text, language).entities if e.kind == "person"}
        assert people and not any(
            w in name for name in people for w in ("Batı", "Zuid", "Východní")
        ), (language, people)


def test_a_turkish_name_its_dictionary_holds_in_lower_case_is_a_big_city_only() -> None:
    """Turkish capitalises names inside a sentence, and its dictionary holds many in lower
    case ('gazze'): named twice beside a country it borders, such a word is the big city
    (Gaza, PS), but not a small town that carries the name among its alternates ('Hula',
    a Lebanese village, is also listed for Kafr Laha in Syria)."""
    gaza = (
        "Dün gece İsrail uçakları Gazze kentinin doğusunda bir evi vurdu. "
        "Yaralılar Gazze'deki Şifa Hastanesi'ne kaldırıldı, dedi Ayşe Demir."
    )
    assert ("Gazze", "PS") in [(p.text, p.country) for p in extract(gaza, "tr").places]
    hula = (
        "Saldırı dün İsrail sınırına yakın Hula köyünde oldu. "
        "Köylüler Hula'dan ayrılmaya başladı, dedi Ali Hasan."
    )
    assert not [p for p in extract(hula, "tr").places if p.text == "Hula"]


def test_spanish_regions_and_institutions_are_no_people() -> None:
    found = _kinds(SPANISH, "es")
    assert found["Wilmer Quintero"] == "person"
    assert found.get("Defensoría del Pueblo") == "organization"
    assert found.get("Norte de Santander") == "place"
    assert found["ELN"] == "organization"
    assert not [n for n, k in found.items() if k == "person" and "Norte" in n]


def test_a_village_the_gazetteer_lacks_is_kept_by_its_cue_word() -> None:
    """'le village de Tindirma': a settlement with no id, placed by the region the report
    names, and so on each later mention; a person named after no cue is none."""
    text = (
        "Des hommes armés ont incendié samedi le village de Tindirma, dans la région de "
        "Tombouctou, selon un élu local, Moussa Maïga. Les habitants de Tindirma ont fui "
        "vers Goundam."
    )
    ex = extract(text, "fr")
    found = [(p.text, p.precision, p.geonames_id, p.country) for p in ex.places]
    assert found.count(("Tindirma", "settlement", None, "ML")) == 2
    assert not any(p.text.startswith("Moussa") for p in ex.places)
    spanish = extract("Hombres armados asesinaron a tres campesinos en la vereda El Vergel.", "es")
    assert [(p.text, p.precision) for p in spanish.places] == [("El Vergel", "settlement")]


def test_such_a_report_never_reaches_the_english_stages() -> None:
    """A German document and an English one in one batch: the German one yields names and
    places, no quotes, figures or incidents; the English one is read in full."""
    english = (
        "KHARKIV, May 4 - A missile struck an apartment block in Lozova on Saturday, "
        "killing seven civilians, governor Oleh Synehubov said."
    )
    de, en = list(extract_many([(GERMAN, None), (english, None)], languages=["de", "en"]))
    assert [r.language for r in de.languages] == ["de"]
    assert {e.kind for e in de.entities} <= {"person", "organization", "place"}
    assert not (de.quotes or de.counts or de.incidents or de.dates)
    assert en.incidents and en.incidents[0].killed.low == 7


def test_an_undeclared_document_is_read_in_its_own_language() -> None:
    (ex,) = list(extract_many([(GERMAN, None)]))
    assert [r.language for r in ex.languages] == ["de"]
    assert "Rakete" not in {e.text for e in ex.entities}


def test_the_document_page_says_what_was_not_read(cli, db, tmp_path) -> None:
    src = tmp_path / "bericht.txt"
    src.write_text("Rakete trifft Wohnhaus in Lozowa\n\n" + GERMAN, encoding="utf-8")
    assert cli("ingest", "--quiet", str(src)).exit_code == 0
    doc, page = one_document_page(db)
    assert doc["language"] == "de"
    assert "German: no pipeline for this language" in page
    assert "Oleh Synjehubow</a> (person)" in page


def test_dictionary_words_come_from_a_cached_array_that_agrees_with_simplemma(
    tmp_path, monkeypatch
) -> None:
    import numpy as np
    import simplemma

    from corroborator.nlp.lang.latin import dictionary
    from corroborator.nlp.lang.latin.words import ordinary, words

    monkeypatch.setenv("CORROBORATOR_CACHE", str(tmp_path))
    dictionary._table.cache_clear()
    ordinary.cache_clear()
    try:
        for text, lang in ((GERMAN, "de"), (FRENCH, "fr"), (SPANISH, "es")):
            for w in words(text):
                if "'" not in w.text and "’" not in w.text:
                    assert ordinary(w.text, lang) == simplemma.is_known(w.text, lang), w.text
        assert sorted(p.name.split("-")[1] for p in tmp_path.rglob("words-*.npy")) == [
            "de",
            "es",
            "fr",
        ]
        dictionary._table.cache_clear()
        assert isinstance(dictionary._table("de"), np.memmap)  # read back, not rebuilt
        assert dictionary._table("xx") is None and not ordinary("Haus", "xx")
    finally:
        dictionary._table.cache_clear()
        ordinary.cache_clear()


def test_a_line_of_hundreds_of_capitalised_words_is_no_name() -> None:
    """Page furniture or a list in capitals: no person hundreds of words long, and the
    place lookups stay a few per word (sub-runs no longer than a gazetteer name)."""
    from corroborator.nlp.gazetteer import MAX_TOKENS
    from corroborator.nlp.lang.latin.places import _spans
    from corroborator.nlp.lang.latin.words import words

    line = " ".join(["Kyseliwka Swjaginzew Dowhan Cherson"] * 100)
    ex = extract(f"Bericht. {line}. Ende.", "de")
    assert all(len(e.text.split()) <= 5 for e in ex.entities)
    spans = _spans(words(line))
    assert max(b - a + 1 for a, b in spans) == MAX_TOKENS
    assert len(spans) < MAX_TOKENS * 400


def test_a_country_in_the_report_s_own_language_vouches_for_its_towns() -> None:
    """'Ucrania' and 'Rusia' are in GeoNames under no Spanish name; 'Járkov' is in the
    Spanish dictionary (as a name only) and 'Balaklía' is a near spelling of 'Balakliia'."""
    text = (
        "El misil cayó el domingo junto a la parada de autobús de Balaklía, una ciudad de la "
        "región de Járkov, en el este de Ucrania. El gobierno de Rusia no comentó el ataque."
    )
    places = {(p.text, p.name, p.country) for p in extract(text, "es").places}
    assert places == {
        ("Balaklía", "Balakliya", "UA"),
        ("Járkov", "Kharkiv", "UA"),
        ("Ucrania", "Ukraine", "UA"),
        ("Rusia", "Russia", "RU"),
    }


def test_a_declined_name_is_found_without_its_case_ending() -> None:
    """Polish declines names: 'w Charkowie' (in Kharkiv), 'Nowej Kachowki' (of Nova
    Kakhovka), 'pod Kupiańskiem' (near Kupiansk). An ordinary word keeps its ending."""
    text = (
        "Ołena Tkaczuk mieszkała w Nowej Kachowce do jesieni. Potem trafiła do aresztu pod "
        "Kupiańskiem, skąd przewieziono ją do szpitala w Charkowie. Wróciła na Ukrainę w maju."
    )
    places = {(p.text, p.name) for p in extract(text, "pl").places}
    assert places == {
        ("Nowej Kachowce", "Nova Kakhovka"),
        ("Kupiańskiem", "Kupyansk"),
        ("Charkowie", "Kharkiv"),
        ("Ukrainę", "Ukraine"),
    }


def test_a_town_named_like_a_country_is_the_town_where_its_region_is_named() -> None:
    """'Argelia' is Spanish for Algeria, and a municipality of Cauca, Colombia."""
    text = (
        "Los combates en Argelia, en el sur del Cauca, obligaron a cien familias a huir hacia "
        "Popayán, según la Defensoría del Pueblo de Colombia."
    )
    places = {p.text: (p.name, p.country) for p in extract(text, "es").places}
    assert places["Argelia"] == ("Argelia", "CO")
    assert places["Popayán"][1] == "CO"


def test_a_town_of_several_words_is_found_where_no_country_is_named() -> None:
    """A local Portuguese report names its towns and never Brazil; 'Roxo' and 'Nova' are
    Portuguese words, but 'Belford' and 'Iguaçu' are none, so each whole name is a town.
    Two ordinary words together stay no place ('Boa Noite' is a greeting)."""
    text = (
        "Dois homens foram mortos a tiros na madrugada de domingo em Belford Roxo, na "
        "Baixada Fluminense. Um terceiro foi levado para um hospital de Nova Iguaçu. "
        "Boa Noite, escreveu a vizinha."
    )
    places = {(p.text, p.name, p.country) for p in extract(text, "pt").places}
    assert places == {
        ("Belford Roxo", "Belford Roxo", "BR"),
        ("Nova Iguaçu", "Nova Iguaçu", "BR"),
    }
