"""Places the gazetteer knows under the spelling a report uses ('Kiew', 'Charkiw',
'Soudan'), among its runs of name words.

Without a model, the country decides: a place counts where the report names its country,
as a country (in its own language's word: `countries`), by two places of it in words no
dictionary holds ('Cherson', 'Saporischschja'), or by a town and its region. A
dictionary word ('Mann', 'Stelle', 'Dorf') is a place only there; so is a small one
(under 15,000 people, or a district). Where the report names no country at all, a word
no dictionary holds may stand for a major place ('Anapa').

A name declined for its case ('Charkowie', 'Ukrajině') is looked up without the ending
too, and a long name no spelling of the gazetteer holds ('Balaklía') is matched to a
near one in a country the report names, as the English reader does for 'Donestk'.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from functools import cache
from typing import NamedTuple

from corroborator.models import PlaceRef
from corroborator.nlp import gazetteer, lexicon
from corroborator.nlp.gazetteer import Place
from corroborator.nlp.lang import countries
from corroborator.nlp.lang.latin.dictionary import known
from corroborator.nlp.lang.latin.words import NOUNS_CAPITALISED, PARTICLES, Word, ordinary
from corroborator.nlp.lang.places import PRECISION, place_ref

_ORDER = ("country", "admin1", "city", "admin2")
NEAR_SPELLING = 92.0  # rapidfuzz ratio: 'Balaklía'/'Balakliia' 94, 'Aleksandr'/'Aleksandrov' 90
MAX_FORMS = 16  # spellings of one sub-run looked up at most
MIN_STEM = 4  # letters of a name without its ending: 'Kij' of 'Kijowie' is a name of Niigata
LOWERED_NAMES = frozenset({"tr"})  # dictionaries that hold names in lower case
NEAR_LENGTH = 7  # shorter words are too often a first name a village's name starts like


class _Found(NamedTuple):
    """A run of name words the gazetteer holds under `form` (as written, or declined)."""

    start: int
    end: int
    form: str
    plain: bool  # no dictionary word of the language or of English (or one only as a name)
    proper: bool  # the language's own name of a place ('Járkov')
    lowered: bool  # capitalised inside a sentence where only names are (`_lowered_name`)
    cands: list[Place]


def _spans(run: list[Word]) -> list[tuple[int, int]]:
    """Sub-runs (first, last word index) no longer than a gazetteer name, longest and
    leftmost first: a line of capitals hundreds of words long costs a few lookups a word."""
    n = len(run)
    sizes = range(min(n, gazetteer.MAX_TOKENS), 0, -1)
    return [(i, i + size - 1) for size in sizes for i in range(n - size + 1)]


@cache
def _endings(language: str) -> tuple[tuple[str, str], ...]:
    rows = lexicon.rows("latin_case_endings.tsv")
    found = [(row[1], row[2] if len(row) > 2 else "") for row in rows if row[0] == language]
    return tuple(sorted(found, key=lambda e: len(e[0])))


def _forms(surface: str, language: str) -> list[str]:
    """The name as written, then with case endings replaced, the shortest ending first
    ('Charkowie' is 'Charkow', not 'Chark'; 'Nowej Kachowki' is 'Nowa Kachowka')."""
    options = [[word] + _stems(word, language) for word in surface.split(" ")]
    return [" ".join(form) for form in itertools.islice(itertools.product(*options), MAX_FORMS)]


def _stems(word: str, language: str) -> list[str]:
    return [
        word[: -len(ending)] + instead
        for ending, instead in _endings(language)
        if word.endswith(ending) and len(word) - len(ending) + len(instead) >= MIN_STEM
    ]


def _lookup(surface: str, language: str, declined: bool) -> tuple[str, str | None, list[Place]]:
    """The spelling looked up, the country it is the language's word for (if any), and its
    candidates: that country first, then the places it spells. Case endings come off only a name with a
    word the dictionary does not hold as written, or holds only as a name: 'Ukrajinské'
    is an adjective, 'Charkowie' and 'Kupiańskiem' are towns."""
    gaz = gazetteer.load()
    own_words = countries.names(language)
    for form in _forms(surface, language) if declined else [surface]:
        iso2 = own_words.get(gazetteer.normalize(form))
        country = gaz.country(iso2) if iso2 else None
        cands = sorted(
            (p for p in gaz.candidates(form) if p.kind in PRECISION and p != country),
            key=lambda p: _ORDER.index(p.kind),
        )
        if country is not None:
            return form, country.country, [country, *cands]  # 'Argelia': Algeria, or a town
        if cands:
            return form, None, cands
    return surface, None, []


def _proper(w: Word, language: str) -> bool:
    """A word the dictionary holds only capitalised ('Járkov', 'Charków'): the language's
    name of a famous place, not an ordinary word (where nouns are not capitalised)."""
    return (
        language not in NOUNS_CAPITALISED
        and w.text[1:].islower()
        and known(w.text, language)
        and not known(w.text.lower(), language)
    )


def _lowered_name(w: Word, language: str) -> bool:
    """A Turkish word capitalised inside a sentence: Turkish capitalises little but names
    there, and its dictionary holds many names in lower case ('gazze', 'kudüs'). Months,
    weekdays and 'Hamas' are capitalised too, so such a word counts only as a big city
    (BIG_POPULATION; 'Hula' of Marjayoun is a village, and an alternate name of a Syrian
    town of 22,000) named twice beside a country it borders (`_countries_named`)."""
    return language in LOWERED_NAMES and not w.first and w.text[1:].islower()


def resolve(text: str, name_runs: list[list[Word]], language: str) -> list[PlaceRef]:
    found, named, unknown = _find(text, name_runs, language)
    named = _countries_named(text, found, named)
    # Of several places in named countries, one that bears the name as its own ('Pokrovsk'
    # is also Engels's old name in Russia; 'Argelia' is a town of Cauca besides Algeria).
    out: list[PlaceRef] = []
    for f in found:
        key = gazetteer.normalize(f.form)
        place = min(
            (p for p in f.cands if p.country in named),
            key=lambda p: (gazetteer.normalize(p.name) != key, f.cands.index(p)),
            default=None,
        )
        if place is None and f.plain and (f.cands[0].kind == "country" or not named):
            place = next((p for p in f.cands if p.major), None)
        if place is not None:
            out.append(place_ref(text, f.start, f.end, place))
    # a near spelling, in a country the report names or names a place of
    where = named | {p.country for p in out if p.country}
    in_names = {w.text for run in name_runs if len(run) > 1 for w in run}
    gaz = gazetteer.load()
    for word in (w for w in unknown if w.text not in in_names) if where else ():
        near = [p for p in gaz.fuzzy(word.text, where, NEAR_SPELLING) if p.kind == "city"]
        if near:
            out.append(place_ref(text, word.start, word.end, near[0]))
    return sorted(out, key=lambda p: p.start)


def _find(
    text: str, name_runs: list[list[Word]], language: str
) -> tuple[list[_Found], set[str], list[Word]]:
    """The runs' longest sub-runs the gazetteer holds, the countries named in the
    language's own words, and long plain words no spelling of the gazetteer holds."""
    around = lexicon.words("latin_place_words.txt") | PARTICLES
    found: list[_Found] = []
    named: set[str] = set()
    unknown: list[Word] = []
    for run in name_runs:
        taken: list[tuple[int, int]] = []
        # names outside a sub-run may only be place words or particles: "Barry" in "Amadou
        # Barry" is no place, "Cherson" in "Gebiet Cherson" is one
        other = [0]  # how many words before index i are neither
        for w in run:
            other.append(other[-1] + (w.text.lower() not in around))
        for a, b in _spans(run):
            if any(a <= y and x <= b for x, y in taken):
                continue
            if other[-1] - (other[b + 1] - other[a]):
                continue
            if a == b and (len(run[a].text) < 3 or run[a].upper and len(run[a].text) <= 4):
                continue  # "Au" opening a quote; "ADF", "AMU": acronyms
            span = run[a : b + 1]
            proper = all(_proper(w, language) for w in span)
            plain = proper or not any(
                ordinary(w.text, lang) for w in span for lang in (language, "en")
            )
            # a town's whole name of several words, one of them no word of the language
            # ('Belford Roxo', 'Nova Iguaçu'), is as plain as a word no dictionary holds:
            # a local report often names its town and never its country
            plain = plain or (len(span) > 1 and any(not ordinary(w.text, language) for w in span))
            declined = proper or any(not ordinary(w.text, language) for w in span)
            form, own, cands = _lookup(text[run[a].start : run[b].end], language, declined)
            if own is not None:
                named.add(own)
            if not cands:
                if len(run) == 1 and plain and len(run[a].text) >= NEAR_LENGTH:
                    unknown.append(run[a])
                continue
            lowered = all(_lowered_name(w, language) for w in span)
            found.append(_Found(run[a].start, run[b].end, form, plain, proper, lowered, cands))
            taken.append((a, b))
    return found, named, unknown


