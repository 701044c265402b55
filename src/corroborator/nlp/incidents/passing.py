"""Acts a report names in passing or as a kind, not as its own claims.

Background paragraphs recall other events ("since the air strike on Pazigyi that killed
160", "as in El Geneina last year, when hundreds were killed", "earlier this year, strikes
hit a hospital"), speak of kinds of acts ("such massacres", "Russia kills civilians every
day", "has been accused of atrocities"), or define them ("torture is defined as...",
"killing a soldier who has surrendered is a war crime"). Each test reads tense, determiners
and the preposition or clause the act hangs from, with word lists kept in
lexicons/incident_context.json.
"""

from __future__ import annotations

import math

from spacy.tokens import Token

from corroborator.nlp.incidents.context import clause_verb, is_noun, words
from corroborator.nlp.incidents.lexicon import lexicon
from corroborator.nlp.incidents.roles import is_person
from corroborator.nlp.lexicon import words as word_list

_PRESENT = ("VBZ", "VBP")
_SPECIFIC_DETS = ("this", "that", "these", "those")


def _bare(noun: Token) -> bool:
    """No determiner, possessive or number of its own: a kind, not one act or group."""
    own = ("det", "poss", "nummod", "predet")
    return not any(c.dep_ in own or c.like_num for c in noun.children)


def _present(verb: Token) -> bool:
    """Simple present, present perfect or modal: the clause is not told as a past event."""
    aux = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" for a in aux):
        return False
    return verb.tag_ in _PRESENT or any(a.tag_ in (*_PRESENT, "MD") for a in aux)


def _frequent(verb: Token) -> bool:
    """'every day', 'always', 'daily': a repeated act (the parser may hang 'every day' on
    the object, so the clause's own words are read, not nested clauses)."""
    for c in _own_words(verb):
        if c.dep_ == "npadvmod" and any(d.lower_ == "every" for d in c.children):
            return True
        if c.dep_ == "advmod" and c.head.i == verb.i and c.lemma_.lower() in words()["habitual"]:
            return True
    return False


_CADENCE = frozenset(("day", "night", "week", "month", "morning", "evening"))


def by_routine(verb: Token) -> bool:
    """'Twice a week they took us...', 'every morning they drove us...', 'daily': an act
    repeated at a cadence."""
    return _frequent(verb) or any(
        t.lemma_ in _CADENCE and any(d.lower_ in ("a", "an", "every", "each") for d in t.children)
        for c in verb.children
        if c.dep_ in ("advmod", "npadvmod")
        for t in c.subtree
    )


def _path(tok: Token, top: Token) -> list[Token]:
    """Tokens from tok up to (not including) top."""
    out = []
    while tok.i != top.i and tok.head.i != tok.i:
        out.append(tok)
        tok = tok.head
    return out


def in_name(trig: Token) -> bool:
    """'the Convention against Torture', 'Committee on Enforced Disappearances': a title."""
    return trig.tag_ in ("NNP", "NNPS") and trig.dep_ == "pobj" and trig.head.head.tag_ == "NNP"


def such(trig: Token) -> bool:
    """'such massacres', 'many such killings', 'such torture chambers': a kind of act,
    pointing at no one event."""
    noun = trig.head if trig.dep_ == "compound" else trig
    return is_noun(trig) and any(c.lower_ == "such" for c in noun.children)


def shielded(trig: Token) -> bool:
    """'meant to protect such sites from attack', 'safe from shelling': a kind of act that
    people or places are kept from, not one that happened."""
    if not is_noun(trig) or not _bare(trig) or trig.dep_ != "pobj":
        return False
    prep = trig.head
    if prep.lower_ not in ("from", "against"):
        return False
    kept = prep.head  # 'protect sites from attack': the parser may hang it on the object
    verb = kept.head if kept.dep_ == "dobj" else kept
    return verb.lemma_.lower() in words()["shield"]


def generic_claim(trig: Token, headline: bool) -> bool:
    """A kind of act told in the present: 'Russia kills civilians every day', 'it shells
    cities', 'they kill anyone who stays', 'soldiers who torture detainees', 'has been
    accused of ethnic killings'. A headline's present ('Missile hits block, killing nine')
    tells one past event."""
    if headline:
        return False
    if _reputed(trig):
        return True
    if trig.lower_.endswith("ing") and _kind_of_targets(trig):
        return True  # the parser tags some gerunds as nouns ('accused of bombing bakeries')
    if is_noun(trig):
        verb = clause_verb(trig)
        if verb is not None and _everything_is(trig, verb):
            return True
        if verb is None or not _bare(trig) or trig.tag_ not in ("NNS", "NN"):
            return False
        if trig.tag_ == "NNS" and _accused_now(trig):
            return True  # 'has accused Moscow of using drones to hunt civilians'
        if verb.lemma_.lower() in words()["telling"]:
            return False  # 'survivors describe beatings' reports acts
        return trig.tag_ == "NNS" and _present(verb) or (_present(verb) and _frequent(verb))
    if _ongoing(trig):
        return _kind_of_patients(trig)
    if _every_target(trig):
        return True
    if trig.tag_ not in _PRESENT or any(c.dep_ in ("aux", "auxpass") for c in trig.children):
        return False
    if trig.dep_ == "relcl" and trig.head.tag_ == "NNS" and _bare(trig.head):
        return True  # 'soldiers who torture detainees'
    objs = [c for c in trig.children if c.dep_ == "dobj"]
    if not objs and any(c.dep_ == "nsubj" for c in trig.children):
        return True  # 'These gangs kill, rape and burn with total impunity'
    universal = lexicon().terms["universal"]  # 'they kill anyone who stays'
    return _frequent(trig) or any(
        (o.tag_ == "NNS" and _bare(o)) or (o.lower_,) in universal for o in objs
    )


