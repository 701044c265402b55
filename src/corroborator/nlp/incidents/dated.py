"""Acts told in a later sentence that dates them long before the report: its background.

Grammar marks many recalled acts ('since the strike on ...', 'as in 2016, when ...'), but
a report recalls history in any grammar ('the market that was shelled in November 2023,
when a barrage killed seven', 'the anniversary of the sarin attack of 21 August 2013',
'rights groups still cite the events of March 2022 in Moura'). What these share is a date:
a sentence past the lead whose every date ends months before the report's own time tells
the past, while the report's news sits in its lead or carries a recent date. The report's
time is its publication date, else the latest day with a year it names (its dateline).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from spacy.tokens import Span

from corroborator.isodates import first_day
from corroborator.models import DateRef

LEAD_SENTENCES = 2  # the lead's sentences tell the news, whatever their dates
RECALL_DAYS = 183  # a sentence dated this long before the report's time recalls the past


def report_day(published: dt.date | None, dates: Sequence[DateRef]) -> dt.date | None:
    """The report's own time: its publication date, else the latest day it names."""
    if published is not None:
        return published
    days = [first_day(d.date_end) for d in dates if d.precision == "day" and _has_year(d.text)]
    return max((d for d in days if d is not None), default=None)


def long_ago(
    units: Sequence[Span], dates: Sequence[DateRef], today: dt.date | None, acts: set[int]
) -> set[int]:
    """Units past the lead whose every resolved date ends RECALL_DAYS or more before
    `today` (or any, where a community remembers: `_remembers`), when the report tells a
    recent act of its own (`acts`: units holding acts):
    in the lead or in a sentence dated recently. A testimony or an indictment about 2022
    has no such act, and its old dates are its subject."""
    ends: dict[int, list[dt.date]] = {}
    k = 0
    for d in sorted(dates, key=lambda d: d.start):
        while k < len(units) and units[k].end_char <= d.start:
            k += 1
        end = first_day(d.date_end)
        if k < len(units) and end is not None:
            ends.setdefault(k, []).append(end)
    lead = _lead_end(units)
    if today is None:
        # no time of its own: only a community remembering a dated act is surely the past
        old = {k for k in ends if k >= lead and _remembers(units[k])}
        return old if any(k < lead for k in acts - old) else set()
    cut = today - dt.timedelta(days=RECALL_DAYS)
    old = {
        k
        for k, days in ends.items()
        if k >= lead
        and (all(e < cut for e in days) or (any(e < cut for e in days) and _remembers(units[k])))
    }
    recent = {k for k, days in ends.items() if any(e >= cut for e in days)}
    news = any(k < lead or k in recent for k in acts - old)
    return old if news else set()


_REMEMBER = frozenset(("remember", "recall", "commemorate"))
_SPEAKERS = frozenset(("i", "we", "you"))


def _remembers(unit: Span) -> bool:
    """'Today the region also remembers the 46 people killed when a missile hit ... in
    January 2023', 'People in Sumy still remember the strike of April 2025': a community
    remembering an old act, whatever day the remembering is (not a witness's 'I remember
    them shooting', which tells the act)."""
    return any(
        t.lemma_.lower() in _REMEMBER
        and t.pos_ == "VERB"
        and not any(c.dep_ == "nsubj" and c.lower_ in _SPEAKERS for c in t.children)
        for t in unit
    )


def _lead_end(units: Sequence[Span]) -> int:
    """The unit after the lead: the headline, dateline and byline lines (no full stop),
    then LEAD_SENTENCES sentences."""
    for k, u in enumerate(units):
        if u.text.rstrip()[-1:] in '.!?"”’':
            return k + LEAD_SENTENCES
    return len(units)


def _has_year(text: str) -> bool:
    return any(w.isdigit() and len(w) == 4 for w in text.replace(",", " ").split())
