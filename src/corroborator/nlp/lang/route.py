"""Which parts of a document go to which pipeline.

English extraction on Cyrillic text yields garbage (every capitalised word a PERSON), so
Russian and Ukrainian paragraphs go to `ru_uk`; everything else stays with spaCy. A
document with no Cyrillic paragraph goes to spaCy whole, exactly as before.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from corroborator.models import Extraction, LangRange
from corroborator.nlp.lang.detect import CYRILLIC, ranges


@dataclass
class Plan:
    ranges: list[LangRange]
    english: list[tuple[int, str]]  # (offset, text) for the spaCy pipeline
    other: list[tuple[int, str, str]]  # (offset, text, language) for ru_uk


def plan(text: str, declared: str | None = None) -> Plan:
    found = ranges(text, declared)
    if not any(r.language in CYRILLIC for r in found):
        return Plan(found, [(0, text)], [])
    english: list[tuple[int, str]] = []
    other: list[tuple[int, str, str]] = []
    for r in found:
        if r.language in CYRILLIC:
            other.append((r.start, text[r.start : r.end], r.language))
        elif english and english[-1][0] + len(english[-1][1]) == r.start:
            english[-1] = (english[-1][0], english[-1][1] + text[r.start : r.end])
        else:
            english.append((r.start, text[r.start : r.end]))
    return Plan(found, english, other)


def extract_other(items: list[tuple[str, dt.date | None, str]]) -> list[Extraction]:
    """Records for (text, published, language) parts, in order (one batched NER pass)."""
    from corroborator.nlp.lang.ru_uk.extract import extract_many

    return extract_many(items) if items else []