def _every_target(verb: Token) -> bool:
    """'The army burns every village it passes', 'any village that hides soldiers will be
    levelled': an act told in the present or as a threat against every one of a kind ('they
    burned every house' tells one past act)."""
    if not _present(verb):
        return False
    return any(
        d.dep_ == "det" and d.lower_ in ("every", "each", "any")
        for c in verb.children
        if c.dep_ in ("dobj", "nsubjpass")
        for d in c.children
    )


def _everything_is(trig: Token, verb: Token) -> bool:
    """'every bus in Kherson is a target': a kind of thing said to be the act's object."""
    if trig.dep_ != "attr" or verb.lemma_ != "be" or not _present(verb):
        return False
    subjects = [c for c in verb.children if c.dep_ == "nsubj"]
    return any(
        d.dep_ == "det" and d.lower_ in ("every", "any", "all")
        for s in subjects
        for d in s.children
    )


def _has_particulars(words: list[Token]) -> bool:
    """A number, a place or a day among these words: what makes an act one act."""
    return any(t.like_num or t.ent_type_ in ("GPE", "LOC", "FAC", "DATE", "TIME") for t in words)


def _ongoing(verb: Token) -> bool:
    """Present progressive: 'they are killing', 'towns are being bombed'."""
    aux = [c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")]
    now = any(a in ("is", "are", "am", "'re", "'s") for a in aux)
    return now and (verb.tag_ == "VBG" or "being" in aux)


def _kind_of_patients(verb: Token) -> bool:
    """Its done-to are bare plurals with no place, number or day of their own ('killing and
    taking people', 'while towns are being bombed'; not 'are shelling the centre of
    Kharkiv')."""
    deps = ("dobj", "nsubjpass")
    objs = [c for c in verb.children if c.dep_ in deps]
    objs = objs or [c for j in verb.conjuncts for c in j.children if c.dep_ in deps]
    if not objs or not all(o.tag_ == "NNS" and _bare(o) for o in objs):
        return False
    told = [t for o in objs for t in o.subtree] + [
        t for c in verb.children if c.dep_ in ("prep", "npadvmod") for t in c.subtree
    ]
    return not _has_particulars(told)


_REPUTE = frozenset(("know", "notorious", "infamous", "reputed"))


def _reputed(trig: Token) -> bool:
    """'Both factions are known to take young men off the roads', 'armed groups are known
    to use killings and kidnapping', 'notorious for burning villages': a reputation told
    in the present, not an act."""
    for a in list(trig.ancestors)[:4]:
        if a.lemma_.lower() in _REPUTE:
            return _present(a.head if a.pos_ == "ADJ" else a)
    return False


def _kind_of_targets(trig: Token) -> bool:
    """'accused of striking weddings and funerals throughout the conflict', 'shelling
    hospitals': a gerund whose targets are bare plural things, with no place or number
    or day of its own, names a kind of act (the parser may make the gerund the noun's modifier)."""
    objs = [c for c in trig.children if c.dep_ == "dobj"]
    if not objs:  # 'looting and burning villages': the gerunds share the object
        objs = [
            c for j in trig.children if j.dep_ == "conj" for c in j.children if c.dep_ == "dobj"
        ]
    if not objs and trig.dep_ in ("amod", "compound"):
        objs = [trig.head]
    people = _accused_now(trig)  # 'has been accused of killing local administrators'
    if not objs or not all(
        o.tag_ == "NNS" and _bare(o) and (people or not is_person(o)) for o in objs
    ):
        return False
    told = [t for o in objs for t in o.subtree] + [c for c in trig.children if c.dep_ == "prep"]
    return not _has_particulars(told)


def _accused_now(trig: Token) -> bool:
    """An accusation told in the present or present perfect: of a kind of act, unless the
    act has particulars of its own."""
    return any(a.lemma_.lower() == "accuse" and _present(a) for a in list(trig.ancestors)[:3])


def legal_definition(trig: Token) -> bool:
    """'Torture is defined as', 'deliberate attacks on civilians are a war crime', 'killing
    a soldier who has surrendered is a war crime': the law on a kind of act (the act may
    sit inside the subject: 'shelling areas without a military target is prohibited')."""
    subjects = ("nsubj", "nsubjpass", "csubj", "csubjpass")
    cur = trig
    for _ in range(3):
        if cur.dep_ in subjects or cur.head.i == cur.i:
            break
        cur = cur.head
    return (
        (cur.dep_ in subjects and _defines(cur))
        or _condition_of_law(trig)
        or (is_noun(trig) and not _definite(trig) and _law_sentence(trig))
        or _law_of(trig)
    )


def _law_of(trig: Token) -> bool:
    """'The prohibition of torture is absolute', 'the ban on attacks on hospitals', 'the
    Convention forbids torture of prisoners': a bare act noun that a word of the law
    governs names a kind of act."""
    prep = trig.head
    if not is_noun(trig) or _definite(trig):
        return False
    if trig.dep_ == "dobj":
        return _present(prep) and prep.lemma_.lower() in words()["legal"]
    if trig.dep_ != "pobj" or prep.dep_ != "prep":
        return False
    if prep.lower_ not in ("of", "on", "against"):
        return False  # 'violations ... including sexual violence' lists acts
    return prep.head.lemma_.lower() in words()["legal"]


def _law_sentence(trig: Token) -> bool:
    """'Under article 169, murder, rape and imprisonment are crimes against humanity when
    ...': a sentence stating the law, whose bare act nouns are kinds (however parsed)."""
    root = trig.sent.root
    return root.lemma_ in ("be", "constitute", "amount") and _present(root) and _states_law(root)


def _condition_of_law(trig: Token) -> bool:
    """'Sexual violence may constitute a crime against humanity when it is committed as part
    of a widespread or systematic attack': an indefinite act in the condition of a statement
    of the law is part of the definition, and so is a bare 'the attack' pointing back to it
    ('with knowledge of the attack'); 'the attack on the market' would be one act."""
    if not is_noun(trig) or any(c.like_num for c in trig.children):
        return False
    if _definite(trig) and any(c.dep_ not in ("det", "punct") for c in trig.children):
        return False
    cur = trig
    while cur.head.i != cur.i:
        marks = {c.lower_ for c in cur.children if c.dep_ in ("mark", "advmod")}
        if cur.dep_ in ("advcl", "relcl") and marks & {"when", "if", "where", "whenever"}:
            # a relative 'when' hangs from the law's noun ('crimes ... when committed')
            verb = cur.head if cur.dep_ == "advcl" else clause_verb(cur.head)
            return verb is not None and _present(verb) and _states_law(verb)
        cur = cur.head
    return False


def _states_law(verb: Token) -> bool:
    said = [verb, *(c for c in verb.children if c.dep_ in ("attr", "acomp", "dobj", "xcomp"))]
    legal = words()["legal"]
    return any(t.lemma_.lower() in legal or t.lower_ in legal for t in said)


def _defines(trig: Token) -> bool:
    """The subject is a kind of act and its clause states the law on it."""
    if is_noun(trig):
        dets = [c.lower_ for c in trig.children if c.dep_ in ("det", "poss")]
        if any(d in _SPECIFIC_DETS for d in dets) or any(c.dep_ == "poss" for c in trig.children):
            return False
        objs = [g for c in trig.children if c.dep_ == "prep" for g in c.children]
        if "the" in dets and not all(o.tag_ == "NNS" and _bare(o) for o in objs):
            return False  # 'the attack on the market is a war crime' names one act
    elif trig.tag_ != "VBG":
        return False
    verb = trig.head
    if not _present(verb):
        return False
    preps = [g for c in verb.children if c.dep_ == "prep" for g in c.children]
    legal = words()["legal"]
    return _states_law(verb) or any(t.lemma_.lower() in legal or t.lower_ in legal for t in preps)


def retold_in_passing(trig: Token) -> bool:
    """An earlier act used to date or compare this one: 'since the air strike on Pazigyi
    that killed 160', 'after the massacre in Karma, where soldiers killed 147', 'weeks
    after the Bucha killings were in the news', 'as in El Geneina, when men were killed'."""
    temporal = words()["temporal"] | words()["comparison"]
    if _long_after(trig, temporal):
        return True
    cur = trig
    for _ in range(8):
        head = cur.head
        if head.i == cur.i:
            return False
        if cur.dep_ == "pobj" and head.dep_ == "prep" and head.lower_ in temporal:
            return is_noun(cur) and (cur.i != trig.i or _definite(cur))
        marks = {c.lower_ for c in head.children if c.dep_ == "mark"}
        if cur.dep_ == "nsubj" and cur.i == trig.i and _definite(cur) and marks & temporal:
            return True  # 'after the killings were in the news'
        preps = {c.lower_ for c in head.children if c.dep_ == "prep"}
        when = cur.dep_ in ("advcl", "relcl", "ccomp") and any(
            c.lower_ in ("when", "where") for c in cur.children
        )
        # 'in October 2024, when', 'remains the one on Kumbo in June 2022, where'
        dated = _dated(head) or any(_dated(c) for c in head.children if c.dep_ == "prep")
        again = head.lemma_.lower() in _AGAIN  # 'a repeat of what happened ..., when'
        # 'in the same locality as Shag Alnom, where more than 200 were killed'
        compared = head.dep_ == "pobj" and head.head.lower_ in ("as", "like")
        if when and (preps & {"as", "like"} or dated or again or compared):
            return True  # 'as in El Geneina last year, when ...', 'in 2016, when a strike ...'
        cur = head
    return False


_AGAIN = frozenset(("repeat", "anniversary", "reminder"))
_LONG = frozenset(("week", "month", "year", "decade"))


def _long_after(trig: Token, temporal: frozenset[str]) -> bool:
    """'The strike came a year after two missiles hit the centre of Sumy': a clause timed
    weeks or more away from the news is another act, used to date it."""
    verb = trig if trig.dep_ == "advcl" else trig.head if trig.dep_ == "nsubj" else None
    if verb is None or verb.dep_ != "advcl":
        return False
    marks = [c for c in verb.children if c.dep_ == "mark" and c.lower_ in temporal]
    spans = [c for t in (*marks, verb, verb.head) for c in t.children if c.dep_ == "npadvmod"]
    return bool(marks) and any(c.lemma_.lower() in _LONG for c in spans)


def _dated(tok: Token) -> bool:
    """The token is or names a year or a month of one ('2016', 'October 2024', 'in June
    2022'), the way a report dates an earlier event; a day ('on 3 May 2024, when') is how
    it dates its own news."""
    if _year(tok):
        return True
    if tok.dep_ == "prep":
        return tok.lower_ == "in" and any(_dated(g) for g in tok.children if g.dep_ == "pobj")
    days = [c for c in tok.children if c.like_num and not _year(c)]
    return not days and any(_year(c) for c in tok.children)


def _definite(noun: Token) -> bool:
    """'the massacre in Karma', 'the Bucha killings', 'Monday's strike': an act already known."""
    return any(
        (c.dep_ == "det" and c.lower_ in ("the", *_SPECIFIC_DETS)) or c.dep_ == "poss"
        for c in noun.children
    )


def earlier_year(trig: Token) -> bool:
    """'earlier this year, strikes hit a hospital', 'the 2017 chemical attack', 'in 2016',
    'in April 2022': acts a year or more back are the report's background, not its news."""
    verb = trig if not is_noun(trig) else clause_verb(trig)
    frames = [c for c in trig.children if c.dep_ in ("nummod", "compound", "amod")]
    if any(_year(c) for c in frames) or (verb is not None and _then(verb)):
        return True
    # the parser may hang the time on the act's subject ('Earlier this year a missile
    # strike ... killed 17': 'year' modifies 'strike')
    heads = [trig] if verb is None or verb.i == trig.i else [trig, verb]
    heads += [c for c in heads[-1].children if c.dep_ in ("nsubj", "nsubjpass")]
    # 'was burned in June 2021 ... and a couple died', 'firebombed a home in July 2015;
    # a boy burned to death, and his parents died': the time of the first of the acts
    while verb is not None and verb.dep_ == "conj" and not _timed(verb) and verb.head.i != verb.i:
        verb = verb.head
        heads.append(verb)
    for c in (c for h in heads for c in h.children):
        if c.dep_ not in ("npadvmod", "advmod", "prep"):
            continue
        sub = list(c.subtree)
        lows = {t.lower_ for t in sub}
        if lows & {"year", "years"} and lows & words()["earlier_year"]:
            return True
        # 'in June 2021, when ...': the date without what the clause hung on it tells
        sub = [t for t in sub if not t.is_punct and not _in_clause(t, c)]
        dated = c.dep_ == "prep" and c.lower_ == "in" and _year(sub[-1]) and len(sub) <= 3
        if dated and all(t.lower_ in _MONTHS | _SEASONS for t in sub[1:-1]):
            return True  # 'in 2016', 'in April 2022', 'in late 2020': an earlier time
    return False


_MONTHS = frozenset(
    ("january", "february", "march", "april", "may", "june", "july", "august")
    + ("september", "october", "november", "december")
)


def _in_clause(tok: Token, top: Token) -> bool:
    return any(a.dep_ in ("relcl", "acl") for a in [tok, *_path(tok, top)])


def _timed(verb: Token) -> bool:
    """The clause says when, in its own words (an age, '18 months old', is no when)."""
    return any(t.ent_type_ in ("DATE", "TIME") and not _age(t) for t in _own_words(verb))


def _age(tok: Token) -> bool:
    """A word of a DATE entity that tells how old someone is ('18 months old')."""
    end = tok.i
    while end + 1 < len(tok.doc) and tok.doc[end + 1].ent_iob_ == "I":
        end += 1
    return tok.doc[end].lower_ == "old"


def _then(verb: Token) -> bool:
    """'attacked in July 2020, when 32 people were killed': a when-clause right after a
    year tells what happened then."""
    while verb.dep_ == "conj" and verb.head.i != verb.i:
        verb = verb.head
    if verb.dep_ not in ("relcl", "advcl"):
        return False
    if not any(c.dep_ == "advmod" and c.lower_ == "when" for c in verb.children):
        return False
    start = verb.left_edge.i
    return any(_year(t) for t in verb.doc[max(verb.sent.start, start - 4) : start])


_SEASONS = frozenset(("early", "late", "mid", "spring", "summer", "autumn", "fall", "winter"))


def _year(tok: Token) -> bool:
    return tok.is_digit and len(tok.text) == 4 and tok.text[:2] in ("19", "20")


TALLY_MIN = 5  # acts counted from this many up are a tally ('47 attacks'), not one event


_EVENTS = frozenset(("attack", "strike", "airstrike", "raid", "bombing", "shelling", "assault"))
_SEVERAL = _EVENTS | {"incident"}  # 'killed in the incidents we followed'


# '412 incidents of killings', '45 cases of rape', 'more than 20 places of unlawful detention'
_COUNTED = frozenset(("incident", "case", "place", "site", "facility"))


def tally(trig: Token) -> bool:
    """'47 attacks with explosives', 'more than 1,000 air strikes', 'dozens of raids', '412
    incidents of killings', 'shelled 17 settlements over the past day': acts counted, a
    campaign's figure rather than one act. A count of deaths is a toll ('400 civilian
    deaths have been recorded'), kept."""
    if trig.pos_ == "VERB":  # 'shelled or bombed 17 settlements': the verbs share it
        verbs = [trig, *(c for c in trig.children if c.dep_ == "conj")]
        verbs += [trig.head] if trig.dep_ == "conj" else []
        return any(_many_places(c) for v in verbs for c in v.children if c.dep_ == "dobj")
    if not is_noun(trig):
        return False
    if trig.tag_ != "NNS" and not (trig.dep_ == "pobj" and trig.head.head.lemma_ in _COUNTED):
        return False
    # acts counted as events; '250 hostages' or '40 rockets' count victims or munitions
    counted = [trig] if trig.lemma_.lower() in _EVENTS else []
    if trig.dep_ == "pobj" and trig.head.lower_ == "of" and trig.head.head.lemma_ in _COUNTED:
        counted.append(trig.head.head)
    for noun in counted:
        for c in noun.children:
            if c.dep_ == "nummod" and _number(c) >= TALLY_MIN:
                return True
            if c.lemma_.lower() in words()["aggregate"]:
                return True
        of = noun.head if noun.dep_ == "pobj" and noun.head.lower_ == "of" else None
        if of is not None and of.head.lemma_.lower() in words()["aggregate"]:
            return True  # 'dozens of raids'
    return False


def _many_places(noun: Token) -> bool:
    """'17 settlements', 'dozens of villages', 'burned villages across Sagaing':
    settlements counted or spread over a region, each its own act."""
    if noun.lemma_.lower() in words()["aggregate"]:  # 'dozens of villages'
        noun = next((g for c in noun.children if c.lower_ == "of" for g in c.children), noun)
        many = True
    else:
        many = any(c.dep_ == "nummod" and _number(c) >= TALLY_MIN for c in noun.children)
        many = (
            many
            or _bare(noun)
            and any(c.lower_ == "across" for c in (*noun.children, *noun.head.children))
        )
    settlements = word_list("places_settlements.txt")
    return many and noun.tag_ == "NNS" and noun.lemma_.lower() in settlements


def _number(tok: Token) -> float:
    """The figure a token writes; 'dozens', 'thousands' count as large, any other word as 0."""
    digits = tok.text.replace(",", "")
    if digits.isdigit():
        return float(digits)
    return math.inf if tok.lemma_.lower() in words()["aggregate"] else 0.0


def predicted(trig: Token, modal: frozenset[tuple[str, ...]]) -> bool:
    """'If the RSF enters the camp, there will be a massacre': an act foretold or feared."""
    if not is_noun(trig) or trig.dep_ not in ("attr", "nsubj") or trig.head.lemma_ != "be":
        return False
    verb = trig.head
    aux = [c for c in verb.children if c.dep_ == "aux"]
    if any((a.lower_,) in modal or a.lower_ in words()["future"] for a in aux):
        return True
    return any(
        c.dep_ == "advcl" and any(m.lower_ in ("if", "unless") for m in c.children)
        for c in verb.children
    )


def running_total(trig: Token) -> bool:
    """'Dozens of prisoners have been killed since the invasion began', 'have killed
    thousands over the past decade': a tally kept over a span, not one act."""
    have = [c for c in trig.children if c.dep_ == "aux" and c.lemma_ == "have"]
    if is_noun(trig) or not any(a.tag_ in _PRESENT for a in have):
        return False  # 'had detained 15 men ... not heard from them since' is one act
    other = ("conj", "relcl", "ccomp", "parataxis")
    sub = [t for t in trig.subtree if not any(a.dep_ in other for a in _path(t, trig))]
    span = any(t.lower_ == "since" for t in sub) or any(
        t.dep_ == "prep" and t.lower_ in ("over", "in") and _past_span(t) for t in sub
    )
    counted = [c for c in trig.children if c.dep_ in ("dobj", "nsubjpass")]
    return span and any(
        c.lemma_.lower() in words()["aggregate"]
        or _number(c) >= 100  # 'more than 190 of its schools have been hit since'
        or any(_large(d) for d in c.children)
        for c in counted
    )


def period_tally(trig: Token) -> bool:
    """'Between January and June the group recorded the killing of 412 civilians' (or '1,140
    civilian deaths'), 'more than 2,000 civilians were killed ... in the first half of the
    year', '150 people were kidnapped over the same period', '61 civilian deaths in March
    alone': a count kept over a period is a monitor's figure, told in the past as often as
    in the perfect (`running_total`)."""
    verb = clause_verb(trig) if is_noun(trig) else trig
    if verb is None:
        return False
    # 'alone' is rare: the clause's own words are gathered for it only when it is there
    alone = any(t.lower_ == "alone" for t in trig.sent)
    if alone and any(_alone(t) for t in [*_own_words(verb), *trig.subtree]):
        return True
    # a toll spread over a region or span: the clause's own words are gathered only when a
    # preposition of the kind is there (most triggers have none)
    spread = {t.i for t in verb.subtree if _spread(t)}
    if spread and any(t.i in spread for t in _own_words(verb)):
        return True
    if is_noun(trig):  # '1,140 civilian deaths', 'the killing of 412 civilians'
        counted = [trig, *(g for c in trig.children if c.lower_ == "of" for g in c.children)]
    else:
        counted = [c for c in trig.children if c.dep_ in ("dobj", "nsubjpass")]
        if trig.dep_ == "acl":  # '1,630 civilians killed in ... in the first half'
            counted.append(trig.head)
    # '1,912: people killed in ... in the first half of the year': the count they stand by
    if not any(
        _number(c) >= 100
        or any(_large(d) for d in c.children)
        or (c.dep_ == "appos" and _number(c.head) >= 100)
        for c in counted
    ):
        return False
    return any(_period(t) for t in _own_words(verb))


def _spread(tok: Token) -> bool:
    """'killed across the Kherson region', 'across Ukraine', 'over the same month',
    'in the incidents we followed': a toll spread over a region, a span or several acts,
    whatever the figure."""
    if tok.dep_ != "prep":
        return False
    objs = [g for g in tok.children if g.dep_ == "pobj"]
    lemmas = {g.lemma_.lower() for g in objs}
    if tok.lower_ in ("across", "throughout"):  # 'across Ukraine': a named land too
        return bool(lemmas & words()["expanse"]) or any(
            g.tag_ == "NNPS" or g.ent_type_ in ("GPE", "LOC") for g in objs
        )
    if tok.lower_ in ("over", "during"):  # 'over the same month', not 'over two days'
        spans = [g for g in objs if g.lemma_.lower() in words()["period"] | words()["duration"]]
        return any(
            g.lemma_ != "day" and not any(c.dep_ == "nummod" for c in g.children) for g in spans
        )
    return tok.lower_ == "in" and any(g.tag_ == "NNS" and g.lemma_ in _SEVERAL for g in objs)


def _own_words(verb: Token) -> list[Token]:
    """The clause's words, not those of clauses nested in it."""
    nested = ("relcl", "ccomp", "advcl", "acl", "conj", "xcomp")
    return [t for t in verb.subtree if not any(a.dep_ in nested for a in _path(t, verb))]


def _alone(tok: Token) -> bool:
    """'in July alone', 'last month alone', 'in 2024 alone': a period singled out of a
    running count, whatever the figure."""
    if tok.lower_ != "alone" or tok.head.i == tok.i:
        return False
    period = tok.head
    kinds = words()["period"] | words()["duration"]
    return period.lower_ in _MONTHS or _year(period) or period.lemma_.lower() in kinds


def _period(tok: Token) -> bool:
    """'between January and June', 'in the first half of the year', 'over the same period',
    'since March', 'in 2024'; not 'between 29 and 30 November' or 'in the weeks that
    followed', which time one act."""
    if tok.lower_ == "between" and tok.dep_ == "quantmod":  # parsed as 'between 1' January
        objs = [tok.head.head, *tok.head.head.conjuncts]
    elif tok.dep_ != "prep":
        return False
    else:
        objs = [g for g in tok.children if g.dep_ == "pobj"]
    named = {t.lower_ for g in objs for t in g.subtree if t.lower_ in _MONTHS or _year(t)}
    if tok.lower_ == "since":
        return bool(named)
    if tok.lower_ == "between":  # 'between 29 and 30 November' is one act's two days
        return len(named) >= 2
    if tok.lower_ not in ("in", "over", "during", "throughout", "for"):
        return False
    period = words()["period"]
    return any(g.lower_ in period or g.lemma_.lower() in period or _year(g) for g in objs)


_SHARES = frozenset(("majority", "most", "half", "third", "quarter", "two-thirds", "percent"))


def share_reporting(trig: Token) -> bool:
    """'more than 90 per cent of the prisoners returned report torture', 'nine in ten
    report abuse': a share of a group telling a kind of act is a survey's figure (read
    from the words: the parser often takes 'report' for a noun here)."""
    if not is_noun(trig) or not _bare(trig) or trig.i == trig.sent.start:
        return False
    before = trig.doc[trig.i - 1]
    if before.lemma_.lower() not in words()["telling"] and before.lower_ not in words()["telling"]:
        return False
    toks = list(trig.sent)[: trig.i - trig.sent.start]
    return any(
        t.lower_ in _SHARES
        or t.text == "%"
        or (t.lower_ == "cent" and t.i > 0 and t.doc[t.i - 1].lower_ == "per")
        or (t.lower_ == "in" and t.i > 0 and t.doc[t.i - 1].like_num and t.nbor().like_num)
        for t in toks
    )


def routine(trig: Token) -> bool:
    """'Shelling of the camp has become routine', 'kidnapping has become a routine hazard':
    the act as a matter of course."""
    if trig.dep_ not in ("nsubj", "csubj") or trig.head.lemma_ not in ("become", "be"):
        return False  # the parser makes 'Shelling of the camp' a clausal subject
    said = [c for c in trig.head.children if c.dep_ in ("acomp", "attr")]
    said += [a for c in said if c.dep_ == "attr" for a in c.children if a.dep_ == "amod"]
    return any(c.lemma_.lower() in words()["routine"] for c in said)


def habitual_history(trig: Token) -> bool:
    """'The city has been shelled and bombed almost daily since the invasion': acts repeated
    over a span up to now are the report's background, not one event."""
    verb = trig if trig.pos_ == "VERB" else clause_verb(trig)
    if verb is None:
        return False
    verbs = [verb, *verb.conjuncts]
    perfect = any(
        c.dep_ == "aux" and c.lower_ in ("has", "have") for v in verbs for c in v.children
    )
    return perfect and any(_frequent(v) for v in verbs)


def as_a_tactic(trig: Token) -> bool:
    """'The gangs have turned rape into a weapon of terror', 'use starvation as a method of
    war': a bare act noun made a means is a kind of act."""
    if not is_noun(trig) or trig.dep_ != "dobj" or not _bare(trig):
        return False
    means = [
        g
        for c in trig.head.children
        if c.dep_ == "prep" and c.lower_ in ("into", "as")
        for g in c.children
        if g.dep_ == "pobj"
    ]
    return any(g.lemma_.lower() in words()["tactic"] for g in means)


def not_the_first_time(trig: Token) -> bool:
    """'It was not the first time the building had been hit': the act told as one of others
    before (the news itself, if told, is told apart)."""
    time = trig.head
    if trig.dep_ != "relcl" or time.lemma_.lower() != "time":
        return False
    first = any(c.dep_ == "amod" and c.lower_ == "first" for c in time.children)
    return first and any(c.dep_ == "neg" for c in time.head.children)


def named_by_date(trig: Token) -> bool:
    """'the attack of 7 October 2023', 'the massacre of February 2022': an act named by a
    date with its year is history the report points to."""
    if not is_noun(trig) or not _definite(trig):
        return False
    return any(
        c.dep_ == "prep" and c.lower_ == "of" and any(_year(t) for t in c.subtree)
        for c in trig.children
    )


_ACTS = frozenset((*_EVENTS, "massacre", "killing", "ambush", "bombardment", "execution"))


def described_event(clause: Token) -> Token | None:
    """The event a relative clause tells more of: its head ('the attack, which killed
    hundreds'), or, where the parser hangs the clause on the event's date ('the attack on
    21 August 2013, which killed hundreds'), the event nearest before that date."""
    head = clause.head
    if clause.dep_ != "relcl":
        return None
    if head.lemma_.lower() in _ACTS:
        return head
    if head.lower_ in _MONTHS or _year(head):
        upto = head.i
    elif _in_which(clause):  # ... or on its place, or the sentence's verb ('the attack on
        upto = clause.left_edge.i  # the school in Let Yet Kone, in which 11 died')
    else:
        return None
    before = [t for t in clause.sent if t.i < upto and t.lemma_.lower() in _ACTS]
    return before[-1] if before else None


def _in_which(clause: Token) -> bool:
    """'..., in which 11 children were killed', 'during which': a clause telling of an event."""
    return any(
        c.dep_ == "prep"
        and c.lower_ in ("in", "during")
        and any(w.lower_ == "which" for w in c.children)
        for c in clause.children
    )


def _likened(verb: Token) -> list[Token] | None:
    """What a verb or adjective of likeness compares its subject to ('recalls the massacre',
    'was reminiscent of the assault'); None where the clause likens nothing."""
    likeness = words()["likeness"]
    if verb.lemma_.lower() in likeness:
        return [c for c in verb.children if c.dep_ == "dobj"]
    said = [
        c for c in verb.children if c.dep_ in ("acomp", "attr") and c.lemma_.lower() in likeness
    ]
    if not said:
        return None
    return [g for c in said for p in c.children if p.lower_ in ("of", "to") for g in p.children]


def compared(tok: Token) -> bool:
    """'The Djaiba attack recalls the attack on Plaine Savo, in which 60 were killed', 'the
    assault was reminiscent of the one on Zamzam in April': what the sentence tells beside
    the act it starts from (another act, its date, its toll) is another event. Only with
    acts on both sides ('it', 'this' for the first): a survivor who recalls an attack tells
    it, and 'it echoes statements' compares no acts."""
    for verb in tok.ancestors:
        objects = _likened(verb) if verb.pos_ in ("VERB", "AUX") else None
        if objects is None:
            continue
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        return (
            any(o.lemma_.lower() in _ACTS for o in objects)
            and any(c.lemma_.lower() in _ACTS or c.lower_ in ("it", "this") for c in subjects)
            and not any(c.left_edge.i <= tok.i <= c.right_edge.i for c in subjects)
        )
    return False


def comparing(trig: Token, headline: bool) -> bool:
    """'The Djaiba attack recalls the attack of 2022': below the headline, the act a
    comparison starts from is the report's own act, already told; the sentence adds only
    the other one."""
    if headline or trig.dep_ not in ("nsubj", "nsubjpass") or not _definite(trig):
        return False
    return _likened(trig.head) is not None


def commemorated(trig: Token) -> bool:
    """'The anniversary of the sarin attack on Eastern Ghouta', 'in memory of the massacre':
    an act remembered is history."""
    return (
        trig.dep_ == "pobj"
        and trig.head.lower_ == "of"
        and trig.head.head.lemma_.lower() in _REMEMBRANCE
    )


_REMEMBRANCE = frozenset(("anniversary", "commemoration", "remembrance", "memory", "memorial"))


def told_before(trig: Token) -> bool:
    """'The bombing of a market in Budalin described in its March report': an act the source
    told in an earlier publication, pointed back to (the parser may hang the participle on
    the verb whose object the act is)."""
    near = list(trig.children)
    if trig.dep_ in ("dobj", "nsubjpass"):
        near += [
            c
            for c in trig.head.children
            if c.dep_ == "advcl" and not any(g.dep_.startswith("nsubj") for g in c.children)
        ]
    return any(
        c.dep_ in ("acl", "advcl")
        and c.lemma_.lower() in _TOLD
        and any(
            p.dep_ == "prep" and any(g.lemma_.lower() in _PUBLICATIONS for g in p.children)
            for p in c.children
        )
        for c in near
    )


_TOLD = frozenset(("describe", "document", "report", "detail", "publish", "record"))
_PUBLICATIONS = frozenset(("report", "statement", "bulletin", "update", "briefing", "article"))


def held_already(trig: Token) -> bool:
    """'Unless the remaining hostages were freed', 'to move its hostages deeper into the
    hills': people already held, pointed back to; their taking is told where it is told."""
    return (
        trig.lemma_.lower() in _HELD
        and any(c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ == "the") for c in trig.children)
        and not any(c.dep_ == "nummod" for c in trig.children)
    )


_HELD = frozenset(("hostage", "captive", "detainee", "abductee"))


def _large(tok: Token) -> bool:
    """A number of a tally ('30,000', 'thousands'), not of one group ('15 civilians')."""
    return tok.dep_ == "nummod" and _number(tok) >= 100


def _past_span(prep: Token) -> bool:
    """'over the past decade', 'in the last two years'."""
    return any(
        g.dep_ == "pobj"
        and g.lemma_.lower() in words()["duration"] | {"decade"}
        and any(d.lower_ in ("past", "last") for d in g.children)
        for g in prep.children
    )
