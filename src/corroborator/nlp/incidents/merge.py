"""One event, one incident: folding a document's groups of mentions after the first merge.

The sentence-by-sentence merge keeps a report's parts apart when they sit far from each
other: the lead's toll, a survivor's quote three paragraphs down, the closing "the
killings are the largest...". A news report tells one event unless its particulars say
otherwise, so groups of one type join unless they name different tolls, different
settlements or non-overlapping dates. A killing group that shares a sentence with an
attack on a populated place is that attack's toll ("shells hit the market, killing 27").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from spacy.tokens import Span

from corroborator.isodates import first_day
from corroborator.models import DateRef, PlaceRef
from corroborator.nlp.incidents import fields as fields
from corroborator.nlp.incidents.groups import told_as_another
from corroborator.nlp.incidents.units import is_caption

_ORDERS = ("no_quarter_order", "coercion_of_troops")


class Group(Protocol):
    type: str
    mentions: list[Any]

    @property
    def units(self) -> set[int]: ...


@dataclass(frozen=True)
class _Particulars:
    counts: frozenset[int]
    places: frozenset[str]
    dates: tuple[tuple[str, str], ...]


def _particulars(
    told_in: set[int],
    units: Sequence[Span],
    counts: dict[int, set[int]],
    towns: dict[int, set[str]],
    dates: Sequence[DateRef],
) -> _Particulars:
    """The killed figures, settlements (`towns`: those an act can happen in, by sentence)
    and event dates told in these sentences."""
    spans = [(units[u].start_char, units[u].end_char) for u in told_in]
    inside = lambda s, e: any(a <= s and e <= b for a, b in spans)  # noqa: E731
    doc = units[0].doc
    told_towns = frozenset(t for u in told_in for t in towns.get(u, ()))
    days = tuple(
        (d.date_start, d.date_end or d.date_start)
        for d in dates
        if d.date_start and inside(d.start, d.end) and fields.event_date(doc, d)
    )
    told = frozenset(c for u in told_in for c in counts.get(u, set()))
    return _Particulars(told, told_towns, days)


def fold(
    groups: list[Any],
    units: Sequence[Span],
    counts: dict[int, set[int]],
    towns: dict[int, set[str]],
    places: Sequence[PlaceRef],
    dates: Sequence[DateRef],
    para: Sequence[int],
) -> list[Any]:
    """Join a killing group into an attack sharing one of its sentences, or into the attack
    a few paragraphs above whose toll it retells (`_toll_of`); then a group with
    no toll, settlement, date or victims of its own joins the nearest earlier group of its type a
    few paragraphs up (a survivor's account, 'the killings are...'). A roundup's separate
    acts keep their own particulars or victims ('a girl of five') and stay apart; a photo
    caption hosts no retelling (the text below it tells other things)."""
    out: list[Any] = []
    attacks = [g for g in groups if g.type == "attack_populated_area"]
    for g in sorted(groups, key=lambda g: min(g.units)):
        host = (
            next((a for a in attacks if a.units & g.units), None)
            or _toll_of(g, attacks, units, counts, towns, places, dates, para)
            if g.type == "killing_civilians"
            else None
        )
        if host is not None:
            host.mentions.extend(g.mentions)
        else:
            out.append(g)
    kept: list[Any] = []
    for g in sorted(out, key=lambda g: min(g.units)):
        mine = _particulars(g.units, units, counts, towns, dates)
        bare = not (
            mine.counts or mine.places or mine.dates or told_as_another(g.mentions)
        ) and all(
            # plain "civilians" is the default, not victims of its own
            m.vague or m.anaphoric or not m.victims - {"civilians"}
            for m in g.mentions
        )
        near = [
            i
            for i, k in enumerate(kept)
            if k.type == g.type
            and g.type not in _ORDERS
            and paragraphs(para, last_before(k.units, min(g.units)), min(g.units)) <= REACH
            and not all(is_caption(units, u) for u in k.units)
        ]
        if not bare or not near:
            kept.append(g)
            continue
        host_i = max(near, key=lambda i: max(kept[i].units))
        kept[host_i].mentions.extend(g.mentions)
    for g in kept:
        if g.type == "killing_civilians" and _held_before(
            g, kept, units, counts, towns, dates, para
        ):
            g.type = "killing_captives"
    return kept


def _held_before(
    g: Group,
    groups: Sequence[Any],
    units: Sequence[Span],
    counts: dict[int, set[int]],
    towns: dict[int, set[str]],
    dates: Sequence[DateRef],
    para: Sequence[int],
) -> bool:
    """'Soldiers rounded up 17 men at the market ... Two days later herders found all 17
    bodies': a killing told with no killer of its own a few paragraphs below a detention,
    no more victims than were held, in no other town and not before it, kills those held
    (`killing_captives`, the seed gold's 'taken and found shot')."""
    held = _told_above(g, [d for d in groups if d.type == "abduction_detention"], para)
    if held is None:
        return False
    mine = _particulars(g.units, units, counts, towns, dates)
    theirs = _particulars(held.units, units, counts, towns, dates)
    if mine.counts and theirs.counts and max(mine.counts) > max(theirs.counts):
        return False
    return _one_scene(mine, theirs, FOUND_DAYS)


def _toll_of(
    g: Group,
    attacks: Sequence[Any],
    units: Sequence[Span],
    counts: dict[int, set[int]],
    towns: dict[int, set[str]],
    places: Sequence[PlaceRef],
    dates: Sequence[DateRef],
    para: Sequence[int],
) -> Any | None:
    """The attack a killing told without a killer of its own retells as its toll ('by
    morning the death toll had risen to four', 'rescuers pulled out 12 bodies'): the
    nearest attack told above it, a few paragraphs up, in no other town or days."""
    host = _told_above(g, attacks, para)
    if host is None:
        return None
    first = min(g.units)
    # the sentences above it in its paragraph set its scene ('On Saturday, in Arnoun, a
    # drone fired at our ambulance. Two of my colleagues were killed.')
    scene = {u for u in range(first) if para[u] == para[first]}
    mine = _particulars(g.units | scene, units, counts, towns, dates)
    theirs = _particulars(host.units, units, counts, towns, dates)
    if not _one_scene(mine, theirs, TOLL_DAYS):
        return None
    told = " ".join(units[u].text for u in host.units)
    if any(n not in told for n in _unknown_places(g.units | scene, units, places)):
        return None
    return host


def _told_above(g: Group, hosts: Sequence[Any], para: Sequence[int]) -> Any | None:
    """The nearest of `hosts` told above a killing with no killer of its own, a few
    paragraphs up: the act whose outcome it may tell (a toll, the bodies of those held)."""
    if told_as_another(g.mentions) or any(m.agents for m in g.mentions):
        return None
    first = min(g.units)
    above = [h for h in hosts if min(h.units) < first]
    if not above:
        return None
    host = max(above, key=lambda h: last_before(h.units, first))
    if paragraphs(para, last_before(host.units, first), first) > REACH:
        return None
    return host


def _one_scene(outcome: _Particulars, act: _Particulars, days: int) -> bool:
    """An outcome in no town the act does not name, dated from the act's first day to
    `days` after its last."""
    return not outcome.places - act.places and _same_days(outcome.dates, act.dates, days)


def _unknown_places(
    told_in: set[int], units: Sequence[Span], places: Sequence[PlaceRef]
) -> set[str]:
    """Place names the gazetteer did not resolve (a village too small for it): a killing
    set in one is not the toll of an attack told without it."""
    known = [(p.start, p.end) for p in places if p.geonames_id is not None]
    return {
        e.text
        for u in told_in
        for e in units[u].ents
        if e.label_ in ("GPE", "LOC", "FAC")
        and not any(a < e.end_char and e.start_char < b for a, b in known)
    }


def _same_days(
    toll: Sequence[tuple[str, str]], act: Sequence[tuple[str, str]], after: int = 0
) -> bool:
    """A toll's dates that could be its act's: either untold, or some day of the toll from
    the act's first day to `after` days after its last ('by Wednesday morning the toll had
    risen to four' after a Tuesday strike)."""
    if not toll or not act:
        return True
    spans = [(first_day(s), first_day(e)) for s, e in act]
    return any(
        a0 <= t and t <= a1 + dt.timedelta(days=after)
        for t in (first_day(s) for s, _ in toll)
        for a0, a1 in spans
        if t is not None and a0 is not None and a1 is not None
    )


TOLL_DAYS = 3  # a toll counted this many days after its act is still that act's
FOUND_DAYS = 14  # bodies of those held found this many days after the detention


REACH = 3  # paragraph breaks a bare retelling may sit below its event


def last_before(units: set[int], u: int) -> int:
    """The host's nearest sentence above `u`: a host told in the headline, the lead and
    further down is near a retelling in the second line."""
    return max((k for k in units if k <= u), default=max(units))


def paragraphs(para: Sequence[int], a: int, b: int) -> int:
    """Paragraph breaks between units a and b (blank lines count once)."""
    lo, hi = min(a, b), max(a, b)
    return len({para[k] for k in range(lo, hi + 1)}) - 1
