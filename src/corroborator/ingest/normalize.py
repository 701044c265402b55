"""Working text from decoded source text, with a map back to the original characters.

The working text is what every offset refers to; normalisation (NFC, odd spaces, line
ends, zero-width marks, and any dropped ranges such as page furniture) changes lengths,
so we keep breakpoints to map any working-text offset back to the decoded original and
show an investigator the untouched source.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence

# Spaces that look like a space but break tokenisers and matching.
_SPACES = {
    "\u00a0",
    "\u2007",
    "\u202f",
    "\u2000",
    "\u2001",
    "\u2002",
    "\u2003",
    "\u2004",
    "\u2005",
    "\u2006",
    "\u2008",
    "\u2009",
    "\u200a",
    "\u205f",
    "\u3000",
    "\t",
    "\x0b",
    "\x0c",
}
# Invisible characters dropped outright.
_DROP = {"\ufeff", "\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\r"}
_LINE_BREAKS = {"\u2028", "\u2029", "\x85"}


_ODD = re.compile("[" + "".join(sorted(_SPACES | _DROP | _LINE_BREAKS)) + "]")


def normalize(raw: str, drop: Sequence[tuple[int, int]] = ()) -> tuple[str, list[tuple[int, int]]]:
    """Return (working text, breakpoints), leaving out the sorted `drop` ranges of `raw`.

    Breakpoints are (working offset, original offset) pairs at every place where the two
    drift apart; between breakpoints the offsets advance together.
    """
    if not drop and _ODD.search(raw) is None and unicodedata.is_normalized("NFC", raw):
        return raw, []
    out: list[str] = []
    points: list[tuple[int, int]] = []
    w = 0
    i = 0
    n = len(raw)
    cuts = iter(sorted(drop))
    cut = next(cuts, None)
    while i < n:
        while cut is not None and cut[1] <= i:
            cut = next(cuts, None)
        if cut is not None and cut[0] <= i:
            if not points or points[-1] != (w, i):
                points.append((w, i))
            i = cut[1]
            points.append((w, i))
            continue
        # A clean run up to the next odd character or cut passes whole: most of a text
        # is, and walking it a character at a time cost ~3 ms per article.
        odd = _ODD.search(raw, i, cut[0] if cut is not None else n)
        stop = odd.start() if odd else (cut[0] if cut is not None else n)
        if stop > i and _clean(raw, i, stop):
            out.append(raw[i:stop])
            w += stop - i
            i = stop
            continue
        w, i = _step(raw, i, w, out, points)
    return "".join(out), points


def _clean(raw: str, i: int, stop: int) -> bool:
    """raw[i:stop] is in NFC and no combining mark joins it to what follows."""
    return unicodedata.is_normalized("NFC", raw[i:stop]) and not (
        stop < len(raw) and unicodedata.combining(raw[stop])
    )


def _step(
    raw: str, i: int, w: int, out: list[str], points: list[tuple[int, int]]
) -> tuple[int, int]:
    """Normalise one character with its combining marks (NFC per grapheme run); the working
    and original offsets after it."""
    j = i + 1
    while j < len(raw) and unicodedata.combining(raw[j]):
        j += 1
    chunk = raw[i:j]
    if chunk in _DROP:
        piece = ""
    elif chunk in _SPACES:
        piece = " "
    elif chunk in _LINE_BREAKS:
        piece = "\n"
    else:
        piece = unicodedata.normalize("NFC", chunk)
    if len(piece) != len(chunk) and (not points or points[-1] != (w, i)):
        points.append((w, i))
    # a character NFC expands (U+FB2C, U+1D15E: composition exclusions) maps every
    # working character it became back to itself
    points.extend((w + k, i) for k in range(1, len(piece)) if len(piece) > len(chunk))
    out.append(piece)
    w += len(piece)
    if len(piece) != len(chunk):
        points.append((w, j))
    return w, j


def to_original(offset: int, points: list[tuple[int, int]]) -> int:
    """Map a working-text offset to the decoded original's offset."""
    if not points:
        return offset
    k = bisect.bisect_right(points, (offset, float("inf"))) - 1
    if k < 0:
        return offset
    w, o = points[k]
    return o + (offset - w)


def to_working(offset: int, points: list[tuple[int, int]]) -> int:
    """Map a decoded-original offset to the working text (inside dropped characters: the
    working offset where they were)."""
    if not points:
        return offset
    origs = [o for _, o in points]
    k = bisect.bisect_right(origs, offset) - 1
    if k < 0:
        return offset
    while k > 0 and origs[k - 1] == origs[k] == offset:
        k -= 1  # an expanded character starts at the first working character it became
    w, o = points[k]
    out = w + (offset - o)
    return min(out, points[k + 1][0]) if k + 1 < len(points) else out
