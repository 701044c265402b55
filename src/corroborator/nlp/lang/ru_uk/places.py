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
from corroborator.nlp.lang.ru_uk.text import Token, lex

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
_PLURALS = ("и", "ы", "і")  # what a plural's instrumental ("Пятихатками") is named by
_ALTERNATIONS = {"ц": "к", "з": "г", "с": "х"}  # Костянтинівці <- Костянтинівка, Ризі <- Рига
_HOME = ("UA", "RU")


def variants(word: str) -> list[str]:
    """The word and its possible nominative forms, most likely first (a big place may stand
    anywhere inside a sentence; a small one needs a preposition or NER's say-so)."""
    out = [word]
    low = word.lower()
    for end in _ENDINGS:
        if low.endswith(end) and len(low) - len(end) >= 3:
            stem = word[: len(word) - len(end)]
            out += [stem + r for r in (_PLURALS if end in ("ами", "ями") else _REFILLS)]
            if end in ("і", "е") and stem[-1:] in _ALTERNATIONS:
                out.append(stem[:-1] + _ALTERNATIONS[stem[-1]] + "а")
    return list(dict.fromkeys(out))


def _best(gaz: Gazetteer, names: list[str], cued: bool) -> Place | None:
    for name in names:
        found = [
            p
            for p in gaz.candidates(name)
            if (p.country in _HOME or p.kind == "country") and p.kind != "admin2"
        ]
        found = [p for p in found if cued or p.major]
        if found:
            return found[0]
    return None


def resolve(text: str, toks: list[Token], entities: list[EntityMention]) -> list[PlaceRef]:
    gaz = gazetteer.load()
    preps = set(lex()["place_prepositions"])
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
        cued = (i > 0 and toks[i - 1].lower in preps) or listed
        tried = cued or t.start in named_at or i == 0 or t.lower != t.text
        if not t.is_title or not tried or (t.start in in_name and not cued):
            i += 1
            continue
        hit: tuple[Place, int] | None = None
        if i + 1 < len(toks) and toks[i + 1].is_title and toks[i + 1].start - t.end == 1:
            pairs = [f"{a} {b}" for a in variants(t.text) for b in variants(toks[i + 1].text)]
            place = _best(gaz, pairs, cued)
            hit = (place, i + 1) if place else None
        inside = i > 0 and not any(ch in ".!?\n" for ch in text[toks[i - 1].end : t.start])
        if hit is None and (cued or t.start in named_at or inside):
            place = _best(gaz, variants(t.text), cued)
            hit = (place, i) if place else None
        if hit is None:
            i += 1
            continue
        place, last = hit
        end = toks[last].end
        out.append(place_ref(text, t.start, end, place))
        i = last + 1
    return out
