"""A speaker's role and a quote's stance, from what the quotes and the narrative say.

One role per speaker per document: a confession beats an office, an office beats a denial,
and a denial marks the accused.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Token

from corroborator.models import Quote
from corroborator.nlp.quotes.attribution import segment_tokens
from corroborator.nlp.quotes.lexicon import (
    HARM_NOUNS,
    PERCEPTION,
    SUBJECTS,
    Lexicon,
    cue_lemma,
    violent,
)
from corroborator.nlp.quotes.speakers import Discourse, Referent

CONCEDES = {"acknowledge", "concede", "accept", "confirm"}
CLAIMS = {"allegation", "accusation", "claim", "charge"}
# what befalls one's body: no violence word alone ('the power was cut')
_HURT = frozenset(("cut", "burn", "break", "crush", "hit", "hurt", "tear", "blow"))
_UNDONE = frozenset(("will", "'ll", "’ll", "would", "'d", "’d", "shall", "could", "might", "can"))
ROLE_ORDER = ("official", "journalist", "victim", "witness", "other")


def _negated(tok: Token) -> bool:
    if any(c.dep_ == "neg" for c in tok.children):
        return True
    for subj in tok.children:
        if subj.dep_ in SUBJECTS and (
            subj.lower_ in ("nobody", "none", "nothing")
            or any(c.lower_ == "no" for c in subj.children)
        ):
            return True
    return False


def _subject(tok: Token) -> Token | None:
    while True:
        for child in tok.children:
            if child.dep_ in SUBJECTS:
                return child
        if tok.dep_ in ("conj", "xcomp") and tok.head != tok:
            tok = tok.head
            continue
        return None


def _quote_tokens(doc: Doc, q: Quote) -> list[Token]:
    return segment_tokens(doc, q.start, q.end)


def _denial_cue(tok: Token, lex: Lexicon) -> bool:
    return lex.cues.get(cue_lemma(tok, lex) or "") == "denies"


def _cue_denies(cue: Token, q: Quote, lex: Lexicon) -> bool:
    """The cue denies, or a denial shares its subject: "said ... ‘...’ and denied that ..."."""
    if _denial_cue(cue, lex):
        return True
    for t in cue.subtree:
        if q.start <= t.idx < q.end or t.dep_ != "conj" or not _denial_cue(t, lex):
            continue
        if not any(c.dep_ in SUBJECTS for c in t.children):
            return True
    return cue.dep_ == "conj" and _answers_allegation(cue.head, cue, lex)


def _answers_allegation(verb: Token, cue: Token, lex: Lexicon) -> bool:
    """The speaker's other verb frames the quote as a defence: "called the allegations
    ‘baseless’ and said ...", "denied ... and said ...", "acknowledged the strike but said
    ..." (a concession followed by a justification)."""
    if _denial_cue(verb, lex):
        return True
    if verb.lemma_.lower() in CONCEDES and any(
        c.dep_ == "cc" and c.lower_ in ("but", "yet") for c in verb.children if c.i < cue.i
    ):
        return True
    objects = [c for c in verb.children if c.dep_ == "dobj" and c.lemma_.lower() in CLAIMS]
    return bool(objects) and any(c.dep_ in ("oprd", "acomp") for c in verb.children)


def _dismissal(t: Token, lex: Lexicon) -> bool:
    """ "These are lies", "Pure propaganda.": a denial noun as what the quote calls a claim."""
    if t.pos_ not in ("NOUN", "PROPN") or t.lemma_.lower() not in lex.denial_nouns:
        return False
    return t.dep_ in ("attr", "ROOT") or (t.dep_ == "conj" and t.head.dep_ in ("attr", "ROOT"))


def _negated_allegation(t: Token, lex: Lexicon) -> bool:
    """ "did not commit any atrocities", "there was no massacre"."""
    if t.pos_ in ("VERB", "AUX") and _negated(t):
        return any(c.dep_ == "dobj" and c.lemma_.lower() in lex.allegations for c in t.children)
    if t.lemma_.lower() in lex.allegations and t.head.lemma_ == "be":
        return any(c.dep_ == "det" and c.lower_ == "no" for c in t.children)
    return False


