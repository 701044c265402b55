"""English headwords for the event words of other languages' reports.

A Ukrainian or German retelling shares no words with the English wire it retells, only
names, and names alone cannot tell one Kharkiv POW video from another. A dictionary of the
vocabulary of conflict news (`lexicons/linking_concepts.tsv`: deserter, basement,
lieutenant, intercept ... in ru, uk, de, fr, es, pl, it, pt, nl, tr, ar, cs and ro) maps a word of
those languages to the English word, so the two reports share "deserter" and "basement"
the way two English ones do. Forms are stems matched as prefixes (Russian and Ukrainian inflect), in
the transliterated spelling the story linker reads every text in. An English report's
words meet those headwords through their dictionary forms (killed, children -> kill, child).
"""

from __future__ import annotations

import json
import os
import zlib
from functools import cache
from importlib import metadata

from unidecode import unidecode

from corroborator.nlp import lexicon
from corroborator.nlp.gazetteer import cache_path
from corroborator.nlp.lang.arabic import words as arabic
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


@cache
def headwords() -> frozenset[str]:
    return frozenset(row[0] for row in lexicon.rows("linking_concepts.tsv"))


@cache
def _english_forms() -> dict[str, str]:
    """English word form -> headword (killed, children, fled -> kill, child, flee), from
    simplemma's English dictionary: built once per machine into the per-user cache, since
    loading that dictionary costs 0.2 s and 30 MB."""
    heads = headwords()
    digest = zlib.crc32(" ".join(sorted(heads)).encode())
    name = f"concept-forms-en-simplemma{metadata.version('simplemma')}-{digest:08x}.json"
    path = cache_path().parent / name
    if path.exists():
        return dict(json.loads(path.read_text(encoding="utf-8")))
    from simplemma.strategies.dictionaries.dictionary_factory import (
        _load_dictionary_from_disk,
    )

    forms = {
        form.decode().lower(): lemma.decode()
        for form, lemma in _load_dictionary_from_disk("en").items()
        if lemma.decode() in heads
    }
    forms.update((h, h) for h in heads)  # "wounded" is a headword of its own, not "wound"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(forms, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)
    return forms


def english_headword(word: str) -> str | None:
    """The headword of a lower-case English word, when it is a form of one: an English
    report's "killed" meets a Ukrainian one's "vbyly" (kill) only there."""
    return _english_forms().get(word)
