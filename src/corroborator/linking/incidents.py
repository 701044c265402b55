"""Link per-document incidents that describe the same real-world event.

Two reports are merged only when every field they both know is compatible (type, place by
containment, date by interval overlap, perpetrators, victims, casualty ranges) and enough
positive evidence (same settlement, same day, named perpetrator, specific figures, similar
mention sentences) outweighs the chance of a look-alike event. Under-merging is preferred:
pairs just below the threshold become reviewer suggestions instead. Incidents of one
document are never merged (the extractor already merged them), and candidates come only
from blocks of the same type with compatible country and year, never all pairs.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from rapidfuzz import fuzz
from spacy.lang.en.stop_words import STOP_WORDS
from unidecode import unidecode

from corroborator.geo import distance_km
from corroborator.isodates import first_day as _iso
from corroborator.models import DateRange, DocIncident, Location, Range
from corroborator.nlp import lexicon

MERGE_THRESHOLD = 0.5
SUGGEST_THRESHOLD = 0.3
ANCHOR_TEXT = 0.15  # below this mention overlap, coarse fields alone never merge
NEAR_KM = 25.0  # two named settlements this close may be one event's place
SAME_STORY = 0.2  # both documents' main event is one story (linking/stories/)


def _lexicon(name: str) -> frozenset[str]:
    return lexicon.words(name, lower=True)


# Words that name the kind of force rather than which one ("Wagner Group" == "Wagner"),
# on top of the shared organisation designators. (Candidate for a lexicon file.)
_FORCE_WORDS = "the armed forces force army troops soldiers unit units brigade battalion regiment"
_FORCE_WORDS += " division militia fighters service services guard government ministry"
# Words that only say a place is an administrative area ("Donetsk Oblast" == "Donetsk").
_ADMIN_WORDS = "krai kray governorate state county republic people's peoples of the"


@cache
def group_words() -> frozenset[str]:
    return _lexicon("linking_org_designators.txt") | frozenset(_FORCE_WORDS.split())


@cache
def admin_words() -> frozenset[str]:
    return _lexicon("linking_place_designators.txt") | frozenset(_ADMIN_WORDS.split())


# Victim groups by the kind of person they are: reports of one event share a kind.
VICTIM_KINDS: dict[str, frozenset[str]] = {
    "civilians": frozenset({"civilian"}),
    "children": frozenset({"civilian"}),
    "women": frozenset({"civilian"}),
    "elderly": frozenset({"civilian"}),
    "detainees": frozenset({"civilian", "captive"}),
    "prisoners_of_war": frozenset({"captive"}),
    "wounded": frozenset({"captive", "own"}),
    "own_soldiers": frozenset({"own"}),
    "deserters": frozenset({"own"}),
}


@dataclass
class IncidentItem:
    """One document's incident plus the document facts linking and corroboration need.

    `seq` is the document's ingestion order (ledger position): the earliest member names
    the cluster, so ids survive re-runs and later documents never rename a cluster.
    """

    document_id: str
    index: int
    incident: DocIncident
    duplicate_of: str | None = None
    origins: tuple[str, ...] = ()
    outlet: str | None = None
    published: str | None = None
    source_file: str = ""
    seq: int | None = None
    media: tuple[str, ...] = ()  # pictures and videos it carries (`ingest.media` origins)
    source_outlet: str | None = None  # the channel a forward repeats
    story: str | None = None  # the document's `story_id`

    @property
    def key(self) -> str:
        return f"{self.document_id}#{self.index}"

    @property
    def root(self) -> str:
        """The document this one copies, else itself: copies count as their original."""
        return self.duplicate_of or self.document_id


@dataclass(frozen=True)
class Suggestion:
    """A "possible same incident" pair for a reviewer, scored just below the merge bar."""

    a: str
    b: str
    score: float
    reasons: tuple[str, ...] = ()  # the evidence `compare` found, shown to the reviewer


@dataclass
class PairScore:
    compatible: bool
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)
    anchored: bool = False  # some specific evidence beyond coarse fields (see `compare`)


# ---------------------------------------------------------------- field comparisons


@lru_cache(maxsize=65536)
def _norm(text: str) -> str:
    text = unidecode(text).lower().replace("’", "'")
    text = re.sub(r"'s\b", "", text)
    return re.sub(r"[^a-z0-9 ]+", " ", text).strip()


@lru_cache(maxsize=65536)
def _core(name: str, generic: frozenset[str]) -> list[str]:
    return [t for t in _norm(name).split() if t not in generic]


def _tok_eq(a: str, b: str) -> bool:
    return a == b or (min(len(a), len(b)) >= 4 and fuzz.ratio(a, b) >= 85)


@lru_cache(maxsize=65536)
def is_person_name(name: str) -> bool:
    """Two or more words and no group word: a named person, strong linking evidence."""
    words = _norm(name).split()
    return len(words) >= 2 and not group_words().intersection(words)


@lru_cache(maxsize=65536)
def same_actor(a: str, b: str) -> bool:
    """Spelling-tolerant match: Evgeniy/Yevgeny Prigozhin, Prigozhin, Wagner/Wagner Group."""
    ca, cb = _core(a, group_words()), _core(b, group_words())
    if not ca or not cb:
        return _norm(a) == _norm(b)
    if is_person_name(a) and is_person_name(b):
        if not _tok_eq(ca[-1], cb[-1]):
            return False
        return fuzz.ratio(ca[0], cb[0]) >= 75 or ca[0][0] == cb[0][0]
    short, long_ = (ca, cb) if len(ca) <= len(cb) else (cb, ca)
    return all(any(_tok_eq(s, t) for t in long_) for s in short)


def actors_overlap(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, str]]:
    return [(x, y) for x in a for y in b if same_actor(x, y)]


def range_bounds(r: Range, tolerance: float, slack: int = 0) -> tuple[float, float] | None:
    """Interval a figure allows; approximate figures and small counts get wider margins."""
    if r.low is None and r.high is None:
        return None
    low = float(r.low if r.low is not None else 0)
    high = float(r.high) if r.high is not None else math.inf
    tol = tolerance * (2 if r.approx else 1)
    return low * (1 - tol) - slack, high * (1 + tol) + slack


def ranges_compatible(a: Range, b: Range) -> bool:
    """ "hundreds" (200-999) fits 300-400 and "dozens" fits "about 40"; 1 never fits 300."""
    ba, bb = range_bounds(a, 0.25, 1), range_bounds(b, 0.25, 1)
    if ba is None or bb is None:
        return True
    return ba[0] <= bb[1] and bb[0] <= ba[1]


def is_specific(r: Range) -> bool:
    return r.low is not None and r.high is not None and r.high <= max(r.low * 1.5, r.low + 2)


def date_interval(d: DateRange) -> tuple[dt.date, dt.date] | None:
    if d.precision == "unknown" or not d.start:
        return None
    start = _iso(d.start)
    end = _iso(d.end) if d.end else start
    if start is None or end is None:
        return None
    return (start, end) if start <= end else (end, start)


def dates_compatible(a: DateRange, b: DateRange, slack_days: int = 1) -> bool:
    """Interval overlap: "February 2023" contains 2023-02-18; a day of slack for time zones."""
    ia, ib = date_interval(a), date_interval(b)
    if ia is None or ib is None:
        return True
    slack = dt.timedelta(days=slack_days)
    return ia[0] <= ib[1] + slack and ib[0] <= ia[1] + slack


def _reported_after(item: IncidentItem, other: IncidentItem) -> bool:
    """False when `other` says the event happened after `item` was already published."""
    pub = _iso(item.published) if item.published else None
    iv = date_interval(other.incident.date)
    return not (pub and iv and iv[0] > pub + dt.timedelta(days=1))


def _km(a: Location, b: Location) -> float | None:
    if a.lat is None or a.lon is None or b.lat is None or b.lon is None:
        return None
    return distance_km(a.lat, a.lon, b.lat, b.lon)


def _known(loc: Location) -> bool:
    return loc.precision != "unknown" and bool(loc.name or loc.country)


@lru_cache(maxsize=65536)
def _same_name(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    ca, cb = " ".join(_core(a, admin_words())), " ".join(_core(b, admin_words()))
    return bool(ca) and (ca == cb or fuzz.ratio(ca, cb) >= 85)


def _contains(outer: Location, inner: Location) -> bool:
    """Does the coarser place hold the finer one (country > admin1 > settlement)?"""
    if outer.country and inner.country and outer.country != inner.country:
        return False
    if outer.precision == "country":
        return bool(outer.country and inner.country == outer.country) or _same_name(
            outer.name, inner.country
        )
    if outer.precision in ("admin1", "admin2"):
        if outer.admin1 and inner.admin1 and _norm(outer.admin1) == _norm(inner.admin1):
            return True
        return _same_name(outer.name, inner.admin1)
    return False


_RANK = {"settlement": 0, "admin2": 1, "admin1": 2, "country": 3, "unknown": 4}


def place_relation(a: Location, b: Location) -> str:
    """'same', 'near', 'contains', 'same_country', 'unknown' or 'incompatible'."""
    if not _known(a) or not _known(b):
        return "unknown"
    if a.country and b.country and a.country != b.country:
        return "incompatible"
    if a.geonames_id is not None and a.geonames_id == b.geonames_id:
        return "same" if a.precision != "country" else "same_country"
    if a.precision == b.precision == "country" and a.country and a.country == b.country:
        return "same_country"
    if a.precision == b.precision:
        ids_differ = a.geonames_id is not None and b.geonames_id is not None
        if not ids_differ and _same_name(a.name, b.name):
            return "same" if a.precision != "country" else "same_country"
        if a.precision == "settlement":
            km = _km(a, b)
            return "near" if km is not None and km <= NEAR_KM else "incompatible"
        return "incompatible"
    outer, inner = (a, b) if _RANK[a.precision] > _RANK[b.precision] else (b, a)
    if _contains(outer, inner):
        return "same_country" if outer.precision == "country" else "contains"
    return "incompatible"


def victims_compatible(a: Sequence[str], b: Sequence[str]) -> bool:
    if not a or not b:
        return True
    ka = set().union(*(VICTIM_KINDS.get(v, {v}) for v in a))
    kb = set().union(*(VICTIM_KINDS.get(v, {v}) for v in b))
    return bool(ka & kb)


# ---------------------------------------------------------------- text similarity


def _stem(word: str) -> str:
    for suffix in ("ings", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=8192)
def _bag(text: str) -> frozenset[str]:
    words = re.findall(r"[a-z][a-z'-]+", unidecode(text).lower())
    return frozenset(_stem(w) for w in words if len(w) > 2 and w not in STOP_WORDS)


# Attribution words every report shares whatever it reports.
_REPORTING = frozenset({"said", "say", "says", "told", "tell", "according", "report", "reported"})


def _field_words(inc: DocIncident) -> frozenset[str]:
    names = [inc.location.name or "", inc.location.admin1 or "", *inc.perpetrators]
    return _bag(" ".join(names))


def text_similarity(a: DocIncident, b: DocIncident) -> float:
    """Dice overlap of the mentions' content words, leaving out place and perpetrator names
    (already scored as fields) and attribution words, so only the described act counts."""
    skip = _field_words(a) | _field_words(b) | _REPORTING
    ba = frozenset().union(*(_bag(m.text) for m in a.mentions)) - skip
    bb = frozenset().union(*(_bag(m.text) for m in b.mentions)) - skip
    if not ba or not bb:
        return 0.0
    return 2 * len(ba & bb) / (len(ba) + len(bb))


# ---------------------------------------------------------------- pair scoring


def compare(x: IncidentItem, y: IncidentItem) -> PairScore:
    """Hard compatibility first, then a score in about [0, 1.5] from positive evidence.

    Weights: same settlement .25 (near or contained .12, same country .03); same day or
    week .25, month .12, year .04; a named person on both sides .25, a shared group .08;
    shared victim groups up to .05; specific matching figures .2 (small counts .06);
    reports of one story .2; content-word overlap of the mention sentences x .6. A pair may
    merge only when anchored by specific evidence (mention overlap >= ANCHOR_TEXT, the same
    day or week, a named person, matching specific figures of 10 or more, or the same
    story): one city, one month and one army are not enough to call two shellings the
    same. The story is what anchors a retelling in another language, whose sentences share
    no words with the original.
    """
    a, b = x.incident, y.incident
    if x.document_id == y.document_id or a.type != b.type:
        return PairScore(False)
    reasons: list[str] = []
    place = place_relation(a.location, b.location)
    if place == "incompatible":
        return PairScore(False, reasons=["place"])
    if not dates_compatible(a.date, b.date):
        return PairScore(False, reasons=["date"])
    if not (_reported_after(x, y) and _reported_after(y, x)):
        return PairScore(False, reasons=["date after publication"])
    shared_actors = actors_overlap(a.perpetrators, b.perpetrators)
    if a.perpetrators and b.perpetrators and not shared_actors:
        return PairScore(False, reasons=["perpetrators"])
    if not victims_compatible(a.victims, b.victims):
        return PairScore(False, reasons=["victims"])
    if not ranges_compatible(a.killed, b.killed) or not ranges_compatible(a.wounded, b.wounded):
        return PairScore(False, reasons=["casualties"])

    score = {"same": 0.25, "near": 0.12, "contains": 0.12, "same_country": 0.03}.get(place, 0.0)
    ia, ib = date_interval(a.date), date_interval(b.date)
    if ia and ib:
        widest = max((ia[1] - ia[0]).days, (ib[1] - ib[0]).days)
        score += 0.25 if widest <= 7 else 0.12 if widest <= 31 else 0.04
        if widest <= 7:
            reasons.append("same week")
    if any(is_person_name(p) and is_person_name(q) for p, q in shared_actors):
        score += 0.25
        reasons.append("named perpetrator")
    elif shared_actors:
        score += 0.08
    if a.victims and b.victims:
        score += 0.05 * len(set(a.victims) & set(b.victims)) / len(set(a.victims) | set(b.victims))
    for ra, rb in ((a.killed, b.killed), (a.wounded, b.wounded)):
        if is_specific(ra) and is_specific(rb):
            big = min(ra.low or 0, rb.low or 0) >= 10
            score += 0.2 if big else 0.06
            if big:
                reasons.append("same figures")
    if x.story and x.story == y.story:
        score += SAME_STORY
        reasons.append("same story")
    sim = text_similarity(a, b)
    score += 0.6 * sim
    anchored = sim >= ANCHOR_TEXT or bool(reasons)
    reasons.append(f"place={place} text={sim:.2f}")
    return PairScore(True, round(score, 4), reasons, anchored)


# ---------------------------------------------------------------- blocking


def _country(loc: Location) -> str:
    if not _known(loc):
        return "*"
    return loc.country or _norm(loc.name or "") or "*"


def _years(d: DateRange) -> tuple[str, ...]:
    iv = date_interval(d)
    if iv is None:
        return ("*",)
    return tuple(str(y) for y in range(iv[0].year, iv[1].year + 1))


def block_keys(item: IncidentItem) -> list[tuple[str, str, str]]:
    inc = item.incident
    return [(inc.type, _country(inc.location), y) for y in _years(inc.date)]


def _matches(key: tuple[str, str, str], other: tuple[str, str, str]) -> bool:
    return (
        key[0] == other[0]
        and (key[1] == other[1] or "*" in (key[1], other[1]))
        and (key[2] == other[2] or "*" in (key[2], other[2]))
    )


def candidate_pairs(items: Sequence[IncidentItem]) -> set[tuple[int, int]]:
    """Index pairs sharing a type and a compatible (country, year) block; unknown is a wildcard."""
    blocks: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        for k in block_keys(item):
            blocks[k].append(i)
    by_type: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for k in blocks:
        by_type[k[0]].append(k)
    pairs: set[tuple[int, int]] = set()
    for keys in by_type.values():
        for ka in keys:
            for kb in keys:
                if ka <= kb and _matches(ka, kb):
                    for i in blocks[ka]:
                        for j in blocks[kb]:
                            if i != j and items[i].document_id != items[j].document_id:
                                pairs.add((min(i, j), max(i, j)))
    return pairs


# ---------------------------------------------------------------- clustering


def _order_key(item: IncidentItem) -> tuple[int, str, str, int]:
    return (
        item.seq if item.seq is not None else 2**62,
        item.published or "",
        item.document_id,
        item.index,
    )


def cluster_id(members: Iterable[IncidentItem]) -> str:
    """Stable id: a hash of the earliest member's key (first ingested, then published)."""
    first = min(members, key=_order_key)
    return "inc_" + hashlib.sha256(first.key.encode()).hexdigest()[:12]


