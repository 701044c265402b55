"""Cyrillic place names in any grammatical case to GeoNames entries.

GeoNames lists Cyrillic and old spellings (Харьков, Харків, Kharkov); the gazetteer's
lookup key is a transliteration, so an inflected form only needs its case ending undone:
"в Харькове" -> Харьков, "у Харкові" -> Харков (= Kharkov), "під Бахмутом" -> Бахмут.
Only capitalised words are tried; a small place needs a preposition of place before it.
A name is the town, never the district the gazetteer also files under the town's name
("під Бахмутом" is Bakhmut, not Bakhmut Raion): ru/uk texts name a district by an
adjective ("Бахмутський район"), which this lookup does not read.
"""

from __future__ import annotations

from corroborator.models import EntityMention, PlaceRef
from corroborator.nlp import gazetteer
from corroborator.nlp.gazetteer import Gazetteer, Place
from corroborator.nlp.lang.places import place_ref
from corroborator.nlp.lang.ru_uk.text import Token, analyzer, lex

_ENDINGS = (
    "ами",  # під Пятихатками
    "ями",
    "ою",
    "ею",
    "ом",
    "ем",
    "ой",
    "ей",
    "ах",
    "ях",
    "ам",
    "ям",
    "е",
    "і",
    "и",
    "ы",
    "у",
    "ю",
    "а",
    "я",
)
_REFILLS = ("", "а", "я", "ь", "и", "ы", "е")
# an adjective's oblique endings and its nominative forms: "в Каменке-Днепровской" ->
# Каменка-Днепровская, "у Кам'янці-Дніпровській" -> Кам'янка-Дніпровська, "Кривого Рога"
_ADJECTIVE = {
    "ой": ("ая",),
    "ую": ("ая",),
    "ей": ("яя",),
    "ої": ("а",),
    "ій": ("а",),
    "ою": ("а",),
    # a village is more often neuter (Дніпровське, Степовое) than masculine
    "ого": ("е", "ое", "ий", "ый", "ой"),
    "ому": ("е", "ое", "ий", "ый", "ой"),
    "ым": ("ое", "ый"),
    "им": ("е", "ий"),
    "ім": ("е", "ий"),
}
_PLURALS = ("и", "ы", "і")  # what a plural's instrumental ("Пятихатками") is named by
_ALTERNATIONS = {"ц": "к", "з": "г", "с": "х"}  # Костянтинівці <- Костянтинівка, Ризі <- Рига
_HOME = ("UA", "RU")


def variants(word: str, adjective: bool = True) -> list[str]:
    """The word and its possible nominative forms, most likely first (a big place may stand
    anywhere inside a sentence; a small one needs a preposition or NER's say-so); each
    part of a hyphened name is declined ("Каменке-Днепровской"). A lone adjective is
    declined as one only where asked: "Южному" is a town (Yuzhnyy) only after a
    preposition of place."""
    first, dash, rest = word.partition("-")
    if dash and first and rest and "-" not in rest:
        return [f"{a}-{b}" for a in _declined(first) for b in _declined(rest)]
    return _declined(word, adjective)


def _declined(word: str, adjective: bool = True) -> list[str]:
    out = [word]
    low = word.lower()
    for end in _ENDINGS:
        if low.endswith(end) and len(low) - len(end) >= 3:
            stem = word[: len(word) - len(end)]
            out += [stem + r for r in (_PLURALS if end in ("ами", "ями") else _REFILLS)]
            if end in ("і", "е") and stem[-1:] in _ALTERNATIONS:
                out.append(stem[:-1] + _ALTERNATIONS[stem[-1]] + "а")
    for end, nominatives in _ADJECTIVE.items() if adjective else ():
        if low.endswith(end) and len(low) - len(end) >= 3:
            out += [word[: len(word) - len(end)] + n for n in nominatives]
    return list(dict.fromkeys(out))


def _best(gaz: Gazetteer, names: list[str], cued: bool, region: bool = False) -> Place | None:
    """The first name's best place: the town before the region filed under its name
    ("в Одесі", "обстріляли Херсон", "районі Херсона" are the cities) unless `region`: "на
    Запоріжжі" is how Ukrainian names the region."""
    for name in names:
        found = [
            p
            for p in gaz.candidates(name)
            if (p.country in _HOME or p.kind == "country") and p.kind != "admin2"
        ]
        found = [p for p in found if cued or p.major]
        if not region:
            found.sort(key=lambda p: p.kind == "admin1")
        if found:
            return found[0]
    return None