def quote_denies(doc: Doc, q: Quote, cue: Token | None, lex: Lexicon) -> bool:
    if cue is not None and _cue_denies(cue, q, lex):
        return True
    low = q.text.lower()
    if any(re.search(r"\b" + re.escape(p), low) for p in lex.denials):
        return True
    return any(
        (violent(t, lex) and t.pos_ == "VERB" and _negated(t))
        or _dismissal(t, lex)
        or _negated_allegation(t, lex)
        for t in _quote_tokens(doc, q)
    )


def self_report(doc: Doc, q: Quote, lex: Lexicon) -> tuple[bool, bool]:
    """(speaker did violence, speaker suffered it) from first-person clauses in a quote."""
    did = harmed = False
    for t in _quote_tokens(doc, q):
        if t.pos_ == "VERB" and t.lemma_.lower() in _HURT and not _negated(t):
            subj = _subject(t)  # 'my arm was cut by the glass', 'my leg was broken'
            if subj is not None and subj.dep_ == "nsubjpass" and _mine(subj):
                harmed = True
        if not violent(t, lex) or t.pos_ != "VERB" or _negated(t):
            continue
        if any(c.dep_ == "aux" and c.lower_ in _UNDONE for c in t.children):
            continue  # 'if you run I will shoot your wife': a threat, not an act
        subj = _subject(t)
        if t.tag_ == "VBG" and t.head.lemma_.lower() in PERCEPTION:
            subj = None  # "we heard shooting": witnessed, not done
        if (
            subj is not None
            and subj.dep_ == "nsubj"
            and (subj.lower_ in ("i", "we") or _our_side(subj, lex))
        ):
            did = True
        if subj is not None and subj.dep_ == "nsubjpass" and (subj.lower_ == "i" or _mine(subj)):
            harmed = True  # 'I was wounded', 'my son was killed'
        if any(c.dep_ == "dobj" and c.lower_ == "me" for c in t.children):
            harmed = True
    return did, harmed


def _our_side(subj: Token, lex: Lexicon) -> bool:
    """'our unit', 'the lads', 'our guys': the speaker's own side as the doer."""
    if subj.lemma_.lower() not in lex.units:
        return False
    own = any(c.dep_ == "poss" and c.lower_ == "our" for c in subj.children)
    comrades = subj.lemma_.lower() in ("lad", "guy") and any(
        c.lower_ == "the" for c in subj.children
    )
    return own or comrades


def _mine(subj: Token) -> bool:
    """Something of the speaker's: 'my leg', 'my son'."""
    return any(c.dep_ == "poss" and c.lower_ == "my" for c in subj.children)


def narrates(doc: Doc, q: Quote) -> bool:
    """ "We heard the jet", "I lost my husband": the speaker tells, in the first person and
    the past tense, what they lived through."""
    return any(
        t.lower_ in ("i", "we") and t.dep_ in SUBJECTS and _past(t.head)
        for t in _quote_tokens(doc, q)
    )


def _past(verb: Token) -> bool:
    """'we heard', 'I was standing', 'we had moved', 'we did not see'."""
    return verb.tag_ == "VBD" or any(
        c.dep_ in ("aux", "auxpass") and c.lower_ in ("was", "were", "had", "did")
        for c in verb.children
    )


def narrative_evidence(disc: Discourse) -> None:
    """Confessions and harm stated about a referent outside quotes."""
    lex = disc.lex
    for m in [m for ref in disc.referents for m in ref.mentions]:
        tok = disc.doc[m.token]
        head = tok.head
        ref = m.referent
        if tok.dep_ == "nsubj" and lex.cues.get(cue_lemma(head, lex) or "") == "confesses":
            # "admitted to killing", "confessed that he was ordered to kill": violence admitted
            admitted = (t for t in head.subtree if t.i != tok.i and t not in tok.subtree)
            if any(violent(t, lex) for t in admitted):
                ref.confesses = True
        if tok.dep_ == "nsubjpass" and violent(head, lex) and not _negated(head):
            ref.harmed = True
        if tok.dep_ == "nsubj" and head.lemma_.lower() in lex.cues:
            _reported_violence(disc, tok, head, ref)
        described = [tok, *(c for c in tok.children if c.dep_ == "appos")]
        for clause in (c for d in described for c in d.children if c.dep_ == "relcl"):
            _relative_evidence(clause, ref, lex)


