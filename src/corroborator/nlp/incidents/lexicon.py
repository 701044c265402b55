"""Incident lexicons as lemma-tuple lookups, and the token tests built on them.

The trigger and role lexicons are JSON data; every other incident module asks questions
of them ('is this word a combatant?', 'does an act start here?'). Loading them once and
answering by lemma or surface form lives here so those modules share one cached view.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from spacy.tokens import Doc, Token

from corroborator.nlp import lexicon as base_lexicon
from corroborator.nlp.columns import column, lows
from corroborator.nlp.lexicon import load_json as load_lexicon

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
def lexicon() -> _Lex:
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
    terms["direct_fire"] = _grams(trig["attack"]["direct"])
    terms["strong_abduction"] = _grams([w for w in trig["abduction"]["strong"] if " " not in w])
    for k in ("threat", "punishment", "force", "force_to"):
        terms[k] = _grams(trig["coercion"][k])
    victims = {k: _grams(v) for k, v in roles["victims"].items()}
    return _Lex(triggers, terms, victims)


def low(tok: Token) -> str:
    return lows(tok.doc)[tok.i]


def has(tokens: list[Token], name: str) -> bool:
    """Whether the tokens contain a term of the named role list (lemma or surface form)."""
    grams = lexicon().terms[name]
    return bool(matches(tokens, grams))


@lru_cache(maxsize=64)
def _prefixes(grams: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    return frozenset(g[:n] for g in grams for n in range(1, len(g) + 1))


def longest(toks: list[Token], i: int, grams: frozenset[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Longest lexicon n-grams starting at toks[i]; each word may match by lemma or surface
    form ('enforced disappearances' -> ('enforced', 'disappearance'); 'bodies' and 'body')."""
    prefixes = _prefixes(grams)
    frontier: list[tuple[str, ...]] = [()]
    best: list[tuple[str, ...]] = []
    if not toks:
        return best
    lemmas, lowers = lows(toks[0].doc), column(toks[0].doc, "lower_")
    for n in range(_MAX_NGRAM):
        if i + n >= len(toks):
            break
        t = toks[i + n].i
        opts = {lemmas[t], lowers[t]}
        frontier = [p + (o,) for p in frontier for o in opts if p + (o,) in prefixes]
        if not frontier:
            break
        best = [f for f in frontier if f in grams] or best
    return best


@lru_cache(maxsize=64)
def _firsts(grams: frozenset[tuple[str, ...]]) -> frozenset[str]:
    return frozenset(g[0] for g in grams if g)


def starters(doc: Doc, start: int, end: int, grams: frozenset[tuple[str, ...]]) -> set[int]:
    """Indices in [start, end) of the tokens that can begin one of `grams` (by lemma or
    surface form): `longest` finds nothing anywhere else."""
    firsts = _firsts(grams)
    lemmas, lowers = lows(doc), column(doc, "lower_")
    return {i for i in range(start, end) if lemmas[i] in firsts or lowers[i] in firsts}


def matches(tokens: list[Token], grams: frozenset[tuple[str, ...]]) -> list[Token]:
    """Tokens that start a lexicon n-gram (most fail at their first word: tested first,
    before any sorting; most token groups asked about start none)."""
    toks = list(tokens)
    if not toks:
        return []
    firsts = _firsts(grams)
    lemmas, lowers = lows(toks[0].doc), column(toks[0].doc, "lower_")
    first = {t.i for t in toks if lowers[t.i] in firsts or lemmas[t.i] in firsts}
    if not first:
        return []
    toks.sort(key=lambda t: t.i)
    return [t for i, t in enumerate(toks) if t.i in first and longest(toks, i, grams)]


def victim_groups(tokens: list[Token]) -> set[str]:
    """Victim groups named by these tokens ('injured prisoners of war' -> pow, wounded).
    Asked about most noun groups, which name none: one test of their words against every
    group's first words comes before the per-group matching."""
    firsts = _victim_firsts()
    if not any(t.lower_ in firsts or low(t) in firsts for t in tokens):
        return set()
    found = {g for g, grams in lexicon().victims.items() if matches(tokens, grams)}
    civil = _civilian_persons()
    if any(t.pos_ == "NOUN" and (low(t) in civil or _modified(t) in civil) for t in tokens):
        found.add("civilians")  # 'four paramedics', 'two imams': no combatant is named so
    return found


def _modified(tok: Token) -> str:
    """'security guard': a person noun with the word before it (two-word entries of the
    person list override their head's hint: a guard may be a combatant, a security guard
    is not)."""
    return f"{tok.doc[tok.i - 1].lower_} {low(tok)}" if tok.i else ""


@lru_cache(maxsize=1)
def _victim_firsts() -> frozenset[str]:
    groups = frozenset().union(*(_firsts(grams) for grams in lexicon().victims.values()))
    civil = _civilian_persons()
    return groups | civil | {w.rpartition(" ")[2] for w in civil}


@lru_cache(maxsize=1)
def _civilian_persons() -> frozenset[str]:
    """Person nouns that name no combatant."""
    combatants = {g[0] for g in lexicon().terms["combatants"]}
    people = base_lexicon.persons()
    return frozenset(
        w for w in base_lexicon.person_lemmas() if people[w].group == "-" and w not in combatants
    )


@lru_cache(maxsize=1)
def trigger_keys() -> frozenset[tuple[str, ...]]:
    return frozenset(lexicon().triggers)


def is_act(tok: Token) -> bool:
    """A word that names an act of some family ('the shelling', 'killing civilians')."""
    return (low(tok),) in trigger_keys() or (tok.lower_,) in trigger_keys()


def act_families(tok: Token) -> set[str]:
    """Trigger families a single word names ('deaths' -> kill, 'shelling' -> attack)."""
    table = lexicon().triggers
    return {f for key in ((low(tok),), (tok.lower_,)) for f, _ in table.get(key, [])}


@lru_cache(maxsize=1)
def attack_nouns() -> frozenset[tuple[str, ...]]:
    """Single-word attack triggers, and the heads of multi-word ones ('air strike')."""
    table = lexicon().triggers
    return frozenset(g[-1:] for g, fams in table.items() if any(f == "attack" for f, _ in fams))