def link(
    items: Sequence[IncidentItem],
    threshold: float = MERGE_THRESHOLD,
    suggest: float = SUGGEST_THRESHOLD,
) -> tuple[list[list[int]], list[Suggestion]]:
    """Greedy best-first merging with complete-linkage compatibility.

    Pairs are taken by descending score (ties by member keys, so input order never
    matters); two clusters join only if they share no document and every cross pair is
    compatible, which stops chains A~B~C from joining an incompatible A and C.
    """
    scored: dict[tuple[int, int], PairScore] = {}
    for i, j in candidate_pairs(items):
        ps = compare(items[i], items[j])
        if ps.compatible:
            scored[(i, j)] = ps
    owner = list(range(len(items)))
    members: dict[int, list[int]] = {i: [i] for i in range(len(items))}

    def ok(ca: int, cb: int) -> bool:
        docs_a = {items[i].document_id for i in members[ca]}
        if any(items[j].document_id in docs_a for j in members[cb]):
            return False
        return all((min(i, j), max(i, j)) in scored for i in members[ca] for j in members[cb])

    ranked = sorted(
        scored.items(),
        key=lambda kv: (-kv[1].score, *sorted((items[kv[0][0]].key, items[kv[0][1]].key))),
    )
    for (i, j), ps in ranked:
        if ps.score < threshold:
            break
        if not ps.anchored:
            continue
        ca, cb = owner[i], owner[j]
        if ca == cb or not ok(ca, cb):
            continue
        for k in members[cb]:
            owner[k] = ca
        members[ca].extend(members.pop(cb))
    clusters = sorted(
        (sorted(m, key=lambda k: _order_key(items[k])) for m in members.values()),
        key=lambda m: _order_key(items[m[0]]),
    )
    suggestions = sorted(
        (
            Suggestion(
                min(items[i].key, items[j].key),
                max(items[i].key, items[j].key),
                ps.score,
                tuple(ps.reasons),
            )
            for (i, j), ps in scored.items()
            if ps.score >= suggest and owner[i] != owner[j]
        ),
        key=lambda s: (-s.score, s.a, s.b),
    )
    return clusters, suggestions


