"""Arabic words for the story linker, and names compared across scripts.

Arabic has no capitals, so nothing marks a name, and its articles and conjunctions are
written onto the word (والمستشفى: "and the hospital"), so a dictionary stem never starts
it. Words are normalised (hamza seats, final yaa, taa marbuta) and lose one proclitic group
(the prefixes of Larkey et al.'s light stemmer; suffixes stay, since dictionary forms are
matched as prefixes and a name keeps its ending: النصيرات, Nuseirat), then are read
through the concept dictionary like any other language's. A name written in Arabic letters (الفاشر)
and the same name in Latin letters (El Fasher) share their consonants once both are
transliterated and vowels, weak letters and digraphs are folded (f-s-r): that skeleton is
what ties an Arabic report to its English retelling.
"""

from __future__ import annotations

import re
from functools import lru_cache

from unidecode import unidecode

from corroborator.nlp.lang.arabic.script import ARABIC_WORD, bare, normalise, stem
from corroborator.nlp.lang.latin.dictionary import known
from corroborator.nlp.stop_words import stop_words

__all__ = ["normalise", "skeleton", "stem", "words"]

MIN_SKELETON = 3  # consonants: two (t-z, r-f) are shared by too many unrelated words

_DIGRAPHS = {"kh": "k", "sh": "s", "th": "t", "dh": "d", "gh": "g", "ph": "f", "ch": "s"}
_DIGRAPHS |= {"zh": "j", "ts": "s"}
_LETTERS = str.maketrans({"q": "k", "c": "k", "v": "f", "p": "b", "x": "k"})
_WEAK = re.compile(r"[aeiouywh]")  # vowels and the letters that write them in Arabic
_REPEAT = re.compile(r"(.)\1+")
_NOT_ASCII_LETTER = re.compile(r"[^a-z]")


def words(sentence: str) -> list[tuple[str, bool]]:
    """The stems of a sentence's Arabic words that are not function words, each with
    whether it is a word of the language's dictionary (simplemma's): what is not, in a
    news text, is mostly a name (الفاشر, الشرعبي)."""
    stop = _stop_words()
    return [(stem(w), _common(w)) for w in ARABIC_WORD.findall(sentence) if w not in stop]


@lru_cache(maxsize=1 << 16)
def _common(word: str) -> bool:
    plain = bare(word)
    return known(plain, "ar") or known(stem(plain), "ar")


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    return stop_words("ar")


@lru_cache(maxsize=1 << 16)
def skeleton(word: str) -> str:
    """Consonants of a word in any script, transliterated and folded: الفاشر and Fasher
    are both "fsr", خاركيف and Kharkiv "krkf"; '' when fewer than MIN_SKELETON remain."""
    s = _NOT_ASCII_LETTER.sub("", unidecode(word).lower())
    for pair, one in _DIGRAPHS.items():
        s = s.replace(pair, one)
    s = _REPEAT.sub(r"\1", _WEAK.sub("", s.translate(_LETTERS)))
    return s if len(s) >= MIN_SKELETON else ""
