"""The Russian/Ukrainian pipeline: one pass per text, records in the shared record types."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from corroborator.models import EntityMention, Extraction
from corroborator.nlp.lang.ru_uk import dates, entities, incidents, numbers, places, quotes
from corroborator.nlp.lang.ru_uk.text import nominative, sentences, tokens


def extract(text: str, published: dt.date | None, language: str) -> Extraction:
    toks = tokens(text, language)
    ex = Extraction()
    named = entities.named(text)
    ex.places = places.resolve(text, toks, named)
    # a name the gazetteer placed is a place, whatever NER called it ("Бучі" as PER)
    placed = [(p.start, p.end) for p in ex.places]
    kept = [
        replace(t, canonical=nominative(t.text, language)) if t.kind == "person" else t
        for e in named
        if (t := _trim(text, e, placed)) is not None
    ]
    ex.entities = sorted(
        kept
        + entities.forces(text, toks)
        + [EntityMention(p.start, p.end, p.text, "place", "LOC", p.name) for p in ex.places],
        key=lambda e: e.start,
    )
    ex.dates = dates.find(text, toks, published)
    ex.counts = numbers.find(text, toks, ex.dates)
    ex.quotes = quotes.find(text, toks, ex.entities)
    ex.hedges = quotes.hedges(text)
    ex.evidence = incidents.evidence(text, toks, ex)
    ex.incidents = incidents.find(text, toks, sentences(text), ex)
    return ex


def _trim(text: str, e: EntityMention, placed: list[tuple[int, int]]) -> EntityMention | None:
    """The entity without the place names inside it ("Бучі Олена Петренко" -> the person)."""
    start = e.start
    for a, b in placed:
        if a <= start < b:
            start = b
    while start < e.end and not text[start].isalnum():
        start += 1
    if start >= e.end or any(start <= a < e.end for a, _ in placed):
        return None
    return EntityMention(start, e.end, text[start : e.end], e.kind, e.label)
