"""Near-duplicate detection: which document repeats an earlier one, and which origin it cites.

Copies (wire copy, lightly edited reprints, rewrites that keep whole paragraphs) must count
once as evidence. MinHash over word shingles finds them through LSH, so a new document is
compared only with its candidates, never with every stored document. A second, exact
index over long normalised sentences catches rewrites that keep sentences but reorder or
reword the rest (their shingle Jaccard can fall below the LSH threshold).
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS
from unidecode import unidecode

from corroborator.linking import minhash

SHINGLE = 4  # words per shingle: short enough to survive light edits
COPY_SHARE = 0.5  # share of the new text found in the earlier one to call it a copy
MIN_SENTENCE_CHARS = 40  # shorter sentences ("He said:") are too common to fingerprint
MAX_POSTINGS = 50  # a sentence shared by more documents is boilerplate, not a copy signal

_WORD = re.compile(r"\w+", re.UNICODE)
_SENT_END = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+|\n+")

TextsLookup = Mapping[str, str] | Callable[[str], str | None]


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


# Linking compares each document with every candidate: the same texts come back many times.
_TEXT_CACHE = 512


@lru_cache(maxsize=_TEXT_CACHE)
def _shingles(text: str) -> frozenset[bytes]:
    words = _words(text)
    if len(words) < SHINGLE:
        return frozenset({" ".join(words).encode()} if words else ())
    return frozenset(
        " ".join(words[i : i + SHINGLE]).encode() for i in range(len(words) - SHINGLE + 1)
    )


def _hash32(data: bytes) -> int:
    return zlib.crc32(data)


def signature(text: str) -> bytes:
    """MinHash of the text's word shingles, as bytes to store beside the document."""
    return minhash.signature(_shingles(text), _hash32)


def estimated_jaccard(sig_a: bytes, sig_b: bytes) -> float:
    return minhash.jaccard(sig_a, sig_b)


def sentences(text: str) -> list[str]:
    """Rough sentence split (punctuation or line breaks): enough to fingerprint sentences."""
    return [s.strip() for s in _SENT_END.split(text) if s and s.strip()]


def _sentence_key(sentence: str) -> str:
    return " ".join(_words(unidecode(sentence)))


@lru_cache(maxsize=_TEXT_CACHE)
def _sentence_keys(text: str) -> Mapping[str, int]:
    """Normalised long sentences with their length in characters (shared: do not mutate)."""
    out: dict[str, int] = {}
    for s in sentences(text):
        if len(s) >= MIN_SENTENCE_CHARS:
            out[_sentence_key(s)] = len(s)
    return out


def containment(text_a: str, text_b: str) -> float:
    """Share of `text_a` that also appears in `text_b` (asymmetric, 0..1).

    The larger of two views: word shingles (edited copies) and whole sentences
    (rewrites that keep sentences but reorder or cut the rest).
    """
    sa = _shingles(text_a)
    if not sa:
        return 0.0
    shingle_share = len(sa & _shingles(text_b)) / len(sa)
    ka = _sentence_keys(text_a)
    total = sum(ka.values())
    sentence_share = 0.0
    if total:
        kb = _sentence_keys(text_b)
        sentence_share = sum(n for k, n in ka.items() if k in kb) / total
    return max(shingle_share, sentence_share)


class CopyIndex:
    """Incremental candidate finder: MinHash LSH plus an exact long-sentence index."""

    def __init__(self) -> None:
        self._lsh = minhash.LSH()
        self._order: dict[str, int] = {}
        self._sentences: dict[str, list[str]] = defaultdict(list)

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._order

    def add(self, doc_id: str, sig: bytes, text: str | None = None) -> None:
        """Index a document; give `text` to also index its long sentences."""
        if doc_id in self._order:
            return
        self._order[doc_id] = len(self._order)
        self._lsh.insert(doc_id, sig)
        if text is not None:
            for key in _sentence_keys(text):
                postings = self._sentences[key]
                if len(postings) <= MAX_POSTINGS:
                    postings.append(doc_id)

    def query(self, sig: bytes, text: str | None = None) -> list[str]:
        """Candidate ids, in the order they were added (earliest first)."""
        found = self._lsh.query(sig)
        if text is not None:
            for key in _sentence_keys(text):
                postings = self._sentences.get(key, [])
                if len(postings) <= MAX_POSTINGS:
                    found.update(postings)
        return sorted(found, key=self._order.__getitem__)


def _lookup(texts: TextsLookup, doc_id: str) -> str | None:
    if isinstance(texts, Mapping):
        return texts.get(doc_id)
    return texts(doc_id)


def find_original(
    doc_id: str,
    text: str,
    sig: bytes,
    index: CopyIndex,
    texts_lookup: TextsLookup,
    min_share: float = COPY_SHARE,
) -> tuple[str, float] | None:
    """The earlier document this one repeats wholly or in large part, with the shared share.

    "Repeats" means at least `min_share` of this text is found in the earlier one; a long
    article that merely quotes a short one is not its copy. Ties go to the earliest.
    """
    best: tuple[str, float] | None = None
    for cand in index.query(sig, text):
        if cand == doc_id:
            continue
        other = _lookup(texts_lookup, cand)
        if not other:
            continue
        share = containment(text, other)
        if share >= min_share and (best is None or share > best[1] + 1e-9):
            best = (cand, share)
    return best


