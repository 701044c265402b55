"""Coercion of troops told without a killing verb.

'Threatened with jail', 'forced to fight', 'if you refuse, they put you in the pit': a
penalty for refusing to fight is coercion even with no trigger word. Also the test for a
military setting nearby, which trigger typing shares.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from corroborator.nlp.columns import column, lows
from corroborator.nlp.incidents import scope as out_of_scope
from corroborator.nlp.incidents.lexicon import has, lexicon, low, matches, victim_groups
from corroborator.nlp.incidents.mention import Mention
from corroborator.nlp.incidents.mood import negated
from corroborator.nlp.incidents.roles import is_passive, is_person, noun_group


def coercion_context(units: list[Span], k: int, reach: int = 3) -> bool:
    """Soldiers, desertion or the front within a few sentences."""
    near = [t for u in units[max(0, k - reach) : k + reach] for t in u]
    return has(near, "combatants") or bool(matches(near, lexicon().victims["deserters"]))


PERSONAL = {"him", "her", "them", "me", "us", "you"}


def _refusal_threat(tok: Token) -> bool:
    """'If you refuse, they put you in the pit': a penalty laid down for refusing to fight."""
    if tok.dep_ != "advcl" or not any(c.dep_ == "mark" and c.lower_ == "if" for c in tok.children):
        return False
    refusal = [tok, *(c for c in tok.children if c.dep_ in ("xcomp", "prt", "dobj"))]
    if not matches(refusal, lexicon().victims["deserters"]) and low(tok) != "refuse":
        return False
    penalty = tok.head
    if negated(penalty, []):
        return False
    done_to = [c for c in penalty.children if c.dep_ in ("dobj", "nsubjpass")]
    return any(c.lower_ in PERSONAL for c in done_to) or has(list(penalty.subtree), "punishment")


def threat_mentions(units: list[Span], k: int, recalled: list[Token]) -> list[Mention]:
    """Coercion without a killing verb: 'threatened with jail', 'forced to fight', 'if you
    refuse, they put you in the pit'. A recalled act is no punishment threatened ('feared
    a repeat of what happened in 2024, when gang members killed 115')."""
    out = []
    unit = units[k]
    doc = unit.doc
    deps, lemmas = column(doc, "dep_"), lows(doc)
    threat, force = lexicon().terms["threat"], lexicon().terms["force"]
    for i in range(unit.start, unit.end):
        lemma = (lemmas[i],)
        if deps[i] != "advcl" and lemma not in threat and lemma not in force:
            continue  # no refusal clause, no threat or force word: most tokens
        tok = doc[i]
        if _refusal_threat(tok) and coercion_context(units, k, reach=6):
            out.append(Mention(k, "coercion_of_troops", tok, {"own_soldiers"}))
            continue
        if lemma in threat:
            scope = [
                t for t in tok.subtree if not any(r.i == t.i or r.is_ancestor(t) for r in recalled)
            ]
            punish = has(scope, "punishment")
            persons = [
                t
                for c in tok.children
                if c.dep_ in ("dobj", "nsubjpass")
                for t in noun_group(c)
                if is_person(c)
            ]
            soldiers = has(persons, "combatants") or victim_groups(persons) & {
                "deserters",
                "own_soldiers",
            }
            # 'those responsible will face the law', 'if convicted, they face life in prison'
            accountable = out_of_scope.accountability(tok) or out_of_scope.sentenced(tok)
            if (punish or soldiers) and coercion_context(units, k) and not negated(tok, []):
                if accountable:
                    continue
                out.append(Mention(k, "coercion_of_troops", tok, {"own_soldiers"}))
        elif lemma in force and is_passive(tok):
            to = [
                c
                for c in tok.children
                if c.dep_ == "xcomp" and (low(c),) in lexicon().terms["force_to"]
            ]
            if to and coercion_context(units, k):
                out.append(Mention(k, "coercion_of_troops", tok, {"own_soldiers"}))
    return out[:1]
