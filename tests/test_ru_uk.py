"""Russian and Ukrainian documents go through their own stages; offsets index the original."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from corroborator.models import Extraction
from corroborator.nlp.pipeline import extract

UK = (
    "3 березня 2022 року російські військові розстріляли щонайменше 12 цивільних у Бучі, "
    "повідомив міський голова.\n"
    "«Вони вбили мого батька біля під'їзду», — сказала мешканка Бучі Олена Петренко.\n"
    "Ці дані не вдалося незалежно перевірити."
)
RU = (
    "24 февраля российские войска обстреляли жилые кварталы в Харькове. По словам губернатора, "
    "погибли от 30 до 40 человек, в том числе около 10 детей.\n"
    "— Снаряды падали прямо во дворы, — рассказал журналистам житель Харькова Игорь Мельник.\n"
    "Министерство обороны России отрицало удары по жилым домам."
)


def _grounded(text: str, ex: Extraction) -> None:
    """Every record's offsets point at its own words in the original-language text."""
    for name in ("entities", "places", "dates", "counts", "quotes", "hedges"):
        for rec in getattr(ex, name):
            assert text[rec.start : rec.end] == rec.text, (name, rec)
    for inc in ex.incidents:
        for spans in inc.sources.values():
            for s in spans:
                assert text[s.start : s.end] == s.text


def test_ukrainian_report() -> None:
    ex = extract(UK, "2022-03-05")
    _grounded(UK, ex)
    assert [r.language for r in ex.languages] == ["uk"]
    assert {(p.text, p.name) for p in ex.places} == {("Бучі", "Bucha")}
    assert ex.dates[0].date_start == "2022-03-03"
    assert any(c.low == 12 and c.approx and c.counted == "civilians" for c in ex.counts)
    q = next(q for q in ex.quotes if q.text.startswith("Вони вбили"))
    assert q.speaker == "Олена Петренко" and q.speaker_role == "witness"
    assert [h.text for h in ex.hedges] == ["не вдалося незалежно перевірити"]
    (inc,) = ex.incidents
    assert inc.type == "killing_civilians"
    assert inc.location.geonames_id == 711350
    assert inc.killed.low == 12
    assert inc.perpetrators == ["Armed Forces of Russia"]
    assert inc.date.start == "2022-03-03"


def test_russian_report() -> None:
    ex = extract(RU, "2022-02-26")
    _grounded(RU, ex)
    assert [r.language for r in ex.languages] == ["ru"]
    assert {p.name for p in ex.places} == {"Kharkiv"}
    assert ex.dates[0].date_start == "2022-02-24"
    assert any(c.low == 30 and c.high == 40 and c.outcome == "killed" for c in ex.counts)
    assert any(c.low == 10 and c.counted == "children" and c.approx for c in ex.counts)
    q = ex.quotes[0]
    assert q.text == "Снаряды падали прямо во дворы"
    assert q.speaker == "Игорь Мельник" and q.cue == "рассказать"
    types = {i.type for i in ex.incidents}
    assert "attack_populated_area" in types
    attack = next(i for i in ex.incidents if i.type == "attack_populated_area")
    assert attack.location.name == "Kharkiv" and attack.killed.high == 40
    assert "children" in attack.victims


@pytest.mark.parametrize(
    ("text", "lang", "name"),
    [
        ("Бои продолжаются под Бахмутом.", "ru", "Bakhmut"),
        ("Бої тривають під Бахмутом.", "uk", "Bakhmut"),
        ("Ракета влучила у будинок у Харкові.", "uk", "Kharkiv"),
        ("Вибухи пролунали в Києві та Маріуполі.", "uk", "Mariupol"),
        ("Жителей вывезли из Мариуполя.", "ru", "Mariupol"),
        # a plural name's instrumental, and a town GeoNames lists only in Cyrillic
        ("Солдаты окопались под Пятихатками Днепропетровской области.", "ru", "Pyatykhatky"),
        # a hyphened name with both parts declined, and an adjective-noun pair
        (
            "Детей вывезли из школы в Каменке-Днепровской в начале лета.",
            "ru",
            "Kamyanka-Dniprovska",
        ),
        ("Снаряд влучив у будинок у Малій Токмачці вночі.", "uk", "Mala Tokmachka"),
        ("Снаряды упали в Малой Токмачке ночью, сообщили власти.", "ru", "Mala Tokmachka"),
        # 'по' leads to the place struck; a small place named with its region needs no more
        ("Российская армия нанесла ракетный удар по Кривому Рогу ночью.", "ru", "Kryvyy Rih"),
        ("Накануне Вербовое Запорожской области снова обстреляли.", "ru", "Verbove"),
    ],
)
def test_places_in_any_case(text: str, lang: str, name: str) -> None:
    ex = extract(text)
    assert ex.languages[0].language == lang
    assert name in {p.name for p in ex.places}


