"""Triggers that name an act but not a reportable event of this story.

Three kinds recur in wire copy: a war-wide total ("fighting has killed thousands", "38,000
have been killed in the war"), an accused party's own framing of its strike as lawful ("a
precise strike on a commander"), and promises or descriptions of a category of acts ("any
soldier found responsible for abuses will face the law", "a group that documents abuses",
"a monitor investigating war crimes").
Each is read off the dependency parse with the word lists in lexicons/incident_scope.json.
"""

from __future__ import annotations

import re
from functools import lru_cache

from spacy.tokens import Token

from corroborator.nlp.incidents.context import first_above, is_noun
from corroborator.nlp.incidents.lexicon import has, is_act, victim_groups
from corroborator.nlp.incidents.mood import denial
from corroborator.nlp.incidents.roles import CIVILIAN_GROUPS
from corroborator.nlp.lexicon import load_json as load_lexicon
from corroborator.nlp.pipeline import text_of
from corroborator.nlp.quotes.turns import ANSWER, QUESTION


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


def own_military_target(trig: Token) -> bool:
    """'The military said it had struck a terrorist training camp', 'MRTV says the air force
    struck a training camp near Kanbalu': the striking side's own account of hitting a
    military target is its justification, told beside (or against) the claim, not a claim."""
    if trig.pos_ != "VERB" or trig.dep_ != "ccomp" or _low(trig.head) not in _SAY:
        return False
    objects = [c for c in trig.children if c.dep_ == "dobj"]
    if not any(has(list(o.subtree), "military_targets") for o in objects):
        return False
    subjects = [c for c in trig.children if c.dep_ == "nsubj"]
    sayers = [c for c in trig.head.children if c.dep_ == "nsubj"]
    own = [s for s in subjects if s.lower_ in ("it", "we") or s.i in {t.i for t in sayers}]
    # 'its forces', 'the air force' as told by an institution, not by residents or 'they'
    institution = all(s.pos_ != "PRON" and not victim_groups([s]) for s in sayers)
    forces = [s for s in subjects if has([s], "combatants")] if institution else []
    return bool(own or forces) and bool(sayers)


_SAY = frozenset(("say", "claim", "announce", "report", "state"))


def promise(trig: Token) -> bool:
    """'anyone found responsible for abuses will face the law': the act is only a condition."""
    if trig.pos_ not in ("NOUN", "PROPN"):
        return _done_by_anyone(trig)
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


_ANYONE = frozenset(("anyone", "anybody", "whoever", "everyone", "everybody"))


def _done_by_anyone(trig: Token) -> bool:
    """'would punish any soldier found to have abused civilians', 'anyone who kills a
    prisoner': an act of whoever may do it, not of someone who did."""
    who = first_above(trig, ("xcomp", "acl", "relcl", "ccomp"), ("NOUN", "PRON"))
    return who is not None and (
        who.lower_ in _ANYONE
        or any(c.dep_ == "det" and c.lower_ in ("any", "every") for c in who.children)
    )


def _coverage_verb(trig: Token) -> Token | None:
    """The verb whose bare object or topic the act is: 'documents abuses', 'reports on
    corruption and torture', 'investigating war crimes' (through 'and' and one preposition)."""
    cur = trig
    while cur.dep_ == "conj" and cur.head.i != cur.i:
        cur = cur.head
    if any(c.dep_ in ("det", "poss", "nummod", "amod") for c in cur.children):
        return None
    if cur.dep_ == "dobj":
        return cur.head
    if cur.dep_ == "pobj" and cur.head.dep_ == "prep":
        verb = cur.head.head
        return verb if _low(verb) in words()["coverage"] else None
    return None


