"""A revised toll told on its own: 'By Saturday morning the death toll had risen to five.'

Such a sentence names no act, so no incident takes it in and the attack it revises keeps
its first figure. It belongs to the nearest attack or killing told above it, a few
paragraphs up with no other act between; that incident then reads its figure too (an
incident's toll is its largest, the final one when a toll is revised upwards). A tally
kept over a span, a place or many acts ('the civilian toll of the war', 'killed in the
region since January', 'the toll from this month's attacks') is no one act's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from spacy.tokens import Span, Token

from corroborator.nlp.incidents.context import words
from corroborator.nlp.incidents.groups import Group
from corroborator.nlp.incidents.mention import KILL_TYPES, Mention
from corroborator.nlp.incidents.merge import REACH, last_before, paragraphs
from corroborator.nlp.stages.numbers import TALLY_NOUNS

_RISES = {"rise", "climb", "reach", "increase", "grow", "jump", "mount", "soar", "stand"}
_RAISES = {"raise", "bring", "push", "take", "increase", "lift", "put"}
_HOSTS = (*KILL_TYPES, "attack_populated_area")
_SPREAD = {"war", "invasion", "conflict", "since", "overall", "total", "far", "across"}
_ACTS = {"attack", "strike", "raid", "shelling", "bombing", "bombardment", "incident"}


@cache
def _spread_words() -> frozenset[str]:
    ctx = words()
    return frozenset(_SPREAD | ctx["period"] | ctx["duration"] | ctx["expanse"])


def _spread(unit: Span) -> bool:
    """A tally over a span, a place or several acts."""
    spread = _spread_words()
    return any(
        t.lemma_.lower() in spread or (t.tag_ == "NNS" and t.lemma_.lower() in _ACTS) for t in unit
    )


def tally(unit: Span) -> Token | None:
    """The tally a sentence says rose: the subject of 'rose', 'climbed', 'stood at' or the
    object of 'raising', 'bringing' (the dead are counted by the numbers stage)."""
    for t in unit:
        if t.lemma_.lower() not in TALLY_NOUNS:
            continue
        verb = t.head.lemma_.lower()
        if (t.dep_ in ("nsubj", "nsubjpass") and verb in _RISES) or (
            t.dep_ in ("dobj", "obj") and verb in _RAISES
        ):
            return t
    return None


def fold_later_tolls(
    groups: Sequence[Group], units: Sequence[Span], counts: dict[int, set[int]], para: Sequence[int]
) -> None:
    """Add each sentence of a revised toll (`counts`: the sentences with a count of the
    killed or wounded) to the incident it revises."""
    taken = {u for g in groups for u in g.units}
    for u in sorted(set(counts) - taken):
        word = tally(units[u])
        if word is None or _spread(units[u]):
            continue
        above = [g for g in groups if g.type in _HOSTS and min(g.units) < u]
        if not above:
            continue
        host = max(above, key=lambda g: last_before(g.units, u))
        last = last_before(host.units, u)
        between = any(last < v < u for g in groups if g is not host for v in g.units)
        if between or paragraphs(para, last, u) > REACH:
            continue
        host.mentions.append(Mention(u, host.type, word, toll=True))
