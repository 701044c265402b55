"""Dates stage: date expressions -> DateRef records with honest ISO ranges and precision.

Absolute dates ("24 February", "February 24, 2022", "between February 27 and March 12",
"March 29 and 31") are read by a small token grammar, because dateparser's `search_dates`
misreads them ("March 29 and 31" -> 1931). Relative dates ("last week", "a month ago",
"Tuesday") go through dateparser with the publication date as `RELATIVE_BASE`.

A year is never invented. A yearless date takes its year, in this order, from:
1. an explicit date in the same text naming the same month (the nearest one), unless that
   year is after the publication year;
2. the publication date (the most recent such day on or before it: news reports the past);
3. the latest year stated anywhere in the text (news narrates recent events; earlier years
   are usually background), never a year that starts a period ("since 2014") or one
   before it.
With none of these the record keeps its words but has null dates and precision "unknown".
Relative expressions need the publication date; without it they are "unknown" too.
A bare weekday naming the publication's own weekday is that day (wire convention: "on
Tuesday" in Tuesday's paper), otherwise the most recent one before it.
Durations and ages ("seven years in jail", "20-year-old", "days") are not dates.
Dates that only time the reporting ("said on Monday", "a report published last week",
"the ministry on Friday rejected") are left out: they would pass for event dates.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from dateparser.date import DateDataParser
from spacy.tokens import Doc, Span, Token

from corroborator.models import DateRef
from corroborator.nlp import lexicon
from corroborator.nlp.columns import column, lower_at
from corroborator.nlp.pipeline import DocContext
from corroborator.nlp.stages.numbers import number_word_value

_VERB_TAGS = {"MD", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ"}
_YEAR_PREPS = {"in", "since", "by", "until", "till", "before", "after", "from", "of", "during"}
_YEAR_PREPS |= {"to", "through", "and", "between", "early", "late", "mid", "summer", "winter"}
_YEAR_PREPS |= {"spring", "autumn", "fall"}
_RANGE_FROM = {"between": {"and"}, "from": {"to", "until", "till", "through", "-", "–", "—"}}
_RANGE_BARE = {"to", "until", "till", "through", "-", "–", "—"}
_DEICTIC_NOW = {"today": 0, "yesterday": -1, "tomorrow": 1, "tonight": 0}
_RELATIVE_WORDS = {"last", "this", "next", "past", "previous", "coming"}
_ISO_SINGLE = re.compile(r"^\d{1,4}[/.]\d{1,2}[/.]\d{1,4}$")


@cache
def _table(name: str) -> dict[str, str]:
    """Load a `word<TAB>value` lexicon (comments start with #)."""
    return {k.strip(): v.strip() for k, v in lexicon.rows(name)}


def _key(tok: Token) -> str:
    return tok.lower_.rstrip(".")


def _month(tok: Token) -> int | None:
    """Month number of a capitalised month name used as a noun ("May" the modal is not)."""
    value = _table("dates_months.tsv").get(_key(tok))
    if value is None or not tok.text[:1].isupper() or tok.tag_ in _VERB_TAGS:
        return None
    return int(value)


def _weekday(tok: Token) -> int | None:
    value = _table("dates_weekdays.tsv").get(_key(tok))
    return int(value) if value is not None and tok.text[:1].isupper() else None


def _day(tok: Token) -> int | None:
    """Day of month from "24" or "24th"."""
    m = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)?", tok.lower_)
    if m and 1 <= int(m.group(1)) <= 31:
        return int(m.group(1))
    return None


def _year(tok: Token) -> int | None:
    if re.fullmatch(r"\d{4}", tok.text) and 1800 <= int(tok.text) <= 2100:
        return int(tok.text)
    return None


@dataclass(frozen=True)
class _Partial:
    """What the words say, before anchoring: any part may be missing."""

    year: int | None = None
    month: int | None = None
    day: int | None = None

    def precision(self) -> str:
        if self.day is not None and self.month is not None:
            return "day"
        return "month" if self.month is not None else "year"


@dataclass(frozen=True)
class _Match:
    start: int  # token indices, end exclusive
    end: int
    first: _Partial
    last: _Partial


def _tok(doc: Doc, i: int) -> Token | None:
    return doc[i] if 0 <= i < len(doc) else None