def _topic(trig: Token) -> bool:
    """'a U.N. investigation into abuses in North Kivu', 'a report on torture': the bare
    plural an inquiry is about names its subject, not one act ('the investigation into the
    killings' points at acts the report tells elsewhere)."""
    if trig.tag_ not in ("NNS", "NN") or trig.dep_ != "pobj" or trig.head.dep_ != "prep":
        return False
    if any(c.dep_ in ("det", "poss", "nummod") for c in trig.children):
        return False
    return trig.head.lower_ in ("into", "on", "about") and (
        _low(trig.head.head) in words()["inquiry"]
    )


def _classed(trig: Token) -> bool:
    """'Russian drone attacks on civilians amounted to crimes against humanity': a bare
    plural the law is said of is a kind of act ('the attacks on Bucha constitute' points at
    acts told elsewhere)."""
    if (
        trig.tag_ != "NNS"
        or trig.dep_ != "nsubj"
        or _low(trig.head) not in ("amount", "constitute")
    ):
        return False
    return not any(c.dep_ in ("det", "poss", "nummod") for c in trig.children)


def category(trig: Token) -> bool:
    """'a group that documents abuses', 'a monitor investigating war crimes', 'X, which
    reports on torture': a kind of act an organisation covers, not one act."""
    if _topic(trig) or _classed(trig):
        return True
    verb = _coverage_verb(trig)
    if verb is None or verb.dep_ not in ("relcl", "acl"):
        return False
    if any(c.dep_ == "aux" for c in verb.children):
        return False
    if verb.tag_ == "VBG":  # 'a group investigating war crimes'
        return _low(verb) in words()["coverage"] and verb.head.pos_ in ("NOUN", "PROPN")
    bare = trig.tag_ in ("NNS", "NNPS") or _low(verb) in words()["coverage"]
    return verb.tag_ in ("VBZ", "VBP") and bare


def accountability(tok: Token) -> bool:
    """'anyone found responsible will face the law', 'will jail any officer found to have
    tortured detainees': a promise to punish, not a threat to troops."""
    acc = words()["accountability"]
    return any(
        _low(t) in acc or t.lower_ in acc or (is_act(t) and _done_by_anyone(t)) for t in tok.subtree
    )


def sentenced(tok: Token) -> bool:
    """'Is charged with premeditated murder and faces up to life imprisonment', 'if
    convicted, the defendants face the death penalty': a defendant facing the law's
    penalty, not troops threatened into fighting ('deserters face criminal charges' is)."""
    if _low(tok) != "face":
        return False
    penalty = {t.i for c in tok.children if c.dep_ in ("dobj", "prep") for t in c.subtree}
    law = words()["case_law"]
    return any(_low(t) in law for t in tok.sent if t.i not in penalty)


def negated_copula(trig: Token) -> bool:
    """'Schools are not a target': the act's noun denied through a negated 'be'."""
    if trig.dep_ not in ("attr", "acomp") or _low(trig.head) != "be":
        return False
    return any(c.dep_ == "neg" for c in trig.head.children)


def uncharged(trig: Token) -> bool:
    """'Prosecutors have not charged him with sexual violence', 'was never accused of
    torture': a charge not brought names a kind of act nobody here alleges (not 'did not
    accuse anyone of the killing', which names one that happened)."""
    verb = trig.head.head if trig.dep_ == "pobj" and trig.head.lower_ in ("with", "of") else None
    if verb is None or _low(verb) not in words()["charge"]:
        return False
    if any(c.dep_ in ("det", "poss") for c in trig.children):
        return False
    return any(c.dep_ == "neg" or c.lower_ == "never" for c in verb.children)


def charged_kind(trig: Token) -> bool:
    """'Trying a commander on charges of crimes against humanity by murder, rape and sexual
    slavery', 'charged with premeditated murder, kidnapping and looting', 'notified of
    suspicion of violating the laws and customs of war combined with premeditated murder':
    acts named as the charges are the law's names for what the case is about; the acts
    themselves are told where the report tells them ('is charged with the murder of two
    farmers in Ituri' names one)."""
    if not is_noun(trig):
        return False
    first = trig
    while first.dep_ in ("conj", "compound"):  # 'the missile launch' is one launch
        first = first.head
    if any(c.dep_ in ("det", "poss", "nummod") for c in first.children):
        return False
    law = words()["case_law"]
    return any(_low(a) in law for a in list(first.ancestors)[:5])


