"""Places the gazetteer knows under the spelling a report uses ('Kiew', 'Charkiw',
'Soudan'), among its runs of name words.

Without a model, the country decides: a place counts where the report names its country,
as a country, by two places of it in words no dictionary holds ('Cherson', 'Saporischschja'),
or by a town and its region. A dictionary word ('Mann', 'Stelle', 'Dorf') is a place only
there; so is a small one (under 15,000 people, or a district). Where the report names no
country at all, a word no dictionary holds may stand for a major place ('Anapa').
"""

from __future__ import annotations

from corroborator.models import PlaceRef
from corroborator.nlp import gazetteer, lexicon
from corroborator.nlp.gazetteer import Place
from corroborator.nlp.lang.latin.words import PARTICLES, Word, ordinary
from corroborator.nlp.lang.places import PRECISION, place_ref

_ORDER = ("country", "admin1", "city", "admin2")


def _spans(run: list[Word]) -> list[tuple[int, int]]:
    """Sub-runs (first, last word index) no longer than a gazetteer name, longest and
    leftmost first: a line of capitals hundreds of words long costs a few lookups a word."""
    n = len(run)
    sizes = range(min(n, gazetteer.MAX_TOKENS), 0, -1)
    return [(i, i + size - 1) for size in sizes for i in range(n - size + 1)]


def resolve(text: str, name_runs: list[list[Word]], language: str) -> list[PlaceRef]:
    gaz = gazetteer.load()
    around = lexicon.words("latin_place_words.txt") | PARTICLES
    found: list[tuple[int, int, bool, list[Place]]] = []  # start, end, plain?, candidates
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
            surface = text[run[a].start : run[b].end]
            # a town before the district named after it ("Bucha", "Saint-Marc")
            cands = sorted(
                (p for p in gaz.candidates(surface) if p.kind in PRECISION),
                key=lambda p: _ORDER.index(p.kind),
            )
            if not cands:
                continue
            plain = not any(
                ordinary(w.text, lang) for w in run[a : b + 1] for lang in (language, "en")
            )
            found.append((run[a].start, run[b].end, plain, cands))
            taken.append((a, b))
    # Countries the report names: as countries, else by two places of it (two plain names,
    # or one named twice); with none named, any major place a plain name spells.
    surfaces: dict[str, list[str]] = {}
    for start, end, plain, cands in found:
        if plain:
            surfaces.setdefault(cands[0].country, []).append(text[start:end].lower())
    named = {c[0].country for *_, plain, c in found if plain and c[0].kind == "country"}
    # a town and its region both named ("Tibú, en Norte de Santander") vouch for each other
    regions = {(p.country, p.name) for *_, cands in found for p in cands if p.kind == "admin1"}
    towns = {(p.country, p.admin1) for *_, cands in found for p in cands if p.kind != "admin1"}
    named |= {cc for cc, _ in regions & towns}
    named |= {cc for cc, names in surfaces.items() if len(set(names)) >= 2}
    if not named:
        named = {cc for cc, names in surfaces.items() if len(names) >= 2}
    out: list[PlaceRef] = []
    for s, e, plain, cands in sorted(found, key=lambda f: f[0]):
        place = next((p for p in cands if p.country in named), None)
        if place is None and plain and (cands[0].kind == "country" or not named):
            place = next((p for p in cands if p.major), None)
        if place is None:
            continue
        out.append(place_ref(text, s, e, place))
    return out
