"""The records story linking passes between its steps: a stored document, what is read
in its words, its vector, and what two reports share; apart, so that every step can use
them."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from corroborator.linking.stories.spelling import SOUND_LETTERS, sound
from corroborator.linking.stories.terms import NAME

WHAT_WORDS = 5  # "telling" event words per report


@dataclass(frozen=True)
class StoryDoc:
    """What story linking needs from one stored document."""

    doc_id: str
    text: str
    published: str | None = None
    entities: tuple[str, ...] = ()  # canonical person / group names
    places: tuple[str, ...] = ()  # canonical place names
    duplicate_of: str | None = None
    quotes: tuple[str, ...] = ()  # quoted words
    figures: tuple[int, ...] = ()  # counts of killed, wounded, detained ...
    people: tuple[str, ...] = ()  # the `entities` that are persons
    language: str | None = None  # detected language code ("en", "uk", "ru")
    main_places: tuple[str, ...] = ()  # the `places` the report is about (else all of them)
    main_actors: tuple[str, ...] = ()  # people and groups it names at least twice
    event_place: str | None = None  # the town of the incident it tells most, when resolved
    event_day: str | None = None  # ... and its day, when the text dates it
    event_killed: int | None = None  # ... and the number its toll of the dead starts at
    event_population: int | None = None  # ... and the number of people of its town
    act_days: tuple[str, ...] = ()  # the days it dates any incident to
    villages: tuple[str, ...] = ()  # its `places` of under FOLLOW_UP_POPULATION people it
    # names in its lead or more than once


@dataclass(frozen=True)
class Components:
    """What two reports share, each 0..1."""

    text: float  # cosine of all the words
    event: float  # ... of the words that say what happened
    names: float  # cosine of the names in the text
    concepts: float  # ... of the concept words (across languages)
    entities: float  # resolved people, groups and places
    quotes: float
    figures: float
    scripts: float  # names shared across Arabic and Latin letters (0 unless one is Arabic)
    place_conflict: bool
    actor_conflict: bool
    what_conflict: bool
    protagonist_conflict: bool
    site_conflict: bool


@dataclass(frozen=True)
class Reading:
    """What story linking reads in a report's own words (`read`): read once per pass, on
    every core for a batch."""

    counts: dict[str, float]  # `read_terms`
    said: dict[str, float]
    skeletons: frozenset[str]  # `terms.skeletons`
    sites: tuple[frozenset[str], frozenset[str]]  # `reading._sites`
    ages: frozenset[int]  # `ages.ages`


@dataclass
class Vec:
    doc_id: str
    terms: dict[str, float]
    norm: float
    keys: frozenset[str]
    day: int | None
    blocks: list[str] = field(default_factory=list)
    places: frozenset[str] = frozenset()  # the subset of `keys` naming towns
    quotes: frozenset[str] = frozenset()
    figures: frozenset[str] = frozenset()  # "n:" tolls and "a:" ages (`score.figure_keys`)
    name_norm: float = 1.0  # `norm` is that of the event terms
    actors: frozenset[str] = frozenset()  # the subset of `keys` naming people and groups
    protagonist: str = ""  # name term of the actor the text names most often
    language: str | None = None
    event_place: str = ""  # folded name of the town of its main incident
    event_day: int | None = None  # its day of the year
    event_killed: int | None = None  # its toll of the dead (the range's low end)
    event_small: bool = False  # its town is under FOLLOW_UP_POPULATION
    sites: frozenset[str] = frozenset()  # kinds of place hit and weapons its headline names
    lead_sites: frozenset[str] = frozenset()  # ... and its lead
    skeletons: frozenset[str] = frozenset()  # of the names it writes, in any script
    concepts: dict[str, float] = field(default_factory=dict)  # `read_terms`' second, weighted
    concept_norm: float = 1.0
    act_dates: frozenset[int] = frozenset()  # `act_days` as proleptic ordinals (year kept)
    villages: frozenset[str] = frozenset()  # keys of its `villages`

    @cached_property
    def name_words(self) -> list[str]:
        """One-word name terms, unprefixed (for spelling-tolerant lookups)."""
        return [t[1:] for t in self.terms if t[0] == NAME and " " not in t]

    @cached_property
    def name_sounds(self) -> list[str]:
        """The `sound` of each name word long enough to be compared by sound."""
        return [sound(w) for w in self.name_words if len(w) >= SOUND_LETTERS]

    @cached_property
    def spelled(self) -> dict[str, bool]:
        """Words already looked up by `_spelled`: a town or a protagonist is tested against
        the same report once per candidate pair of it, about twice each."""
        return {}

    @cached_property
    def telling_words(self) -> list[str]:
        """The heaviest one-word event terms: what happened, in this report's words."""
        words = [(w, t) for t, w in self.terms.items() if t[0] != NAME and " " not in t]
        return [t for _, t in sorted(words, reverse=True)[:WHAT_WORDS]]