def _bare_year_ok(doc: Doc, i: int) -> bool:
    """A lone 4-digit number is a year only where a year is expected, never as a count."""
    tok = doc[i]
    if tok.dep_ == "nummod" and tok.head.i > i and tok.head.pos_ == "NOUN":
        return False
    return tok.ent_type_ == "DATE" or lower_at(doc, i - 1) in _YEAR_PREPS


def _simple(doc: Doc, i: int, *, bare_year: bool = True) -> tuple[int, _Partial] | None:
    """One date at token i: [weekday ,] day [of] month [,] [year] | month day [,] [year] |
    month [of] year | month | year-mm-dd | year. Returns (end, parts)."""
    tok = _tok(doc, i)
    if tok is None:
        return None
    if _weekday(tok) is not None:
        j = i + 1 + (lower_at(doc, i + 1) == ",")
        return _simple(doc, j, bare_year=False)
    day = _day(tok)
    if day is not None:
        j = i + 1 + (lower_at(doc, i + 1) == "of")
        nxt = _tok(doc, j)
        month = _month(nxt) if nxt is not None else None
        if month is None:
            return None
        return _with_year(doc, j + 1, _Partial(None, month, day))
    month = _month(tok)
    if month is not None:
        nxt = _tok(doc, i + 1)
        if nxt is not None and _day(nxt) is not None and lower_at(doc, i + 2) != ":":
            return _with_year(doc, i + 2, _Partial(None, month, _day(nxt)))
        j = i + 1 + (lower_at(doc, i + 1) == "of")
        yt = _tok(doc, j)
        if yt is not None and _year(yt) is not None:
            return j + 1, _Partial(_year(yt), month, None)
        return i + 1, _Partial(None, month, None)
    year = _year(tok)
    if year is None:
        return None
    iso = [_tok(doc, i + k) for k in range(1, 5)]
    if all(t is not None for t in iso) and [t.text for t in iso[::2] if t] == ["-", "-"]:
        mm, dd = iso[1], iso[3]
        if mm and dd and re.fullmatch(r"\d\d", mm.text) and re.fullmatch(r"\d\d", dd.text):
            return i + 5, _Partial(year, int(mm.text), int(dd.text))
    if bare_year and _bare_year_ok(doc, i):
        return i + 1, _Partial(year, None, None)
    return None


def _with_year(doc: Doc, j: int, part: _Partial) -> tuple[int, _Partial]:
    """Extend a day-month date with an optional ", 2022" / " 2022"."""
    k = j + (lower_at(doc, j) == ",")
    yt = _tok(doc, k)
    if yt is not None and _year(yt) is not None:
        return k + 1, replace(part, year=_year(yt))
    return j, part


def _date_or_day(doc: Doc, i: int) -> tuple[int, _Partial] | None:
    """A full date, or a bare day number (the second half of "March 29 and 31")."""
    found = _simple(doc, i)
    if found is not None:
        return found
    tok = _tok(doc, i)
    if tok is not None and _day(tok) is not None:
        return i + 1, _Partial(None, None, _day(tok))
    return None


def _merge(a: _Partial, b: _Partial) -> tuple[_Partial, _Partial]:
    """Share missing parts across a range: "29 and 31 March", "March 29 and 31, 2022"."""
    if b.month is None:
        b = replace(b, month=a.month)
    if a.month is None:
        a = replace(a, month=b.month)
    if a.year is None:
        a = replace(a, year=b.year)
    if b.year is None and a.year is not None:
        year = a.year + (_order(b) < _order(a))
        b = replace(b, year=year)
    return a, b


def _order(p: _Partial) -> tuple[int, int]:
    return (p.month or 0, p.day or 0)


def _range_ok(a: _Partial, b: _Partial) -> bool:
    """Both halves must be dates of compatible grain (no "5 to 2022")."""
    if a.month is None and a.day is not None:  # bare first day needs the month from b
        return b.month is not None and b.day is not None
    if b.month is None and b.day is not None:
        return a.day is not None
    return (a.month is None) == (b.month is None) or a.year is not None or b.year is not None


def _dated(a: _Partial, b: _Partial) -> bool:
    """A range names a month or two years; "between 10 and 20" alone is not a date."""
    return a.month is not None or b.month is not None or None not in (a.year, b.year)


