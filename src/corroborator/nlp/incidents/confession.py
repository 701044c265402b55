"""Admissions that are and are not confessions of the reported act.

"The spokesman acknowledged the strike" owns up to an attack, not to a violation: the
accused still disputes that it hit civilians, so the act stays alleged. "A soldier tells his
father that his unit shot prisoners" is the doer's own account, made through the speaker's
own unit rather than "I" or "we", and confesses the act.
"""

from __future__ import annotations

from spacy.tokens import Token

from corroborator.nlp.incidents import context

_OWN = {"his", "her", "their", "my", "our"}


def acknowledged_attack(trig: Token, mtype: str) -> bool:
    """'acknowledged the strike', '... had been the target': owning an attack noun."""
    return mtype == "attack_populated_area" and context.is_noun(trig)


def own_unit(trig: Token, agents: list[Token], units: frozenset[str], soldiers: bool) -> bool:
    """'a serviceman tells his father that his unit shot them': the speaker's unit did it."""
    heads = [a for a in agents if a.head.i == a.i or a.head not in agents]
    if not heads or heads[0].dep_ != "nsubj" or heads[0].lemma_.lower() not in units:
        return False  # 'he was shot at by his own troops' is the speaker as victim
    if not any(c.dep_ == "poss" and c.lower_ in _OWN for c in heads[0].children):
        return False
    cur = trig
    while cur.dep_ in ("conj", "xcomp") and cur.head.i != cur.i:
        cur = cur.head
    return cur.dep_ == "ccomp" and soldiers
