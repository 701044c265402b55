"""Incidents stage: sentences that report a violation, typed and merged per document.

A trigger lexicon (lexicons/incident_triggers.json) finds candidate acts; the dependency
parse then reads who did it to whom (agent, patient) and in what mood. The mood decides
more than the verb does: "ordered to kill everyone" is a no-quarter order, "threatened to
kill deserters" is coercion, "can simply shoot" and "no one ever shoots civilians" are not
events at all. Victim words (lexicons/incident_roles.json) then type a killing as of
civilians, captives or one's own side. Mentions of one act (lead, quote, recap) are
merged, and fields are filled from the earlier stages' records in the same sentences.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from spacy.tokens import Doc, Span, Token

from corroborator.models import VICTIM_GROUPS, DateRange, DocIncident, Location, Range
from corroborator.models import Span as TextSpan
from corroborator.nlp import incident_blame, incident_confession, incident_counts, incident_merge
from corroborator.nlp import incident_context as context
from corroborator.nlp import incident_fields as fields
from corroborator.nlp import incident_scope as out_of_scope
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.stages.hedges import load_lexicon, sentence_units, to_span

KILL_TYPES = ("killing_civilians", "killing_captives", "killing_own_forces")
_MAX_NGRAM = 4


@dataclass(frozen=True)
class _Lex:
    """Both lexicons as lemma-tuple lookups."""

    triggers: dict[tuple[str, ...], list[tuple[str, str]]]  # ngram -> [(family, strength)]
    terms: dict[str, frozenset[tuple[str, ...]]]  # role list name -> ngrams
    victims: dict[str, frozenset[tuple[str, ...]]]


def _grams(words: list[str]) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(w.lower().split()) for w in words)


@lru_cache(maxsize=1)
def _lex() -> _Lex:
    trig: dict[str, Any] = load_lexicon("incident_triggers.json")
    roles: dict[str, Any] = load_lexicon("incident_roles.json")
    triggers: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    families = ("kill", "torture", "sexual", "abduction", "deportation", "attack", "coercion")
    for family in (*families, "no_quarter", "other"):
        for strength in ("strong", "weak", "target", "negated"):
            for w in trig[family].get(strength, []):
                triggers.setdefault(tuple(w.split()), []).append((family, strength))
    terms = {k: _grams(v) for k, v in roles.items() if isinstance(v, list)}
    for k in ("order", "deny", "confess"):
        terms[k] = _grams(trig[k])
    terms["victim_nouns"] = _grams(trig["kill"]["victim_nouns"])
    terms["transitive_only"] = _grams(trig["transitive_only"])
    terms["strong_abduction"] = _grams([w for w in trig["abduction"]["strong"] if " " not in w])
    for k in ("threat", "punishment", "force", "force_to"):
        terms[k] = _grams(trig["coercion"][k])
    victims = {k: _grams(v) for k, v in roles["victims"].items()}
    return _Lex(triggers, terms, victims)


def _low(tok: Token) -> str:
    return tok.lemma_.lower()


def _has(tokens: list[Token], name: str) -> bool:
    """Whether the tokens contain a term of the named role list (lemma or surface form)."""
    grams = _lex().terms[name]
    return bool(_matches(tokens, grams))


@lru_cache(maxsize=64)
def _prefixes(grams: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    return frozenset(g[:n] for g in grams for n in range(1, len(g) + 1))


def _longest(toks: list[Token], i: int, grams: frozenset[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Longest lexicon n-grams starting at toks[i]; each word may match by lemma or surface
    form ('enforced disappearances' -> ('enforced', 'disappearance'); 'bodies' and 'body')."""
    prefixes = _prefixes(grams)
    frontier: list[tuple[str, ...]] = [()]
    best: list[tuple[str, ...]] = []
    for n in range(_MAX_NGRAM):
        if i + n >= len(toks):
            break
        t = toks[i + n]
        opts = {_low(t), t.lower_}
        frontier = [p + (o,) for p in frontier for o in opts if p + (o,) in prefixes]
        if not frontier:
            break
        best = [f for f in frontier if f in grams] or best
    return best


def _matches(tokens: list[Token], grams: frozenset[tuple[str, ...]]) -> list[Token]:
    """Tokens that start a lexicon n-gram."""
    toks = sorted(tokens, key=lambda t: t.i)
    return [t for i, t in enumerate(toks) if _longest(toks, i, grams)]


def victim_groups(tokens: list[Token]) -> set[str]:
    """Victim groups named by these tokens ('injured prisoners of war' -> pow, wounded)."""
    return {g for g, grams in _lex().victims.items() if _matches(tokens, grams)}


@dataclass
class Mention:
    """One typed report of an act in one sentence unit."""

    unit: int
    type: str
    trigger: Token
    victims: set[str] = field(default_factory=set)
    agents: list[Token] = field(default_factory=list)
    patient: list[Token] = field(default_factory=list)
    vague: bool = False  # no victim information of its own
    ambiguous: bool = False  # victims are combatants: own side or captives, or combat
    confessed: bool = False
    support: bool = False  # detention etc. that only retells an adjacent act
    attach: Mention | None = None  # the typed mention this one retells
    anaphoric: bool = False  # 'the strike': joins the last incident of its type if any
    recap: bool = False  # 'after the killings': never an incident of its own


# ---------------------------------------------------------------- the parse around a trigger


def _find_triggers(unit: Span) -> list[tuple[Span, str, str]]:
    """(trigger words, family, strength) for each lexicon trigger in the unit, longest first."""
    toks = list(unit)
    table = _lex().triggers
    keys = _trigger_keys()
    out: list[tuple[Span, str, str]] = []
    i = 0
    rank = {"strong": 0, "negated": 0, "target": 1, "weak": 2}
    while i < len(toks):
        grams = _longest(toks, i, keys)
        if not grams:
            i += 1
            continue
        span = unit[i : i + len(grams[0])]
        best: dict[str, str] = {}
        for family, strength in (e for g in grams for e in table[g]):
            if family not in best or rank[strength] < rank[best[family]]:
                best[family] = strength
        out += [(span, family, strength) for family, strength in best.items()]
        i += len(grams[0])
    return out


@lru_cache(maxsize=1)
def _trigger_keys() -> frozenset[tuple[str, ...]]:
    return frozenset(_lex().triggers)


def _is_act(tok: Token) -> bool:
    """A word that names an act of some family ('the shelling', 'killing civilians')."""
    return (_low(tok),) in _trigger_keys() or (tok.lower_,) in _trigger_keys()


