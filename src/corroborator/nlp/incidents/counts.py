"""Which casualty counts in a mention's sentence belong to the mention's own act.

One sentence can carry several tolls: "38,000 have been killed in the war, which began after
gunmen killed about 1,200 people and took 250 hostages". A count belongs to a trigger when
the count's clause verb is the trigger's clause or lies under it ("hit a school, killing
30"); a count governed by a different killing verb is that other act's toll.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Token

from corroborator.models import Count
from corroborator.nlp.stages.numbers import outcome_word

_SUBJECTS = ("nsubj", "nsubjpass", "csubj")


def _verb(tok: Token) -> Token | None:
    """The nearest verb over a token (itself if it is one); a gerund standing as a subject
    is a noun here ('Shelling killed three people': the toll is the shelling's)."""
    cur = tok
    for _ in range(8):
        if cur.pos_ in ("VERB", "AUX") and not (cur.tag_ == "VBG" and cur.dep_ in _SUBJECTS):
            return cur
        if cur.head.i == cur.i:
            return None
        cur = cur.head
    return None


def _under(tok: Token, top: Token) -> bool:
    return top.i == tok.i or top.is_ancestor(tok)


def _token_at(doc: Doc, char: int) -> Token | None:
    span = doc.char_span(char, char + 1, alignment_mode="expand")
    return span[0] if span is not None and len(span) else None


def binds(doc: Doc, count: Count, triggers: list[Token], recalled: set[int]) -> bool:
    """False when the count hangs from another killing verb than any of these triggers, or
    from an earlier act the report recalls (`recalled`: trigger indices): 'a year after the
    massacre in Karma, where soldiers killed 147'."""
    tok = _token_at(doc, count.start)
    if tok is not None and recalled:
        acts = recalled | {t.i for t in triggers}
        above = next((t.i for t in (tok, *tok.ancestors) if t.i in acts), None)
        if above in recalled:
            return False
    own = _verb(tok) if tok is not None else None
    if own is None or outcome_word(own) is None:
        return True
    for trig in triggers:
        if trig.sent != own.sent:
            continue
        top = _verb(trig)
        if top is None or _under(own, top):
            return True
    return not any(t.sent == own.sent for t in triggers)


_PARTITIVE = re.compile(r"\s+of\s+(?:them|whom|those)\b", re.I)


def partitive(text: str, count: Count) -> bool:
    """'killing seven, two of them children': a part of another figure of the sentence,
    not a toll of its own (a strike elsewhere that killed two is another act)."""
    return bool(_PARTITIVE.match(text, count.end))
