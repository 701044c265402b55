"""The story index: document frequencies, blocks and candidates, a pair's score (the story
model over the evidence), and the clustering that places reports in stories, a batch at
once (`assign_stories`) or one at a time (`StoryIndex.link`)."""

from __future__ import annotations

import datetime as dt
import heapq
import math
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
from unidecode import unidecode

from corroborator.forked import fork_map
from corroborator.linking import story_model
from corroborator.linking.names import name_key
from corroborator.linking.stories.conflicts import (
    CONCEPT_WORDS,
    actor_conflict,
    follow_up,
    other_day,
    other_toll,
    place_conflict,
    protagonist,
    protagonist_conflict,
    same_event_place,
    same_protagonist,
    site_conflict,
    what_conflict,
)
from corroborator.linking.stories.reading import read
from corroborator.linking.stories.records import Components, Reading, StoryDoc, Vec
from corroborator.linking.stories.score import (
    concept_cosine,
    cosines,
    entity_keys,
    evidence,
    figure_keys,
    figure_share,
    place_keys,
    quote_shingles,
    share,
)
from corroborator.linking.stories.spelling import spelling_pairs
from corroborator.linking.stories.terms import CASELESS, NAME

TOP_TERMS = 45  # event terms kept per document vector (bounded memory at 100k documents)
TOP_NAMES = 20  # name terms kept
BLOCK_TERMS = 12  # rarest-weighted terms used as blocking keys
# ... and one-word names, as entity keys: a retelling whose names the extractor did not
# resolve (a Turkish "Hama'daki") shares no rare word with its English telling either
# (3-10 alike on the dev sets; 30 block terms instead found as much at 4.8x the time)
BLOCK_NAMES = 3
# ... and in a report in another language, whose names are what it can share with a
# telling in English (its other rare words are untranslated ones only its own language has)
BLOCK_NAMES_FOREIGN = 6
# ... and the rarest consonant skeletons of its names (`arabic.skeleton`), looked up only
# among reports in the other script: an Arabic report and its Latin-script telling share no
# word and no entity key, so they were never compared (5-50 alike on the Arabic dev set)
BLOCK_SKELETONS = 20
ARABIC_SKELETON, LATIN_SKELETON = "ka:", "kl:"
_OTHER_SCRIPT = {ARABIC_SKELETON: LATIN_SKELETON, LATIN_SKELETON: ARABIC_SKELETON}
DF_BITS = 24  # 16M hashed document-frequency slots (64 MB)
MAX_POSTINGS = 300  # a key shared by more documents is too common to block on
MAX_CANDIDATES = 200  # per new document: those sharing the most block keys
WINDOW_DAYS = 30  # dated documents further apart than this are never candidates ...
# ... unless one tells a main incident in a village or small town of fewer people than
# this and the other names it: months later a trial, an exhumation or an appeal still
# names the village, and few other incidents happen there (a city's name recurs in story
# after story). Of the blind sets' pairs beyond the window whose main incident's town
# agrees, the 7 of one story were in such places, 20 of the 22 look-alikes in cities
# (Kherson, Dnipro, Lozova); 50,000 people cost seedtell3 .841 -> .800
FOLLOW_UP_POPULATION = 20_000
BLOCK_QUOTES = 4  # quote shingles used as blocking keys
# A pair's score is the story model's probability, with a share of the hand-weighted
# score's (`evidence`, scaled so that its threshold, EVIDENCE_THRESHOLD, meets the
# model's): a prior from the sessions it was tuned over, against a model fitted on the
# project's own retellings (its dev sets left out one at a time, before the model's last
# three inputs: .871 alone, .875 so).
THRESHOLD = 0.5
EVIDENCE_THRESHOLD = 0.2
HAND_SHARE = 0.3
# Added to every IDF: at 1.0 words every report uses ("Russian", "region") still weighed a
# third of a rare name in a 40-document set, and unrelated reports scored like retellings.
IDF_FLOOR = 0.5
# A handful of documents says little about which words are common: below this many, IDF
# treats every word as seen in a corpus this large (two reports of one event, on their
# own, would otherwise have every shared word counted as common).
IDF_MIN_DOCS = 50
# A story scoring this share of THRESHOLD but below it is a reviewer's "possible same story".
NEAR_SHARE = 0.6
LINK_MAX = 0.25  # weight of the closest pair of members against the mean over all pairs
# ... and where no pair of members scores under this, the closest pair alone: retellings
# that lead with other things (a trial, an appeal, a fact-check) are each alike in some
# part, so one that matches a member well joins; a look-alike differs clearly from some
# member (0.2-0.3 tried: blind12-42 .899 -> .901-.902, blind43-45 .792 -> .804-.815, ECB+
# .832 -> .826-.839, the dev sets -.001 to +.001; under 0.3 a seed article on another
# captured soldier, 0.22 from one of the two seed tellings of a POW's account and 0.62 from
# the other, joined their story)
LINK_FLOOR = 0.3
LINK_MEMBERS = 40  # members (earliest first) a story's linkage reads: bounded cost per merge
IDF_MEMO = 1 << 18  # IDFs remembered at most (about 30 MB)
READ_BATCH = 5000  # reports read at once (`StoryIndex.readings`); a batch this size keeps them
READ_FORK = 200  # reports worth a forked reader (~2.5 ms each; a fork costs tens of ms)
SKELETON = "k:"  # prefix of name skeletons in the document frequencies
CONCEPT = "c:"  # ... and of concept words


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


