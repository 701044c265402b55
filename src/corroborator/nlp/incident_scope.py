"""Triggers that name an act but not a reportable event of this story.

Three kinds recur in wire copy: a war-wide total ("fighting has killed thousands", "38,000
have been killed in the war"), an accused party's own framing of its strike as lawful ("a
precise strike on a commander"), and promises or descriptions of a category of acts ("any
soldier found responsible for abuses will face the law", "a group that documents abuses").
Each is read off the dependency parse with the word lists in lexicons/incident_scope.json.
"""

from __future__ import annotations

from functools import lru_cache

from spacy.tokens import Token

from corroborator.nlp.stages.hedges import load_lexicon


@lru_cache(maxsize=1)
def words() -> dict[str, frozenset[str]]:
    """Each word list of the scope lexicon as a set of lowercase words or lemmas."""
    raw = load_lexicon("incident_scope.json")
    return {k: frozenset(v) for k, v in raw.items() if isinstance(v, list)}


def _low(tok: Token) -> str:
    return tok.lemma_.lower()


def _war(tok: Token) -> bool:
    return _low(tok) in words()["war"] or tok.lower_ in words()["war"]


def war_total(trig: Token, agents: list[Token]) -> bool:
    """A toll or act whose doer or frame is the whole war, not one attack."""
    roots = [a for a in agents if a.head.i == a.i or a.head not in agents]
    if any(_war(r) for r in roots):
        return True  # 'fighting ... has killed thousands of people'
    for prep in (c for c in trig.children if c.dep_ == "prep"):
        if prep.lower_ not in ("in", "during", "since", "throughout"):
            continue
        for obj in (g for g in prep.children if g.dep_ == "pobj"):
            if _war(obj) and any(d.dep_ in ("det", "poss") for d in obj.children):
                return True  # 'killed in the war', 'during the conflict'
    return False


def justification(trig: Token) -> bool:
    """'a precise strike', 'a targeted strike': the accused presenting its strike as lawful."""
    mods = [c for c in trig.children if c.dep_ in ("amod", "compound")]
    return any(c.lower_ in words()["justification"] for c in mods)


def promise(trig: Token) -> bool:
    """'anyone found responsible for abuses will face the law': the act is only a condition."""
    if trig.pos_ not in ("NOUN", "PROPN"):
        return False
    cur = trig
    for _ in range(6):
        if cur.head.i == cur.i:
            return False
        if cur.dep_ not in {
            "pobj",
            "prep",
            "acomp",
            "oprd",
            "amod",
            "acl",
            "csubj",
            "csubjpass",
            "nsubj",
            "dobj",
        }:
            return False
        cur = cur.head
        if cur.pos_ in ("VERB", "AUX"):
            if any(c.dep_ == "aux" and c.lower_ in words()["future"] for c in cur.children):
                return True
            if cur.dep_ not in ("acl", "csubj", "csubjpass"):
                return False
    return False


def category(trig: Token) -> bool:
    """'a group that documents abuses': a bare plural object of a present-tense description."""
    if trig.tag_ not in ("NNS", "NNPS") or trig.dep_ != "dobj":
        return False
    if any(c.dep_ in ("det", "poss", "nummod", "amod") for c in trig.children):
        return False
    verb = trig.head
    present = verb.tag_ in ("VBZ", "VBP") and not any(c.dep_ == "aux" for c in verb.children)
    return present and verb.dep_ in ("relcl", "acl")


def accountability(tok: Token) -> bool:
    """'anyone found responsible will face the law': a promise to punish, not a threat to troops."""
    acc = words()["accountability"]
    return any(_low(t) in acc or t.lower_ in acc for t in tok.subtree)


def negated_copula(trig: Token) -> bool:
    """'Schools are not a target': the act's noun denied through a negated 'be'."""
    if trig.dep_ not in ("attr", "acomp") or _low(trig.head) != "be":
        return False
    return any(c.dep_ == "neg" for c in trig.head.children)
