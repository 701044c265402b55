"""The publication date a pasted page states above its text.

Plain text and records without a `published` field arrive with their date stamp pasted in
("Published: 12 March 2025, 14:05", "Stockholm, 27 November 2025", "Live blog | Tuesday
22 July 2025 | Editors: ..."). Furniture removal drops that line from the working text, and
without it every weekday and yearless date of the report ("late on Tuesday", "on 9 June")
stays unanchored. Only furniture above the body is read, never a headline or the body: a
date there is the subject of the news ("Remembering 24 February 2022"), not its time.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache

from corroborator.ingest.furniture import page
from corroborator.nlp import lexicon


@dataclass(frozen=True)
class Stated:
    """A date the page states, and where (character offsets in the decoded original)."""

    day: dt.date
    start: int
    end: int


@cache
def _months() -> dict[str, int]:
    """English month names and abbreviations, and other languages' names as a date stamp
    writes them after the day ('12 марта 2025', '5. März 2025', '12 de marzo de 2025')."""
    rows = (*lexicon.rows("dates_months.tsv"), *lexicon.rows("dateline_months.tsv"))
    return {r[0]: int(r[1]) for r in rows}


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    month = "|".join(sorted(_months(), key=len, reverse=True))
    return (
        re.compile(
            rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:de\s+)?(?P<m>{month})\.?,?\s+"
            rf"(?:de\s+)?(?P<y>\d{{4}})\b",
            re.I,
        ),
        re.compile(
            rf"\b(?P<m>{month})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", re.I
        ),
        re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"),
        re.compile(r"\b(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})\b"),
    )


def stated_date(text: str, header: list[tuple[int, int, bool]] | None = None) -> Stated | None:
    """The first full date (day, month and year) in the page's header (`furniture.Page`;
    read here when the caller has not)."""
    for start, end, furniture in page(text).header if header is None else header:
        found = sorted((m.start(), m) for p in _patterns() for m in p.finditer(text, start, end))
        for _, m in found:
            day = _day(m)
            # a short line that may be a headline dates the page only when the date ends it
            # or the next field opens ("KHERSON, 15 March 2025", "Published 18 May 2024 | By ...";
            # not "24 February 2022: the day the war began")
            if day is not None and (furniture or _ENDS.match(text, m.end(), end)):
                return Stated(day, m.start(), m.end())
    return None


# after a date on a line that may be a headline: a field separator, a time, or the end
_ENDS = re.compile(r"[\s,]*(?:[|·•]|(?:[–—-]|à|at)?\s*\d{1,2}[:.h]\d{2}|$)", re.I)


def _day(m: re.Match[str]) -> dt.date | None:
    month = m["m"]
    number = int(month) if month.isdigit() else _months().get(month.lower().rstrip("."))
    try:
        return dt.date(int(m["y"]), number or 0, int(m["d"]))
    except ValueError:
        return None
