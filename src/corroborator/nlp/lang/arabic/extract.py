"""Places of Arabic paragraphs (the names the linker reads come from `words`)."""

from __future__ import annotations

from corroborator.models import EntityMention, Extraction
from corroborator.nlp.lang.arabic import places


def extract(text: str) -> Extraction:
    ex = Extraction()
    ex.places = places.resolve(text)
    ex.entities = [EntityMention(p.start, p.end, p.text, "place", "LOC", p.name) for p in ex.places]
    return ex
