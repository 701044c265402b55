"""Finding lexicon triggers in a unit and typing one trigger as a mention.

A trigger's family, strength, roles and mood together decide its taxonomy type, or that
it is no violation at all ('beat the record', 'can simply shoot'). This is the decision
table for one trigger; reading a whole unit builds on it.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from corroborator.nlp.incidents import context, passing
from corroborator.nlp.incidents import scope as out_of_scope
from corroborator.nlp.incidents.lexicon import (
    has,
    lexicon,
    longest,
    low,
    starters,
    trigger_keys,
    victim_groups,
)
from corroborator.nlp.incidents.mention import Mention
from corroborator.nlp.incidents.mood import (
    DENY_DEPS,
    ORDER_DEPS,
    denial,
    governed_by,
    is_hypothetical,
    negated,
    unasserted,
)
from corroborator.nlp.incidents.roles import (
    CIVILIAN_GROUPS,
    first_person,
    head_noun,
    is_person,
    kill_type,
    noun_group,
)
from corroborator.nlp.incidents.threats import PERSONAL, coercion_context
from corroborator.nlp.incidents.units import is_headline
from corroborator.nlp.stages.numbers import outcome_word


def find_triggers(unit: Span) -> list[tuple[Span, str, str]]:
    """(trigger words, family, strength) for each lexicon trigger in the unit, longest first."""
    toks = list(unit)
    table = lexicon().triggers
    keys = trigger_keys()
    starts = starters(unit.doc, unit.start, unit.end, keys)
    out: list[tuple[Span, str, str]] = []
    i = 0
    rank = {"strong": 0, "negated": 0, "target": 1, "weak": 2}
    while i < len(toks):
        grams = longest(toks, i, keys) if unit.start + i in starts else []
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
    taken = {t.i for span, _, _ in out for t in span}
    out += [
        (unit[t.i - unit.start : t.i - unit.start + 1], "abduction", "custody")
        for t in toks
        if t.i not in taken and t.pos_ == "VERB" and low(t) in _CUSTODY and _custody(t)
    ]
    return out


def _on_fire(trig: Token) -> list[Token]:
    """What 'on fire' says is burning: 'set five houses on fire', 'houses and cars on fire'."""
    on = trig.head if trig.dep_ == "pobj" else trig  # the phrase's root is 'on' or 'fire'
    if on.lower_ != "on":
        return []
    above = on.head
    if above.pos_ in ("NOUN", "PROPN"):
        return [above, *above.conjuncts]
    return [c for c in above.children if c.dep_ == "dobj"]


def _target_is_populated(trigger: Token, patient: list[Token], unit: Span) -> bool:
    """Attack on a populated place, not a military target. Only the clause around a noun
    under a preposition counts: 'rounded up residents ... in reprisal for an attack on a military post'."""
    toks = list(unit)
    if patient and has(patient, "military_targets") and trigger.dep_ == "pobj":
        toks = list(_clause(trigger).subtree)
    if patient:
        if has(patient, "populated_strong"):
            return True
        if has(patient, "military_targets"):
            # 'not into some military thing, ... to a peaceful population'
            return has(toks, "populated_strong")
        if has(patient, "populated_weak"):
            return True
    if has(toks, "populated_strong") or _harmed_civilians(toks):
        return True
    return has(toks, "populated_weak") and not has(toks, "military_targets")


def _harmed_civilians(toks: list[Token]) -> bool:
    """'Shelled Kherson overnight, wounding two women': an act that wounded civilians hit a
    populated place, whatever it names as its target (a death is a killing's own mention,
    which the gold sets type as the act: 'a drone hit a car, killing the driver')."""
    for verb in toks:
        if verb.pos_ == "VERB" and outcome_word(verb) == "wounded" and not negated(verb, []):
            hurt = [
                w for c in verb.children if c.dep_ in ("dobj", "nsubjpass") for w in noun_group(c)
            ]
            if victim_groups(hurt) & CIVILIAN_GROUPS:
                return True
    return False


def _clause(tok: Token) -> Token:
    """The nearest verb at or above a token (the token's own clause)."""
    cur = tok
    while cur.pos_ not in ("VERB", "AUX") and cur.head.i != cur.i:
        cur = cur.head
    return cur


def _specific(patient: list[Token]) -> bool:
    """'three men' names particular victims; 'everyone', 'hundreds of civilians' a category."""
    if has(patient, "universal") or has(patient, "vague_quantity"):
        return False
    return any(t.dep_ == "nummod" and t.like_num for t in patient)


def _in_passing(trig: Token, units: list[Span], k: int) -> bool:
    """Another act recalled, a kind of act, or the law on it: not this report's claim; so is
    what a relative clause tells of such an act ('the sarin attack of 2013, which killed
    hundreds')."""
    event = passing.described_event(trig)
    if event is not None and _in_passing(event, units, k):
        return True
    return (
        passing.such(trig)
        or passing.commemorated(trig)
        or passing.told_before(trig)
        or passing.held_already(trig)
        or passing.compared(trig)
        or passing.comparing(trig, is_headline(units, k))
        or passing.shielded(trig)
        or passing.in_name(trig)
        or passing.retold_in_passing(trig)
        or passing.earlier_year(trig)
        or passing.running_total(trig)
        or passing.period_tally(trig)
        or passing.share_reporting(trig)
        or passing.named_by_date(trig)
        or passing.routine(trig)
        or passing.habitual_history(trig)
        or passing.as_a_tactic(trig)
        or passing.not_the_first_time(trig)
        or passing.legal_definition(trig)
        or passing.generic_claim(trig, is_headline(units, k))
        or passing.predicted(trig, lexicon().terms["modal"])
    )


def _blaze(fire: Token) -> bool:
    """'A fire broke out at the depot', 'fire spread through the stalls', 'the blast was a
    fire at a fuel depot': fire the subject of its own spreading, or counted as one thing
    ('a fire'), or said to be caused, is a blaze, not gunfire (whatever set it, which the
    sentence names apart)."""
    if any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in fire.children):
        return True
    if fire.dep_ == "nsubjpass" and low(fire.head) == "cause":
        return True  # 'the fire was caused by a short circuit': gunfire is not caused
    return fire.dep_ == "nsubj" and low(fire.head) in ("break", "spread", "start", "rage")


