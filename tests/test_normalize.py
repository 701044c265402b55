"""Working text normalisation keeps a faithful map back to the original characters."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from corroborator.ingest.normalize import normalize, to_original, to_working

odd = st.sampled_from(
    ["\u00a0", "\u200b", "\r\n", "\ufeff", "e\u0301", "\u2009", "\u2028", "’", "“"]
)
texts = st.lists(st.one_of(st.text(max_size=8), odd), max_size=30).map("".join)


@given(texts)
def test_normalize_is_idempotent(raw: str) -> None:
    once, _ = normalize(raw)
    assert normalize(once)[0] == once


@given(texts)
def test_offsets_map_back_to_the_same_characters(raw: str) -> None:
    text, points = normalize(raw)
    for i, ch in enumerate(text):
        o = to_original(i, points)
        if ch == raw[o]:
            continue
        # a changed character maps to the original run it came from (a character NFC
        # expands, U+FB2C or U+1D15E, became several)
        assert ch in (" ", "\n") or ch in unicodedata.normalize("NFC", raw[o : o + 3])


@given(texts, st.lists(st.integers(min_value=0, max_value=300), max_size=6))
def test_dropped_ranges_leave_and_map_around_them(raw: str, marks: list[int]) -> None:
    """Furniture cuts: no working character comes from inside a cut, and each maps back to
    the character it was (or the run NFC made it from)."""
    ends = sorted({min(m, len(raw)) for m in marks})
    cuts = [(ends[k], ends[k + 1]) for k in range(0, len(ends) - 1, 2)]
    text, points = normalize(raw, cuts)
    for i, ch in enumerate(text):
        o = to_original(i, points)
        assert not any(a <= o < b for a, b in cuts)
        assert (
            ch == raw[o] or ch in (" ", "\n") or ch in unicodedata.normalize("NFC", raw[o : o + 3])
        )


def test_a_character_nfc_expands_maps_back_to_itself() -> None:
    """U+FB2C (a Hebrew presentation form) becomes three characters under NFC; each maps
    back to it, and the original span of it maps to all three."""
    raw = "a\ufb2cb"
    text, points = normalize(raw)
    assert text == "a\u05e9\u05bc\u05c1b"
    assert [to_original(i, points) for i in range(len(text))] == [0, 1, 1, 1, 2]
    assert (to_working(1, points), to_working(2, points)) == (1, 4)


def test_known_cases() -> None:
    text, points = normalize("Bucha\u00a0— \u200bIrpin\r\ncafe\u0301 Kyiv")
    assert text == "Bucha — Irpin\ncafé Kyiv"
    assert to_original(text.index("Irpin"), points) == 9
    assert to_original(
        text.index("Kyiv"), points
    ) == "Bucha\u00a0— \u200bIrpin\r\ncafe\u0301 Kyiv".index("Kyiv")
