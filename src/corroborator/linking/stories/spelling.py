"""Whether two spellings are one name word: close letter for letter, alike in sound, or
paired across two lists (a transliteration, an inflection). String tests only, shared by
the records, the conflicts, the scores and the index."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np
from rapidfuzz.distance import JaroWinkler, Levenshtein
from rapidfuzz.process import cdist, extractOne

PLACE_SPELLING = 0.8  # Jaro-Winkler of two spellings of one place-name word
SOUND_SPELLING = 0.85  # Levenshtein similarity of their `sound`s, for longer words:
SOUND_LETTERS = 5  # ... of this many letters (Gaza and Gusau sound alike)
NAME_SPELLING = 0.85  # Jaro-Winkler of two keys of one name word across spellings/languages
_VOWELS = re.compile(r"[aeiouy]+")
_UNVOICED = str.maketrans("bdgzvwqc", "ptksffkk")
_REPEAT = re.compile(r"(.)\1+")


def one_spelling(a: str, b: str) -> bool:
    return spelled_like(a, [b], [sound(b)] if len(b) >= SOUND_LETTERS else [])


def spelled_like(word: str, names: list[str], sounds: list[str]) -> bool:
    """A name key read as one of `names`: close letter for letter, or, for longer words,
    alike once vowels and voicing are set aside, which is where transliterations part
    (Tabayin, Depayin; Kebkabiya, Kabkabiyah; El Obeid, Ubayyid). `sounds`: the `sound`
    of each name of SOUND_LETTERS or more. One rapidfuzz call per test, its best score
    compared here: with a `score_cutoff`, rapidfuzz drops a score equal to it."""
    if _best(word, names, JaroWinkler.similarity) >= PLACE_SPELLING:
        return True
    if len(word) < SOUND_LETTERS:
        return False
    return _best(sound(word), sounds, Levenshtein.normalized_similarity) >= SOUND_SPELLING


def _best(word: str, words: list[str], scorer: Callable[..., float]) -> float:
    found = extractOne(word, words, scorer=scorer)
    return float(found[1]) if found is not None else 0.0


@lru_cache(maxsize=1 << 16)
def sound(key: str) -> str:
    """A name key with every vowel run one 'a' and voiced consonants unvoiced."""
    return _REPEAT.sub(r"\1", _VOWELS.sub("a", key.translate(_UNVOICED)))


def spelling_pairs(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs of words in `a` and `b` that are one word spelled two ways (Lepetykha,
    Lepetykhy; Zhuravlyov, Zhuravlev), each word used once, closest first; exact matches
    are not included."""
    if not a or not b:
        return []
    sims = cdist(a, b, scorer=JaroWinkler.similarity, score_cutoff=NAME_SPELLING)
    pairs = sorted(((-sims[i, j], i, j) for i, j in zip(*np.nonzero(sims), strict=True)))
    used_a: set[int] = set()
    used_b: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        if a[i] != b[j] and min(len(a[i]), len(b[j])) >= 5:
            out.append((int(i), int(j)))
    return out
