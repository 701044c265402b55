"""Places in Arabic reports: GeoNames' Arabic names in a country the report names."""

from __future__ import annotations

from corroborator.nlp.pipeline import extract


def _places(text: str) -> set[tuple[str, str, str]]:
    ex = extract(text)
    assert ex.languages[0].language == "ar"
    for p in ex.places:
        assert text[p.start : p.end] == p.text
    return {(p.text, p.name, p.country) for p in ex.places}


def test_towns_and_countries_with_their_proclitics() -> None:
    text = (
        "قُتل سبعة مدنيين على الأقل في قصف استهدف سوقاً شعبياً بمدينة تعز جنوب غربي اليمن، "
        "وقال مسؤولون محليون في تعز إن بين القتلى ثلاثة أطفال. وأكد شهود أن القصف تكرر مرتين."
    )
    found = _places(text)
    assert ("تعز", "Taiz", "YE") in found and ("اليمن", "Yemen", "YE") in found
    # "وأن" (and that) is no Turkish Van; "بمدينة" (in the city of) no Medina
    assert not {name for _, name, _ in found} & {"Van", "Madinah"}


def test_a_town_counts_only_in_a_country_the_report_names() -> None:
    """ "صور" is "pictures" as often as it is Tyre: in a report on Sudan it is pictures."""
    sudan = (
        "نشر ناشطون صور الدمار في الفاشر بعد هجوم قوات الدعم السريع على السوق، "
        "وقالت الأمم المتحدة إن الوضع في السودان يزداد سوءاً يوماً بعد يوم."
    )
    found = _places(sudan)
    assert ("الفاشر", "El Fasher", "SD") in found
    assert all(country == "SD" for *_, country in found)


def test_a_country_named_by_its_adjective_vouches_for_its_towns() -> None:
    """A local report says "the Libyan coast guard", never "Libya"; a nisba in any form
    (feminine, plural, with the article and a proclitic) names the country. "المالية"
    (financial) is no Malian, and "العربية" (Arabic) names no country."""
    text = (
        "قال مصدر في خفر السواحل الليبي إن دورية أطلقت النار قرب زوارة، "
        "ونقلت وزارة المالية العربية أن المهاجرين الليبيين لم يصابوا. "
        "وتتهم منظمات دولية السلطات في طرابلس بالتستر."
    )
    found = _places(text)
    assert ("زوارة", "Zuwarah", "LY") in found and ("طرابلس", "Tripoli", "LY") in found
    assert all(country == "LY" for *_, country in found)