def cluster(items: list[IncidentItem]) -> list[list[int]]:
    """Groups of indices into `items`, one group per real-world incident."""
    return link(items)[0]


class IncidentLinker:
    """Incremental linking: adding a document re-links only the clusters in its blocks.

    Cluster ids are kept across adds (the earliest member names a cluster), so a stored
    incident id stays valid when later reports join it.
    """

    def __init__(self, threshold: float = MERGE_THRESHOLD, suggest: float = SUGGEST_THRESHOLD):
        self.threshold = threshold
        self.suggest = suggest
        self.items: dict[str, IncidentItem] = {}
        self.cluster_of: dict[str, str] = {}
        self.members: dict[str, list[str]] = {}
        self.blocks: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        self.suggestions: dict[tuple[str, str], float] = {}

    def add(self, new: Sequence[IncidentItem]) -> set[str]:
        """Add one document's incidents; return the ids of clusters created or changed."""
        touched: set[str] = set()
        for item in new:
            self.items[item.key] = item
            for k in block_keys(item):
                self.blocks[k].add(item.key)
                for other_key, block in self.blocks.items():
                    if _matches(k, other_key):
                        touched |= block
        affected = set(touched)
        for key in touched:
            if key in self.cluster_of:
                affected |= set(self.members[self.cluster_of[key]])
        old_ids = {self.cluster_of[k] for k in affected if k in self.cluster_of}
        subset = sorted((self.items[k] for k in affected), key=lambda it: it.key)
        groups, suggestions = link(subset, self.threshold, self.suggest)
        for cid in old_ids:
            self.members.pop(cid, None)
        changed: set[str] = set()
        for group in groups:
            keys = [subset[i].key for i in group]
            cid = cluster_id(subset[i] for i in group)
            previous = {self.cluster_of.get(k) for k in keys}
            if previous != {cid} or any(self.cluster_of.get(k) is None for k in keys):
                changed.add(cid)
            self.members[cid] = keys
            for member in keys:
                self.cluster_of[member] = cid
        self.suggestions = {
            p: s
            for p, s in self.suggestions.items()
            if p[0] not in affected and p[1] not in affected
        }
        for s in suggestions:
            self.suggestions[(s.a, s.b)] = s.score
        return changed | (old_ids - set(self.members))

    def clusters(self) -> dict[str, list[IncidentItem]]:
        return {cid: [self.items[k] for k in keys] for cid, keys in self.members.items()}