# Everyday verbs that tell a detention only with a person taken somewhere or held
# somewhere: 'took four boys from their homes', 'forced nine women into pickups', 'held
# him for eleven days', 'kept them in two classrooms' (not 'took part', 'held a meeting').
# They are no lexicon triggers: there, 'forces' and 'took' would be act words to every rule.
_CUSTODY = {"take": "moved", "seize": "moved", "drive": "moved", "bring": "moved"}
_CUSTODY |= {"march": "moved", "force": "into", "hold": "held", "keep": "held"}
_MOVED = frozenset(("from", "to", "into", "towards", "toward"))
_HELD = frozenset(("in", "at", "for", "inside"))
# where people are taken for their good, or a phrase's noun ('brought to justice')
_CARE = frozenset(("hospital", "clinic", "morgue", "safety", "shelter", "ambulance", "justice"))
_CARE |= {"court", "trial", "account", "consideration", "care"}
_RELEASE = frozenset(("leave", "release", "free", "let", "drop"))
# where captives already held are taken day by day ('took us to the shower')
_ROUTINE = frozenset(("shower", "bath", "bathhouse", "toilet", "latrine", "canteen", "yard"))
_ROUTINE |= {"exercise", "work", "meal"}
# the ways one is 'held' that are no place: 'held in full accordance with the law'
_MANNER = frozenset(("accordance", "compliance", "line", "conformity", "contempt", "regard"))
_MANNER |= {"esteem", "check", "place", "abeyance", "reserve"}


