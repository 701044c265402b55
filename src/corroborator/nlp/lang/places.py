"""Place records from a gazetteer entry, for the readers of other languages, and of villages
the gazetteer lacks, for every reader."""

from __future__ import annotations

import re
from dataclasses import replace

from corroborator.models import EntityMention, PlaceRef
from corroborator.nlp.gazetteer import Place

PRECISION = {"city": "settlement", "admin2": "admin2", "admin1": "admin1", "country": "country"}


def place_ref(text: str, start: int, end: int, place: Place) -> PlaceRef:
    """The words text[start:end] resolved to `place`."""
    return PlaceRef(
        start,
        end,
        text[start:end],
        place.name,
        place.geonameid,
        place.lat,
        place.lon,
        place.admin1,
        place.country,
        PRECISION.get(place.kind, "unknown"),
    )


def place_entities(places: list[PlaceRef]) -> list[EntityMention]:
    """The places as entity mentions, as the English pipeline records its place names."""
    return [EntityMention(p.start, p.end, p.text, "place", "LOC", p.name) for p in places]


def uncharted(
    text: str,
    start: int,
    end: int,
    name: str,
    admin1: str | None,
    country: str | None,
    near: PlaceRef | None,
) -> PlaceRef:
    """A village the gazetteer lacks: its own name, no id, and the position of the nearest
    place the text ties it to (the town it is near, else its region or country)."""
    return PlaceRef(
        start=start,
        end=end,
        text=text[start:end],
        name=name,
        geonames_id=None,
        lat=near.lat if near else None,
        lon=near.lon if near else None,
        admin1=admin1,
        country=country,
        precision="settlement",
    )


def repeated(text: str, villages: list[PlaceRef], taken: set[int]) -> list[PlaceRef]:
    """The later bare mentions of these villages ("In X, soldiers ..."): the same places,
    outside the characters already `taken`."""
    seen = {i for p in villages for i in range(p.start, p.end)} | taken
    out: list[PlaceRef] = []
    for p in villages:
        for m in re.finditer(rf"(?<![\w-]){re.escape(p.text)}(?![\w-])", text):
            if not any(i in seen for i in range(m.start(), m.end())):
                out.append(replace(p, start=m.start(), end=m.end(), text=m.group()))
                seen.update(range(m.start(), m.end()))
    return out
