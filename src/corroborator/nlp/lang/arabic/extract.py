"""Places of Arabic paragraphs (the names the linker reads come from `words`)."""

from __future__ import annotations

from corroborator.models import Extraction
from corroborator.nlp.lang.arabic import places
from corroborator.nlp.lang.places import place_entities


def extract(text: str) -> Extraction:
    ex = Extraction()
    ex.places = places.resolve(text)
    ex.entities = place_entities(ex.places)
    return ex
