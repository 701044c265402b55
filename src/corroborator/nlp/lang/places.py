"""A place record from a gazetteer entry, for the readers of other languages."""

from __future__ import annotations

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
