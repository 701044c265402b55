"""The layout of a document's sentence units: paragraphs, quoted speech, headline.

Whether two mentions tell one story depends on where they sit (one paragraph, a quoted
paragraph after it, the headline); resolving and merging read that layout from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spacy.tokens import Doc, Span

from corroborator.nlp.columns import column, lows
from corroborator.nlp.pipeline import DocContext, text_of


@dataclass(frozen=True)
class Layout:
    """Per unit: paragraph number, whether that paragraph is quoted speech, content nouns."""

    para: list[int]
    quoted: list[bool]
    nouns: list[frozenset[str]]


_GENERIC = {
    "people",
    "civilian",
    "soldier",
    "troop",
    "force",
    "man",
    "time",
    "year",
    "day",
    "video",
    "war",
    "thing",
    "way",
    "country",
}
_OPENERS = "\"'‘“«"


def layout(doc: Doc, units: list[Span]) -> Layout:
    para, quoted, nouns = [], [], []
    text = text_of(doc)
    pos, lemmas = column(doc, "pos_"), lows(doc)
    for u in units:
        para.append(text.count("\n", 0, u.start_char))
        line_start = text.rfind("\n", 0, u.start_char) + 1
        quoted.append(text[line_start : line_start + 1] in _OPENERS)
        nouns.append(
            frozenset(
                lemmas[i]
                for i in range(u.start, u.end)
                if pos[i] in ("NOUN", "PROPN") and lemmas[i] not in _GENERIC and doc[i].is_alpha
            )
        )
    return Layout(para, quoted, nouns)


def same_story(lay: Layout, a: int, b: int) -> bool:
    """Units a < b tell one story: one paragraph, or quoted paragraphs that follow it."""
    lo, hi = min(a, b), max(a, b)
    return all(lay.para[k] == lay.para[lo] or lay.quoted[k] for k in range(lo + 1, hi + 1))


def para_gap(lay: Layout, a: int, b: int) -> int:
    """How many paragraph breaks lie between units a and b (blank lines count once)."""
    lo, hi = min(a, b), max(a, b)
    return len({lay.para[k] for k in range(lo, hi + 1)}) - 1


def is_headline(units: list[Span], k: int) -> bool:
    """The first line, alone in its paragraph and without a full stop."""
    if k != 0 or len(units) < 2:
        return False
    text = text_of(units[0].doc)
    between = text[units[0].end_char : units[1].start_char]
    return "\n" in between and units[0].text.rstrip()[-1:] not in ".!?"


def _own_line(units: Sequence[Span], k: int) -> str | None:
    """The unit's line, if the unit is the whole of it."""
    text = text_of(units[0].doc)
    start, end = paragraph(text, units[k].start_char)
    line = text[start:end].strip()
    return line if line == units[k].text.strip() else None


def is_heading(units: Sequence[Span], k: int) -> bool:
    """A line of its own that does not end like a sentence, closing quotes aside: the
    headline, a subheading ('...; Russia says it hit "port infrastructure"'), a roundup's
    item title ('NIGERIA - Dozens abducted in Zamfara'), a caption."""
    line = _own_line(units, k)
    return line is not None and line.rstrip("\"'”’")[-1:] not in ".!?…:"


def is_caption(units: Sequence[Span], k: int) -> bool:
    """A line of its own below the headline that does not end like a sentence: a photo
    caption ('A man walks through debris in the village of X'). It describes its picture;
    the article text after it does not retell it."""
    line = _own_line(units, k) if k else None
    return line is not None and line[-1:] not in ".!?\"'”’…:"


def paragraph(text: str, at: int) -> tuple[int, int]:
    """Character bounds of the paragraph (line) holding offset `at`."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return start, len(text) if end < 0 else end


def quote_index(units: list[Span], ctx: DocContext) -> dict[int, int]:
    """Unit -> index of the quotation it lies in (so a retold act in one quote merges)."""
    out: dict[int, int] = {}
    for k, u in enumerate(units):
        for qi, q in enumerate(ctx.extraction.quotes):
            if q.start < u.end_char and u.start_char < q.end:
                out[k] = qi
                break
    return out
