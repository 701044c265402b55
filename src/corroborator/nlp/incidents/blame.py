"""The accused named next to the act: "A group of doctors blamed the RSF for the shelling".

Wire copy often reports the act in the lead and the attribution in the next sentence. A
blame verb whose object is a party and whose 'for'/'of' phrase names an act (any trigger
word) gives that party as the alleged perpetrator. Sentences with a negation are skipped:
"we did not fire ..., accusing the army of shelling" is a denial's counter-accusation.
"""

from __future__ import annotations

from collections.abc import Callable

from spacy.tokens import Span, Token

from corroborator.nlp.incidents.scope import words


def _accused(verb: Token, is_act: Callable[[Token], bool]) -> list[Token]:
    objs = [c for c in verb.children if c.dep_ == "dobj"]
    acts = [
        g
        for c in verb.children
        if c.dep_ == "prep" and c.lower_ in ("for", "of")
        for g in c.children
        if g.dep_ in ("pobj", "pcomp") and is_act(g)
    ]
    return list(objs[0].subtree) if objs and acts else []


def blamed(units: list[Span], ks: list[int], is_act: Callable[[Token], bool]) -> list[Token]:
    """Tokens of the party blamed for an act in or just after the mention sentences."""
    seen = sorted({j for k in ks for j in (k, k + 1, k + 2) if j < len(units)})
    for j in seen:
        unit = units[j]
        if any(t.dep_ == "neg" for t in unit):
            continue
        for tok in unit:
            if tok.pos_ == "VERB" and tok.lemma_.lower() in words()["blame"]:
                party = _accused(tok, is_act)
                if party:
                    return party
    return []