# --- origins ---------------------------------------------------------------------------

_NAME_WORD = r"(?:[A-Z][\w&'’-]*(?:\.[a-z]{2,4}\b)?|\d+)"
_CONNECT = r"(?:of|for|and|de|&)"
_NAME = rf"(?:[Tt]he[ \t]+)?{_NAME_WORD}(?:[ \t]+(?:{_CONNECT}[ \t]+(?:the[ \t]+)?)?{_NAME_WORD})*"
_MEDIUM = (
    r"video|videos|footage|clip|recording|recordings|statement|report|interview|interviews|"
    r"images|photos|photographs|pictures|documents|audio|call|calls|conversation|"
    r"questioning|interrogation|message|post|letter|survey|investigation|analysis"
)
_PUBLISH = (
    r"released|published|posted|obtained|shared|broadcast|filmed|issued|provided|"
    r"distributed|aired|leaked|made public|first reported|reported|verified|conducted"
)
# (pattern, name_comes_after_cue): a name after its cue must not be an adjective
_PATTERNS: list[tuple[re.Pattern[str], bool]] = [
    (re.compile(rf"\baccording to\s+(?P<name>{_NAME})"), True),
    (re.compile(rf"\b(?:{_PUBLISH})\s+(?:\w+\s+)?by\s+(?P<name>{_NAME})"), True),
    (re.compile(rf"\b(?:{_MEDIUM})\s+(?:\w+\s+)?(?:from|by|of)\s+(?P<name>{_NAME})"), True),
    (re.compile(rf"\b(?:told|tells|telling)\s+(?P<name>{_NAME})"), True),
    (
        re.compile(rf"\bin an? (?:interview|statement|post) (?:with|to|on)\s+(?P<name>{_NAME})"),
        True,
    ),
    (re.compile(rf"(?P<name>{_NAME})\s+(?:reported|reports|first reported)\b"), False),
    (
        re.compile(
            rf"(?P<name>{_NAME}),\s+(?:an?|the)\s+[^.,;:]{{0,60}}?\b(?:that|which|who)\s+"
            rf"(?:first\s+)?(?:published|released|posted|obtained|leaked|broadcast)\b"
        ),
        False,
    ),
]
_ORIGIN_STOP = frozenset(
    {"the", "of", "for", "and", "on", "de", "&", "s", "he", "she", "they", "it", "we", "i"}
)
_DOMAIN_TLD = re.compile(r"\.(?:com|net|org|ru|ua|info|co|uk|tv|io)\b", re.I)
_PREFIX = 5  # "Ukrainian"/"Ukraine", "Services"/"Service" share a five-letter stem


def origin_key(name: str) -> str:
    """Order- and inflection-free key: 'Security Service of Ukraine' == 'Ukrainian Security Service'."""
    flat = _DOMAIN_TLD.sub("", unidecode(name)).lower().replace("’s", "").replace("'s", "")
    words = [w for w in re.findall(r"[a-z0-9]+", flat) if w not in _ORIGIN_STOP]
    return " ".join(sorted({w[:_PREFIX] for w in words}))


_NEXT_WORD = re.compile(r"[ \t]+([a-z]+)")


def _modifies_noun(text: str, end: int) -> bool:
    """True when the capitalised words are an adjective before a common noun ("by Russian troops")."""
    m = _NEXT_WORD.match(text, end)
    return m is not None and m.group(1) not in STOP_WORDS


def origins(text: str) -> list[str]:
    """Keys of the origins a report cites (agencies, outlets, groups releasing material).

    Only capitalised names count ("told Reuters", not "told a relative"), and not a
    demonym before a common noun ("by Ukrainian forces"); two outlets relaying one
    release share its key.
    """
    return list(_cited(text))


def origin_names(text: str) -> list[str]:
    """The cited origins as the text names them, one per key (for people to read)."""
    return list(_cited(text).values())


def _cited(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for pat, after_cue in _PATTERNS:
        for m in pat.finditer(text):
            name = m.group("name").strip(" .,'’")
            if name.split()[0].lower() in _ORIGIN_STOP and len(name.split()) == 1:
                continue
            if after_cue and _modifies_noun(text, m.end("name")):
                continue
            key = origin_key(name)
            if key:
                found.setdefault(key, name)
    return found


def group_copies(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Batch helper: {doc_id: original_id} for each document that repeats an earlier one."""
    index = CopyIndex()
    texts: dict[str, str] = {}
    out: dict[str, str] = {}
    for doc_id, text in items:
        sig = signature(text)
        hit = find_original(doc_id, text, sig, index, texts)
        if hit is not None:
            orig = hit[0]
            out[doc_id] = out.get(orig, orig)
        texts[doc_id] = text
        index.add(doc_id, sig, text)
    return out