def _passive(verb: Token) -> bool:
    """Passive, including the elided 'and the lieutenant killed'."""
    if any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children):
        return True
    has_obj = any(c.dep_ in ("dobj", "ccomp", "xcomp") for c in verb.children)
    if verb.tag_ == "VBD" and (_low(verb),) in _lex().terms["transitive_only"]:
        return not has_obj and any(c.dep_ == "nsubj" for c in verb.children)
    if verb.tag_ != "VBN":
        return False
    has_aux = any(c.dep_ == "aux" for c in verb.children)
    return not has_aux and not has_obj


_RELATIVE = {"who", "that", "which", "whom"}


def _resolve(tok: Token) -> Token:
    """A relative pronoun stands for the noun its clause modifies."""
    if tok.lower_ in _RELATIVE and tok.head.dep_ in ("relcl", "acl"):
        return tok.head.head
    return tok


def _noun_group(tok: Token) -> list[Token]:
    """The noun phrase of a role (with appositions and conjuncts), not its relative clauses."""
    tok = _resolve(tok)
    out = [tok]
    for c in tok.children:
        if c.dep_ in ("relcl", "acl", "punct", "cc"):
            continue
        if c.dep_ in ("conj", "appos", "prep", "amod", "compound", "nummod", "det", "poss", "nmod"):
            out.extend(t for t in c.subtree if not _under_relcl(t, tok))
    return sorted(set(out), key=lambda t: t.i)


def _under_relcl(t: Token, top: Token) -> bool:
    while t.i != top.i and t.head.i != t.i:
        if t.dep_ == "relcl":
            return True
        t = t.head
    return False


_PATIENT_PREPS = ("on", "at", "into", "upon", "against", "to")


def _pobjs(prep: Token) -> list[Token]:
    """Objects of a preposition, minus times ('on February 24' is not a victim)."""
    return [
        t
        for g in prep.children
        if g.dep_ == "pobj" and g.ent_type_ not in ("DATE", "TIME")
        for t in _noun_group(g)
    ]


def roles(words: Span) -> tuple[list[Token], list[Token]]:
    """(agent tokens, patient tokens) of a trigger verb or noun ('open fire' as one)."""
    trigger = words.root
    inside = {t.i for t in words}
    kids = [c for t in words for c in t.children if c.i not in inside]
    agents: list[Token] = []
    patients: list[Token] = []
    verbal = trigger.pos_ in ("VERB", "AUX") or trigger.tag_.startswith("VB")
    if verbal:
        passive = _passive(trigger)
        if not any(c.dep_ == "dobj" for c in kids):  # 'killed or injured 45,000 members'
            kids += [
                g
                for c in trigger.children
                if c.dep_ == "conj"
                for g in c.children
                if g.dep_ == "dobj"
            ]
        for c in kids:
            if c.dep_ == "dobj" or c.dep_ == "nsubjpass" or (c.dep_ == "nsubj" and passive):
                patients += _noun_group(c)
            elif c.dep_ == "nsubj":
                agents += _noun_group(c)
            elif c.dep_ == "agent":
                agents += [t for g in c.children for t in _noun_group(g)]
            elif c.dep_ == "prep" and c.lower_ in _PATIENT_PREPS:
                patients += _pobjs(c)
            elif c.dep_ == "dative":
                patients += _noun_group(c)
        no_auxpass = not any(c.dep_ == "auxpass" for c in trigger.children)
        if trigger.dep_ in ("acl", "relcl") and not patients and passive and no_auxpass:
            patients += _noun_group(trigger.head)
        if trigger.dep_ == "relcl" and not agents and not passive:
            agents += [trigger.head]
        if trigger.dep_ in ("xcomp", "conj") and not (patients if passive else agents):
            subj = [t for c in trigger.head.children if c.dep_ == "nsubj" for t in _noun_group(c)]
            (patients if passive else agents).extend(subj)  # 'women described being raped'

    else:
        for c in kids:
            if c.dep_ == "prep" and c.lower_ in ("of", "on", "against", "at", "upon"):
                patients += _pobjs(c)
            elif c.dep_ == "prep" and c.lower_ == "by":
                agents += [t for g in c.children for t in _noun_group(g)]
            elif c.dep_ in ("amod", "compound", "nmod") and c.pos_ in ("NOUN", "ADJ", "PROPN"):
                # 'civilian deaths' names victims, 'invader fire' the doers
                (agents if _has([c], "combatants") else patients).append(c)
            elif c.dep_ == "poss":
                agents += _noun_group(c)
        head = trigger.head
        victim_noun = (_low(trigger),) in _lex().terms["victim_nouns"]
        if (
            trigger.dep_ in ("nsubj", "dobj", "nsubjpass", "pobj")
            and head.i != trigger.i
            and not victim_noun
        ):
            verb = head.head if trigger.dep_ == "pobj" else head
            for c in verb.children:
                if c.dep_ in ("dobj", "nsubjpass") and c.i != trigger.i:
                    patients += _noun_group(c)
                elif c.dep_ == "prep" and c.lower_ in _PATIENT_PREPS:
                    patients += _pobjs(c)
    return agents, patients


def _ancestors(tok: Token, deps: set[str], limit: int = 4) -> list[Token]:
    out: list[Token] = []
    while tok.head.i != tok.i and tok.dep_ in deps and len(out) < limit:
        tok = tok.head
        out.append(tok)
    return out


def _denial(agents: list[Token]) -> bool:
    """'No one ever shoots civilians': a negative doer denies the act as such."""
    subj_words = {t.lower_ for t in agents}
    return bool(subj_words & {"nobody", "none"}) or {"no", "one"} <= subj_words


def _negated(trigger: Token, agents: list[Token]) -> bool:
    """'Anyone not killed', 'weren't shooting': not an event (but no denial of others)."""
    if any(c.dep_ == "neg" for c in trigger.children) or _denial(agents):
        return True
    return any(
        c.dep_ == "neg" for a in _ancestors(trigger, {"xcomp", "acl"}) for c in a.children
    ) or any(t.lower_ == "never" for t in trigger.children)


def _hypothetical(trigger: Token) -> bool:
    """Modal or conditional: 'can simply shoot', 'would have killed me', '... if they raze'."""
    modal = _lex().terms["modal"]
    chain = [trigger, *_ancestors(trigger, {"xcomp", "conj", "ccomp"}, 2)]
    for t in chain:
        for c in t.children:
            if c.dep_ == "aux" and ((c.lower_,) in modal or (_low(c),) in modal):
                return True
            if c.dep_ == "advcl" and any(m.lower_ in ("if", "unless") for m in c.children):
                return True
            if c.dep_ == "mark" and c.lower_ in ("if", "unless"):
                return True
    for a in _ancestors(trigger, {"xcomp", "ccomp", "advcl", "conj", "dobj", "pobj", "prep"}):
        if any(c.dep_ == "mark" and c.lower_ in ("if", "unless") for c in a.children):
            return True
    return False