def _custody(trig: Token) -> bool:
    """Where the verb's person is taken or held: away, from or to somewhere (not to a
    hospital, nor to justice), into a vehicle, or in a place or for a time."""
    kind = _CUSTODY[low(trig)]
    if any(c.dep_ == "conj" and low(c) in _RELEASE for c in trig.children):
        return False  # 'drove me to the edge of the city and left me there': set free
    if passing.by_routine(trig):
        return False  # 'twice a week they took us to the shower': on people already held
    objects = [c for c in trig.children if c.dep_ == "dobj"]
    if objects and all(_thing(c) for c in objects):
        return False  # 'in a rented room she keeps a folder': no person is held
    for c in trig.children:
        if c.dep_ in ("prt", "advmod") and c.lower_ == "away" and kind == "moved":
            return True
        if c.dep_ != "prep":
            continue
        where = [low(g) for g in c.children if g.dep_ == "pobj"]
        if kind == "held" and c.lower_ in _HELD:
            return not any(w in _MANNER for w in where)
        if (kind == "moved" and c.lower_ in _MOVED) or (kind == "into" and c.lower_ == "into"):
            return not any(w in _CARE or w in _ROUTINE for w in where)
    return False


def _thing(obj: Token) -> bool:
    """A common noun that names no person by itself or by what it counts ('a folder', not
    'dozens of men'); what follows it in apposition is not read ('a folder: photocopies of
    her son's papers')."""
    if obj.pos_ != "NOUN" or obj.ent_type_ in ("PERSON", "NORP"):
        return False
    counted = [g for c in obj.children if c.lower_ == "of" for g in c.children]
    words = [t for t in obj.subtree if t.i <= obj.i]
    own = is_person(obj) and not victim_groups(noun_group(obj))  # a person by its own word
    return not (own or victim_groups(words) or any(is_person(g) for g in counted))


def retold_custody(m: Mention) -> bool:
    """'She was held in a basement for forty days', 'they drove me to the edge of the
    city': a custody verb whose person is a pronoun goes on telling a detention the
    report has named already."""
    return (
        m.type == "abduction_detention"
        and m.trigger.pos_ == "VERB"
        and low(m.trigger) in _CUSTODY
        and (head := head_noun(m.patient)) is not None
        and head.pos_ == "PRON"
    )


def _never_happened(trig: Token) -> bool:
    """'residents said no strike took place', 'no massacre happened': the act as such is
    denied, and so is the sentence's telling of it."""
    verb = trig.head
    said = " ".join([low(verb), *(c.lower_ for c in verb.children if c.dep_ == "dobj")])
    occurrence = context.words()["occurrence"]
    return (
        trig.dep_ == "nsubj"
        and any(c.dep_ == "det" and c.lower_ == "no" for c in trig.children)
        and (low(verb) in occurrence or said in occurrence)
    )


def _accidental(unit: Span, agents: list[Token]) -> bool:
    """'A fire that destroyed the stalls was caused by an electrical fault', 'a controlled
    detonation of an unexploded shell': an accident's words, and nothing that did it but a
    blaze ('mortar rounds crashed into the station' is an attack)."""
    return has(list(unit), "blaze_causes") and all(low(a) in _BLAZES for a in agents)


_BLAZES = frozenset(("fire", "blaze", "flame", "explosion", "blast"))


_PEOPLE = PERSONAL | {"he", "she", "they", "i", "we"}  # a passive's subject is its patient
# what carries people where a custody verb's doer is one: a ride, not a detention
_CARRIERS = frozenset(("bus", "minibus", "lorry", "truck", "car", "van", "train", "boat"))
_CARRIERS |= frozenset(("ferry", "ambulance", "vehicle", "taxi", "coach", "convoy"))
# what air defence fires at: shooting one down is no attack on the place it flies over
_AIRBORNE = frozenset(("drone", "missile", "rocket", "shahed", "uav", "aircraft", "jet"))
_AIRBORNE |= frozenset(("helicopter", "plane", "projectile"))