def _countries_named(text: str, found: list[_Found], named: set[str]) -> set[str]:
    """Countries the report names: as countries, else by two places of it (two plain
    names, or one named twice, a major town's even beside another country it borders:
    'Tulkarim' twice where 'İsrail' is named, not 'Chouk' (Abu Shouk) where 'Soudan' is);
    with none named, any major place a plain name spells; and the country of a famous
    place named in the language's own word ('Járkov', 'Kijowie')."""
    named = set(named)
    surfaces: dict[str, list[str]] = defaultdict(list)
    major: Counter[tuple[str, str]] = Counter()
    for f in found:
        best = f.cands[0]
        if f.plain:
            surfaces[best.country].append(text[f.start : f.end].lower())
        big = best.population >= gazetteer.BIG_POPULATION
        if (f.plain and best.major or f.lowered and big) and best.kind == "city":
            major[best.country, text[f.start : f.end].lower()] += 1
    named |= {f.cands[0].country for f in found if f.plain and f.cands[0].kind == "country"}
    # a town and its region both named ("Tibú, en Norte de Santander") vouch for each other
    regions = {(p.country, p.name) for f in found for p in f.cands if p.kind == "admin1"}
    towns = {(p.country, p.admin1) for f in found for p in f.cands if p.kind != "admin1"}
    named |= {cc for cc, _ in regions & towns}
    named |= {cc for cc, names in surfaces.items() if len(set(names)) >= 2}
    named |= {cc for (cc, _), n in major.items() if n >= 2 and gazetteer.near(cc, named)}
    if not named:
        named = {cc for cc, names in surfaces.items() if len(names) >= 2}
    for f in found:
        famous = next((p for p in f.cands if p.major), None) if f.proper else None
        if famous is not None:
            named.add(famous.country)
    return named