@cache
def _name_starts() -> frozenset[str]:
    """Month and weekday names: with digits and range words, all a date can begin with."""
    return frozenset({*_table("dates_months.tsv"), *_table("dates_weekdays.tsv")})


def _match_at(doc: Doc, i: int) -> _Match | None:
    """A range or a single date starting at token i (tried at every token: a test of the
    first word spares most of them the parsing)."""
    word = lower_at(doc, i)
    if (
        not word[:1].isdigit()
        and word not in _RANGE_FROM
        and word.rstrip(".") not in _name_starts()
    ):
        return None
    if word in _RANGE_FROM:
        a = _date_or_day(doc, i + 1)
        if a is not None and lower_at(doc, a[0]) in _RANGE_FROM[word]:
            b = _date_or_day(doc, a[0] + 1)
            if b is not None and _range_ok(a[1], b[1]) and _dated(a[1], b[1]):
                first, last = _merge(a[1], b[1])
                return _Match(i, b[0], first, last)
        return None
    a = _simple(doc, i)
    if a is None:
        tok = doc[i]
        day = _day(tok)
        if day is None or lower_at(doc, i + 1) not in _RANGE_BARE | {"and"}:
            return None
        b = _simple(doc, i + 2)
        if b is None or b[1].day is None or b[1].month is None:
            return None
        first, last = _merge(_Partial(None, None, day), b[1])
        return _Match(i, b[0], first, last)
    conn = lower_at(doc, a[0])
    if conn in _RANGE_BARE or (conn == "and" and a[1].day is not None):
        b = _date_or_day(doc, a[0] + 1)
        if b is not None and _range_ok(a[1], b[1]) and not (conn == "and" and b[1].month):
            first, last = _merge(a[1], b[1])
            return _Match(i, b[0], first, last)
    return _Match(i, a[0], a[1], a[1])


def _absolute(doc: Doc) -> list[_Match]:
    out: list[_Match] = []
    i = 0
    while i < len(doc):
        m = _match_at(doc, i)
        if m is None:
            i += 1
            continue
        out.append(m)
        i = m.end
    return out


def _bounds(p: _Partial) -> tuple[dt.date, dt.date]:
    assert p.year is not None
    if p.month is None:
        return dt.date(p.year, 1, 1), dt.date(p.year, 12, 31)
    if p.day is None:
        last = calendar.monthrange(p.year, p.month)[1]
        return dt.date(p.year, p.month, 1), dt.date(p.year, p.month, last)
    return dt.date(p.year, p.month, p.day), dt.date(p.year, p.month, p.day)


def _anchor_year(
    m: _Match, matches: list[_Match], doc: Doc, published: dt.date | None
) -> int | None:
    """Year for a yearless date (rule in the module docstring)."""
    stated = [x for x in matches if x.first.year is not None]
    same = [x for x in stated if x.first.month == m.first.month or x.last.month == m.first.month]
    if published is not None:
        same = [x for x in same if (x.first.year or 0) <= published.year]
    if same:
        near = min(same, key=lambda x: abs(doc[x.start].idx - doc[m.start].idx))
        return near.first.year if near.first.month == m.first.month else near.last.year
    if published is not None:
        after = _order(m.first) > (published.month, published.day)
        return published.year - after
    # "shelled repeatedly since 2022" starts a period that runs to now: not the event's
    # year, and no earlier year can be it either.
    starts = [x for x in stated if lower_at(doc, x.start - 1) == "since"]
    floor = max((x.first.year or 0 for x in starts), default=0)
    years = [y for x in stated if x not in starts for y in (x.first.year, x.last.year) if y]
    latest = max(years, default=0)
    return latest if latest >= max(floor, 1) else None


def _valid(p: _Partial) -> bool:
    try:
        _bounds(p)
    except ValueError:
        return False
    return True


