"""The Mention record: one typed report of an act in one sentence unit.

Reading a unit, resolving types across units and merging into incidents all pass
mentions along; the record, the kill types and the type-to-family map live apart so
each of those modules can import them without importing one another.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Token

KILL_TYPES = ("killing_civilians", "killing_captives", "killing_own_forces")


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
    toll: bool = False  # 'the toll rose to five': a revised toll, whose trigger names no act


_FAMILY_OF = {
    "no_quarter_order": "kill",
    "torture_mistreatment": "torture",
    "attack_populated_area": "attack",
    "sexual_violence": "sexual",
    "abduction_detention": "abduction",
    "deportation_transfer": "deportation",
    "coercion_of_troops": "coercion",
}


def family_of(t: str) -> str:
    """The trigger family a taxonomy type comes from (a denial names families)."""
    return "kill" if t in KILL_TYPES else _FAMILY_OF.get(t, t)


# An attack's toll is told in kill words ("the casualty figures") and a report of killings
# may be titled "Attack on X": the two families are kin.
_KIN = {"kill": "attack", "attack": "kill"}


def kin_families(family: str) -> frozenset[str]:
    """The family and its kin: what a disclaimer or a title naming one may be about."""
    kin = _KIN.get(family)
    return frozenset((family, kin) if kin else (family,))