def _governed_by(trigger: Token, name: str, deps: set[str]) -> Token | None:
    """The nearest ancestor (through `deps`) whose lemma is in the named term list."""
    grams = _lex().terms[name]
    for a in _ancestors(trigger, deps):
        if (_low(a),) in grams:
            return a
    for c in trigger.children:  # 'kill orders' parsed with kill as the head
        if c.dep_ in ("compound", "nmod") and (_low(c),) in grams:
            return c
    for a in _ancestors(trigger, {"advcl", "xcomp"}, 1):  # 'an order was given to shoot'
        for c in a.children:
            if c.dep_ in ("nsubjpass", "dobj") and (_low(c),) in grams:
                return c
    return None


_PARTITIVE = {"dozen", "hundred", "thousand", "score", "other", "many", "several", "few", "some"}


def _is_person(tok: Token) -> bool:
    lex = _lex()
    if _low(tok) in _PARTITIVE:  # 'dozens were shot', 'bodies of a dozen others'
        of = [g for c in tok.children if c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
        return not of or any(_is_person(g) for g in of)
    one = ((_low(tok),), (tok.lower_,))
    return (
        tok.pos_ == "PRON"
        or bool(victim_groups(_noun_group(tok)))
        or any(g in lex.terms["combatants"] for g in one)
        or any(g in grams for grams in lex.victims.values() for g in one)
        or tok.ent_type_ in ("PERSON", "NORP")
    )


def _head_noun(patient: list[Token]) -> Token | None:
    return min(patient, key=lambda t: (len(list(t.ancestors)), t.i)) if patient else None


# ---------------------------------------------------------------- typing one trigger


_IDENTITY = {"civilians", "children", "women", "elderly"}


def _kill_type(
    trigger: Token, agents: list[Token], patient: list[Token], unit: Span
) -> tuple[str | None, set[str], bool, bool]:
    """(type, victims, vague, ambiguous) of a killing; type None = not a violation.

    Captives outrank one's own side, which outranks civilians: 'prisoners of war and
    mercenaries who tried to desert' were captives when killed.
    """
    lex = _lex()
    reciprocal = " ".join(t.lower_ for t in patient) in ("each other", "one another")
    if reciprocal or any((t.lower_,) in lex.terms["reflexive"] for t in patient):
        return None, set(), False, False
    # the patient with its relative clauses: 'people who try to run home' are deserters
    full = sorted({t for p in patient for t in p.subtree}, key=lambda t: t.i) if patient else []
    agent_own = any(t.lower_ in ("fellow", "own") for t in agents) or (
        any(t.lower_ in ("my", "our") for t in agents) and _has(agents, "combatants")
    )
    unit_own = bool(_matches(list(unit), lex.victims["deserters"])) or any(
        t.lower_ in ("fellow", "own") for t in unit
    )
    pronoun_only = bool(patient) and all(
        t.pos_ == "PRON" and t.lower_ not in ("ours", "theirs", "yours") for t in patient
    )
    words = [t for t in patient if t.pos_ != "PRON" or t.lower_ in ("everyone", "anyone", "ours")]
    victims = victim_groups(words)
    victims |= victim_groups(full) & {"deserters", "own_soldiers", "prisoners_of_war"}
    if agent_own:
        victims.add("own_soldiers")
    if victims & {"prisoners_of_war", "detainees"} or (
        "wounded" in victims and _has(words, "combatants")
    ):
        return "killing_captives", victims, False, False
    if victims & {"own_soldiers", "deserters"}:
        return "killing_own_forces", victims, False, False
    if pronoun_only or not patient:
        if unit_own:  # vague: a typed killing in the same sentence overrides
            return "killing_own_forces", {"own_soldiers"}, True, False
        # 'I shot her': who she was may be said elsewhere in the sentence
        agent_ids = {t.i for t in agents}
        rest = [t for t in unit if t.i not in agent_ids and t.i != trigger.i]
        found = victim_groups(rest) & _IDENTITY - {"civilians"}
        if found:
            return "killing_civilians", found | {"civilians"}, False, False
        return "killing_civilians", {"civilians"}, True, False
    combat = _has(words, "combatants")
    if combat and not (victims - {"civilians"}) and not _has(words, "populated_strong"):
        if unit_own:
            return "killing_own_forces", victims | {"own_soldiers"}, False, False
        return "killing_civilians", victims, False, True
    if victims:
        return "killing_civilians", victims | {"civilians"}, False, False
    return "killing_civilians", {"civilians"}, True, False


def _target_is_populated(trigger: Token, patient: list[Token], unit: Span) -> bool:
    """Attack on a populated place, not a military target. Only the clause around a noun
    under a preposition counts: 'rounded up residents ... in reprisal for an attack on a military post'."""
    toks = list(unit)
    if patient and _has(patient, "military_targets") and trigger.dep_ == "pobj":
        toks = list(_clause(trigger).subtree)
    if patient:
        if _has(patient, "populated_strong"):
            return True
        if _has(patient, "military_targets"):
            # 'not into some military thing, ... to a peaceful population'
            return _has(toks, "populated_strong")
        if _has(patient, "populated_weak"):
            return True
    if _has(toks, "populated_strong"):
        return True
    return _has(toks, "populated_weak") and not _has(toks, "military_targets")


def _clause(tok: Token) -> Token:
    """The nearest verb at or above a token (the token's own clause)."""
    cur = tok
    while cur.pos_ not in ("VERB", "AUX") and cur.head.i != cur.i:
        cur = cur.head
    return cur


def _specific(patient: list[Token]) -> bool:
    """'three men' names particular victims; 'everyone', 'hundreds of civilians' a category."""
    if _has(patient, "universal") or _has(patient, "vague_quantity"):
        return False
    return any(t.dep_ == "nummod" and t.like_num for t in patient)


def _first_person(tokens: list[Token]) -> bool:
    return any(t.lower_ in ("i", "we") for t in tokens)


def _coercion_context(units: list[Span], k: int, reach: int = 3) -> bool:
    """Soldiers, desertion or the front within a few sentences."""
    near = [t for u in units[max(0, k - reach) : k + reach] for t in u]
    return _has(near, "combatants") or bool(_matches(near, _lex().victims["deserters"]))


def mentions_in_unit(units: list[Span], k: int) -> tuple[list[Mention], set[str]]:
    """Typed mentions of one unit, and the victims it denies ('no one ever shoots civilians')."""
    unit = units[k]
    if unit.text.rstrip("’”\"' ").endswith("?"):
        return [], set()
    out: list[Mention] = []
    denied: list[str] = []
    denied_victims: set[str] = set()
    refuted: set[str] = set()
    for words, family, strength in _find_triggers(unit):
        agents, patient = roles(words)
        m = _typed(words.root, family, strength, agents, patient, units, k)
        if isinstance(m, Mention):
            out.append(m)
        elif m == "denied":
            denied.append(family)
            denied_victims |= victim_groups(patient) or {"civilians"}
        elif m == "refuted":  # 'our forces did not fire on any market': a denial sentence
            refuted.update(("kill", "attack"))
    if denied or refuted:
        out = [m for m in out if _family(m.type) not in {*denied, *refuted}]
    # 'shelled a district, killing five civilians': the deaths are the attack's outcome
    attacks = {m.trigger.i for m in out if m.type == "attack_populated_area"}
    out = [m for m in out if not (m.type in KILL_TYPES and _linked(m, attacks))]
    for m in out:
        m.anaphoric = context.anaphoric(m.trigger) and not _particulars(m.trigger)
        m.recap = context.temporal_recap(m.trigger)
        cause = _attack_cause(m.trigger) if m.type == "killing_civilians" else None
        if cause is not None:  # 'killed in an air strike': the attack, with its toll
            m.type = "attack_populated_area"
            m.anaphoric = m.anaphoric or context.anaphoric(cause)
    # 'I'/'we' as doers, or 'admitted to killing': a confession of the act
    admissions = _matches(list(unit), _lex().terms["confess"])
    for m in out:
        admitted = _admits(m.trigger, admissions)
        if admitted and incident_confession.acknowledged_attack(m.trigger, m.type):
            admitted = False  # 'acknowledged the strike' is no confession of a violation
        m.confessed = admitted or _first_person(m.agents) or _own_unit(m)
        if m.type == "no_quarter_order":
            order = _governed_by(m.trigger, "order", _ORDER_DEPS)
            if order is not None:  # 'we got the order', 'I was ordered'
                verbs = [order, order.head]
                recv = [c for v in verbs for c in v.children if c.dep_ in _RECIPIENT]
                m.confessed = m.confessed or _first_person(recv)
    return out, denied_victims


def _own_unit(m: Mention) -> bool:
    """'a soldier tells his father that his unit shot them': the speaker's own unit."""
    verb = m.trigger
    while verb.dep_ in ("conj", "xcomp") and verb.head.i != verb.i:
        verb = verb.head
    speaker = [t for c in verb.head.children if c.dep_ == "nsubj" for t in _noun_group(c)]
    soldiers = verb.dep_ == "ccomp" and _has(speaker, "combatants")
    units = frozenset(_low(t) for t in m.agents if _has([t], "combatants"))
    return incident_confession.own_unit(m.trigger, m.agents, units, soldiers)


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


def _attack_cause(trig: Token) -> Token | None:
    """The attack noun a death is put down to: 'died in the attack', 'killed by shelling'."""
    grams = _attack_nouns()
    for c in trig.children:
        if c.dep_ != "prep" or c.lower_ not in _CAUSE_PREPS:
            continue
        for g in c.children:
            if (
                g.dep_ == "pobj"
                and g.pos_ == "NOUN"
                and ((_low(g),) in grams or (g.lower_,) in grams)
            ):
                return g
    return None


@lru_cache(maxsize=1)
def _attack_nouns() -> frozenset[tuple[str, ...]]:
    """Single-word attack triggers, and the heads of multi-word ones ('air strike')."""
    table = _lex().triggers
    return frozenset(g[-1:] for g, fams in table.items() if any(f == "attack" for f, _ in fams))


def _particulars(trig: Token) -> bool:
    """A definite act with its own names or numbers ('the killing of three men in X') is
    told afresh, not pointed back to."""
    below = [x for c in trig.children if c.dep_ == "prep" for x in c.subtree]
    return any(x.like_num or x.ent_type_ in ("GPE", "LOC", "FAC", "PERSON") for x in below)


_RECIPIENT = ("nsubj", "nsubjpass", "dative")
# 'denied bombing hospitals' is sometimes parsed with 'bombing' as a compound of its object
_DENY_DEPS = {"xcomp", "pcomp", "pobj", "prep", "dobj", "ccomp", "compound"}
_ORDER_DEPS = {"xcomp", "acl", "compound", "amod", "advcl"}


_FAMILY_OF = {
    "no_quarter_order": "kill",
    "torture_mistreatment": "torture",
    "attack_populated_area": "attack",
    "sexual_violence": "sexual",
    "abduction_detention": "abduction",
    "deportation_transfer": "deportation",
    "coercion_of_troops": "coercion",
}


def _family(t: str) -> str:
    """The trigger family a taxonomy type comes from (a denial names families)."""
    return "kill" if t in KILL_TYPES else _FAMILY_OF.get(t, t)


def _typed(
    trig: Token,
    family: str,
    strength: str,
    agents: list[Token],
    patient: list[Token],
    units: list[Span],
    k: int,
) -> Mention | str | None:
    unit = units[k]
    if _governed_by(trig, "deny", _DENY_DEPS):
        return "denied"
    if _denial(agents):
        return "denied"
    if family == "no_quarter" and strength == "negated":  # 'we are not taking anyone'
        if not _negated(trig, []) or _hypothetical(trig):
            return None
        return Mention(k, "no_quarter_order", trig, {"prisoners_of_war"}, agents, patient)
    if _negated(trig, agents) or context.negated_by_noun(trig) or out_of_scope.negated_copula(trig):
        doer = any(a.dep_ == "nsubj" for a in agents) and trig.dep_ not in ("acl", "relcl")
        return "refuted" if doer and family in ("kill", "attack") else None
    if context.background(trig) or context.generic(trig) or out_of_scope.category(trig):
        return None
    if (
        out_of_scope.war_total(trig, agents)
        or out_of_scope.justification(trig)
        or out_of_scope.promise(trig)
    ):
        return None
    hypothetical = _hypothetical(trig) or context.hypothetical_noun(trig, _lex().terms["modal"])
    threat = _governed_by(trig, "threat", {"xcomp", "pobj", "prep", "pcomp", "acl"})
    head = _head_noun(patient)
    mk = lambda t, v=None, **kw: Mention(k, t, trig, v or set(), agents, patient, **kw)  # noqa: E731

    if family == "no_quarter":  # 'take no prisoners': the negation is the order itself
        return None if hypothetical else mk("no_quarter_order", {"civilians"})
    if family == "coercion":
        if strength == "strong" and (threat or _has(list(unit), "threat") or not hypothetical):
            return mk("coercion_of_troops", {"own_soldiers"})
        return None
    if family == "other":  # pillage; burning homes (not 'burned alive': a killing)
        if hypothetical or head is None or _is_person(head):
            return None
        populated = _has(patient, "populated_strong") or _has(patient, "populated_weak")
        return mk("other", {"civilians"}) if strength == "strong" or populated else None
    thing = head is not None and head.pos_ in ("NOUN", "PROPN") and not _is_person(head)
    if family == "attack" or (family == "kill" and thing):
        if family == "kill" and trig.lower_ not in ("fire", "shoot", "destroy", "open"):
            return None
        if hypothetical:
            return None
        if head is not None and _has(patient, "protected_persons") and _low(trig) == "attack":
            return mk("other", {"civilians"})
        if strength == "strong" or _target_is_populated(trig, patient, unit):
            if family == "attack" and head is not None and _is_person(head):
                pass  # 'fire on civilians' is a killing, handled below
            else:
                return mk("attack_populated_area", {"civilians"})
        if family == "attack":
            return None
    if family == "kill":
        if strength == "weak" and trig.lower_ not in ("shot",):
            die = _low(trig) in ("die", "death", "dead")
            cause = [t for c in trig.children if c.dep_ == "prep" for t in c.subtree]
            if die and _has(cause, "non_violent_death"):
                return None
            if _low(trig) in ("destroy", "eliminate") and not (
                head is not None and _is_person(head)
            ):
                return None
            ctx = patient + [c for c in trig.children if c.dep_ in ("amod", "compound")]
            if die:
                ctx += [t for c in trig.children if c.dep_ == "nsubj" for t in c.subtree]
            if not victim_groups(ctx) or _has(ctx, "combatants"):
                return None
        ktype, victims, vague, ambiguous = _kill_type(trig, agents, patient, unit)
        if ktype is None:
            return None
        if threat or hypothetical:
            own = victims & {"own_soldiers", "deserters"} or _first_person(patient)
            if (own or ambiguous) and _coercion_context(units, k):
                return mk("coercion_of_troops", {"own_soldiers"} | (victims - {"civilians"}))
            return None
        order = _governed_by(trig, "order", _ORDER_DEPS)
        told = order is not None and _low(order) == "tell" and trig.dep_ != "xcomp"
        if order is not None and not told and not _specific(patient):
            return mk("no_quarter_order", victims)
        return mk(ktype, victims, vague=vague, ambiguous=ambiguous)
    if hypothetical:
        return None
    if family in ("torture", "sexual", "deportation"):
        pronoun = head is not None and head.pos_ == "PRON" and head.lower_ in _PERSONAL
        if strength == "weak" and not victim_groups(patient) and not pronoun:
            return None  # 'beat the record' is no torture; 'beat him' is
        t = {
            "torture": "torture_mistreatment",
            "sexual": "sexual_violence",
            "deportation": "deportation_transfer",
        }
        return mk(t[family], victim_groups(patient) or {"civilians"})
    if family == "abduction":
        victims = victim_groups(patient)
        if strength == "weak":
            transitive = trig.pos_ == "NOUN" or any(
                c.dep_ in ("dobj", "nsubjpass") for c in trig.children
            )
            if _has(patient, "combatants") or not patient or not transitive:
                return None
            if not victims:
                return mk("abduction_detention", {"detainees"}, support=True)
        return mk("abduction_detention", (victims or {"civilians"}) | {"detainees"})
    return None


_PERSONAL = {"him", "her", "them", "me", "us", "you"}


def _refusal_threat(tok: Token) -> bool:
    """'If you refuse, they put you in the pit': a penalty laid down for refusing to fight."""
    if tok.dep_ != "advcl" or not any(c.dep_ == "mark" and c.lower_ == "if" for c in tok.children):
        return False
    refusal = [tok, *(c for c in tok.children if c.dep_ in ("xcomp", "prt", "dobj"))]
    if not _matches(refusal, _lex().victims["deserters"]) and _low(tok) != "refuse":
        return False
    penalty = tok.head
    if _negated(penalty, []):
        return False
    done_to = [c for c in penalty.children if c.dep_ in ("dobj", "nsubjpass")]
    return any(c.lower_ in _PERSONAL for c in done_to) or _has(list(penalty.subtree), "punishment")


def threat_mentions(units: list[Span], k: int) -> list[Mention]:
    """Coercion without a killing verb: 'threatened with jail', 'forced to fight', 'if you
    refuse, they put you in the pit'."""
    out = []
    unit = units[k]
    for tok in unit:
        if _refusal_threat(tok) and _coercion_context(units, k, reach=6):
            out.append(Mention(k, "coercion_of_troops", tok, {"own_soldiers"}))
            continue
        lemma = (_low(tok),)
        if lemma in _lex().terms["threat"]:
            scope = list(tok.subtree)
            punish = _has(scope, "punishment")
            persons = [
                t
                for c in tok.children
                if c.dep_ in ("dobj", "nsubjpass")
                for t in _noun_group(c)
                if _is_person(c)
            ]
            soldiers = _has(persons, "combatants") or victim_groups(persons) & {
                "deserters",
                "own_soldiers",
            }
            accountable = out_of_scope.accountability(tok)  # 'those responsible will face the law'
            if (punish or soldiers) and _coercion_context(units, k) and not _negated(tok, []):
                if accountable:
                    continue
                out.append(Mention(k, "coercion_of_troops", tok, {"own_soldiers"}))
        elif lemma in _lex().terms["force"] and _passive(tok):
            to = [
                c
                for c in tok.children
                if c.dep_ == "xcomp" and (_low(c),) in _lex().terms["force_to"]
            ]
            if to and _coercion_context(units, k):
                out.append(Mention(k, "coercion_of_troops", tok, {"own_soldiers"}))
    return out[:1]


# ---------------------------------------------------------------- merging and fields


@dataclass
class _Group:
    type: str
    mentions: list[Mention]

    @property
    def units(self) -> set[int]:
        return {m.unit for m in self.mentions}


@dataclass(frozen=True)
class _Layout:
    """Per unit: paragraph number, whether that paragraph is quoted speech, content nouns."""

    para: list[int]
    quoted: list[bool]
    nouns: list[frozenset[str]]


_GENERIC = {
    "people",
    "civilian",
    "soldier",
    "troop",
    "force",
    "man",
    "time",
    "year",
    "day",
    "video",
    "war",
    "thing",
    "way",
    "country",
}
_OPENERS = "\"'‘“«"


def layout(doc: Doc, units: list[Span]) -> _Layout:
    para, quoted, nouns = [], [], []
    for u in units:
        before = text_of(doc)[: u.start_char]
        para.append(before.count("\n"))
        line_start = before.rfind("\n") + 1
        quoted.append(text_of(doc)[line_start : line_start + 1] in _OPENERS)
        nouns.append(
            frozenset(
                _low(t)
                for t in u
                if t.pos_ in ("NOUN", "PROPN") and _low(t) not in _GENERIC and t.is_alpha
            )
        )
    return _Layout(para, quoted, nouns)


def _same_story(lay: _Layout, a: int, b: int) -> bool:
    """Units a < b tell one story: one paragraph, or quoted paragraphs that follow it."""
    lo, hi = min(a, b), max(a, b)
    return all(lay.para[k] == lay.para[lo] or lay.quoted[k] for k in range(lo + 1, hi + 1))


def _para_gap(lay: _Layout, a: int, b: int) -> int:
    """How many paragraph breaks lie between units a and b (blank lines count once)."""
    lo, hi = min(a, b), max(a, b)
    return len({lay.para[k] for k in range(lo, hi + 1)}) - 1


def _resolve_types(ms: list[Mention], lay: _Layout) -> list[Mention]:
    """Combatant victims take the type of a nearby own-side/captive killing, else are combat;
    a killing with no victims of its own retells the typed killing beside it."""
    keep: list[Mention] = []
    by_unit: dict[int, str] = {}
    for m in ms:
        if not m.ambiguous:
            continue
        near = [
            o
            for o in ms
            if not o.ambiguous
            and o.type in ("killing_own_forces", "killing_captives")
            and abs(o.unit - m.unit) <= 6
        ]
        if near:
            best = min(near, key=lambda o: abs(o.unit - m.unit))
            m.type, m.ambiguous, m.attach = best.type, False, best
            by_unit[m.unit] = best.type
    for m in ms:
        if m.ambiguous:
            continue
        if m.unit in by_unit and m.type == "killing_civilians":
            m.type = by_unit[m.unit]  # the same act told in one sentence
        keep.append(m)
    typed = [o for o in keep if not o.vague and o.type in KILL_TYPES]
    for m in keep:
        if not m.vague or m.type not in KILL_TYPES:
            continue
        same = [o for o in typed if o.unit == m.unit]
        near = [
            o
            for o in typed
            if (o.unit == m.unit + 1 and lay.para[o.unit] == lay.para[m.unit])
            or (0 < m.unit - o.unit <= 4 and _same_story(lay, o.unit, m.unit))
            or (0 < m.unit - o.unit <= 3 and _para_gap(lay, o.unit, m.unit) <= 1)
        ]
        pick = same or sorted(near, key=lambda o: (o.unit > m.unit, abs(o.unit - m.unit)))
        if pick:
            m.type, m.attach = pick[0].type, pick[0]
    _toll_of_attack(keep, lay)
    _detention_before_killing(keep, lay)
    return keep


_TOLL = {"kill", "die", "death", "dead"}


def _toll_of_attack(ms: list[Mention], lay: _Layout) -> None:
    """'The bomb hit the school. Eight children were killed.': a toll told without a doer
    right after an attack on a populated place is that attack's outcome, not a new act."""
    for m in ms:
        if m.type != "killing_civilians" or m.agents or _low(m.trigger) not in _TOLL:
            continue
        before = [
            o
            for o in ms
            if 0 <= m.unit - o.unit <= 2
            and _para_gap(lay, o.unit, m.unit) <= 1
            and (o.unit < m.unit or o.trigger.i < m.trigger.i)
        ]
        last = max(before, key=lambda o: (o.unit, o.trigger.i), default=None)
        if last is not None and last.type == "attack_populated_area":
            m.type, m.attach = last.type, last


def _detention_before_killing(ms: list[Mention], lay: _Layout) -> None:
    """'Rounded up men from the market... Dozens were later shot': a detention told just
    before a killing in one paragraph makes the killed captives; it is not an act apart."""
    for m in ms:
        if m.type != "abduction_detention" or m.support or m.recap:
            continue
        if m.trigger.lemma_.lower() in {g[0] for g in _lex().terms["strong_abduction"]}:
            continue
        after = [
            o
            for o in ms
            if o.type in KILL_TYPES
            and not o.recap
            and lay.para[o.unit] == lay.para[m.unit]
            and (0 < o.unit - m.unit <= 2 or (o.unit == m.unit and o.trigger.i > m.trigger.i))
        ]
        if after:
            m.support = True


def _compatible(g: _Group, m: Mention, counts: dict[int, set[int]], lay: _Layout) -> bool:
    if g.type != m.type:
        return False
    if m.unit in g.units:
        return True
    mine = counts.get(m.unit, set())
    theirs = set().union(*(counts.get(u, set()) for u in g.units))
    if mine and theirs and not mine & theirs:
        return False
    if mine & theirs or any(abs(u - m.unit) <= 2 and _same_story(lay, u, m.unit) for u in g.units):
        return True
    # a retelling shares the particulars: 'lieutenant', 'order', 'jail', a place name
    for u in g.units:
        shared = lay.nouns[u] & lay.nouns[m.unit]
        small = min(len(lay.nouns[u]), len(lay.nouns[m.unit])) or 1
        if len(shared) >= 2 and len(shared) / small >= 0.5:
            return True
    return False


def _merge(
    ms: list[Mention], counts: dict[int, set[int]], quote_of: dict[int, int], lay: _Layout
) -> list[_Group]:
    groups: list[_Group] = []
    home: dict[int, _Group] = {}
    for m in sorted(ms, key=lambda m: m.unit):
        if m.support:
            continue
        target = home.get(id(m.attach)) if m.attach is not None else None
        if m.recap:  # 'after the killings' only dates another act
            continue
        if target is None and m.anaphoric:  # 'the strike hit the market' retells the last one
            back = [
                g
                for g in groups
                if g.type not in ("no_quarter_order", "coercion_of_troops")
                and _family(g.type) == _family(m.type)
                and any(0 < m.unit - u <= 3 for u in g.units)
            ]
            same = [g for g in groups if g.type == m.type]
            if same or back:
                target = (same or back)[-1]
                m.type = target.type
        if target is None or target.type != m.type:
            q = quote_of.get(m.unit)
            same_quote = [
                g
                for g in groups
                if g.type == m.type and q is not None and any(quote_of.get(u) == q for u in g.units)
            ]
            cands = same_quote or [g for g in groups if _compatible(g, m, counts, lay)]
            target = cands[-1] if cands else None
        if target is None:
            target = _Group(m.type, [])
            groups.append(target)
        target.mentions.append(m)
        home[id(m)] = target
    # detention told beside a killing: the victims were captives
    for s in (m for m in ms if m.support):
        for g in groups:
            if g.type in KILL_TYPES and any(
                0 <= u - s.unit <= 2 or s.unit - u == 1 for u in g.units
            ):
                g.mentions.append(s)
                named = any(m.victims & _IDENTITY - {"civilians"} for m in g.mentions)
                if g.type == "killing_civilians" and not named:  # 'villagers' stay civilians
                    g.type = "killing_captives"
                break
    return groups


def _fold_headline(groups: list[_Group], units: list[Span], lay: _Layout) -> list[_Group]:
    """A headline retells the story's main act: its mentions join the first incident of
    the same family told in the body, which keeps the body's (better-informed) type."""
    if len(units) < 2 or lay.para[0] == lay.para[1] or units[0].text.rstrip()[-1:] in ".!?":
        return groups
    out: list[_Group] = []
    for g in groups:
        if g.units != {0}:
            out.append(g)
            continue
        body = [o for o in groups if o is not g and _family(o.type) == _family(g.type)]
        body = [o for o in body if o.type not in ("no_quarter_order", "coercion_of_troops")]
        if body and g.type not in ("no_quarter_order", "coercion_of_troops"):
            body[0].mentions.extend(g.mentions)
        else:
            out.append(g)
    return out


def _is_headline(units: list[Span], k: int) -> bool:
    """The first line, alone in its paragraph and without a full stop."""
    if k != 0 or len(units) < 2:
        return False
    text = text_of(units[0].doc)
    between = text[units[0].end_char : units[1].start_char]
    return "\n" in between and units[0].text.rstrip()[-1:] not in ".!?"


def _paragraph(text: str, at: int) -> tuple[int, int]:
    """Character bounds of the paragraph (line) holding offset `at`."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return start, len(text) if end < 0 else end


def _within(start: int, end: int, spans: list[Any]) -> list[Any]:
    return [s for s in spans if start <= s.start and s.end <= end]


def _fill(g: _Group, units: list[Span], ctx: DocContext, doc_hedges: list[TextSpan]) -> DocIncident:
    ex = ctx.extraction
    doc = ctx.doc
    ms = sorted(g.mentions, key=lambda m: m.unit)
    unit_ids = sorted({m.unit for m in ms})
    spans = [to_span(doc, units[u].start, units[u].end, trim=False) for u in unit_ids]
    inc = DocIncident(type=g.type, mentions=spans)
    src: dict[str, list[TextSpan]] = {
        "type": [to_span(doc, m.trigger.i, m.trigger.i + 1) for m in ms]
    }
    victims: set[str] = set().union(*(m.victims for m in ms))
    inc.victims = [v for v in VICTIM_GROUPS if v in victims]
    pats = [
        to_span(doc, min(t.i for t in m.patient), max(t.i for t in m.patient) + 1)
        for m in ms
        if m.patient
    ]
    if pats:
        src["victims"] = pats
    triggers = [m.trigger for m in ms]
    for outcome, attr in (("killed", "killed"), ("wounded", "wounded")):
        cs = [
            c
            for s in spans
            for c in _within(s.start, s.end, ex.counts)
            if c.outcome == outcome and (c.counted is None or c.counted in victims)
            if incident_counts.binds(doc, c, triggers)
        ]
        if cs and g.type not in ("no_quarter_order", "coercion_of_troops"):
            best = max(
                cs,
                key=lambda c: (c.high is not None and c.high < 900 or c.high is None, c.low or 0),
            )
            setattr(inc, attr, Range(best.low, best.high, best.approx))
            src[attr] = [TextSpan(best.start, best.end, best.text)]
    main = [m for m in ms if not _is_headline(units, m.unit)] or ms
    order = [(s.start, s.end) for u, s in zip(unit_ids, spans, strict=True) if u != 0]
    order += [(s.start, s.end) for u, s in zip(unit_ids, spans, strict=True) if u == 0]
    para = _paragraph(text_of(doc), units[main[0].unit].start_char)
    trig = main[0].trigger.idx
    p = fields.choose_place(doc, ex.places, order, trig)
    if p is not None:
        inc.location = Location(
            p.name, p.geonames_id, p.lat, p.lon, p.admin1, p.country, p.precision
        )
        if any(s <= p.start < e for s, e in order):
            src["location"] = [TextSpan(p.start, p.end, p.text)]
    d = fields.choose_date(doc, ex.dates, order, para, trig)
    if d is not None:
        inc.date = DateRange(d.date_start, d.date_end, d.precision)
        src["date"] = [TextSpan(d.start, d.end, d.text)]
    inc.perpetrators, src["perpetrators"] = _perpetrators(ms, ctx)
    if not inc.perpetrators:  # 'a group blamed the militia for the shelling'
        party = incident_blame.blamed(units, unit_ids, _is_act)
        if party:
            inc.perpetrators, src["perpetrators"] = _perpetrators(
                [Mention(0, g.type, party[0], set(), party)], ctx
            )
    if not src["perpetrators"]:
        del src["perpetrators"]
    ev = {t for t, s in ex.evidence for sp in spans if sp.start <= s.start and s.end <= sp.end}
    prev = [units[u - 1] for u in unit_ids if u > 0]
    ev |= {
        t for t, s in ex.evidence for p in prev if p.start_char <= s.start and s.end <= p.end_char
    }
    for q in ex.quotes:
        if any(q.start < s.end and s.start < q.end for s in spans):
            ev.add(
                {
                    "perpetrator": "confession",
                    "witness": "witness_testimony",
                    "victim": "witness_testimony",
                    "official": "official_statement",
                    "accused": "official_statement",
                }.get(q.speaker_role, "witness_testimony")
            )
    confessed = any(m.confessed for m in ms)
    if confessed:
        ev.add("confession")
    inc.evidence_types = sorted(ev)
    inc.hedges = [
        TextSpan(h.start, h.end, h.text) for s in spans for h in _within(s.start, s.end, ex.hedges)
    ] + doc_hedges
    if inc.hedges:
        src["hedges"] = list(inc.hedges)
    inc.status = "confessed" if confessed else "alleged"
    if confessed:
        first = next(m for m in ms if m.confessed)
        src["status"] = [spans[unit_ids.index(first.unit)]]
    inc.sources = src
    inc.summary = summary(inc)
    return inc


def _perpetrators(ms: list[Mention], ctx: DocContext) -> tuple[list[str], list[TextSpan]]:
    """Named agents: entities inside agent phrases (or 'orders came from X'), else the phrase."""
    names: list[str] = []
    spans: list[TextSpan] = []
    ents = [
        e for e in ctx.extraction.entities if e.kind in ("armed_group", "person", "organization")
    ]
    for m in ms:
        toks = list(m.agents)
        head = m.trigger.head
        for anc in (m.trigger, head, head.head):
            for c in anc.children:
                if c.dep_ == "prep" and c.lower_ == "from":
                    toks += [t for g in c.children for t in _noun_group(g)]
        if _first_person(toks):
            for q in ctx.extraction.quotes:
                if q.start <= m.trigger.idx < q.end and q.speaker:
                    names.append(q.speaker)
        hits = []
        if toks:
            lo, hi = min(t.idx for t in toks), max(t.idx + len(t) for t in toks)
            hits = [e for e in ents if lo <= e.start and e.end <= hi]
        for e in hits:
            names.append(e.canonical or e.text)
            spans.append(TextSpan(e.start, e.end, e.text))
        nation = None if hits else _weapon_nationality(m.trigger, toks)
        if nation is not None:  # 'a Russian missile': the nation's forces fired it
            names.append(f"{nation.text} forces")
            spans.append(TextSpan(nation.idx, nation.idx + len(nation), nation.text))
            continue
        if not hits and not ents and toks:
            named = [t for t in toks if t.pos_ == "PROPN" or t.ent_type_ in ("NORP", "ORG")]
            if named and _has(toks, "combatants"):
                sp = to_span(ctx.doc, min(t.i for t in toks), max(t.i for t in toks) + 1)
                names.append(sp.text)
                spans.append(sp)
    return list(dict.fromkeys(names)), spans


def _weapon_nationality(trigger: Token, agents: list[Token]) -> Token | None:
    """The nationality adjective on a weapon or attack noun ('A Russian missile',
    "Tuesday's Russian missile strike"); people ('Russian soldiers') are named elsewhere."""
    heads = [trigger] + [t for t in agents if t.pos_ == "NOUN" and not _is_person(t)]
    for h in heads:
        if h.pos_ != "NOUN" or _is_person(h):
            continue
        stack = [h]
        while stack:
            t = stack.pop()
            for c in t.lefts:
                if c.dep_ in ("amod", "compound", "nmod"):
                    if c.ent_type_ == "NORP" and c.tag_ == "JJ":
                        return c
                    stack.append(c)
    return None


_LABELS = {
    "killing_civilians": "killing of civilians",
    "killing_captives": "killing of captives",
    "no_quarter_order": "order to kill without quarter",
    "killing_own_forces": "killing of own forces",
    "torture_mistreatment": "torture or mistreatment",
    "attack_populated_area": "attack on a populated area",
    "sexual_violence": "sexual violence",
    "abduction_detention": "abduction or unlawful detention",
    "deportation_transfer": "deportation or forcible transfer",
    "coercion_of_troops": "coercion of troops",
    "other": "violation",
}


def summary(inc: DocIncident) -> str:
    """One sober sentence: who did what to whom, where, when, how many."""
    text = f"{inc.status.capitalize()} {_LABELS[inc.type]}"
    if inc.victims:
        text += f" ({', '.join(v.replace('_', ' ') for v in inc.victims)})"
    text += " by " + (
        " and ".join(inc.perpetrators) if inc.perpetrators else "unnamed perpetrators"
    )
    if inc.location.name:
        text += f" in {inc.location.name}"
    if inc.date.start:
        exact = inc.date.precision == "day"
        text += f" on {inc.date.start}" if exact else f" around {inc.date.start[:7]}"
    if inc.killed.low is not None:
        hi = f"-{inc.killed.high}" if inc.killed.high not in (None, inc.killed.low) else ""
        text += f"; {'about ' if inc.killed.approx else ''}{inc.killed.low}{hi} reported killed"
    return text + "."


def _quote_index(units: list[Span], ctx: DocContext) -> dict[int, int]:
    """Unit -> index of the quotation it lies in (so a retold act in one quote merges)."""
    out: dict[int, int] = {}
    for k, u in enumerate(units):
        for qi, q in enumerate(ctx.extraction.quotes):
            if q.start < u.end_char and u.start_char < q.end:
                out[k] = qi
                break
    return out


class IncidentsStage:
    """Typed DocIncidents with their mention sentences and fields, one per reported act."""

    name = "corroborator.incidents.v1"

    def __call__(self, ctx: DocContext) -> None:
        doc: Doc = ctx.doc
        units = sentence_units(doc)
        found: list[Mention] = []
        denied_victims: set[str] = set()
        for k in range(len(units)):
            ms, den = mentions_in_unit(units, k)
            if not any(m.type == "coercion_of_troops" for m in ms):
                ms += threat_mentions(units, k)
            found += ms
            denied_victims |= den
        lay = layout(doc, units)
        found = _resolve_types(found, lay)
        counts: dict[int, set[int]] = {}
        for c in ctx.extraction.counts:
            if c.outcome in ("killed", "wounded") and c.low is not None:
                for k, u in enumerate(units):
                    if u.start_char <= c.start < u.end_char:
                        counts.setdefault(k, set()).add(c.low)
        groups = _fold_headline(_merge(found, counts, _quote_index(units, ctx), lay), units, lay)
        ex = ctx.extraction
        groups = incident_merge.fold(groups, units, counts, ex.places, ex.dates, lay.para)
        doc_hedges = [
            TextSpan(h.start, h.end, h.text)
            for h in ctx.extraction.hedges
            if any(w in h.text.lower() for w in ("verif", "confirm", "corroborat"))
        ]
        for g in groups:
            inc = _fill(g, units, ctx, doc_hedges)
            hit = denied_victims & set(inc.victims)
            if hit and _family(inc.type) == "kill" and inc.status != "confessed":
                inc.status = "disputed"  # reported, and denied by the accused
                inc.summary = summary(inc)
            ctx.extraction.incidents.append(inc)
