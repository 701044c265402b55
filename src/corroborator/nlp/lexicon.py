"""Readers for the lexicons shipped in corroborator/nlp/lexicons.

Lexicons are data, not code. One reader per shape (word list, tab-separated table, JSON)
keeps the comment and blank-line rules the same in every stage and linker.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@cache
def text(name: str) -> str:
    return resources.files("corroborator.nlp.lexicons").joinpath(name).read_text("utf-8")


def _lines(name: str) -> list[str]:
    return [ln for ln in text(name).splitlines() if ln.strip() and not ln.startswith("#")]


@cache
def words(name: str, lower: bool = False) -> frozenset[str]:
    """One entry per line; '#' starts a comment line."""
    return frozenset(ln.strip().lower() if lower else ln.strip() for ln in _lines(name))


@cache
def rows(name: str) -> tuple[tuple[str, ...], ...]:
    """Tab-separated rows; '#' starts a comment line."""
    return tuple(tuple(ln.split("\t")) for ln in _lines(name))


@cache
def load_json(name: str) -> Any:
    return json.loads(text(name))


@cache
def calendar_words() -> frozenset[str]:
    """Month and weekday names and abbreviations, lower case (the dates lexicons' keys)."""
    return frozenset(
        r[0] for name in ("dates_months.tsv", "dates_weekdays.tsv") for r in rows(name)
    )


@dataclass(frozen=True)
class PersonNoun:
    gender: str  # m, f or -
    role: str  # what a speaker so named is: official, journalist, witness, victim, other...
    group: str  # "military" (a combatant), "either" (combatant or not), "body" or "-"


@cache
def persons() -> dict[str, PersonNoun]:
    """Nouns that name a person, by lemma: one list for the quotes stage's speakers, the
    numbers stage's counted people and the incident stage's victims."""
    return {r[0]: PersonNoun(r[1], r[2], r[3]) for r in rows("persons.txt")}


@cache
def person_lemmas() -> frozenset[str]:
    """Person nouns that name the people themselves: not a proxy ('the service said') nor
    a leader's title, which is also a body part or a thing ('the head', 'the chief')."""
    return frozenset(w for w, p in persons().items() if p.role not in ("proxy", "leader"))
