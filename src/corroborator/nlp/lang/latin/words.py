"""Words with offsets, and which of them can be part of a name.

A language's dictionary (simplemma's, bundled on PyPI) tells its ordinary words: what is
not in it and is capitalised is a name ('Swjaginzew', 'Kyseliwka'). German capitalises
every noun, so there a dictionary word is never a name by its capital alone; in French,
Spanish or Polish a capitalised dictionary word inside a sentence is ('Marie', 'Pérez').
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from corroborator.nlp import lexicon
from corroborator.nlp.lang.latin.dictionary import known

_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_SENTENCE_END = re.compile(r"[.!?:;\n]")
_ELIDED = re.compile(r"^\w{1,3}['’]")  # "J'ai", "L'armée", "Qu'il"
# a case ending set off from a name ("Derkuş'ta", "İdlib'in", "Oekraïne's"): the name ends
# at the apostrophe
_SUFFIXED = re.compile(r"[^\W\d_]{2,}(?=['’][^\W\d_A-Z]{1,5}$)")
NOUNS_CAPITALISED = frozenset({"de", "lb"})
PARTICLES = lexicon.words("latin_name_particles.txt")  # "von der", "de la", "al"


@dataclass(frozen=True)
class Word:
    start: int
    end: int
    text: str
    first: bool  # opens a sentence (or the text)

    @property
    def upper(self) -> bool:
        return len(self.text) > 1 and self.text.isupper()


def words(text: str) -> list[Word]:
    out: list[Word] = []
    prev = 0
    for m in _WORD.finditer(text):
        first = not out or bool(_SENTENCE_END.search(text, prev, m.start()))
        word = m.group()
        if word[:1].isupper():
            word = case_stem(word)
        out.append(Word(m.start(), m.start() + len(word), word, first))
        prev = m.end()
    return out


def case_stem(word: str) -> str:
    """A name without the case ending set off after an apostrophe ('Derkuş'ta' -> 'Derkuş')."""
    stem = _SUFFIXED.match(word)
    return stem.group() if stem is not None else word


def capitalised_inside(ws: list[Word]) -> frozenset[str]:
    """Words the text capitalises inside a sentence: at a sentence's start such a word is a
    name too ('Swjaginzew diente ...'); other first words are ordinary ('Au', "J'ai")."""
    return frozenset(w.text for w in ws if not w.first and w.text[0].isupper())


@lru_cache(maxsize=1 << 16)
def ordinary(word: str, language: str) -> bool:
    """A word of the language's dictionary as written, in lower case ('En' opening a
    sentence) or capitalised ('mann' for the noun 'Mann'): simplemma's own reading of a
    known word. False where there is no dictionary for the language."""
    cased = word.lower() if word[:1].isupper() else word.capitalize()
    return known(word, language) or (word[1:].islower() and known(cased, language))


def acronym(w: Word, language: str) -> bool:
    """Capitals that spell no word of the report's language or of English ('SBU', 'ONU';
    not 'PUBLICITÉ', 'ANZEIGE', 'OK')."""
    if not w.upper or len(w.text) > 6:
        return False
    word = w.text.capitalize()
    return not any(ordinary(word, lang) for lang in (language, "en"))


def name_word(w: Word, language: str, inside: frozenset[str]) -> bool:
    """`inside`: the text's `capitalised_inside` words. A sentence's first word is a name
    when the text capitalises it inside a sentence too, or when it is no word of the
    language's dictionary and no short or elided function word ('Au', "J'ai") the
    dictionary may lack: 'Charkiw, 4. Mai.' opening a report."""
    if not w.text[0].isupper():
        return False
    if w.first and w.text not in inside:
        return len(w.text) > 3 and not _ELIDED.match(w.text) and not ordinary(w.text, language)
    if w.upper:  # an acronym, or a name in capitals ('BAMAKO'), not 'ANZEIGE'
        return not ordinary(w.text.capitalize(), language)
    if not ordinary(w.text, language):
        return True
    return not w.first and language not in NOUNS_CAPITALISED
