"""Mentions merged into groups, one per reported act.

Lead, quote and recap retell one act; shared counts, nearness in one story or shared
particulars join them, and a headline folds into the body's first act of its family.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spacy.tokens import Span

from corroborator.nlp.incidents.context import further
from corroborator.nlp.incidents.fields import died_later
from corroborator.nlp.incidents.mention import KILL_TYPES, Mention, family_of, kin_families
from corroborator.nlp.incidents.roles import CIVILIAN_SUBGROUPS
from corroborator.nlp.incidents.units import Layout, is_heading, is_headline, same_story

_ORDERS = ("no_quarter_order", "coercion_of_troops")
HEADING_WORDS = 30  # tokens: a title or subheading, not a paragraph cut from its full stop


@dataclass
class Group:
    type: str
    mentions: list[Mention]

    @property
    def units(self) -> set[int]:
        return {m.unit for m in self.mentions}


def _compatible(
    g: Group, m: Mention, counts: dict[int, set[int]], towns: dict[int, set[str]], lay: Layout
) -> bool:
    if g.type != m.type:
        return False
    if m.unit in g.units:
        return True
    # other tolls, or other towns ('a bomb destroyed a house in the village of Tsupivka'
    # after a strike on Odnorobivka): another act, however near
    if _differ(counts, g, m) or _differ(towns, g, m):
        return False
    mine = counts.get(m.unit, set())
    theirs = set().union(*(counts.get(u, set()) for u in g.units))
    if mine & theirs or any(abs(u - m.unit) <= 2 and same_story(lay, u, m.unit) for u in g.units):
        return True
    # a retelling shares the particulars: 'lieutenant', 'order', 'jail', a place name
    for u in g.units:
        shared = lay.nouns[u] & lay.nouns[m.unit]
        small = min(len(lay.nouns[u]), len(lay.nouns[m.unit])) or 1
        if len(shared) >= 2 and len(shared) / small >= 0.5:
            return True
    return False


def _differ(told: Mapping[int, set[Any]], g: Group, m: Mention) -> bool:
    """Both tell particulars of this kind, and none alike."""
    mine = told.get(m.unit, set())
    theirs = set().union(*(told.get(u, set()) for u in g.units))
    return bool(mine and theirs and not mine & theirs)


def merge(
    ms: list[Mention],
    counts: dict[int, set[int]],
    towns: dict[int, set[str]],
    quote_of: dict[int, int],
    lay: Layout,
) -> list[Group]:
    groups: list[Group] = []
    home: dict[int, Group] = {}
    for m in sorted(ms, key=lambda m: m.unit):
        if m.support:
            continue
        target = home.get(id(m.attach)) if m.attach is not None else None
        if m.recap:  # 'after the killings' only dates another act
            continue
        if target is None and m.anaphoric:  # 'the strike hit the market' retells the last one
            back = [
                g
                for g in groups
                if g.type not in ("no_quarter_order", "coercion_of_troops")
                and family_of(g.type) == family_of(m.type)
                and any(0 < m.unit - u <= 3 for u in g.units)
            ]
            same = [g for g in groups if g.type == m.type]
            if same or back:
                target = (same or back)[-1]
                m.type = target.type
        if target is None and _died_later(m):
            # 'A woman died on Saturday in a hospital in Pavlohrad': of the act told above
            back = [
                g
                for g in groups
                if g.type in (*KILL_TYPES, "attack_populated_area")
                and any(0 < m.unit - u <= 3 for u in g.units)
            ]
            if back:
                target = back[-1]
                m.type = target.type
        if target is None or target.type != m.type:
            q = quote_of.get(m.unit)
            same_quote = [
                g
                for g in groups
                if g.type == m.type and q is not None and any(quote_of.get(u) == q for u in g.units)
            ]
            cands = same_quote or [g for g in groups if _compatible(g, m, counts, towns, lay)]
            if _further(m):  # one more act: it joins only what its own sentence tells
                cands = [g for g in cands if g.units == {m.unit}]
            target = cands[-1] if cands else None
        if target is None:
            target = Group(m.type, [])
            groups.append(target)
        target.mentions.append(m)
        home[id(m)] = target
    # detention told beside a killing: the victims were captives
    for s in (m for m in ms if m.support):
        for g in groups:
            if g.type in KILL_TYPES and any(
                0 <= u - s.unit <= 2 or s.unit - u == 1 for u in g.units
            ):
                g.mentions.append(s)
                named = any(m.victims & CIVILIAN_SUBGROUPS for m in g.mentions)
                if g.type == "killing_civilians" and not named:  # 'villagers' stay civilians
                    g.type = "killing_captives"
                break
    return groups


def _died_later(m: Mention) -> bool:
    """A victim of no named killer dying of wounds ('died in hospital on Saturday')."""
    return m.type == "killing_civilians" and not m.agents and died_later(m.trigger)


def _further(m: Mention) -> bool:
    """The act or its doer is told as one more: 'a second drone struck the hospital',
    'another strike', 'separately, three men were killed' (not 'missiles hit the second
    floor', nor 'it was the third strike on a school', which says what the act was)."""
    if m.trigger.dep_ == "attr":
        return False
    deps = ("amod", "det", "advmod")
    return further(c for t in (m.trigger, *m.agents) for c in t.children if c.dep_ in deps)


def told_as_another(mentions: Sequence[Mention]) -> bool:
    """'a second missile hit a bus depot', 'another strike': told as a further act."""
    return any(_further(m) for m in mentions)


def fold_subheadings(groups: list[Group], units: list[Span], lay: Layout) -> list[Group]:
    """A roundup item's title ('NIGERIA - Dozens abducted in Zamfara') or the subheading
    under the headline tells in short what the next paragraph telling an act tells (a
    byline between them tells none): an act told first there joins the first act of its
    family in that paragraph, with the retellings it drew. A photo caption further down
    describes its picture, not the paragraph below ('A woman stands beside a house ...')."""
    told = sorted({u for g in groups for u in g.units})
    out: list[Group] = []
    for g in groups:
        k = min(g.units)
        body: list[Group] = []
        if g.type not in _ORDERS and _subheading(units, k):
            below = next((lay.para[u] for u in told if lay.para[u] > lay.para[k]), None)
            body = _kin([o for o in groups if any(lay.para[u] == below for u in o.units)], g)
        if not body:
            out.append(g)
            continue
        min(body, key=lambda o: min(o.units)).mentions.extend(g.mentions)
    return out


_LABEL = re.compile(r"[A-Z][A-Z.' ]{1,40}\s*[-–—:]\s")  # 'NIGERIA - ', 'DR CONGO: '


def _subheading(units: list[Span], k: int) -> bool:
    """A short line without a full stop, right under the headline or opening with an
    upper-case label."""
    if k == 0 or len(units[k]) > HEADING_WORDS or not is_heading(units, k):
        return False
    return (k == 1 and is_headline(units, 0)) or bool(_LABEL.match(units[k].text))


def _kin(groups: list[Group], g: Group) -> list[Group]:
    """Those of `groups` a title of `g`'s act may retell: of its family, else (none told)
    of the kin family ('Attack on Al-Kadaris village' over a report of the killings)."""
    others = [o for o in groups if o is not g and o.type not in _ORDERS]
    family = family_of(g.type)
    same = [o for o in others if family_of(o.type) == family]
    return same or [o for o in others if family_of(o.type) in kin_families(family)]


def fold_headline(groups: list[Group], units: list[Span], lay: Layout) -> list[Group]:
    """A headline retells the story's main act: its mentions join the first incident of
    the same family told in the body, which keeps the body's (better-informed) type."""
    if len(units) < 2 or lay.para[0] == lay.para[1] or units[0].text.rstrip()[-1:] in ".!?":
        return groups
    out: list[Group] = []
    for g in groups:
        if g.units != {0}:
            out.append(g)
            continue
        body = [o for o in _kin(groups, g) if not told_as_another(o.mentions)]
        # ('another air attack nearby')
        if body and g.type not in _ORDERS:
            body[0].mentions.extend(g.mentions)
        else:
            out.append(g)
    return out
