"""Names and places of paragraphs in a Latin-script language without a pipeline."""

from __future__ import annotations

from corroborator.models import Extraction
from corroborator.nlp.lang.latin import names, places, villages
from corroborator.nlp.lang.latin.words import words
from corroborator.nlp.lang.places import place_entities


def extract(text: str, language: str) -> Extraction:
    runs = names.runs(words(text), language)
    ex = Extraction()
    known = places.resolve(text, runs, language)
    ex.places = sorted(known + villages.cued(text, runs, known), key=lambda p: p.start)
    placed = [(p.start, p.end) for p in ex.places]
    rest = [r for r in runs if not any(a < r[-1].end and r[0].start < b for a, b in placed)]
    ex.entities = sorted(
        names.entities(text, rest, language) + place_entities(ex.places),
        key=lambda e: e.start,
    )
    return ex