def _absolute_ref(doc: Doc, m: _Match, matches: list[_Match], published: dt.date | None) -> DateRef:
    span = doc[m.start : m.end]
    first, last = m.first, m.last
    if first.year is None:
        year = _anchor_year(m, matches, doc, published)
        if year is not None:
            first = replace(first, year=year)
            last = replace(last, year=year + (_order(last) < _order(first)))
    precisions = [first.precision(), last.precision()]
    if first.year is None or not (_valid(first) and _valid(last)):
        return DateRef(span.start_char, span.end_char, span.text, None, None, "unknown")
    precision = next(p for p in ("year", "month", "day") if p in precisions)
    start, end = _bounds(first)[0], _bounds(last)[1]
    if end < start:
        return DateRef(span.start_char, span.end_char, span.text, None, None, "unknown")
    return DateRef(
        span.start_char, span.end_char, span.text, start.isoformat(), end.isoformat(), precision
    )


# ---- relative expressions -------------------------------------------------------------

_PERIOD_UNITS = {"week", "weekend", "fortnight", "month", "year"}


@cache
def _relative_starts() -> frozenset[str]:
    """Words a deictic date can begin with, besides weekdays and numbers."""
    return frozenset(
        {*_DEICTIC_NOW, "earlier", "later", *_RELATIVE_WORDS, *_table("dates_units.tsv"), "a", "an"}
    )


def _relative_end(doc: Doc, i: int) -> int | None:
    """End of a deictic date starting at token i, or None (tried at every token: a test
    of the first word spares most of them the rest)."""
    w = lower_at(doc, i)
    if (
        w not in _relative_starts()
        and w.rstrip(".") not in _table("dates_weekdays.tsv")
        and not w.isdigit()
        and number_word_value(w) is None
    ):
        return None
    units = _table("dates_units.tsv")
    nxt = _tok(doc, i + 1)
    if w in _DEICTIC_NOW:
        return i + 1
    if w in ("earlier", "later"):
        j = i + 1 + (lower_at(doc, i + 1) == "in")
        if lower_at(doc, j) in ("this", "the", "last") and lower_at(doc, j + 1) in _PERIOD_UNITS:
            return j + 2
        return None
    if w in _RELATIVE_WORDS and nxt is not None:
        return i + 2 if nxt.lower_ in _PERIOD_UNITS or _weekday(nxt) is not None else None
    if _weekday(doc[i]) is not None:
        return i + 1
    if w in units and lower_at(doc, i + 1) == "ago":
        return i + 2
    counted = w in ("a", "an") or number_word_value(w) is not None or w.isdigit()
    if counted and lower_at(doc, i + 2) == "ago" and lower_at(doc, i + 1) in units:
        return i + 3
    return None