_RUMOUR = frozenset(("rumour", "rumor", "hearsay"))
_POSTS = frozenset(("post", "message", "page"))


def hearsay(trig: Token) -> bool:
    """'Rumours circulating in Komanda that the ADF had also attacked the hospital',
    'messages shared on WhatsApp claimed that the gang burned the clinic', 'posts circulated
    on social media claiming that a school had been bombed', 'a Facebook page reported
    that': what a rumour or an unsourced post says, which the report relays without claiming
    it (a video's content is evidence; a named source's post is its claim)."""
    for a in list(trig.ancestors)[:6]:
        if _low(a) in _RUMOUR:
            return True
        said_by = [a] + [c for c in a.children if c.dep_ == "nsubj"]
        if a.dep_ in ("advcl", "xcomp", "dep"):  # 'posts circulated ..., claiming that'
            said_by += [c for c in a.head.children if c.dep_ == "nsubj"]
        posts = [n for n in said_by if _low(n) in _POSTS and n.pos_ == "NOUN"]
        if any(_unsourced(n) and _authorless(n) for n in posts):
            return True
        reports = [n for n in said_by if _low(n) in _REPORTS and n.tag_ in ("NNS", "NNPS")]
        if any(_unsourced(n) and _authorless(n) for n in reports):
            return True  # 'there were reports on Facebook that the hospital was hit'
    return False


_REPORTS = frozenset(("report", "reports", "claim", "claims"))


def _authorless(noun: Token) -> bool:
    """No one's reports: no possessor, no 'by' and no source of their own."""
    return not any(c.dep_ == "poss" or c.lower_ in ("by", "from") for c in noun.children)


def _unsourced(post: Token) -> bool:
    """Posted where anyone posts: said of the post itself or of its circulating ('reports
    circulated on social media')."""
    near = [*post.subtree, *(t for c in post.head.children if c.dep_ == "prep" for t in c.subtree)]
    return any(t.lower_ in _ONLINE for t in near)


_ONLINE = frozenset(
    ("social", "online", "unverified", "facebook", "telegram", "whatsapp", "tiktok")
    + ("twitter", "instagram", "youtube", "x")
)