def test_a_byline_surname_and_the_next_sentence_name_no_town() -> None:
    """ "Кирсанова" is a surname beside a given name (Kirsanov is a town of 18,000), and a
    capitalised "На" opening the sentence after a place is no list of places (Namibia)."""
    text = (
        "Автор: Ольга Кирсанова. Видео снято у села Пятихатки Днепропетровской области "
        "(по-украински — П'ятихатки). На видео видно пятерых лежащих на земле людей."
    )
    names = {p.name for p in extract(text).places}
    assert "Pyatykhatky" in names and not names & {"Kirsanov", "Namibia"}


def test_speakers_offices_and_factories_name_no_town() -> None:
    """'по словам Иванова' names a speaker (Ivanovo's genitive is spelled alike), 'Полиция
    Херсонской области' an office, and 'Вовчанського агрегатного заводу' a factory."""
    ru = (
        "По словам Иванова, военные обстреляли Херсон. Полиция Херсонской области открыла "
        "дело после обстрела."
    )
    uk = (
        "Військового взяли в полон біля Вовчанського агрегатного заводу, повідомили в штабі. "
        "Поліція Харківської області відкрила провадження."
    )
    ru_names = {p.name for p in extract(ru).places}
    assert "Kherson" in ru_names and not ru_names & {"Ivanovo", "Polytsi"}
    uk_names = {p.name for p in extract(uk).places}  # Ukrainian tags have no 'Geox'
    assert not uk_names & {"Vovchanske", "Vovchansk", "Politsiya"}
    # an adjective of a two-word name the gazetteer cannot read is no country either
    assert "Mali" not in {
        p.name for p in extract("Обстрел Малой Токмачки продолжался всю ночь.").places
    }


def test_mixed_document_routes_each_part() -> None:
    en = "Russian troops shelled Kharkiv on Monday, killing five civilians, officials said."
    text = f"{en}\n\n{UK}"
    ex = extract(text, "2022-03-05")
    _grounded(text, ex)
    assert [r.language for r in ex.languages] == ["en", "uk"]
    assert {"Kharkiv", "Bucha"} <= {p.name for p in ex.places}
    # the English part keeps spaCy's records; the Ukrainian part its own
    assert any(e.text == "Олена Петренко" for e in ex.entities)
    assert asdict(ex)["languages"][1]["start"] == len(en) + 2


def test_a_named_speaker_telling_the_past_is_a_witness() -> None:
    """No role word beside the speaker: a quote told in the past tense is a witness's;
    one in the present (a rescuer's update) stays unclassed."""
    text = (
        "«Ми ховалися в підвалі, коли снаряд влучив у сусідній будинок», — сказав Петро "
        "Коваль.\n«Рятувальники продовжують розбирати завали», — сказав Андрій Мороз."
    )
    ex = extract(text, "2023-05-02")
    assert [(q.speaker, q.speaker_role) for q in ex.quotes] == [
        ("Петро Коваль", "witness"),
        ("Андрій Мороз", "other"),
    ]


def test_a_city_is_the_city_and_na_names_its_region() -> None:
    """GeoNames files Kherson and Odesa regions under the cities' own names; a report that
    says "в Одесі" or "районі Херсона" means the city, and "на Запоріжжі" the region."""
    text = (
        "Вибух стався в Одесі біля порту. Снаряд влучив у Корабельному районі Херсона. "
        "Окупанти обстріляли село на Запоріжжі."
    )
    found = {(p.text, p.name, p.precision) for p in extract(text).places}
    assert ("Одесі", "Odesa", "settlement") in found
    assert ("Херсона", "Kherson", "settlement") in found
    assert ("Запоріжжі", "Zaporizhzhia", "admin1") in found