def _in_area(toks: list[Token], i: int, areas: set[str], lang: str) -> bool:
    """The name is followed by its region or district ("Каменке-Днепровской Запорожской
    области"): a place, however small, unless it is a common noun ("Полиция Херсонской
    области")."""
    if not (i + 2 < len(toks) and toks[i + 1].is_title and toks[i + 2].lower in areas):
        return False
    if not _adjective(toks[i + 1].text, lang):
        return False  # "Головна | Новини | Громади": a menu, not a region
    return not _common_noun(toks[i].text, lang)


def _common_noun(word: str, lang: str) -> bool:
    morph = analyzer(lang)
    tag = morph.parse(word)[0].tag
    return bool(
        morph.word_is_known(word.lower()) and tag.POS == "NOUN" and "Geox" not in tag.grammemes
    )


def _adjective(word: str, lang: str) -> bool:
    return bool(analyzer(lang).parse(word)[0].tag.POS == "ADJF")


def _modifies_next(text: str, toks: list[Token], i: int, lang: str) -> bool:
    """An adjective whose noun follows it ("біля Вовчанського агрегатного заводу") is no
    town of its own."""
    if i + 1 >= len(toks) or text[toks[i].end : toks[i + 1].start] != " ":
        return False
    nxt = toks[i + 1]
    return nxt.is_title or analyzer(lang).parse(nxt.text)[0].tag.POS in ("NOUN", "ADJF")


def resolve(
    text: str, toks: list[Token], entities: list[EntityMention], lang: str
) -> list[PlaceRef]:
    gaz = gazetteer.load()
    preps = set(lex()["place_prepositions"])
    areas = set(lex()["area_words"])
    speakers = set(lex()["according_to"])
    spans = [(e.start, e.end) for e in entities if e.kind in ("place", "person", "organization")]
    named_at = {t.start for t in toks if any(s <= t.start < e for s, e in spans)}
    # a word of a full name ("Ольга Кирсанова") is no town unless a preposition says so
    people = [(e.start, e.end) for e in entities if e.kind == "person" and " " in e.text]
    in_name = {t.start for t in toks if any(s <= t.start < e for s, e in people)}
    out: list[PlaceRef] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        listed = (
            bool(out)
            and t.start - out[-1].end <= 6
            and i > 0
            and toks[i - 1].end <= out[-1].end + 4
            and not any(ch in ".!?\n" for ch in text[out[-1].end : t.start])
        )
        cued = (i > 0 and toks[i - 1].lower in preps) or listed or _in_area(toks, i, areas, lang)
        tried = cued or t.start in named_at or i == 0 or t.lower != t.text
        spoken = i > 0 and toks[i - 1].lower in speakers  # 'по словам Иванова'
        if not t.is_title or not tried or (t.start in in_name and not cued) or spoken:
            i += 1
            continue
        hit: tuple[Place, int] | None = None
        # "Покровського району" names a district by its town's adjective: not a town
        region = i + 1 < len(toks) and toks[i + 1].lower in areas
        if i + 1 < len(toks) and toks[i + 1].is_title and toks[i + 1].start - t.end == 1:
            pairs = [f"{a} {b}" for a in variants(t.text) for b in variants(toks[i + 1].text)]
            place = _best(gaz, pairs, cued)
            hit = (place, i + 1) if place else None
        inside = i > 0 and not any(ch in ".!?\n" for ch in text[toks[i - 1].end : t.start])
        # "Курской области" stays the region's town, as before
        modifies = hit is None and not region and _modifies_next(text, toks, i, lang)
        if modifies and not cued and _adjective(t.text, lang):
            i += 1  # "Малой Токмачки" the gazetteer lacks is not Mali
            continue
        if hit is None and (cued or t.start in named_at or inside):
            alone = cued and not region and not modifies
            on = i > 0 and toks[i - 1].lower == "на"
            place = _best(gaz, variants(t.text, adjective=alone), cued, on)
            hit = (place, i) if place else None
        if hit is None:
            i += 1
            continue
        place, last = hit
        end = toks[last].end
        out.append(place_ref(text, t.start, end, place))
        i = last + 1
    return out