def lookup_keys(blocks: Iterable[str]) -> list[str]:
    """The keys a document's candidates are found under: its blocks, a skeleton's in the
    other script's namespace (Latin-script reports never meet each other by skeleton)."""
    return [_OTHER_SCRIPT[k[:3]] + k[3:] if k[:3] in _OTHER_SCRIPT else k for k in blocks]


class HashedCounts:
    """Document frequencies in a fixed hashed table: a corpus has millions of distinct
    terms, and a dict of them dominated memory at 100k documents. Collisions only make
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

    def __init__(self, threshold: float = THRESHOLD, jobs: int = 1) -> None:
        self.threshold = threshold
        self.jobs = jobs  # processes that score a batch's candidate pairs (`cluster`)
        self.n_docs = 0
        self.df = HashedCounts()
        self._seen: set[str] = set()
        self._vecs: dict[str, Vec] = {}
        self._postings: dict[str, list[str]] = defaultdict(list)
        self.story_of: dict[str, str] = {}
        self.members: dict[str, list[str]] = defaultdict(list)
        self.moved: dict[str, str] = {}  # doc -> its new story, after `link` merged stories
        self.day_of: dict[str, int | None] = {}  # publication day of every placed document
        self._sims: dict[tuple[str, str], float] = {}
        self._idfs: dict[str, float] = {}  # memo of `_idf` while the counts stay put
        # doc -> (its closest member of the best story it just missed, that story's score)
        self.near: dict[str, tuple[str, float]] = {}

    def observe(self, doc: StoryDoc, reading: Reading | None = None) -> None:
        """Count the document's terms for IDF. Counts are not kept past a batch of
        READ_BATCH (read again when linking): holding them for a whole batch cost over 1 GB
        at 100k documents."""
        if doc.doc_id in self._seen:
            return
        self._seen.add(doc.doc_id)
        reading = reading or read(doc)
        self.n_docs += 1
        self._idfs.clear()
        self.df.add(reading.counts.keys())
        self.df.add(entity_keys(doc) | quote_shingles(doc.quotes))
        self.df.add(SKELETON + k for k in reading.skeletons)
        self.df.add(CONCEPT + k for k in reading.said)

    def readings(
        self, docs: Sequence[StoryDoc], known: Mapping[str, Reading] | None = None
    ) -> Iterator[tuple[StoryDoc, Reading]]:
        """Each document with its `Reading` (`known` ones as they are), READ_BATCH at a
        time over `jobs` processes."""
        known = known or {}
        for i in range(0, len(docs), READ_BATCH):
            part = docs[i : i + READ_BATCH]
            todo = [d for d in part if d.doc_id not in known]
            read_now = fork_map(read, todo, self.jobs, READ_FORK)
            found = {d.doc_id: r for d, r in zip(todo, read_now, strict=True)}
            yield from ((d, known.get(d.doc_id) or found[d.doc_id]) for d in part)

    def _idf(self, key: str) -> float:
        """Memoised: a pass over 240 documents asks for about 7k keys 25 times each, and
        each answer hashes the key and reads the counts table. Bounded, since a corpus has
        millions of terms."""
        idf = self._idfs.get(key)
        if idf is None:
            if len(self._idfs) >= IDF_MEMO:
                self._idfs.clear()
            n = self.df[key]
            idf = math.log((1 + max(self.n_docs, IDF_MIN_DOCS)) / (1 + n)) + IDF_FLOOR
            self._idfs[key] = idf
        return idf

    def _vector(self, doc: StoryDoc, reading: Reading | None = None) -> Vec:
        reading = reading or read(doc)
        counts, found = reading.counts, reading.said
        weighted = {t: (1 + math.log(c)) * self._idf(t) for t, c in counts.items()}
        top: dict[str, float] = {}
        norms = []
        # Per channel (what happened; who and where), keep the heaviest terms that other
        # documents share (a term seen once can never match); the norm stays that of the
        # full vector so long texts are not favoured.
        for names, limit in ((False, TOP_TERMS), (True, TOP_NAMES)):
            part = [(t, v) for t, v in weighted.items() if (t[0] == NAME) == names]
            part.sort(key=lambda kv: (self.df[kv[0]] < 2, -kv[1], kv[0]))
            norms.append(math.sqrt(sum(v * v for _, v in part)) or 1.0)
            top.update(part[:limit])
        skeletons = reading.skeletons
        said = {t: (1 + math.log(c)) * self._idf(CONCEPT + t) for t, c in found.items()}
        keys = entity_keys(doc)
        quotes = quote_shingles(doc.quotes)
        shared = sorted((t for t in top if self.df[t] > 1), key=lambda t: self.df[t])
        rare_terms = shared[:BLOCK_TERMS]
        rare_quotes = sorted((q for q in quotes if self.df[q] > 1), key=lambda q: (self.df[q], q))
        return Vec(
            doc.doc_id,
            top,
            norms[0],
            keys,
            _day(doc.published),
            rare_terms
            + sorted(
                keys
                | self._name_blocks(top, doc.language)
                | self._skeleton_blocks(skeletons, doc.language)
            )
            + rare_quotes[:BLOCK_QUOTES],
            place_keys(doc),
            quotes,
            figure_keys(doc, reading.ages),
            norms[1],
            frozenset("e:" + k for k in (name_key(e) for e in doc.main_actors) if k),
            protagonist(doc, counts),
            doc.language,
            unidecode(doc.event_place or "").lower(),
            dt.date.fromisoformat(doc.event_day).timetuple().tm_yday if doc.event_day else None,
            doc.event_killed,
            doc.event_population is not None and doc.event_population < FOLLOW_UP_POPULATION,
            *reading.sites,
            skeletons,
            said,
            math.sqrt(sum(v * v for v in said.values())) or 1.0,
            frozenset(dt.date.fromisoformat(d).toordinal() for d in doc.act_days),
            frozenset("e:" + k for k in map(name_key, doc.villages) if k),
        )

    def _name_blocks(self, top: dict[str, float], language: str | None) -> frozenset[str]:
        """The rarest one-word names other documents share, as entity keys."""
        names = [t for t in top if t[0] == NAME and " " not in t and self.df[t] > 1]
        names.sort(key=lambda t: (self.df[t], t))
        n = BLOCK_NAMES if not language or language == "en" else BLOCK_NAMES_FOREIGN
        return frozenset("e:" + t[1:] for t in names[:n])

    def _skeleton_blocks(self, skeletons: frozenset[str], language: str | None) -> frozenset[str]:
        """The rarest skeletons other documents share, marked with the report's script."""
        found = sorted(
            (k for k in skeletons if self.df[SKELETON + k] > 1),
            key=lambda k: (self.df[SKELETON + k], k),
        )
        script = ARABIC_SKELETON if language in CASELESS else LATIN_SKELETON
        return frozenset(script + k for k in found[:BLOCK_SKELETONS])

    def _entity_sim(self, a: frozenset[str], b: frozenset[str]) -> float:
        """IDF-weighted overlap coefficient: a short report naming the same rare people
        and places as a long one still scores high."""
        shared = a & b
        w = self._idf
        num = sum(w(k) ** 2 for k in shared)
        ra, rb = sorted(a - shared), sorted(b - shared)
        respelt = spelling_pairs([k[2:] for k in ra], [k[2:] for k in rb])
        num += sum(w(ra[i]) * w(rb[j]) for i, j in respelt)
        if not num:
            return 0.0
        return num / math.sqrt(sum(w(k) ** 2 for k in a) * sum(w(k) ** 2 for k in b))

    def _script_names(self, a: Vec, b: Vec) -> float:
        """IDF-weighted share of the Latin-script report's name skeletons that the caseless
        one (Arabic, Georgian...) writes too (its skeletons are of all its words, so only
        that side's share)."""
        if (a.language in CASELESS) == (b.language in CASELESS):
            return 0.0
        latin = b.skeletons if a.language in CASELESS else a.skeletons
        shared = a.skeletons & b.skeletons
        if not shared:
            return 0.0
        weight = {k: self._idf(SKELETON + k) ** 2 for k in latin}
        return sum(weight[k] for k in shared) / sum(weight.values())

    def components(self, a: Vec, b: Vec) -> Components:
        text, event, names = cosines(a, b)
        said = concept_cosine(a, b)
        return Components(
            text=text,
            event=event,
            names=names,
            concepts=said,
            entities=self._entity_sim(a.keys, b.keys),
            quotes=share(a.quotes, b.quotes),
            figures=figure_share(a.figures, b.figures),
            scripts=self._script_names(a, b),
            place_conflict=place_conflict(a, b),
            actor_conflict=actor_conflict(a, b),
            what_conflict=what_conflict(a, b, said),
            protagonist_conflict=protagonist_conflict(a, b),
            site_conflict=site_conflict(a, b),
        )

    def similarity(self, a: Vec, b: Vec) -> float:
        """How likely the two reports tell one story (`story_model`), 0 when published
        further apart than WINDOW_DAYS and no follow-up (`follow_up`)."""
        parts = self.pair_parts(a, b)
        if parts is None:
            return 0.0
        # The hand-weighted score, scaled so that its own threshold meets the model's
        hand = min(1.0, parts["evidence"] * THRESHOLD / EVIDENCE_THRESHOLD)
        if parts["concept_words"] < CONCEPT_WORDS:
            # news of other than violence, outside what the model was fitted on: reports
            # of war crimes say 17-30 such words, half of ECB+'s general news fewer than 8
            return hand
        fitted = story_model.model().probability(story_model.features(parts))
        return (1 - HAND_SHARE) * fitted + HAND_SHARE * hand

    def pair_parts(self, a: Vec, b: Vec) -> dict[str, float] | None:
        """The named parts of the evidence that two reports tell one story (the model's
        inputs), or None when they were published further apart than WINDOW_DAYS and
        neither follows the other up; a follow-up counts as WINDOW_DAYS apart."""
        gap = abs(a.day - b.day) if a.day is not None and b.day is not None else None
        if gap is not None and gap > WINDOW_DAYS:
            if not follow_up(a, b):
                return None
            gap = WINDOW_DAYS
        c = self.components(a, b)
        same_place = same_event_place(a, b)
        parts = {name: float(value) for name, value in vars(c).items()}
        parts.update(
            same_event_place=same_place,
            other_toll=other_toll(a, b),
            other_day=other_day(a, b),
            cross_language=bool(a.language and b.language and a.language != b.language),
            arabic_latin=(a.language in CASELESS) != (b.language in CASELESS),
            days_apart=gap or 0,
            concept_words=min(len(a.concepts), len(b.concepts)),
            same_protagonist=same_protagonist(a, b),
            other_event_place=bool(a.event_place and b.event_place and not same_place),
            rare_name=self._rarest_shared_name(a, b),
        )
        parts["evidence"] = evidence(a, b, c, parts)
        return parts

    def _rarest_shared_name(self, a: Vec, b: Vec) -> float:
        """The IDF of the rarest name both reports write, as a share of the highest an IDF
        can be: one rare name in common (a victim's, a village's) says more than many
        common ones."""
        shared = [t for t in a.terms if t[0] == NAME and t in b.terms]
        if not shared:
            return 0.0
        top = math.log(1 + max(self.n_docs, IDF_MIN_DOCS)) + IDF_FLOOR
        return max(self._idf(t) for t in shared) / top

    def candidates(self, vec: Vec) -> set[str]:
        """Documents sharing a block key (rare term or entity), within the date window or
        following one up."""
        hits: Counter[str] = Counter()
        for key in lookup_keys(vec.blocks):
            postings = self._postings.get(key, ())
            if len(postings) <= MAX_POSTINGS:
                hits.update(postings)
        hits.pop(vec.doc_id, None)
        if vec.day is not None:
            late = Counter(
                {
                    c: n
                    for c, n in hits.items()
                    if (day := self._vecs[c].day) is not None and abs(day - vec.day) > WINDOW_DAYS
                }
            )
            # a late report is a candidate only as a follow-up, which its whole vector tells
            # (a stored index holds those of the most shared at most)
            self._load_vectors(sorted(c for c, _ in late.most_common(MAX_CANDIDATES)))
            for cand in late:
                if not follow_up(vec, self._vecs[cand]):
                    del hits[cand]
        return {c for c, _ in hits.most_common(MAX_CANDIDATES)}

    def index(self, doc: StoryDoc, reading: Reading | None = None) -> Vec:
        """Vectorise `doc` (it is placed by `link` or `cluster`)."""
        reading = reading or read(doc)
        self.observe(doc, reading)
        vec = self._vector(doc, reading)
        self._vecs[doc.doc_id] = vec
        self.day_of[doc.doc_id] = vec.day
        return vec

    def post(self, vec: Vec) -> None:
        """Add a document to the blocks later documents find their candidates in."""
        for key in vec.blocks:
            postings = self._postings[key]
            if len(postings) <= MAX_POSTINGS:  # past the cap the key is never used again
                postings.append(vec.doc_id)

    def link(self, doc: StoryDoc, reading: Reading | None = None) -> str:
        """Place one new document: it joins the story it resembles most, and a story that
        now resembles another as a whole (the new report bridges two partial tellings)
        merges with it. `moved` holds the older documents whose story changed."""
        self.moved = {}
        if doc.doc_id in self.story_of:
            return self.story_of[doc.doc_id]
        vec = self.index(doc, reading)
        # Candidates first, copies too: a stored index loads each block's postings there,
        # and posting into a block not yet loaded would ignore its cap.
        candidates = self.candidates(vec)
        self.post(vec)
        if doc.duplicate_of and doc.duplicate_of in self.story_of:
            return self._join(doc.doc_id, self.story_of[doc.duplicate_of])
        story = self._join(doc.doc_id, doc.doc_id)
        neighbours = {self.story_of[c] for c in candidates} - {story}
        while neighbours:
            score, other = max((self.linkage(story, t), t) for t in sorted(neighbours))
            if score < self.threshold:
                break
            neighbours.discard(other)
            story = self._merge(story, other)
        self._near(doc.doc_id, neighbours)
        self.moved.pop(doc.doc_id, None)
        return self.story_of[doc.doc_id]

    def cluster(self, doc_ids: Sequence[str], copies: dict[str, str]) -> None:
        """Link indexed documents at once: average-link agglomeration, the best-scoring
        pair of stories merged first while any pair reaches the threshold. Unlike joining
        one document at a time, the result does not depend on arrival order, and a report
        that bridges two partial tellings joins them. `copies` (copy -> original) start
        in their original's story."""
        for d in doc_ids:
            self._join(d, self.story_of.get(copies.get(d, ""), d))
        near: dict[str, set[str]] = defaultdict(set)
        for d in doc_ids:
            for c in self.candidates(self._vecs[d]):
                a, b = self.story_of[d], self.story_of[c]
                if a != b:
                    near[a].add(b)
                    near[b].add(a)
        pairs = [(a, b) for a in sorted(near) for b in sorted(near[a]) if a < b]
        if self.jobs > 1:  # one process scores them as the linkages ask
            self._score_pairs(pairs)
        heap = [(-self.linkage(a, b), a, b) for a, b in pairs]
        if self.jobs > 1:
            self._score_pairs(self._merge_reach(heap, near))
        heapq.heapify(heap)
        while heap and -heap[0][0] >= self.threshold:
            score, a, b = heapq.heappop(heap)
            if b not in near.get(a, ()):
                continue  # one of them merged since
            now = self.linkage(a, b)
            if now != -score:  # one of them grew since: score it again
                heapq.heappush(heap, (-now, a, b))
                continue
            merged = self._merge(a, b)
            others = (near.pop(a) | near.pop(b)) - {a, b}
            near[merged] = others
            for t in others:
                near[t] -= {a, b}
                near[t].add(merged)
                x, y = sorted((merged, t))
                heapq.heappush(heap, (-self.linkage(x, y), x, y))
        scores: dict[tuple[str, str], float] = {}  # one linkage per pair of final stories
        for d in doc_ids:
            self._near(d, near[self.story_of[d]], scores)

    def _score_pairs(self, stories: list[tuple[str, str]]) -> None:
        """Score at once, over `jobs` processes, the member pairs the first linkages of
        these pairs of stories read (most of a batch's scoring)."""
        todo: set[tuple[str, str]] = set()
        for a, b in stories:
            for x in self.members[a][:LINK_MEMBERS]:
                for y in self.members[b][:LINK_MEMBERS]:
                    todo.add((x, y) if x < y else (y, x))
        keys = sorted(todo - self._sims.keys())
        self._load_vectors(sorted({d for key in keys for d in key}))
        scores = fork_map(self._pair_score, keys, self.jobs)
        self._sims.update(zip(keys, scores, strict=True))

    def _merge_reach(
        self, heap: list[tuple[float, str, str]], near: Mapping[str, set[str]]
    ) -> list[tuple[str, str]]:
        """The pairs of stories the first merges will compare: each story of a pair that
        reaches the threshold with the other's neighbours. The merge loop scores their
        members one at a time otherwise (a third of a batch's scoring, on one core)."""
        reach: set[tuple[str, str]] = set()
        for score, a, b in heap:
            if -score >= self.threshold:
                reach.update((a, t) for t in near[b] - {a})
                reach.update((b, t) for t in near[a] - {b})
        return sorted(reach)

    def _pair_score(self, key: tuple[str, str]) -> float:
        return self.similarity(self._vecs[key[0]], self._vecs[key[1]])

    def linkage(self, a: str, b: str) -> float:
        """How much two stories look like one: the mean similarity of their members (pairs
        outside each other's blocks count too) with the closest pair weighted in, or the
        closest pair's where no pair is clearly unalike (LINK_FLOOR)."""
        xs, ys = self.members[a][:LINK_MEMBERS], self.members[b][:LINK_MEMBERS]
        self._load_vectors([*xs, *ys])
        sims = [self._sim(x, y) for x in xs for y in ys]
        if min(sims) >= LINK_FLOOR:
            return max(sims)
        return (1 - LINK_MAX) * sum(sims) / len(sims) + LINK_MAX * max(sims)

    def _load_vectors(self, doc_ids: list[str]) -> None:
        """Vectors are all in memory here; a stored index reads them on demand."""

    def _sim(self, a: str, b: str) -> float:
        key = (a, b) if a < b else (b, a)
        if key not in self._sims:
            self._sims[key] = self._pair_score(key)
        return self._sims[key]

    def _rank(self, doc_id: str) -> tuple[bool, int, str]:
        day = self.day_of.get(doc_id)
        return (day is None, day or 0, doc_id)

    def _join(self, doc_id: str, story: str) -> str:
        """Add a document to a story, members kept earliest first."""
        self.story_of[doc_id] = story
        members = self.members[story]
        members.append(doc_id)
        members.sort(key=self._rank)
        return story

    def _merge(self, a: str, b: str) -> str:
        """One story of two; its id is its earliest member's, so ids stay stable."""
        members = sorted(self.members.pop(a) + self.members.pop(b), key=self._rank)
        story = members[0]
        self.members[story] = members
        for m in members:
            if self.story_of.get(m) != story:
                self.story_of[m] = story
                self.moved[m] = story
        return story

    def _near(
        self, doc_id: str, stories: set[str], scores: dict[tuple[str, str], float] | None = None
    ) -> None:
        """Keep the story `doc_id`'s story just missed (and not joined) as a suggestion for a
        reviewer: the closest member of the best-scoring one, with that story's score.
        `scores` memoises story linkages while no story changes (every member of a story
        asks about the same neighbours)."""
        own = self.story_of[doc_id]
        best: tuple[float, str] | None = None
        scores = {} if scores is None else scores
        for t in sorted(stories - {own}):
            if t not in self.members:
                continue
            if (own, t) not in scores:
                scores[(own, t)] = self.linkage(own, t)
            score = scores[(own, t)]
            if self.threshold * NEAR_SHARE <= score < self.threshold:
                closest = max(self.members[t][:LINK_MEMBERS], key=lambda m: self._sim(doc_id, m))
                best = max(best or (0.0, ""), (round(score, 4), closest))
        if best:
            self.near[doc_id] = (best[1], best[0])
        else:
            self.near.pop(doc_id, None)


