"""The Russian/Ukrainian pipeline: one pass per text, records in the shared record types."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from corroborator.models import EntityMention, Extraction
from corroborator.nlp.lang.places import place_entities
from corroborator.nlp.lang.ru_uk import dates, entities, incidents, numbers, places, quotes
from corroborator.nlp.lang.ru_uk.text import is_name_word, nominative, sentences, tokens


def extract_many(items: list[tuple[str, dt.date | None, str]]) -> list[Extraction]:
    """(text, published, language) triples; NER runs batched over all of them."""
    ner = entities.named_many([text for text, _, _ in items])
    return [extract(t, pub, lang, found) for (t, pub, lang), found in zip(items, ner, strict=True)]


def extract(
    text: str,
    published: dt.date | None,
    language: str,
    named: list[EntityMention] | None = None,
) -> Extraction:
    toks = tokens(text, language)
    ex = Extraction()
    if named is None:
        named = entities.named_many([text])[0]
    ex.places = places.resolve(text, toks, named, language)
    # a name the gazetteer placed is a place, whatever NER called it ("Бучі" as PER)
    placed = [(p.start, p.end) for p in ex.places]
    trimmed = [t for e in named if (t := _trim(text, e, placed)) is not None]
    kept = [p for t in trimmed if (p := _person(text, t, language) if t.kind == "person" else t)]
    ex.entities = sorted(
        kept + entities.forces(text, toks) + place_entities(ex.places),
        key=lambda e: e.start,
    )
    ex.dates = dates.find(text, toks, published)
    ex.counts = numbers.find(text, toks, ex.dates)
    ex.quotes = quotes.find(text, toks, ex.entities, language)
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


def _person(text: str, e: EntityMention, language: str) -> EntityMention | None:
    """The name inside a PER span, without leading role words ("Свідок Микола Гуменюк",
    "Запорізької ОВА Олександр Старух"); None when no word of it can be a name (natasha
    tags sentence-initial words on Ukrainian: "Відео", "Після")."""
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", text[e.start : e.end])]
    while words and not (words[0][1][:1].isupper() and is_name_word(words[0][1], language)):
        words.pop(0)
    while words and words[0][1].isupper() and len(words[0][1]) > 1:  # ОВА, ЗСУ
        words.pop(0)
    if not words:
        return None
    start = e.start + words[0][0]
    surface = text[start : e.end]
    return replace(e, start=start, text=surface, canonical=nominative(surface, language))
