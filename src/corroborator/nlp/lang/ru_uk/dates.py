"""Dates in Russian and Ukrainian: "24 февраля", "у березні 2022 року", "в 2022 году".

Month names are matched by stem (every case form: "февраля", "лютого", "березні"); a
missing year is the publication's year, or the year before when that would be future.
"""

from __future__ import annotations

import calendar
import datetime as dt

from corroborator.models import DateRef
from corroborator.nlp.lang.ru_uk.text import Token, lex

_YEAR_WORDS = frozenset({"год", "года", "году", "г", "рік", "року", "р", "роком"})


def month_of(word: str) -> int | None:
    """Month number of a month-name form; a short stem ("лют", "ма") needs no more than three
    letters after it, so "машина" and "лютий" (fierce) alone do not count."""
    low = word.lower()
    table: dict[str, int] = lex()["months"]
    for stem in sorted(table, key=len, reverse=True):
        if low.startswith(stem) and len(low) - len(stem) <= 3:
            return table[stem]
    return None


def _year(tok: Token | None) -> int | None:
    if tok and tok.text.isdigit() and len(tok.text) == 4 and 1900 <= int(tok.text) <= 2100:
        return int(tok.text)
    return None


def find(text: str, toks: list[Token], published: dt.date | None) -> list[DateRef]:
    out: list[DateRef] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        month = month_of(t.text) if not t.is_title or i == 0 or toks[i - 1].text.isdigit() else None
        day = (
            int(toks[i - 1].text)
            if i > 0 and toks[i - 1].text.isdigit() and len(toks[i - 1].text) <= 2
            else None
        )
        if day is not None and not 1 <= day <= 31:
            day = None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        year = _year(nxt)
        if month is None or (day is None and year is None and len(t.text) < 6):
            if _year(t) and nxt and nxt.lower in _YEAR_WORDS:
                out.append(
                    DateRef(
                        t.start,
                        nxt.end,
                        text[t.start : nxt.end],
                        f"{t.text}-01-01",
                        f"{t.text}-12-31",
                        "year",
                    )
                )
                i += 2
                continue
            i += 1
            continue
        start = toks[i - 1].start if day is not None else t.start
        end = t.end
        if year is not None:
            end = nxt.end if nxt else end
            if i + 2 < len(toks) and toks[i + 2].lower in _YEAR_WORDS:
                end = toks[i + 2].end
        elif published is not None:
            year = published.year
            if dt.date(year, month, day or 1) > published:
                year -= 1
        if year is None:
            i += 1
            continue
        if day is not None:
            try:
                iso = dt.date(year, month, day).isoformat()
            except ValueError:
                i += 1
                continue
            out.append(DateRef(start, end, text[start:end], iso, iso, "day"))
        else:
            last = calendar.monthrange(year, month)[1]
            first, final = f"{year}-{month:02d}-01", f"{year}-{month:02d}-{last:02d}"
            out.append(DateRef(start, end, text[start:end], first, final, "month"))
        while i < len(toks) and toks[i].start < end:
            i += 1
    return out
