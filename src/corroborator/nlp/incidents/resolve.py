"""Types settled across units: combatant victims, vague tolls, detention before killing.

A mention often only makes sense beside its neighbours: 'eight children were killed'
after a strike is the strike's toll, soldiers killed near a desertion story were own
forces. These passes retype mentions before any merging.
"""

from __future__ import annotations

from corroborator.nlp.incidents import context
from corroborator.nlp.incidents.lexicon import lexicon, low
from corroborator.nlp.incidents.mention import KILL_TYPES, Mention
from corroborator.nlp.incidents.units import Layout, para_gap, same_story


def resolve_types(ms: list[Mention], lay: Layout) -> list[Mention]:
    """Combatant victims take the type of a nearby own-side/captive killing, else are combat;
    a killing with no victims of its own retells the typed killing beside it."""
    keep: list[Mention] = []
    by_unit: dict[int, str] = {}
    for m in ms:
        if not m.ambiguous:
            continue
        near = [
            o
            for o in ms
            if not o.ambiguous
            and o.type in ("killing_own_forces", "killing_captives")
            and abs(o.unit - m.unit) <= 6
        ]
        if near:
            best = min(near, key=lambda o: abs(o.unit - m.unit))
            m.type, m.ambiguous, m.attach = best.type, False, best
            by_unit[m.unit] = best.type
    for m in ms:
        if m.ambiguous:
            continue
        if m.unit in by_unit and m.type == "killing_civilians":
            m.type = by_unit[m.unit]  # the same act told in one sentence
        keep.append(m)
    typed = [o for o in keep if not o.vague and o.type in KILL_TYPES]
    for m in keep:
        if not m.vague or m.type not in KILL_TYPES:
            continue
        same = [o for o in typed if o.unit == m.unit]
        near = [
            o
            for o in typed
            if (o.unit == m.unit + 1 and lay.para[o.unit] == lay.para[m.unit])
            or (0 < m.unit - o.unit <= 4 and same_story(lay, o.unit, m.unit))
            or (0 < m.unit - o.unit <= 3 and para_gap(lay, o.unit, m.unit) <= 1)
        ]
        pick = same or sorted(near, key=lambda o: (o.unit > m.unit, abs(o.unit - m.unit)))
        if pick:
            m.type, m.attach = pick[0].type, pick[0]
    _toll_of_attack(keep, lay)
    _detention_before_killing(keep, lay)
    return keep


_TOLL = {"kill", "die", "death", "dead"}


def _toll_of_attack(ms: list[Mention], lay: Layout) -> None:
    """'The bomb hit the school. Eight children were killed.': a toll told without a doer
    right after an attack on a populated place (or a few sentences on in its paragraph: an
    eyewitness's 'We were there within minutes...') is that attack's outcome, not a new act."""
    for m in ms:
        if m.type != "killing_civilians" or m.agents or low(m.trigger) not in _TOLL:
            continue
        if context.further(m.trigger.children):
            continue  # 'separately, three men were killed': told as an act of its own
        before = [
            o
            for o in ms
            if (
                (0 <= m.unit - o.unit <= 2 and para_gap(lay, o.unit, m.unit) <= 1)
                or (0 <= m.unit - o.unit <= 4 and lay.para[o.unit] == lay.para[m.unit])
            )
            and (o.unit < m.unit or o.trigger.i < m.trigger.i)
        ]
        last = max(before, key=lambda o: (o.unit, o.trigger.i), default=None)
        if last is not None and last.type == "attack_populated_area":
            m.type, m.attach = last.type, last


def _detention_before_killing(ms: list[Mention], lay: Layout) -> None:
    """'Rounded up men from the market... Dozens were later shot': a detention told just
    before a killing in one paragraph makes the killed captives; it is not an act apart."""
    for m in ms:
        if m.type != "abduction_detention" or m.support or m.recap:
            continue
        if m.trigger.lemma_.lower() in {g[0] for g in lexicon().terms["strong_abduction"]}:
            continue
        after = [
            o
            for o in ms
            if o.type in KILL_TYPES
            and not o.recap
            and lay.para[o.unit] == lay.para[m.unit]
            and (0 < o.unit - m.unit <= 2 or (o.unit == m.unit and o.trigger.i > m.trigger.i))
        ]
        if after:
            m.support = True