def _order(docs: Sequence[StoryDoc]) -> list[StoryDoc]:
    """Canonical order: by date (undated last), then id, so results ignore input order."""
    return sorted(docs, key=lambda d: (_day(d.published) is None, _day(d.published) or 0, d.doc_id))


def assign_stories(
    docs: Iterable[StoryDoc],
    threshold: float = THRESHOLD,
    index: StoryIndex | None = None,
    known: Mapping[str, Reading] | None = None,
) -> dict[str, str]:
    """{doc_id: story_id}; a story's id is its earliest member's id (date, then id).

    Pass an empty `index` to keep it afterwards (incremental linking persists it), and
    `known` readings read ahead (`linking.prepare`)."""
    docs = list(docs)
    index = index if index is not None else StoryIndex(threshold)
    keep = len(docs) <= READ_BATCH
    kept: dict[str, Reading] = {}
    for d, reading in index.readings(docs, known):
        index.observe(d, reading)
        if keep:
            kept[d.doc_id] = reading
    ids = {d.doc_id for d in docs}
    ordered = _order(docs)
    again = index.readings(ordered, known) if not kept else ((d, kept[d.doc_id]) for d in ordered)
    for d, reading in again:
        index.post(index.index(d, reading))
    copies = {d.doc_id: d.duplicate_of for d in ordered if d.duplicate_of in ids}
    # Originals first, so each copy starts in its original's story.
    index.cluster([d.doc_id for d in ordered if d.doc_id not in copies] + list(copies), copies)
    return {d.doc_id: index.story_of[d.doc_id] for d in docs}
