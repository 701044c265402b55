"""Stories: documents whose main news event is the same share one `story_id`.

All news about one war shares vocabulary, so lexical similarity alone over-links. The
score combines TF-IDF cosine of the text (lead weighted up), shared rare named entities
and places (IDF-weighted), and closeness of publication dates. Candidates come from
blocks (a document's rarest terms and entities, within a time window), so linking a new
document touches only its blocks, never every stored document. Documents join the story
whose members they resemble most on average; a story's id is its earliest member's id, so
ids stay stable as documents arrive.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from spacy.lang.en.stop_words import STOP_WORDS
from unidecode import unidecode

from corroborator.linking.copies import sentences
from corroborator.linking.names import name_key

LEAD_SENTENCES = 3
LEAD_WEIGHT = 2.0  # lead terms count this many times more: the lead names the main event
TOP_TERMS = 60  # terms kept per document vector (bounded memory at 100k documents)
BLOCK_TERMS = 12  # rarest-weighted terms used as blocking keys
DF_BITS = 24  # 16M hashed document-frequency slots (64 MB)
MAX_POSTINGS = 300  # a key shared by more documents is too common to block on
MAX_CANDIDATES = 200  # per new document: those sharing the most block keys
WINDOW_DAYS = 30  # dated documents further apart than this are never candidates
HALF_LIFE_DAYS = 7.0  # date closeness halves the score every this many days beyond 2
W_TEXT = 0.7
W_ENT = 0.3
THRESHOLD = 0.08
# A story scoring this share of THRESHOLD but below it is a reviewer's "possible same story".
NEAR_SHARE = 0.6
ENT_MODE = "cosine"

_WORD = re.compile(r"[a-z][a-z'-]+")


@dataclass(frozen=True)
class StoryDoc:
    """What story linking needs from one stored document."""

    doc_id: str
    text: str
    published: str | None = None
    entities: tuple[str, ...] = ()  # canonical person / group names
    places: tuple[str, ...] = ()  # canonical place names
    duplicate_of: str | None = None


@dataclass
class _Vec:
    doc_id: str
    terms: dict[str, float]
    norm: float
    keys: frozenset[str]
    day: int | None
    blocks: list[str] = field(default_factory=list)


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "'s", "’s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def term_counts(text: str) -> dict[str, float]:
    """Content-word unigrams and adjacent bigrams; lead sentences weighted up."""
    counts: defaultdict[str, float] = defaultdict(float)
    for i, sent in enumerate(sentences(text)):
        weight = LEAD_WEIGHT if i < LEAD_SENTENCES else 1.0
        words = [
            _stem(w.strip("'-"))
            for w in _WORD.findall(unidecode(sent).lower())
            if w not in STOP_WORDS and len(w) > 2
        ]
        for w in words:
            counts[w] += weight
        for a, b in zip(words, words[1:], strict=False):
            counts[a + " " + b] += weight
    return counts


def _day(published: str | None) -> int | None:
    if not published:
        return None
    parts = published[:10].split("-")
    try:
        nums = [int(p) for p in parts]
        d = dt.date(nums[0], nums[1] if len(nums) > 1 else 1, nums[2] if len(nums) > 2 else 1)
    except (ValueError, IndexError):
        return None
    return d.toordinal()


def _keys(doc: StoryDoc) -> frozenset[str]:
    return frozenset(
        "e:" + key for key in (name_key(k) for k in (*doc.entities, *doc.places)) if key
    )


def _cosine(a: _Vec, b: _Vec) -> float:
    ta, tb = (a.terms, b.terms) if len(a.terms) <= len(b.terms) else (b.terms, a.terms)
    dot = sum(v * tb[k] for k, v in ta.items() if k in tb)
    return dot / (a.norm * b.norm) if dot else 0.0


class _HashedCounts:
    """Document frequencies in a fixed hashed table: a corpus has millions of distinct
    bigrams, and a dict of them dominated memory at 100k documents. Collisions only make
    a rare term look slightly less rare."""

    def __init__(self, bits: int = DF_BITS) -> None:
        self._mask = (1 << bits) - 1
        self._table = np.zeros(1 << bits, dtype=np.int32)

    def _slot(self, key: str) -> int:
        return zlib.crc32(key.encode()) & self._mask

    def add(self, keys: Iterable[str]) -> None:
        slots = np.fromiter({self._slot(k) for k in keys}, dtype=np.int64)
        self._table[slots] += 1

    def __getitem__(self, key: str) -> int:
        return int(self._table[self._slot(key)])


class StoryIndex:
    """Incremental story linker. `observe` updates term statistics; `link` assigns a story.

    For a batch, observe every document first (better IDF), then link in date order.
    """

    def __init__(self, threshold: float = THRESHOLD) -> None:
        self.threshold = threshold
        self.n_docs = 0
        self.df = _HashedCounts()
        self._seen: set[str] = set()
        self._vecs: dict[str, _Vec] = {}
        self._postings: dict[str, list[str]] = defaultdict(list)
        self.story_of: dict[str, str] = {}
        self.members: dict[str, list[str]] = defaultdict(list)
        # doc -> (its closest member of the best story it just missed, that story's score)
        self.near: dict[str, tuple[str, float]] = {}

    def observe(self, doc: StoryDoc) -> None:
        """Count the document's terms for IDF. Counts are not kept (recomputed when linking):
        holding them for a whole batch cost over 1 GB at 100k documents."""
        if doc.doc_id in self._seen:
            return
        self._seen.add(doc.doc_id)
        counts = term_counts(doc.text)
        self.n_docs += 1
        self.df.add(counts.keys())
        self.df.add(_keys(doc))

    def _idf(self, key: str) -> float:
        return math.log((1 + self.n_docs) / (1 + self.df[key])) + 1.0

    def _vector(self, doc: StoryDoc) -> _Vec:
        counts = term_counts(doc.text)
        weighted = {t: (1 + math.log(c)) * self._idf(t) for t, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in weighted.values())) or 1.0
        # Keep the heaviest terms that other documents share (a term seen once can never
        # match); the norm stays that of the full vector so long texts are not favoured.
        ranked = sorted(weighted.items(), key=lambda kv: (self.df[kv[0]] < 2, -kv[1]))
        top = dict(ranked[:TOP_TERMS])
        keys = _keys(doc)
        shared = sorted((t for t in top if self.df[t] > 1), key=lambda t: self.df[t])
        rare_terms = shared[:BLOCK_TERMS]
        return _Vec(doc.doc_id, top, norm, keys, _day(doc.published), rare_terms + sorted(keys))

    def _entity_sim(self, a: frozenset[str], b: frozenset[str]) -> float:
        """IDF-weighted overlap coefficient: a short report naming the same rare people
        and places as a long one still scores high."""
        shared = a & b
        if not shared:
            return 0.0
        w = self._idf
        if ENT_MODE == "cosine":
            num = sum(w(k) ** 2 for k in shared)
            return num / math.sqrt(sum(w(k) ** 2 for k in a) * sum(w(k) ** 2 for k in b))
        return sum(w(k) for k in shared) / min(sum(w(k) for k in a), sum(w(k) for k in b))

    def similarity(self, a: _Vec, b: _Vec) -> float:
        score = W_TEXT * _cosine(a, b) + W_ENT * self._entity_sim(a.keys, b.keys)
        if a.day is not None and b.day is not None:
            gap = abs(a.day - b.day)
            if gap > WINDOW_DAYS:
                return 0.0
            score *= 0.5 ** (max(0, gap - 2) / HALF_LIFE_DAYS)
        return score

    def candidates(self, vec: _Vec) -> set[str]:
        """Documents sharing a block key (rare term or entity), within the date window."""
        hits: Counter[str] = Counter()
        for key in vec.blocks:
            postings = self._postings.get(key, ())
            if len(postings) <= MAX_POSTINGS:
                hits.update(postings)
        hits.pop(vec.doc_id, None)
        if vec.day is not None:
            for cand in list(hits):
                day = self._vecs[cand].day
                if day is not None and abs(day - vec.day) > WINDOW_DAYS:
                    del hits[cand]
        return {c for c, _ in hits.most_common(MAX_CANDIDATES)}

    def link(self, doc: StoryDoc) -> str:
        """Assign `doc` to the best existing story (or a new one) and index it."""
        if doc.doc_id in self.story_of:
            return self.story_of[doc.doc_id]
        self.observe(doc)
        vec = self._vector(doc)
        story = None
        if doc.duplicate_of and doc.duplicate_of in self.story_of:
            story = self.story_of[doc.duplicate_of]
        else:
            story = self._best_story(vec)
        story = story or doc.doc_id
        self.story_of[doc.doc_id] = story
        self.members[story].append(doc.doc_id)
        self._vecs[doc.doc_id] = vec
        for key in vec.blocks:
            postings = self._postings[key]
            if len(postings) <= MAX_POSTINGS:  # past the cap the key is never used again
                postings.append(doc.doc_id)
        return story

    def _best_story(self, vec: _Vec) -> str | None:
        """The story scoring highest at or above the threshold; the best one scoring just
        below it (and not joined) is kept in `near` as a suggestion for a reviewer."""
        per_story: dict[str, list[tuple[float, str]]] = defaultdict(list)
        for cand in self.candidates(vec):
            sim = self.similarity(vec, self._vecs[cand])
            if sim > 0:
                per_story[self.story_of[cand]].append((sim, cand))
        best, best_score = None, self.threshold
        near: tuple[float, str] | None = None
        for story, sims in per_story.items():
            mean = sum(s for s, _ in sims) / len(self.members[story])  # others count 0
            score = 0.5 * (mean + max(s for s, _ in sims))
            if score >= best_score:
                best, best_score = story, score
            if self.threshold * NEAR_SHARE <= score < self.threshold:
                near = max(near or (0.0, ""), (score, max(sims)[1]))
        if near:
            self.near[vec.doc_id] = (near[1], round(near[0], 4))
        return best


def _order(docs: Sequence[StoryDoc]) -> list[StoryDoc]:
    """Canonical order: by date (undated last), then id, so results ignore input order."""
    return sorted(docs, key=lambda d: (_day(d.published) is None, _day(d.published) or 0, d.doc_id))


def assign_stories(
    docs: Iterable[StoryDoc], threshold: float = THRESHOLD, index: StoryIndex | None = None
) -> dict[str, str]:
    """{doc_id: story_id}; a story's id is its earliest member's id (date, then id).

    Pass an empty `index` to keep it afterwards (incremental linking persists it)."""
    docs = list(docs)
    index = index if index is not None else StoryIndex(threshold)
    for d in docs:
        index.observe(d)
    ids = {d.doc_id for d in docs}
    ordered = _order(docs)
    # Copies go after their originals so they inherit the original's story.
    originals = [d for d in ordered if not (d.duplicate_of and d.duplicate_of in ids)]
    copies = [d for d in ordered if d.duplicate_of and d.duplicate_of in ids]
    for d in originals + copies:
        index.link(d)
    return {d.doc_id: index.story_of[d.doc_id] for d in docs}


def pairwise_prf(pred: dict[str, str], gold: dict[str, str]) -> tuple[float, float, float]:
    """Pairwise precision, recall and F1 of a clustering against gold labels."""

    def pairs(labels: dict[str, str]) -> set[tuple[str, str]]:
        groups: dict[str, list[str]] = defaultdict(list)
        for doc, label in labels.items():
            groups[label].append(doc)
        out: set[tuple[str, str]] = set()
        for members in groups.values():
            members.sort()
            out.update(
                (members[i], members[j])
                for i in range(len(members))
                for j in range(i + 1, len(members))
            )
        return out

    p_pairs, g_pairs = pairs(pred), pairs(gold)
    tp = len(p_pairs & g_pairs)
    prec = tp / len(p_pairs) if p_pairs else 1.0
    rec = tp / len(g_pairs) if g_pairs else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return prec, rec, f1