def _relative_spans(doc: Doc) -> list[tuple[int, int]]:
    """Token spans of deictic dates: today, last week, earlier this year, a month ago, Tuesday."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(doc):
        end = _relative_end(doc, i)
        if end is None:
            i += 1
            continue
        out.append((i, end))
        i = end
    return out


def _relative_query(words: list[str]) -> tuple[str, bool]:
    """Normalise a deictic phrase for dateparser; True when it ends at publication."""
    capped = words[0] == "earlier"
    words = [w for w in words if w not in ("earlier", "later", "in")]
    if words[0] == "the":
        words[0] = "this"
    if words[0] in ("past", "previous"):
        words[0] = "last"
    if words[-1] == "ago" and len(words) == 2:
        words.insert(0, "a")
    return " ".join(words), capped


def _relative_ref(doc: Doc, start: int, end: int, published: dt.date | None) -> DateRef:
    span = doc[start:end]
    unknown = DateRef(span.start_char, span.end_char, span.text, None, None, "unknown")
    if published is None:
        return unknown
    if len(span) == 1 and _weekday(span[0]) == published.weekday():
        iso = published.isoformat()
        return DateRef(span.start_char, span.end_char, span.text, iso, iso, "day")
    query, capped = _relative_query([t.lower_ for t in span])
    found = _dateparse(query, published)
    if found is None:
        return unknown
    day, period = found
    if period == "year":
        lo, hi = dt.date(day.year, 1, 1), dt.date(day.year, 12, 31)
    elif period == "month":
        lo = day.replace(day=1)
        hi = day.replace(day=calendar.monthrange(day.year, day.month)[1])
    elif period == "week":
        lo = day - dt.timedelta(days=day.weekday())
        hi = lo + dt.timedelta(days=6)
    else:
        lo = hi = day
        period = "day"
    if capped and lo <= published < hi:
        hi = published
    return DateRef(
        span.start_char, span.end_char, span.text, lo.isoformat(), hi.isoformat(), period
    )


@lru_cache(maxsize=64)
def _parser(published: dt.date) -> DateDataParser:
    base = dt.datetime(published.year, published.month, published.day, 12)
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True}
    return DateDataParser(languages=["en"], settings=settings)


def _dateparse(text: str, published: dt.date) -> tuple[dt.date, str] | None:
    """dateparser with the publication date as base, preferring the past."""
    data = _parser(published).get_date_data(text)
    if data.date_obj is None:
        return None
    return data.date_obj.date(), data.period or "day"


def _numeric_ref(doc: Doc, i: int, published: dt.date | None) -> DateRef | None:
    """A one-token numeric date such as 12/03/2022 (dateparser's day/month order)."""
    tok = doc[i]
    base = published or dt.date(2000, 1, 1)
    found = _dateparse(tok.text, base)
    if found is None or not re.search(r"\d{4}", tok.text):
        return None
    day = found[0].isoformat()
    return DateRef(tok.idx, tok.idx + len(tok), tok.text, day, day, "day")


@cache
def _reporting_verbs() -> frozenset[str]:
    """Lemmas of verbs that report or publish (lexicons/dates_reporting.txt)."""
    return lexicon.words("dates_reporting.txt")


def told_overnight(sentence: Span) -> bool:
    """'Rockets struck houses in Kharkiv overnight, officials said on Sunday': the act
    happened the night before the day of the telling, which dates it too (not a victim's
    death overnight, the later toll of an earlier act)."""
    verbs = _reporting_verbs()
    return any(
        t.lower_ == "overnight"
        and t.head.pos_ == "VERB"
        and t.head.lemma_.lower() not in ("die", "succumb")
        and t.head.lemma_.lower() not in verbs
        for t in sentence
    )


def _times_reporting(doc: Doc, start: int, end: int) -> bool:
    """True when the date only times the telling (`_times_telling`), unless the act told
    happened overnight (`told_overnight`): asked of that sentence alone, not of every date."""
    return _times_telling(doc, start, end) and not told_overnight(doc[start:end].sent)


def _times_telling(doc: Doc, start: int, end: int) -> bool:
    """True when the date modifies a reporting verb ("said on Monday", "published last
    week"), or sits between a reporting verb and its subject ("X on Friday rejected")."""
    verbs = _reporting_verbs()
    root = doc[start:end].root
    if root.dep_ == "pobj":
        if root.head.dep_ != "prep" or root.head.lower_ not in {"on", "in", "at"}:
            return False  # "claims to have killed since March": the period of the claim
        gov = root.head.head
    elif root.dep_ in {"npadvmod", "tmod", "advmod", "nmod"}:
        gov = root.head
    else:
        return False
    if gov.pos_ in {"VERB", "AUX"}:
        return gov.lemma_.lower() in verbs
    verb = gov.head
    if gov.dep_ == "pobj" and verb.dep_ == "prep":  # "said in a statement on 1 March"
        return verb.head.lemma_.lower() in verbs and verb.head.i < start
    return (
        gov.dep_ in {"nsubj", "nsubjpass"}
        and verb.lemma_.lower() in verbs
        and gov.i < start
        and end <= verb.i
    )


class DatesStage:
    """Absolute dates by token grammar, relative ones by dateparser, anchored by year rules."""

    name = "corroborator.dates.v1"

    def __call__(self, ctx: DocContext) -> None:
        doc = ctx.doc
        matches = _absolute(doc)
        taken = {i for m in matches for i in range(m.start, m.end)}
        refs = [
            _absolute_ref(doc, m, matches, ctx.published)
            for m in matches
            if not _times_reporting(doc, m.start, m.end)
        ]
        for start, end in _relative_spans(doc):
            if not taken.intersection(range(start, end)):
                taken.update(range(start, end))
                if _times_reporting(doc, start, end):
                    continue
                refs.append(_relative_ref(doc, start, end, ctx.published))
        for i, word in enumerate(column(doc, "lower_")):  # digits: lower-case is the text
            if i not in taken and _ISO_SINGLE.match(word):
                ref = _numeric_ref(doc, i, ctx.published)
                if ref is not None:
                    refs.append(ref)
        ctx.extraction.dates.extend(sorted(refs, key=lambda r: r.start))
