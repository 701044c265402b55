"""MinHash signatures and their LSH bands, in numpy.

Byte for byte what datasketch 2 stored and bucketed before (`LeanMinHash` of the
"affine32" scheme, seed 1; `MinHashLSH` at threshold 0.3 over 128 permutations), so stored
signatures and link state stay valid; importing datasketch pulled in scipy (~0.7 s on every
ingest) only to choose the band shape.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from functools import cache

import numpy as np

NUM_PERM = 128
SEED = 1
BANDS, ROWS = 37, 3  # datasketch's choice for threshold 0.3 and 128 permutations
_FORMAT = f"@qiB{NUM_PERM}I"  # seed, -NUM_PERM (the post-2.0 format), scheme code 1, values
_HEADER = struct.pack("@qiB", SEED, -NUM_PERM, 1)


@cache
def _permutations() -> tuple[np.ndarray, np.ndarray]:
    """h -> a*h + b mod 2^32 with odd a, drawn as datasketch draws them."""
    gen = np.random.RandomState(SEED)
    a = gen.randint(0, 1 << 31, NUM_PERM, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, NUM_PERM, dtype=np.uint32)
    return a, b


def _fmix32(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's finalizer (datasketch mixes each input hash with it first)."""
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def signature(items: Iterable[bytes], hash32: Callable[[bytes], int]) -> bytes:
    """The serialized MinHash of a set of byte strings (all-ones for an empty set)."""
    hashes = np.array([hash32(x) for x in items], dtype=np.uint32)
    values = np.full(NUM_PERM, 0xFFFFFFFF, dtype=np.uint32)
    if hashes.size:
        a, b = _permutations()
        values = (_fmix32(hashes).reshape(-1, 1) * a + b).min(axis=0)
    return struct.pack(_FORMAT, SEED, -NUM_PERM, 1, *values.tolist())


def current(sig: bytes) -> bool:
    """Whether a stored signature is of this format (datasketch 1 wrote another)."""
    return len(sig) == struct.calcsize(_FORMAT) and sig.startswith(_HEADER)


def values(sig: bytes) -> np.ndarray:
    return np.frombuffer(sig, dtype=np.uint32, offset=struct.calcsize("@qiB0I"))


def jaccard(sig_a: bytes, sig_b: bytes) -> float:
    """Estimated Jaccard similarity: the share of equal values."""
    return float(np.count_nonzero(values(sig_a) == values(sig_b))) / NUM_PERM


def bands(sig: bytes) -> list[bytes]:
    """The signature's LSH bands: two sets sharing one become candidates."""
    vals = values(sig)
    return [vals[i * ROWS : (i + 1) * ROWS].tobytes() for i in range(BANDS)]


class LSH:
    """Keys by band: a query finds every key sharing a band with it."""

    def __init__(self) -> None:
        self._tables: list[dict[bytes, list[str]]] = [{} for _ in range(BANDS)]

    def insert(self, key: str, sig: bytes) -> None:
        for table, band in zip(self._tables, bands(sig), strict=True):
            table.setdefault(band, []).append(key)

    def query(self, sig: bytes) -> set[str]:
        found: set[str] = set()
        for table, band in zip(self._tables, bands(sig), strict=True):
            found.update(table.get(band, ()))
        return found
