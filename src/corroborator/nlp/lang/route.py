"""Which parts of a document go to which pipeline.

English extraction on other languages yields garbage (every capitalised word a PERSON),
so Russian and Ukrainian paragraphs go to `ru_uk`, Arabic ones to `arabic` (places only),
paragraphs in a script we have no reader for (Georgian, Hebrew...) nowhere, paragraphs in
any other language but English to `latin` (names and places only), and English ones to
spaCy. A document all in
English goes to spaCy whole.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from corroborator.models import Extraction, LangRange
from corroborator.nlp.lang.detect import CYRILLIC, SCRIPT_LANGUAGES, ranges

PIPELINES = frozenset({"en"}) | CYRILLIC  # languages read in full; others for names only


@dataclass
class Plan:
    ranges: list[LangRange]
    english: list[tuple[int, str]]  # (offset, text) for the spaCy pipeline
    other: list[tuple[int, str, str]]  # (offset, text, language) for ru_uk or latin


def plan(text: str, declared: str | None = None) -> Plan:
    found = ranges(text, declared)
    if all(r.language == "en" for r in found):
        return Plan(found, [(0, text)], [])
    english: list[tuple[int, str]] = []
    other: list[tuple[int, str, str]] = []
    for r in found:
        if r.language != "en":
            other.append((r.start, text[r.start : r.end], r.language))
        elif english and english[-1][0] + len(english[-1][1]) == r.start:
            english[-1] = (english[-1][0], english[-1][1] + text[r.start : r.end])
        else:
            english.append((r.start, text[r.start : r.end]))
    return Plan(found, english, other)


def extract_other(items: list[tuple[str, dt.date | None, str]]) -> list[Extraction]:
    """Records for (text, published, language) parts, in order (one batched NER pass over
    the Russian and Ukrainian ones)."""
    from corroborator.nlp.lang.arabic.extract import extract as arabic
    from corroborator.nlp.lang.latin.extract import extract as latin

    cyrillic = [i for i, (*_, lang) in enumerate(items) if lang in CYRILLIC]
    out = [
        None
        if lang in CYRILLIC
        else Extraction()  # a script we have no reader for: archived and linked, not read
        if lang in SCRIPT_LANGUAGES
        else arabic(text)
        if lang == "ar"
        else latin(text, lang)
        for text, _, lang in items
    ]
    if cyrillic:
        from corroborator.nlp.lang.ru_uk.extract import extract_many

        for i, ex in zip(cyrillic, extract_many([items[i] for i in cyrillic]), strict=True):
            out[i] = ex
    return [ex for ex in out if ex is not None]
