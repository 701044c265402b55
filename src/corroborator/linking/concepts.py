"""English headwords for the event words of other languages' reports.

A Ukrainian or German retelling shares no words with the English wire it retells, only
names, and names alone cannot tell one Kharkiv POW video from another. A dictionary of the
vocabulary of conflict news (`lexicons/linking_concepts.tsv`: deserter, basement,
lieutenant, intercept ... in ru, uk, de, fr, es, pl, it, pt and nl) maps a word of those languages
to the English word, so the two reports share "deserter" and "basement" the way two
English ones do. Forms are stems matched as prefixes (Russian and Ukrainian inflect), in
the transliterated spelling the story linker reads every text in.
"""

from __future__ import annotations

from functools import cache

from unidecode import unidecode

from corroborator.linking import arabic
from corroborator.nlp import lexicon
from corroborator.nlp.stop_words import stop_words as spacy_stop_words

MIN_FORM = 4  # shorter stems prefix too many unrelated words
# Arabic stems stay in Arabic letters: transliterated and lower-cased, حرب (war) and هرب
# (flee) would be one key; three of its letters are a root.
MIN_ARABIC_FORM = 3


@cache
def _forms() -> dict[str, dict[str, str]]:
    """language -> stem (transliterated and lower-case; Arabic normalised) -> English."""
    out: dict[str, dict[str, str]] = {}
    for english, lang, forms in lexicon.rows("linking_concepts.tsv"):
        table = out.setdefault(lang, {})
        for form in forms.split():
            if lang == "ar":
                key, shortest = arabic.normalise(form), MIN_ARABIC_FORM
            else:
                key, shortest = unidecode(form).lower(), MIN_FORM
            if len(key) >= shortest:
                table.setdefault(key, english)
    return out


@cache
def _lengths(language: str) -> tuple[int, ...]:
    return tuple(sorted({len(k) for k in _forms().get(language, {})}, reverse=True))


def languages() -> frozenset[str]:
    return frozenset(_forms())


def english(word: str, language: str) -> str | None:
    """The English headword of a transliterated lower-case word of `language` (an Arabic
    one as `arabic.words` gives it): its longest stem in the dictionary, if any."""
    table = _forms().get(language)
    if not table:
        return None
    for n in _lengths(language):
        if n <= len(word):
            found = table.get(word[:n])
            if found is not None:
                return found
    return None


@cache
def stop_words(language: str) -> frozenset[str]:
    """The language's function words (spaCy's lists), transliterated: untranslated, they
    only dilute a report's vector."""
    return frozenset(unidecode(w).lower() for w in spacy_stop_words(language))
