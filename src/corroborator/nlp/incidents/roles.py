"""Who did what to whom: agents, patients and victim types around a trigger.

The dependency parse names the doer and the done-to of a trigger verb or noun; victim
words then type a killing as of civilians, captives or one's own side. Kept apart from
mood and typing so the parse reading is one job, testable on its own.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from corroborator.nlp.incidents.lexicon import has, lexicon, low, matches, victim_groups
from corroborator.nlp.pipeline import text_of

_HOLDING = ("acl", "amod", "prep")


def is_passive(verb: Token) -> bool:
    """Passive, including the elided 'and the lieutenant killed'."""
    if any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children):
        return True
    has_obj = any(c.dep_ in ("dobj", "ccomp", "xcomp") for c in verb.children)
    if verb.tag_ == "VBD" and (low(verb),) in lexicon().terms["transitive_only"]:
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


def noun_group(tok: Token) -> list[Token]:
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
# verbs whose subject is what befalls someone, not who does it: 'an elderly man died of
# his injuries' names a victim, and an admission that people died confesses no act
UNDERGONE = frozenset({"die", "perish", "drown", "starve", "suffocate"})


def _pobjs(prep: Token) -> list[Token]:
    """Objects of a preposition, minus times ('on February 24' is not a victim)."""
    return [
        t
        for g in prep.children
        if g.dep_ == "pobj" and g.ent_type_ not in ("DATE", "TIME")
        for t in noun_group(g)
    ]


def _counted_range(prep: Token) -> bool:
    """'killed between 300 and 400 civilians': the parser makes the range a preposition
    and the victims its object (not 'between 1 and 3 March', a date)."""
    return prep.lower_ == "between" and any(
        g.dep_ == "pobj" and g.ent_type_ != "DATE" and any(n.dep_ == "nummod" for n in g.children)
        for g in prep.children
    )


def roles(words: Span) -> tuple[list[Token], list[Token]]:
    """(agent tokens, patient tokens) of a trigger verb or noun ('open fire' as one)."""
    trigger = words.root
    inside = {t.i for t in words}
    kids = [c for t in words for c in t.children if c.i not in inside]
    agents: list[Token] = []
    patients: list[Token] = []
    verbal = trigger.pos_ in ("VERB", "AUX") or trigger.tag_.startswith("VB")
    if verbal:
        passive = is_passive(trigger)
        undergone = trigger.lemma_.lower() in UNDERGONE
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
                patients += noun_group(c)
            elif c.dep_ == "nsubj":
                group = noun_group(c)
                objectless = not any(k.dep_ in ("dobj", "obj") for k in kids)
                (
                    patients if undergone or (objectless and _headline_victims(group)) else agents
                ).extend(group)
            elif c.dep_ == "agent":
                agents += [t for g in c.children for t in noun_group(g)]
            elif c.dep_ == "prep" and (c.lower_ in _PATIENT_PREPS or _counted_range(c)):
                patients += _pobjs(c)
            elif c.dep_ == "dative":
                patients += noun_group(c)
        no_auxpass = not any(c.dep_ == "auxpass" for c in trigger.children)
        if trigger.dep_ in ("acl", "relcl") and not patients and passive and no_auxpass:
            patients += noun_group(trigger.head)
        if trigger.dep_ == "relcl" and not agents and not passive:
            if undergone and trigger.head not in patients:
                patients.append(trigger.head)
            elif not undergone:
                agents.append(trigger.head)
        if trigger.dep_ in ("xcomp", "conj") and not (patients if passive else agents):
            # 'women described being raped'; 'she was held ... and beaten' shares the subject
            deps = ("nsubj", "nsubjpass") if passive else ("nsubj",)
            subj = [t for c in trigger.head.children if c.dep_ in deps for t in noun_group(c)]
            (patients if passive else agents).extend(subj)

    else:
        for c in kids:
            if c.dep_ == "prep" and c.lower_ in ("of", "on", "against", "at", "upon"):
                patients += _pobjs(c)
            elif c.dep_ == "prep" and c.lower_ == "by":
                agents += [t for g in c.children for t in noun_group(g)]
            elif c.dep_ in ("amod", "compound", "nmod") and c.pos_ in ("NOUN", "ADJ", "PROPN"):
                # 'civilian deaths' names victims, 'invader fire' the doers
                (agents if has([c], "combatants") else patients).append(c)
            elif c.dep_ == "poss":
                agents += noun_group(c)
        head = trigger.head
        victim_noun = (low(trigger),) in lexicon().terms["victim_nouns"]
        if (
            trigger.dep_ in ("nsubj", "dobj", "nsubjpass", "pobj")
            and head.i != trigger.i
            and not victim_noun
        ):
            verb = head.head if trigger.dep_ == "pobj" else head
            for c in verb.children:
                if c.dep_ in ("dobj", "nsubjpass") and c.i != trigger.i:
                    patients += noun_group(c)
                elif c.dep_ == "prep" and c.lower_ in _PATIENT_PREPS:
                    patients += _pobjs(c)
    return agents, patients


_PARTITIVE = {"dozen", "hundred", "thousand", "score", "other", "many", "several", "few", "some"}


_PLACES = ("populated_strong", "populated_weak", "military_targets")


def _headline_victims(group: list[Token]) -> bool:
    """'security guard killed', the passive of a headline: civilians as the subject of an
    act with no object are its victims (civilians who kill name whom)."""
    return "civilians" in victim_groups(group) and not has(group, "combatants")


def is_person(tok: Token) -> bool:
    lex = lexicon()
    if low(tok) in _PARTITIVE:  # 'dozens were shot', 'bodies of a dozen others'
        of = [g for c in tok.children if c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
        return not of or any(is_person(g) for g in of)
    one = ((low(tok),), (tok.lower_,))
    if any(has([tok], k) for k in _PLACES) and not victim_groups([tok]):
        return False  # 'the Khalil family house', 'a children's hospital': a building
    return (
        tok.pos_ == "PRON"
        or bool(victim_groups(noun_group(tok)))
        or any(g in lex.terms["combatants"] for g in one)
        or any(g in grams for grams in lex.victims.values() for g in one)
        or tok.ent_type_ in ("PERSON", "NORP")
    )


def head_noun(patient: list[Token]) -> Token | None:
    return min(patient, key=lambda t: (len(list(t.ancestors)), t.i)) if patient else None


CIVILIAN_SUBGROUPS = frozenset(("children", "women", "elderly"))  # civilians named by who
CIVILIAN_GROUPS = CIVILIAN_SUBGROUPS | {"civilians"}


def kill_type(
    trigger: Token, agents: list[Token], patient: list[Token], unit: Span
) -> tuple[str | None, set[str], bool, bool]:
    """(type, victims, vague, ambiguous) of a killing; type None = not a violation.

    Captives outrank one's own side, which outranks civilians: 'prisoners of war and
    mercenaries who tried to desert' were captives when killed.
    """
    lex = lexicon()
    reciprocal = " ".join(t.lower_ for t in patient) in ("each other", "one another")
    if reciprocal or any((t.lower_,) in lex.terms["reflexive"] for t in patient):
        return None, set(), False, False
    # the patient with its relative clauses: 'people who try to run home' are deserters
    full = sorted({t for p in patient for t in p.subtree}, key=lambda t: t.i) if patient else []
    agent_own = any(t.lower_ in ("fellow", "own") for t in agents) or (
        any(t.lower_ in ("my", "our") for t in agents) and has(agents, "combatants")
    )
    unit_own = bool(matches(list(unit), lex.victims["deserters"])) or any(
        t.lower_ in ("fellow", "own") for t in unit
    )
    pronoun_only = bool(patient) and all(
        t.pos_ == "PRON" and t.lower_ not in ("ours", "theirs", "yours") for t in patient
    )
    words = [t for t in patient if t.pos_ != "PRON" or t.lower_ in ("everyone", "anyone", "ours")]
    victims = victim_groups(words)
    victims |= victim_groups(full) & {"deserters", "own_soldiers", "prisoners_of_war"}
    # held by the victims' own words, not a relative clause's ('two men held in custody',
    # 'one of the detained men'; not 'a woman who had visited her detained son')
    held = [t for p in patient for c in p.children if c.dep_ in _HOLDING for t in c.subtree]
    victims |= victim_groups(held) & {"detainees"}
    if agent_own:
        victims.add("own_soldiers")
    if victims & {"prisoners_of_war", "detainees"} or (
        "wounded" in victims and has(words, "combatants")
    ):
        return "killing_captives", victims, False, False
    if victims & {"own_soldiers", "deserters"}:
        return "killing_own_forces", victims, False, False
    # 'the three had surrendered and were executed', 'walking out with their hands raised
    # before troops open fire on them': the sentence makes soldiers or 'them' captives
    unnamed = not victims or (has(words, "combatants") and victims <= {"civilians"})
    cues = matches(_with_previous(unit), lex.terms["captive_cues"]) if unnamed else []
    if any(_cue_on_victims(c, agents, full, pronoun_only) for c in cues):
        vague = pronoun_only or not patient  # 'they shot him': who he was is told elsewhere
        return "killing_captives", victims - {"civilians"} | {"prisoners_of_war"}, vague, False
    if pronoun_only or not patient:
        if unit_own:  # vague: a typed killing in the same sentence overrides
            return "killing_own_forces", {"own_soldiers"}, True, False
        # 'I shot her': who she was may be said elsewhere in the sentence
        agent_ids = {t.i for t in agents}
        rest = [t for t in unit if t.i not in agent_ids and t.i != trigger.i]
        found = victim_groups(rest) & CIVILIAN_SUBGROUPS
        if found:
            return "killing_civilians", found | {"civilians"}, False, False
        return "killing_civilians", {"civilians"}, True, False
    combat = has(words, "combatants")
    if combat and any(t.lower_ in ("enemy", "enemies") for t in words):
        return None, set(), False, False  # 'killed several enemy fighters': combat
    if combat and not (victims - {"civilians"}) and not has(words, "populated_strong"):
        if unit_own:
            return "killing_own_forces", victims | {"own_soldiers"}, False, False
        return "killing_civilians", victims, False, True
    if victims:
        return "killing_civilians", victims | {"civilians"}, False, False
    return "killing_civilians", {"civilians"}, True, False


def _cue_on_victims(cue: Token, agents: list[Token], patient: list[Token], pronoun: bool) -> bool:
    """The surrender or binding is told of the victims ('the three had surrendered and
    were executed'; 'He had his hands up. They shot him'), not of a speaker ('a captured
    soldier described how his comrade was killed') or another group ('1,300 troops killed
    and 500 Russians surrendered')."""
    owner = _owner(cue)
    if owner is None or owner in patient:
        return owner is not None or pronoun
    return pronoun and owner not in agents


def _owner(cue: Token) -> Token | None:
    """Whom a cue word is told of: its verb's subject, or the noun it hangs from."""
    cur = cue
    for _ in range(6):
        if cur.pos_ in ("VERB", "AUX"):
            subj = [c for c in cur.children if c.dep_ in ("nsubj", "nsubjpass")]
            if subj:
                return subj[0]
            if cur.dep_ not in ("acl", "relcl", "amod", "conj"):  # 'came out and surrendered'
                return None
        elif cur.pos_ in ("NOUN", "PROPN", "PRON") and cur.i != cue.i:
            return cur
        if cur.head.i == cur.i:
            return None
        cur = cur.head
    return None


def _with_previous(unit: Span) -> list[Token]:
    """The unit and the sentence before it in its paragraph ('He had his hands up. They
    shot him anyway.')."""
    doc = unit.doc
    if unit.start == 0:
        return list(unit)
    prev = doc[unit.start - 1].sent
    if "\n\n" in text_of(doc)[prev.end_char : unit.start_char] or "\n\n" in prev.text.strip():
        return list(unit)
    return [*prev, *unit]


def first_person(tokens: list[Token]) -> bool:
    return any(t.lower_ in ("i", "we") for t in tokens)
