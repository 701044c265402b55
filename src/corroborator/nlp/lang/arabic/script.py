"""Arabic letters as every reader of them folds them: one form per letter, and a word
without the proclitics written onto it (the prefixes of Larkey et al.'s light stemmer).
Kept apart from `words` so that the gazetteer's build can key Arabic names with it."""

from __future__ import annotations

import re

MIN_STEM = 3  # letters a word keeps after its proclitics are cut

# letters and the marks written on them: a shadda or a vowel sign (المغيّر) would
# otherwise cut a word in two, and neither half is the name
ARABIC_WORD = re.compile(r"[\u0621-\u065f\u0670-\u06d3]+")
_MARKS = re.compile(r"[\u064b-\u065f\u0670\u0640]")  # harakat, dagger alif, tatweel
_FOLD = str.maketrans(
    {"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه", "ؤ": "و", "ئ": "ي"}
)
PREFIXES = ("وال", "بال", "كال", "فال", "لل", "ال", "و", "ف", "ب", "ل")


def bare(word: str) -> str:
    """Without diacritics and tatweel."""
    return _MARKS.sub("", word)


def normalise(word: str) -> str:
    """Without diacritics and tatweel; one letter for each of alif's and yaa's forms."""
    return bare(word).translate(_FOLD)


def stem(word: str) -> str:
    """Normalised word without its leading proclitic group."""
    word = normalise(word)
    for prefix in PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= MIN_STEM:
            return word[len(prefix) :]
    return word