def _relative_evidence(verb: Token, ref: Referent, lex: Lexicon) -> None:
    """ "a vendor who was wounded / treated for wounds" (harmed); "a farmer whose son died"
    (harmed: a bereaved relative); "whose brother was among them" (a witness)."""
    passive = any(c.dep_ == "auxpass" for c in verb.children)
    lemma = verb.lemma_.lower()
    if passive and (
        violent(verb, lex) or any(t.lemma_.lower() in HARM_NOUNS for t in verb.subtree)
    ):
        ref.harmed = True
    for subj in verb.children:
        if subj.dep_ not in SUBJECTS or not any(c.lower_ == "whose" for c in subj.children):
            continue
        if subj.lemma_.lower() not in lex.persons:
            continue
        if (violent(verb, lex) or lemma == "die") and not _negated(verb):
            ref.harmed = True
        ref.roles.add("witness")


def _reported_violence(disc: Discourse, subj: Token, cue: Token, ref: Referent) -> None:
    """ "X said he killed ...", "X and Y said they massacred ...": a confession."""
    group = any(c.dep_ == "conj" for c in subj.children)
    for clause in cue.children:
        if clause.dep_ != "ccomp":
            continue
        verbs = [clause, *(c for c in clause.children if c.dep_ == "conj")]
        for verb in verbs:
            if not violent(verb, disc.lex) or _negated(verb):
                continue
            agent = _subject(verb)
            if agent is None or agent.dep_ != "nsubj":
                continue
            own_unit = agent.lemma_.lower() in disc.lex.units and any(
                c.dep_ == "poss" and c.lower_ in ("his", "her", "their") for c in agent.children
            )
            if agent.lower_ in ("he", "she") or (agent.lower_ == "they" and group) or own_unit:
                ref.confesses = True
                if group:
                    for conj in subj.children:
                        other = disc.by_token.get(conj.i) if conj.dep_ == "conj" else None
                        if other is not None:
                            other.referent.confesses = True


def role_of(ref: Referent, lex: Lexicon) -> str:
    """One role per speaker per document, from the strongest evidence: a confession, then an
    office (a title anywhere in the document), then a denial (the accused), then the rest.
    A "leader" or "head" may lead an armed group: official, but accused when denying."""
    if ref.confesses:
        return "perpetrator"
    heads = set(ref.heads)
    for pair in [h for h in heads if " " in h]:
        heads.discard(pair.split()[-1])  # "community leader" overrides "leader"
    hints = {lex.persons[h].role for h in heads if h in lex.persons} | ref.roles
    words = set(re.findall(r"[a-z]+", ref.canonical.lower())) | ref.heads
    tags = {lex.official_orgs[w] for w in words if w in lex.official_orgs}
    if ref.kind != "org" and "proxy" not in hints:
        tags = set()
    state = "" in tags  # a ministry or its spokesman speaks for the state; an army is a party
    if ref.denies:
        return "official" if "official" in hints or state else "accused"
    if hints & {"proxy", "leader"} or tags:
        hints.add("official")  # spokesmen and press services speak for an office
    harmed = ref.harmed or (ref.group is not None and ref.group.harmed)
    if harmed and ref.kind != "org" and not hints & {"official", "journalist"}:
        return "victim"  # a survivor, named or described, telling what was done to them
    role = next((r for r in ROLE_ORDER if r in hints), "other")
    if role == "other" and ref.narrates and ref.kind != "org":
        return "witness"  # a person telling, in the first person, what they lived through
    return role
