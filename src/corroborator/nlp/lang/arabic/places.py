"""Place names in Arabic text, from GeoNames' Arabic names and CLDR's Arabic country names.

Arabic writes no capitals, so any word may be a name; and a name carries whatever
preposition, conjunction or article stands before it ("بالفاشر": "in El Fasher"). Each run
of up to three words is looked up with and without the first word's proclitics. The
dictionary holds the big towns' names (حلب, دمشق) beside its words, and some words are
big towns (صور, "pictures", is also Tyre; المدينة, "the city", Medina): so a place counts
only in a country the report names by its Arabic name or its adjective ("the Libyan coast
guard"); one word that the dictionary holds names only a major town, and only as written
("ورقة" is "paper", not "and Raqqa"); and a proclitic written onto a function word ("وأن",
"and that"; Van) is that.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from corroborator.models import PlaceRef
from corroborator.nlp import gazetteer
from corroborator.nlp.gazetteer import Place
from corroborator.nlp.gazetteer_build import arabic_key
from corroborator.nlp.lang import countries
from corroborator.nlp.lang.arabic.script import ARABIC_WORD, MIN_STEM, PREFIXES, bare
from corroborator.nlp.lang.latin.dictionary import known
from corroborator.nlp.lang.places import place_ref
from corroborator.nlp.stop_words import stop_words

MAX_WORDS = 3


class _Found(NamedTuple):
    start: int
    end: int
    places: list[Place]  # biggest first
    country: bool  # named as a country
    word: bool  # one word the dictionary holds: only a major town's name


def _forms(word: str) -> list[str]:
    """The word as written and without each proclitic group it may start with."""
    word = bare(word)
    return [word] + [
        word[len(p) :] for p in PREFIXES if word.startswith(p) and len(word) - len(p) >= MIN_STEM
    ]


def _particle_word(word: str) -> bool:
    """A proclitic written onto a function word ("وأن": "and that")."""
    plain = bare(word)
    return any(plain.startswith(p) and plain[len(p) :] in stop_words("ar") for p in PREFIXES)


def _known(word: str) -> bool:
    return known(bare(word), "ar")


def _lookup(words: list[str]) -> tuple[list[Place], bool, bool]:
    """(places, named as a country, through a proclitic cut off) of a run of words; the
    first may carry proclitics."""
    gaz = gazetteer.load()
    own = countries.names("ar", arabic_key)
    for n, first in enumerate(_forms(words[0])):
        key = arabic_key(" ".join([first, *words[1:]]))
        iso2 = own.get(key)
        country = gaz.country(iso2) if iso2 else None
        if country is not None:
            return [country], True, n > 0
        found = gaz.arabic(key)
        if found:
            return found, False, n > 0
    return [], False, False


def _find(text: str) -> list[_Found]:
    words = [(m.start(), m.end(), m.group()) for m in ARABIC_WORD.finditer(text)]
    out: list[_Found] = []
    i = 0
    while i < len(words):
        hit: _Found | None = None
        n = 0
        for n in range(min(MAX_WORDS, len(words) - i), 0, -1):
            run = words[i : i + n]
            if any(text[a[1] : b[0]] != " " for a, b in zip(run, run[1:], strict=False)):
                continue  # a name's words stand side by side
            places, country, cut = _lookup([w for _, _, w in run])
            if not places:
                continue
            word = run[0][2]
            if not country and n == 1 and (_particle_word(word) or (cut and _known(word))):
                continue
            one_word = n == 1 and not country and any(_known(f) for f in _forms(word))
            hit = _Found(run[0][0], run[-1][1], places, country, one_word)
            break
        if hit is None:
            i += 1
        else:
            out.append(hit)
            i += n
    return out


@cache
def _nisbas() -> dict[str, str]:
    """A country's adjective (its nisba, "ليبي" of ليبيا, "عراقي" of العراق), folded as
    `arabic_key` folds names -> ISO code: "the Libyan coast guard" names Libya as surely
    as "Libya" does. One-word names only, and only a stem of MIN_STEM letters or more."""
    out: dict[str, str] = {}
    for name, iso2 in countries.names("ar", arabic_key).items():
        if " " in name:
            continue
        stem = name[:-2] if name.endswith("يا") else name[:-1] if name[-1] in "اه" else name
        if len(stem) >= MIN_STEM:
            out.setdefault(stem + "ي", iso2)
    return out


def _nisba_country(word: str) -> str | None:
    """The country a word's nisba names, in any of its forms: with proclitics and the
    article, feminine (-ة) or plural (-ين, -ون): "والليبيين", "السورية"."""
    nisbas = _nisbas()
    for form in _forms(word):
        key = arabic_key(form)
        for ending in ("", "ه", "ين", "ون"):
            if key.endswith(ending) and (iso2 := nisbas.get(key[: len(key) - len(ending)])):
                return iso2
    return None


def resolve(text: str) -> list[PlaceRef]:
    found = _find(text)
    named = {f.places[0].country for f in found if f.country}
    named |= {c for m in ARABIC_WORD.finditer(text) if (c := _nisba_country(m.group()))}
    out: list[PlaceRef] = []
    for f in found:
        place = next(
            (
                p
                for p in f.places
                if p.kind == "country" or (p.country in named and (p.major or not f.word))
            ),
            None,
        )
        if place is not None:
            out.append(place_ref(text, f.start, f.end, place))
    return out