def typed_mention(
    trig: Token,
    family: str,
    strength: str,
    agents: list[Token],
    patient: list[Token],
    units: list[Span],
    k: int,
) -> Mention | str | None:
    unit = units[k]
    if governed_by(trig, "deny", DENY_DEPS):
        return "denied"
    if denial(agents):
        return "denied"
    if family == "no_quarter" and strength == "negated":  # 'we are not taking anyone'
        if not negated(trig, []) or is_hypothetical(trig):
            return None
        return Mention(k, "no_quarter_order", trig, {"prisoners_of_war"}, agents, patient)
    if negated(trig, agents) or context.negated_by_noun(trig) or out_of_scope.negated_copula(trig):
        doer = any(a.dep_ == "nsubj" for a in agents) and trig.dep_ not in ("acl", "relcl")
        refutes = doer or _never_happened(trig)
        return "refuted" if refutes and family in ("kill", "attack") else None
    if (
        context.generic(trig)
        or context.any_such(trig)
        or out_of_scope.category(trig)
        or out_of_scope.hearsay(trig)
    ):
        return None
    if unasserted(trig):
        return None
    if context.background(trig) or _in_passing(trig, units, k) or passing.tally(trig):
        return "recalled"
    if (
        out_of_scope.war_total(trig, agents)
        or out_of_scope.justification(trig)
        or out_of_scope.own_military_target(trig)
        or out_of_scope.promise(trig)
        or out_of_scope.harmless_landing(trig)
        or out_of_scope.uncharged(trig)
        or out_of_scope.charged_kind(trig)
        or out_of_scope.natural_death(trig)
        or out_of_scope.fiction(trig)
        or out_of_scope.ordinary_crime(trig)
        or out_of_scope.exchange_of_fire(trig)
        or out_of_scope.died_in_combat(trig)
        or out_of_scope.disproved(trig)
        or out_of_scope.answered_false(trig)
        or out_of_scope.care_transfer(trig)
    ):
        return None
    hypothetical = (
        is_hypothetical(trig)
        or context.hypothetical_noun(trig, lexicon().terms["modal"])
        or out_of_scope.imagined(trig)
    )
    threat = governed_by(trig, "threat", {"xcomp", "pobj", "prep", "pcomp", "acl"})
    head = head_noun(patient)
    mk = lambda t, v=None, **kw: Mention(k, t, trig, v or set(), agents, patient, **kw)  # noqa: E731

    if family == "no_quarter":  # 'take no prisoners': the negation is the order itself
        return None if hypothetical else mk("no_quarter_order", {"civilians"})
    if family == "coercion":
        if strength == "strong" and (threat or has(list(unit), "threat") or not hypothetical):
            return mk("coercion_of_troops", {"own_soldiers"})
        return None
    if family == "other":  # pillage; burning homes (not 'burned alive': a killing)
        if head is None:
            patient = _on_fire(trig)
            head = head_noun(patient)
        if hypothetical or head is None or is_person(head):
            return None
        populated = has(patient, "populated_strong") or has(patient, "populated_weak")
        return mk("other", {"civilians"}) if strength == "strong" or populated else None
    if (
        trig.pos_ == "NOUN"
        and low(trig) == "fire"
        and (has(list(unit), "blaze_causes") or _blaze(trig))
    ):
        return None  # 'a house fire caused by a faulty heater', 'a fire broke out at the depot'
    thing = head is not None and head.pos_ in ("NOUN", "PROPN") and not is_person(head)
    if trig.pos_ == "VERB" and low(trig) in ("fire", "shoot"):
        if head is not None and low(head) in _AIRBORNE:
            return None  # 'air defence units were firing at drones over the city'
        shooter = any(is_person(a) for a in agents)  # 'then they began firing' retells one
        if not patient and not shooter:
            return None  # 'anti-aircraft guns firing for much of the night': at no one
    if family == "attack" or (family == "kill" and thing):
        if family == "kill" and trig.lower_ not in ("fire", "shoot", "destroy", "open"):
            return None
        if hypothetical or _accidental(unit, agents):
            return None
        if head is not None and has(patient, "protected_persons") and low(trig) == "attack":
            return mk("other", {"civilians"})
        if strength == "strong" or _target_is_populated(trig, patient, unit):
            if family == "attack" and head is not None and is_person(head):
                pass  # 'fire on civilians' is a killing, handled below
            else:
                return mk("attack_populated_area", {"civilians"})
        if family == "attack":
            return None
    if family == "kill":
        words = list(unit)
        if (not agents or strength == "weak") and (
            has(words, "accident") or has(words, "blaze_causes")
        ):
            return None  # 'killed when a bus collided with a lorry', 'died in a house fire'
        if strength == "weak" and trig.lower_ not in ("shot",):
            die = low(trig) in ("die", "death", "dead")
            cause = [t for c in trig.children if c.dep_ == "prep" for t in c.subtree]
            if die and has(cause, "non_violent_death"):
                return None
            if low(trig) in ("destroy", "eliminate") and not (head is not None and is_person(head)):
                return None
            ctx = patient + [c for c in trig.children if c.dep_ in ("amod", "compound")]
            if die:
                ctx += [t for c in trig.children if c.dep_ == "nsubj" for t in c.subtree]
            if not victim_groups(ctx) or has(ctx, "combatants"):
                return None
        if low(trig) in ("die", "dead") and not patient:  # who died is its subject
            patient = [t for c in trig.children if c.dep_ == "nsubj" for t in noun_group(c)]
        ktype, victims, vague, ambiguous = kill_type(trig, agents, patient, unit)
        if ktype is None:
            return None
        if threat or hypothetical:
            own = victims & {"own_soldiers", "deserters"} or first_person(patient)
            if (own or ambiguous) and coercion_context(units, k):
                return mk("coercion_of_troops", {"own_soldiers"} | (victims - {"civilians"}))
            return None
        order = governed_by(trig, "order", ORDER_DEPS)
        told = order is not None and low(order) == "tell" and trig.dep_ != "xcomp"
        if order is not None and not told and not _specific(patient):
            return mk("no_quarter_order", victims)
        return mk(ktype, victims, vague=vague, ambiguous=ambiguous)
    if hypothetical:
        return None
    if family in ("torture", "sexual", "deportation"):
        pronoun = head is not None and head.pos_ == "PRON" and head.lower_ in _PEOPLE
        if strength == "weak" and not victim_groups(patient) and not pronoun:
            return None  # 'beat the record' is no torture; 'beat him', 'she was beaten' is
        t = {
            "torture": "torture_mistreatment",
            "sexual": "sexual_violence",
            "deportation": "deportation_transfer",
        }
        return mk(t[family], victim_groups(patient) or {"civilians"})
    if family == "abduction":
        victims = victim_groups(patient)
        if strength == "custody":  # 'took my husband from the yard', 'held them in a school'
            if head is None or not is_person(head):
                return None
            if any(low(a) in _CARRIERS for a in agents):
                return None  # 'a lorry brought us to Butembo', 'a bus took the evacuees'
            if trig.dep_ in ("acl", "xcomp"):  # 'detainees held in the same building', 'told
                return None  # me to take the children into the field': no act of its own
            if has(patient, "combatants"):
                return None
            return mk("abduction_detention", (victims or {"civilians"}) | {"detainees"})
        if strength == "weak":
            transitive = trig.pos_ == "NOUN" or any(
                c.dep_ in ("dobj", "nsubjpass") for c in trig.children
            )
            if has(patient, "combatants") or not patient or not transitive:
                return None
            if not victims:
                return mk("abduction_detention", {"detainees"}, support=True)
        return mk("abduction_detention", (victims or {"civilians"}) | {"detainees"})
    return None
