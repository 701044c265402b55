"""All typed mentions of one sentence unit, after the unit's own denials and links.

Triggers in one sentence qualify each other: a denial drops its family, a killing told as
an attack's outcome joins the attack, 'I'/'we' or 'admitted to' make a confession. Those
sentence-wide passes sit here, above the typing of single triggers.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from corroborator.nlp.incidents import confession, context
from corroborator.nlp.incidents.lexicon import (
    attack_nouns,
    has,
    lexicon,
    low,
    matches,
    victim_groups,
)
from corroborator.nlp.incidents.mention import KILL_TYPES, Mention, family_of
from corroborator.nlp.incidents.mood import ORDER_DEPS, RECIPIENT, governed_by
from corroborator.nlp.incidents.roles import (
    CIVILIAN_GROUPS,
    UNDERGONE,
    first_person,
    head_noun,
    noun_group,
    roles,
)
from corroborator.nlp.incidents.triggers import find_triggers, retold_custody, typed_mention
from corroborator.nlp.pipeline import text_of


def mentions_in_unit(units: list[Span], k: int) -> tuple[list[Mention], set[str], list[Token]]:
    """Typed mentions of one unit, the victims it denies ('no one ever shoots civilians'),
    and the triggers of earlier acts it recalls ('after the massacre in Karma, where
    soldiers killed 147'), whose figures are not this report's."""
    unit = units[k]
    if text_of(unit.doc)[unit.start_char : unit.end_char].rstrip("’”\"' ").endswith("?"):
        return [], set(), []
    out: list[Mention] = []
    recalled: list[Token] = []
    denied: list[str] = []
    denied_victims: set[str] = set()
    refuted: set[str] = set()
    found = find_triggers(unit)
    roots = {w.root.i for w, _, _ in found}
    for words, family, strength in found:
        if words.root.dep_ == "compound" and words.root.head.i in roots:
            continue  # 'drone strikes': the head noun is the act, the modifier its means
        agents, patient = roles(words)
        m = typed_mention(words.root, family, strength, agents, patient, units, k)
        if isinstance(m, Mention):
            out.append(m)
        elif m == "denied":
            denied.append(family)
            denied_victims |= victim_groups(patient) or {"civilians"}
        elif m == "refuted":  # 'our forces did not fire on any market': a denial sentence
            refuted.update(("kill", "attack"))
        elif m == "recalled":
            recalled.append(words.root)
    if denied or refuted:
        out = [m for m in out if family_of(m.type) not in {*denied, *refuted}]
    # an act told inside a recalled one is recalled with it: 'the anniversary of the 2018
    # strike on a school bus in which 40 children were killed'
    old = {t.i for t in recalled} | {t.head.head.i for t in recalled if _of_noun(t)}
    inner = [m for m in out if any(a.i in old for a in m.trigger.ancestors)]
    out = [m for m in out if m not in inner]
    recalled += [m.trigger for m in inner]
    if _gunfire(found) and any(m.type in KILL_TYPES for m in out):
        out = [m for m in out if m.type != "attack_populated_area"]
    # 'shelled a district, killing five civilians': the deaths are the attack's outcome
    attacks = {m.trigger.i for m in out if m.type == "attack_populated_area"}
    out = [m for m in out if not (m.type in KILL_TYPES and _linked(m, attacks))]
    for m in out:
        m.anaphoric = (
            context.anaphoric(m.trigger) and not _particulars(m.trigger)
        ) or retold_custody(m)
        m.recap = context.temporal_recap(m.trigger)
        cause = _attack_cause(m.trigger) if m.type == "killing_civilians" else None
        if cause is not None and not _hunted(m, cause):
            m.type = "attack_populated_area"  # 'killed in an air strike': the attack, with
            m.anaphoric = m.anaphoric or context.anaphoric(cause)  # its toll
        elif m.type == "attack_populated_area" and _hunted(m, None):
            m.type = "killing_civilians"
    # 'I'/'we' as doers, or 'admitted to killing': a confession of the act
    admissions = matches(list(unit), lexicon().terms["confess"])
    for m in out:
        admitted = _admits(m.trigger, admissions)
        if admitted and (
            confession.acknowledged_attack(m.trigger, m.type)
            or m.trigger.lemma_.lower() in UNDERGONE
        ):
            # 'acknowledged the strike', 'admitted that people died': no confession of
            # a violation
            admitted = False
        m.confessed = admitted or first_person(m.agents) or _own_unit(m)
        if m.type == "no_quarter_order":
            order = governed_by(m.trigger, "order", ORDER_DEPS)
            if order is not None:  # 'we got the order', 'I was ordered'
                verbs = [order, order.head]
                recv = [c for v in verbs for c in v.children if c.dep_ in RECIPIENT]
                m.confessed = m.confessed or first_person(recv)
    return out, denied_victims, recalled


def _gunfire(found: list[tuple[Span, str, str]]) -> bool:
    """'Opened fire on a crowd, killing six', 'gunmen attacked the camp, killing 19': an
    attack that names no weapon striking from afar (shell, bomb, missile, drone) is told by
    its killings; shelling and air strikes on populated places are the attack type."""
    attacks = [words for words, family, _ in found if family == "attack"]
    return bool(attacks) and all(has(list(words), "direct_fire") for words in attacks)


def _of_noun(t: Token) -> bool:
    """'incidents of killings': the noun the act is counted under."""
    return t.dep_ == "pobj" and t.head.lower_ == "of" and t.head.head.pos_ == "NOUN"


def _own_unit(m: Mention) -> bool:
    """'a soldier tells his father that his unit shot them': the speaker's own unit."""
    verb = m.trigger
    while verb.dep_ in ("conj", "xcomp") and verb.head.i != verb.i:
        verb = verb.head
    speaker = [t for c in verb.head.children if c.dep_ == "nsubj" for t in noun_group(c)]
    soldiers = verb.dep_ == "ccomp" and has(speaker, "combatants")
    units = frozenset(low(t) for t in m.agents if has([t], "combatants"))
    return confession.own_unit(m.trigger, m.agents, units, soldiers)


def _admits(trig: Token, admissions: list[Token]) -> bool:
    """'Admitted to killing', 'his confession that he shot': the admission governs the act
    ('acknowledged that troops entered' does not admit the abuses of another clause)."""
    above = {a.i for a in trig.ancestors}
    heads = [(a, a.head.head if a.head.dep_ == "prep" else a.head) for a in admissions]
    return any(a.i in above or (h.i in above and a.pos_ == "NOUN") for a, h in heads)


_CAUSE_PREPS = ("in", "during", "by", "from", "after")


def _linked(m: Mention, triggers: set[int]) -> bool:
    """Whether a killing is told as the outcome of one of these attack triggers: 'shelled
    a district, killing five', 'a missile slammed into a market, killing seven', 'killed
    in the strike on the market'."""
    t = m.trigger
    outcome = t.dep_ in ("advcl", "conj", "xcomp")
    subject = [x for c in t.head.children if c.dep_ in ("nsubj", "nsubjpass") for x in c.subtree]
    # the cause is the preposition's own object: 'in the strike on the market', not the
    # attack a reprisal answered ('shot them in reprisal for an attack by rebels')
    cause = [
        x
        for c in t.children
        if c.dep_ == "prep" and c.lower_ in _CAUSE_PREPS
        for g in c.children
        if g.dep_ == "pobj"
        for x in (g, *(j for j in g.children if j.dep_ == "conj"))
    ]
    return (
        (outcome and (t.head.i in triggers or any(x.i in triggers for x in subject)))
        or any(a.i in triggers for a in m.agents)
        or any(c.i in triggers for c in t.children if c.dep_ in ("nsubj", "agent"))
        or any(x.i in triggers for x in cause)
    )


_DELIBERATE = frozenset(("execute", "execution", "murder", "massacre", "slaughter", "behead"))


def _attack_cause(trig: Token) -> Token | None:
    """The attack noun a death is put down to: 'died in the attack', 'killed by shelling',
    'the strike killed five' (even when the same sentence denies the strike); 'executed
    villagers after a raid' puts a deliberate killing after the raid, not down to it."""
    grams = attack_nouns()
    for c in trig.children:
        if c.dep_ == "nsubj" and c.pos_ == "NOUN" and ((low(c),) in grams or (c.lower_,) in grams):
            return c
        if _struck_when(c):
            return c
        if c.dep_ != "prep" or c.lower_ not in _CAUSE_PREPS:
            continue
        if c.lower_ == "after" and low(trig) in _DELIBERATE:
            continue
        for g in c.children:
            if (
                g.dep_ == "pobj"
                and g.pos_ == "NOUN"
                and ((low(g),) in grams or (g.lower_,) in grams)
            ):
                return g
    return None


def _hunted(m: Mention, cause: Token | None) -> bool:
    """'A drone hit a car, killing the driver', 'a drone dropped a grenade on a woman
    cycling home', 'killed in a drone strike on his car': a weapon that singles out one
    civilian or one vehicle kills them; it does not attack a populated area as shells,
    missiles or a drone on a bus stop do. `cause` is the attack a death is put down to;
    a weapon told by its noun hits what its clause does ('a drone hitting a car')."""
    means = [m.trigger, *m.agents, *(cause.subtree if cause is not None else ())]
    if not has(means, "hunting_weapons"):
        return False
    if cause is not None:  # 'killed in a drone strike on his car'
        hit = [t for c in cause.children if c.dep_ == "prep" for t in c.subtree]
    else:  # 'a drone hitting a car'
        hit = [t for c in m.trigger.children if c.dep_ == "acl" for t in c.subtree]
    target = head_noun(
        [
            t
            for t in (hit or m.patient)
            if t.pos_ in ("NOUN", "PROPN")
            and not has([t], "dropped_munitions")
            and not has([t], "hunting_weapons")
        ]
    )
    if target is None:
        return False
    if has(noun_group(target), "personal_vehicles"):
        return True
    return target.tag_ == "NN" and bool(victim_groups([target]) & CIVILIAN_GROUPS)


def _struck_when(clause: Token) -> bool:
    """'killed when a jet bombed the compound', 'died as artillery shelled the market': a
    strike from afar told as the death's moment (not 'when soldiers opened fire' or 'when
    they raided the village', killings)."""
    if clause.dep_ != "advcl" or not any(m.lower_ in ("when", "as") for m in clause.children):
        return False
    verb = (low(clause),)
    attack = any(f == "attack" for f, _ in lexicon().triggers.get(verb, []))
    return attack and verb not in lexicon().terms["direct_fire"]


def _particulars(trig: Token) -> bool:
    """A definite act with its own names or numbers ('the killing of three men in X') is
    told afresh, not pointed back to."""
    below = [x for c in trig.children if c.dep_ == "prep" for x in c.subtree]
    return any(x.like_num or x.ent_type_ in ("GPE", "LOC", "FAC", "PERSON") for x in below)
