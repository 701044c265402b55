"""Where an act sits in the story: a new event, background, a generic claim or a recap.

A trigger word alone does not make an incident. "Previous shelling", "shelling towns for
months" and "hundreds of air strikes" are background tallies; "the execution of prisoners
is a system" is a generic claim; "no mention of civilian casualties" negates through its
noun; "would investigate allegations of abuses" is hypothetical through its noun; "after
the killings" only dates another act by pointing back to one already told. These tests read
the dependency parse around the trigger and word lists kept in
lexicons/incident_context.json.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from spacy.tokens import Token

from corroborator.nlp.incidents.lexicon import is_act
from corroborator.nlp.lexicon import load_json as load_lexicon


@lru_cache(maxsize=1)
def words() -> dict[str, frozenset[str]]:
    """Each word list of the context lexicon as a set of lowercase lemmas."""
    raw = load_lexicon("incident_context.json")
    return {k: frozenset(v) for k, v in raw.items() if isinstance(v, list)}


def _low(tok: Token) -> str:
    return tok.lemma_.lower()


def is_noun(tok: Token) -> bool:
    return tok.pos_ in ("NOUN", "PROPN") or tok.tag_.startswith("NN")


def clause_verb(tok: Token) -> Token | None:
    """The verb a (noun) trigger hangs from, climbing through prepositions and nouns."""
    cur = tok
    for _ in range(6):
        if cur.pos_ in ("VERB", "AUX") and cur.i != tok.i:
            return cur
        if cur.head.i == cur.i:
            return None
        cur = cur.head
    return None


def _bare_duration(prep: Token) -> bool:
    """'for months', 'for years' (no number: 'for three days' dates one act)."""
    w = words()
    for obj in (c for c in prep.children if c.dep_ == "pobj"):
        numbered = any(c.dep_ == "nummod" or c.like_num for c in obj.children)
        if _low(obj) in w["duration"] and obj.tag_ == "NNS" and not numbered:
            return True
    return False


def _habitual(verb: Token) -> bool:
    """A clause told as going on for a long time: 'for months', 'since seizing power'."""
    for c in verb.children:
        if c.dep_ != "prep":
            continue
        if c.lower_ in ("for", "over") and _bare_duration(c):
            return True
        if c.lower_ == "since":
            return True
    return any(c.dep_ == "advmod" and c.lower_ in words()["habitual"] for c in verb.children)


def background(trig: Token) -> bool:
    """Earlier, habitual or tallied acts: context for the report, not its event."""
    w = words()
    if any(c.dep_ in ("amod", "advmod") and c.lower_ in w["earlier"] for c in trig.children):
        return True
    if is_noun(trig):
        if any(c.dep_ in ("amod", "advmod") and _low(c) in w["habitual"] for c in trig.children):
            return True  # 'repeated strikes', 'daily shelling'
        head = trig.head
        if trig.dep_ == "pobj" and head.lower_ == "of" and _low(head.head) in w["aggregate"]:
            return True  # 'hundreds of air strikes'
        verb = clause_verb(trig)
        aggregate = trig.tag_ in ("NNS", "NNPS") or trig.dep_ == "pobj"
        return verb is not None and aggregate and _habitual(verb)
    return _habitual(trig) and _plural_object(trig)


def _plural_object(verb: Token) -> bool:
    """'shelling towns', not 'shelling the town of X': a class of targets."""
    objs = [c for c in verb.children if c.dep_ in ("dobj", "nsubjpass")]
    return not objs or any(
        o.tag_ == "NNS" and not any(c.dep_ in ("det", "poss", "nummod") for c in o.children)
        for o in objs
    )


def generic(trig: Token) -> bool:
    """'The execution of prisoners is a system': a claim about a kind of act, not one act."""
    if not is_noun(trig) or trig.dep_ != "nsubj" or _low(trig.head) != "be":
        return False
    attr = [c for c in trig.head.children if c.dep_ == "attr"]
    if not attr or not any(d.lower_ in ("a", "an") for a in attr for d in a.children):
        return False
    objs = [g for c in trig.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"]
    return all(
        o.tag_ == "NNS" and not any(c.dep_ in ("det", "nummod", "poss") for c in o.children)
        for o in objs
    )


def any_such(trig: Token) -> bool:
    """'Any strike on the plant would threaten Europe', 'every attack on a convoy': an act's
    noun that any or every act of its kind fits names none."""
    return is_noun(trig) and any(
        c.dep_ == "det" and c.lower_ in ("any", "every") for c in trig.children
    )


def negated_by_noun(trig: Token) -> bool:
    """'No casualties', 'made no mention of civilian casualties', 'neither strike': 'no' or
    'neither' on the act's noun; or a negated word the noun hangs on ('the crash was not
    linked to shelling', 'the fire was not caused by shelling')."""
    cur = trig
    for _ in range(3):
        if any(c.dep_ == "det" and c.lower_ in ("no", "neither") for c in cur.children):
            return True
        if cur.dep_ != "pobj" or cur.head.dep_ not in ("prep", "agent"):
            return False
        cur = cur.head.head
        if any(c.dep_ == "neg" for c in cur.children) and not is_act(cur):
            return True  # not 'anyone not killed by the grenades', which says they killed
    return False


def first_above(trig: Token, through: tuple[str, ...], pos: tuple[str, ...]) -> Token | None:
    """The nearest word of these parts of speech above the act, climbing only through these
    dependencies (at most four steps): the verb a noun hangs from, the noun a clause
    describes."""
    cur = trig
    for _ in range(4):
        if cur.dep_ not in through or cur.head.i == cur.i:
            return None
        cur = cur.head
        if cur.pos_ in pos:
            return cur
    return None


def hypothetical_noun(trig: Token, modal: frozenset[tuple[str, ...]]) -> bool:
    """'would investigate allegations of abuses': a modal verb over the act's noun."""
    if not is_noun(trig):
        return False
    verb = first_above(trig, ("pobj", "prep", "dobj", "nsubjpass"), ("VERB", "AUX"))
    return verb is not None and any(
        c.dep_ == "aux" and ((c.lower_,) in modal or (_low(c),) in modal) for c in verb.children
    )


def further(tokens: Iterable[Token]) -> bool:
    """'A second missile', 'another strike', 'separately, three men were killed': a word
    that tells an act as one more beside those already told."""
    return any(t.lower_ in words()["another"] for t in tokens)


def anaphoric(trig: Token) -> bool:
    """'The strike hit the market', 'these killings': a noun pointing back to a told act."""
    if not is_noun(trig):
        return False
    det = [c for c in trig.children if c.dep_ == "det"]
    if not det or not all(d.lower_ in words()["anaphoric"] for d in det):
        return False
    own = {"nummod", "appos", "relcl", "acl"}
    return not any(c.dep_ in own for c in trig.children)


def temporal_recap(trig: Token) -> bool:
    """'in the days after the killings', 'since the attack': the act only dates another."""
    if not anaphoric(trig) or trig.dep_ != "pobj":
        return False
    prep = trig.head
    if prep.lower_ in words()["temporal"]:
        return not any(
            g.dep_ == "pobj" for c in trig.children if c.dep_ == "prep" for g in c.children
        )
    return False
