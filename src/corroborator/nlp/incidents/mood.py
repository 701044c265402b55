"""The mood of a trigger: denied, negated, hypothetical, or governed by an order.

'Ordered to kill', 'threatened to kill', 'can simply shoot' and 'no one ever shoots' differ
more in mood than in verb. These parse walks decide that, apart from who the roles are.
"""

from __future__ import annotations

from spacy.tokens import Token

from corroborator.nlp.incidents.lexicon import is_act, lexicon, low


def _ancestors(tok: Token, deps: set[str], limit: int = 4) -> list[Token]:
    out: list[Token] = []
    while tok.head.i != tok.i and tok.dep_ in deps and len(out) < limit:
        tok = tok.head
        out.append(tok)
    return out


def denial(agents: list[Token]) -> bool:
    """'No one ever shoots civilians': a negative doer denies the act as such."""
    subj_words = {t.lower_ for t in agents}
    return bool(subj_words & {"nobody", "none"}) or {"no", "one"} <= subj_words


def negated(trigger: Token, agents: list[Token]) -> bool:
    """'Anyone not killed', 'weren't shooting', 'no school was attacked', 'neither side
    reported casualties', 'without reporting any casualties': not an event (but no denial of others)."""
    if any(c.dep_ == "neg" for c in trigger.children) or denial(agents):
        return True
    if trigger.dep_ == "dobj" and any(_nothing(c) for c in trigger.head.children):
        return True  # 'neither strike caused civilian casualties', 'neither reported deaths'
    if any(a.lower_ == "without" and a.dep_ == "prep" for a in list(trigger.ancestors)[:3]):
        return True  # 'said so without reporting any civilian casualties'
    if any(  # 'no school was attacked', 'no shell had struck the clinic'
        c.dep_ in ("nsubjpass", "nsubj")
        and any(d.dep_ == "det" and d.lower_ == "no" for d in c.children)
        for c in trigger.children
    ):
        return True
    if any(  # 'nobody was killed', 'none were hurt' (not 'nobody saw the killing')
        c.dep_ == "nsubjpass" and (c.lower_,) in lexicon().terms["negative_subjects"]
        for c in trigger.children
    ):
        return True
    return any(
        c.dep_ == "neg" for a in _ancestors(trigger, {"xcomp", "acl"}) for c in a.children
    ) or any(t.lower_ == "never" for t in trigger.children)


def unasserted(trigger: Token) -> bool:
    """'I never saw anyone die', 'did anybody shoot': 'anyone' as the act's own doer or
    done-to, with no clause of its own, lives under a negation, question or condition,
    wherever the parse hangs that ('anyone who resisted was shot' tells an act, and 'told
    to shoot anyone' an order)."""
    if trigger.dep_ == "xcomp" or any(
        c.dep_ == "aux" and c.lower_ == "to" for c in trigger.children
    ):
        return False
    items = lexicon().terms["polarity_items"]
    return any(
        c.dep_ in ("nsubj", "nsubjpass", "dobj")
        and (c.lower_,) in items
        and not any(d.dep_ == "relcl" for d in c.children)
        and not (c.i + 1 < len(c.doc) and c.doc[c.i + 1].tag_ in ("WP", "WDT"))
        for c in trigger.children
    )


def _nothing(subject: Token) -> bool:
    """A subject that does nothing: 'neither', 'none', or an act with 'no'/'neither' ('no
    strike', not 'no one', whose seeing or saying leaves the act standing)."""
    if subject.lower_ == "neither" and subject.dep_ == "preconj":
        return True  # 'but neither reported casualties' (parsed as 'neither ... nor')
    if subject.dep_ not in ("nsubj", "nsubjpass"):
        return False
    if subject.lower_ in ("neither", "none"):
        return True
    return is_act(subject) and any(
        d.dep_ == "det" and d.lower_ in ("no", "neither") for d in subject.children
    )


# a clause these introduce supposes or asks, and tells no act: 'if they raze it', 'asked
# whether women had been held there', 'unclear whether the men were shot'
_SUPPOSING = frozenset(("if", "unless", "whether"))


def is_hypothetical(trigger: Token) -> bool:
    """Modal or conditional: 'can simply shoot', 'would have killed me', '... if they raze'."""
    modal = lexicon().terms["modal"]
    chain = [trigger, *_ancestors(trigger, {"xcomp", "conj", "ccomp"}, 2)]
    # a clause told before the verb it hangs on is not in that verb's mood: 'Rebels killed
    # 12 soldiers; the claim could not be verified' (a hedge, not a supposition)
    fronted = next((n for n, t in enumerate(chain) if t.dep_ == "ccomp" and t.i < t.head.i), None)
    chain = chain if fronted is None else chain[: fronted + 1]
    for t in chain:
        for c in t.children:
            if c.dep_ == "aux" and ((c.lower_,) in modal or (low(c),) in modal):
                return True
            if c.dep_ == "advcl" and any(m.lower_ in ("if", "unless") for m in c.children):
                return True
            if c.dep_ == "mark" and c.lower_ in _SUPPOSING:
                return True
    for a in _ancestors(trigger, {"xcomp", "ccomp", "advcl", "conj", "dobj", "pobj", "prep"}):
        if any(c.dep_ == "mark" and c.lower_ in _SUPPOSING for c in a.children):
            return True
    return False


def governed_by(trigger: Token, name: str, deps: set[str]) -> Token | None:
    """The nearest ancestor (through `deps`) whose lemma is in the named term list."""
    grams = lexicon().terms[name]
    for a in _ancestors(trigger, deps):
        if (low(a),) in grams:
            return a
    for c in trigger.children:  # 'kill orders' parsed with kill as the head
        if c.dep_ in ("compound", "nmod") and (low(c),) in grams:
            return c
    for a in _ancestors(trigger, {"advcl", "xcomp"}, 1):  # 'an order was given to shoot'
        for c in a.children:
            if c.dep_ in ("nsubjpass", "dobj") and (low(c),) in grams:
                return c
    return None


RECIPIENT = ("nsubj", "nsubjpass", "dative")
# 'denied bombing hospitals' is sometimes parsed with 'bombing' as a compound of its object
DENY_DEPS = {"xcomp", "pcomp", "pobj", "prep", "dobj", "ccomp", "compound"}
ORDER_DEPS = {"xcomp", "acl", "compound", "amod", "advcl"}
