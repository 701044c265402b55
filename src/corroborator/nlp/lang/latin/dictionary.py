"""Whether a word is in a language's dictionary: simplemma's word forms (PyPI, offline),
kept as a sorted array of 64-bit hashes in the per-user cache and memory-mapped.

simplemma's own tables cost 0.1-1.6 s and up to 54 MB per process and language to load
(Polish; 2.7 s and 400 MB in its fast mode), paid again by every worker of an ingest; the
array is built once per machine (seconds) and then maps in a millisecond, its pages shared
by the workers. A hash collision makes one rare word look ordinary (odds ~1e-12 a word).
"""

from __future__ import annotations

import os
import zlib
from functools import cache
from importlib import metadata

import numpy as np

from corroborator.nlp.gazetteer import cache_path


def _hash(word: bytes) -> int:
    return (zlib.crc32(word) << 32) | zlib.adler32(word)


def _build(language: str) -> np.ndarray:
    from simplemma.strategies.dictionaries.dictionary_factory import (
        _load_dictionary_from_disk,
    )

    words = _load_dictionary_from_disk(language)
    return np.unique(np.fromiter((_hash(w) for w in words), dtype=np.uint64, count=len(words)))


@cache
def _table(language: str) -> np.ndarray | None:
    """The language's hashed word forms; None where simplemma has no dictionary for it."""
    from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES

    if language not in SUPPORTED_LANGUAGES:
        return None
    path = cache_path().parent / f"words-{language}-simplemma{metadata.version('simplemma')}.npy"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, _build(language))
        os.replace(tmp, path)
    return np.load(path, mmap_mode="r")


def known(word: str, language: str) -> bool:
    """The form itself is a dictionary word of the language (case as given)."""
    table = _table(language)
    if table is None or not word:
        return False
    h = np.uint64(_hash(word.encode("utf-8")))
    i = int(np.searchsorted(table, h))
    return i < len(table) and table[i] == h