def harmless_landing(trig: Token) -> bool:
    """'A second missile fell in a field near the station', 'a shell fell next to the
    school, but no one was hurt': a munition that came down on open ground, or that the
    sentence says hurt no one, hit no populated place."""
    subj = trig.head if trig.dep_ == "compound" else trig  # 'a mortar round fell'
    verb = trig if trig.pos_ == "VERB" else subj.head
    by = subj.dep_ == "pobj" and verb.dep_ == "agent"  # 'was struck by two bombs'
    if by:
        verb = verb.head
    said = " ".join([_low(verb), *(c.lower_ for c in verb.children if c.dep_ == "prt")])
    if said not in words()["landing"] or (trig.i != verb.i and subj.dep_ != "nsubj" and not by):
        return False
    means = [t.i for c in verb.children if c.dep_ == "agent" for t in c.subtree]
    harm = [t for t in verb.subtree if is_act(t) and t.i not in (trig.i, subj.i, verb.i, *means)]
    unhurt = [t for t in trig.sent if _hurt_no_one(t)]
    if any(t not in unhurt for t in harm):
        return False  # 'landed in a field, killing two farmers'
    places = [g for c in verb.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"]
    return bool(unhurt) or bool(places) and _low(places[0]) in words()["open_ground"]


def _hurt_no_one(tok: Token) -> bool:
    """'no one was hurt', 'nobody was injured'."""
    if _low(tok) not in ("hurt", "injure", "wound", "kill"):
        return False
    subj = [t for c in tok.children if c.dep_ in ("nsubj", "nsubjpass") for t in c.subtree]
    return denial(subj)


def ordinary_crime(trig: Token) -> bool:
    """'stabbed his neighbour to death during a quarrel', 'killed in a robbery': a crime
    of private motive, told by the quarrel or the theft it came of; and the arrest of the
    one who did it ('police detained a man who stabbed his neighbour during a quarrel')."""
    verb = trig if trig.pos_ == "VERB" else trig.head
    held = [c for c in verb.children if c.dep_ in ("dobj", "nsubjpass")]
    deeds = [v for h in held for v in h.children if v.dep_ == "relcl"]
    return any(
        c.dep_ == "prep" and _low(g) in words()["private_motive"]
        for v in (verb, *deeds)
        for c in v.children
        for g in c.children
        if g.dep_ == "pobj"
    )


def imagined(trig: Token) -> bool:
    """'Imagine that tomorrow a shell kills twenty people': an act supposed, not reported."""
    return any(_low(a) in ("imagine", "suppose") for a in list(trig.ancestors)[:4])


def fiction(trig: Token) -> bool:
    """'the wounded of a simulated strike', 'a novel in which soldiers burn a market', 'the
    feature film ..., in which an officer shoots a teacher': a drill's act or a plot's, not
    a reported one."""
    if any(c.dep_ == "amod" and _low(c) in words()["simulated"] for c in trig.children):
        return True
    # the clause may hang on the author ('a novel by the late X in which'): its antecedent
    # is among the few words before the noun it hangs on
    for clause in [trig, *list(trig.ancestors)[:3]]:
        if clause.dep_ in ("relcl", "acl"):
            head = clause.head
            near = head.doc[max(head.sent.start, head.i - 6) : head.i + 1]
            return any(_work(t) for t in near)
    return False


def _work(tok: Token) -> bool:
    """A noun naming a work of fiction: 'a novel', 'the feature film', not a bare film (the
    SBU 'released a film in which soldiers shoot a prisoner') nor the verb 'play'."""
    if tok.pos_ != "NOUN":
        return False
    if _low(tok) == "film":
        return any(_low(c) in words()["feature"] for c in tok.children)
    return _low(tok) in words()["fiction"]


def natural_death(trig: Token) -> bool:
    """'Cholera had killed at least 25 people', 'an ebola outbreak had killed 16', 'the
    earthquake, which killed more than 3,700': a killer that is an illness or a natural
    disaster (the role lexicon's non-violent causes of death, which 'died of cholera' reads
    too) is no one's act; nor is an illness named like one ('died of a heart attack')."""
    if is_noun(trig):
        return has([*(c for c in trig.lefts if c.dep_ == "compound"), trig], "non_violent_death")
    if _low(trig) != "kill" or trig.pos_ != "VERB":
        return False
    causes = [c for c in trig.children if c.dep_ == "nsubj"]
    causes += [g for c in trig.children if c.dep_ == "agent" for g in c.children]  # 'by lightning'
    if trig.dep_ == "relcl" and any(c.lower_ in ("which", "that") for c in causes):
        causes = [trig.head]  # 'the earthquake, which killed ...'
        while causes[-1].dep_ == "pobj" and causes[-1].head.lower_ in ("of", "in"):
            causes.append(causes[-1].head.head)  # 'the earthquake of March 2025, which'
    # the words before the killer name it ('a measles outbreak', 'the February earthquake')
    return any(has([*cause.lefts, cause], "non_violent_death") for cause in causes)


def _during(trig: Token) -> list[Token]:
    """What an act is said to happen in or during ('killed in a firefight', 'in fighting')."""
    return [g for c in trig.children if c.lower_ in ("in", "during") for g in c.children]


def exchange_of_fire(trig: Token) -> bool:
    """'Units traded artillery fire with Russian positions', 'police exchanged fire with
    gang members', 'killed in an exchange of fire': armed parties firing at each other,
    combat rather than an attack."""
    verb = trig.head if trig.dep_ in ("dobj", "compound") else None
    if verb is not None and trig.dep_ == "compound":
        verb = verb.head if verb.dep_ == "dobj" else None
    if verb is not None and _low(verb) in words()["exchange"]:
        return True
    # 'an exchange of fire', and 'officers killed eight gang members in a firefight'
    of = trig.head if trig.dep_ == "pobj" and trig.head.lower_ == "of" else None
    if of is not None and _low(of.head) in words()["exchange"]:
        return True
    during = _during(trig)
    return any(g.dep_ == "pobj" and _low(g) in words()["exchange"] for g in during)


def died_in_combat(trig: Token) -> bool:
    """'One of the suspects was later killed in fighting', 'killed in action': a death in
    battle, no attack; 'two civilians were killed in fighting' stays one."""
    during = _during(trig)
    if not any(g.dep_ == "pobj" and _low(g) in words()["combat"] for g in during):
        return False
    dead = [t for c in trig.children if c.dep_ in ("nsubjpass", "dobj") for t in c.subtree]
    return not victim_groups(dead) & CIVILIAN_GROUPS


def disproved(trig: Token) -> bool:
    """'Early reports of a car bomb in the town turned out to be wrong', 'the claim of a
    massacre proved false': the report itself says what it relays did not happen (an
    accused party's denial is a speaker's claim, kept with the incident); a correction
    takes back what it relays ('Correction: we reported that a shelter had been hit')."""
    if trig.sent[0].lower_ in words()["retraction"]:
        return True
    for verb in list(trig.ancestors)[:6]:
        said = " ".join([_low(verb), *(c.lower_ for c in verb.children if c.dep_ == "prt")])
        if said not in words()["disproved"]:
            continue
        subject = [t for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") for t in c.subtree]
        verdict = [t for t in verb.subtree if t.lower_ in words()["false"]]
        return trig in subject and bool(verdict)
    return False


_QUESTION = re.compile(rf"(?:{'|'.join(QUESTION)}):\s")
# the answer's first two sentences ('I asked her mother. It did not happen.')
_ANSWER = re.compile(rf"\s*(?:{'|'.join(ANSWER)}):\s+([^.!?\n]*[.!?]?[^.!?\n]*)")


def answered_false(trig: Token) -> bool:
    """'Q: People said the soldiers also raped a girl in the school. A: It did not happen.':
    an interviewer's question relays a rumour that the answer opening the next paragraph
    says is untrue."""
    text = text_of(trig.doc)
    start = text.rfind("\n", 0, trig.idx) + 1
    if not _QUESTION.match(text, start):
        return False
    end = text.find("\n", trig.idx)
    answer = _ANSWER.match(text, end) if end >= 0 else None
    if answer is None:
        return False
    said = re.findall(r"[\w']+", answer.group(1).lower())
    if said[:1] == ["no"]:
        return True
    told = " ".join(said)
    return any(
        re.search(rf"\b{re.escape(w)}\b", told)
        for w in words()["answered_false"] | words()["false"]
    )


_MOVES = frozenset(("transfer", "relocate", "remove", "evacuate"))  # the moving triggers
CARE = frozenset(("hospital", "clinic", "ward", "infirmary", "morgue", "hospice", "icu"))


def care_transfer(trig: Token) -> bool:
    """'died at Rafidia hospital, where he had been transferred', 'the wounded were
    transferred to a clinic in Nablus': a patient or a body moved to care, no deportation."""
    if _low(trig) not in _MOVES:
        return False
    if trig.dep_ == "relcl":  # 'at Rafidia hospital in Nablus, where he was transferred'
        noun = trig.head
        for _ in range(3):
            if _low(noun) in CARE:
                return True
            if noun.dep_ != "pobj" or noun.head.head.pos_ not in ("NOUN", "PROPN"):
                break
            noun = noun.head.head
    return any(
        c.dep_ == "prep" and any(o.dep_ == "pobj" and _low(o) in CARE for o in c.children)
        for c in trig.children
    )
