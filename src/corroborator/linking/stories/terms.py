"""A report's words as story terms: stems, names reduced to their keys, other languages'
words as the English they translate, and names' consonant skeletons (which meet across
scripts). The first step of reading a report; everything else compares what it gives."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS
from unidecode import unidecode

from corroborator.linking import concepts
from corroborator.linking.copies import sentences
from corroborator.linking.names import word_key
from corroborator.nlp import lexicon
from corroborator.nlp.lang.arabic import words as arabic
from corroborator.nlp.lang.detect import CASED_SCRIPTS, SCRIPT_LANGUAGES
from corroborator.nlp.lang.latin.words import case_stem

LEAD_SENTENCES = 3
LEAD_WEIGHT = 2.0  # lead terms count this many times more: the lead names the main event
# Languages whose script does not capitalise names, read like Arabic: the skeletons of all
# their words (ARABIC_SKELETON) meet the Latin-script reports' name skeletons.
CASELESS = frozenset({"ar"}) | frozenset(SCRIPT_LANGUAGES).difference(CASED_SCRIPTS)
_ANY_WORD = re.compile(r"[^\W\d_]+")
SKELETON_TRIM = 4  # a longer skeleton of a caseless script also counts without its last letter
NAME = "@"  # prefix of name terms
ARABIC = "ar:"  # prefix of Arabic stems the concept dictionary does not translate
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
# French and Italian articles and pronouns elided onto the next word (l'hôpital, d'enfants,
# qu'ils, dell'esercito): left on, the word matched neither the concept dictionary nor the
# same word elsewhere, and a name after one (d'Haïti) did not read as a name.
_ELIDED = re.compile(
    r"^(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu|un|all|dall|dell|nell|sull|coll|"
    r"quell|quest|sant|nessun)'(?=[A-Za-z])"
)
# A Turkish name: its case ending after an apostrophe comes off (Ramallah'a, Sincil'de), and
# its letters are spelled as English spells the sounds (Sincil is Sinjil, Şam is Sham);
# left as they were, a Turkish report shared no name with its English telling.
_TURKISH_NAME = re.compile(r"\b[A-ZÇĞİÖŞÜ][^\W\d_]*(?:['’][^\W\d_]+)?")
_TURKISH_SOUNDS = str.maketrans({"c": "j", "C": "J", "ç": "ch", "Ç": "Ch", "ş": "sh", "Ş": "Sh"})
# the Arabic article in Latin letters, in its sun-letter forms (al-Bab, el-Fasher, ash-Sham)
ARTICLE_WORDS = "al|el|ad|adh|an|ar|as|ash|at|ath|az|ed|en|er|es|et|ez"
_ARTICLE = re.compile(rf"^(?i:{ARTICLE_WORDS})-(?=[A-Z])")


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "'s", "’s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=1 << 16)
def _term(word: str, name: bool) -> str:
    """Lower-cased stem; a name is marked NAME and reduced to its transliteration-neutral
    key, so spellings of one name are one term. Months and weekdays are capitalised but
    name no one: as names, any two reports of one month looked alike."""
    lower = word.lower().strip("'-")
    if name and lower not in lexicon.calendar_words():
        return NAME + (word_key(lower) or lower)
    return _stem(lower)


@lru_cache(maxsize=1 << 16)
def _foreign_term(word: str, name: bool, language: str) -> str:
    """A word of another language: the English word it translates, when the concept
    dictionary has it (a German noun is capitalised, yet no name), else as `_term`."""
    english = concepts.english(word.lower(), language)
    return _stem(english) if english else _term(word, name)


@lru_cache(maxsize=16)
def _stop_words(language: str) -> frozenset[str]:
    """English function words and the language's own (quotes and names in English)."""
    return frozenset(STOP_WORDS) | concepts.stop_words(language)


def _split(text: str) -> tuple[list[list[str]], set[str]]:
    """Each sentence's words (transliterated), and the words capitalised inside a
    sentence: such a word is a name at a sentence's start too ("Kherson city authorities
    said ..."); other first words are ordinary words."""
    split = [
        [_ELIDED.sub("", w) if "'" in w else w for w in _WORD.findall(unidecode(s))]
        for s in sentences(text)
    ]
    return split, {w for words in split for w in words[1:] if w[0].isupper()}


def term_counts(text: str, language: str | None = None) -> dict[str, float]:
    """Content-word counts, lead sentences weighted up; names reduced to their keys.
    Unigrams only: a retelling in other words shares single words, rarely word pairs.
    A report in another language counts the English words of what it tells."""
    return read_terms(text, language)[0]


def read_terms(text: str, language: str | None) -> tuple[dict[str, float], dict[str, float]]:
    """`term_counts`, and in the same pass the words of what happened that every language
    can say (the concept dictionary's headwords): a foreign report's are its translated
    terms; an English one's, its words that are forms of a headword (killed -> kill), which
    its own terms keep as written. Two reports in different languages compared on these
    alone are not diluted by the words one of them could never share."""
    if language == "ar":
        arabic_counts = _arabic_counts(text)
        return arabic_counts, _headword_terms(arabic_counts)
    if language in CASELESS:
        return _script_counts(text, language), {}
    foreign = language if language in concepts.languages() else None
    english = not language or language == "en"
    stop = _stop_words(foreign) if foreign else STOP_WORDS
    counts: defaultdict[str, float] = defaultdict(float)
    said: defaultdict[str, float] = defaultdict(float)
    if language == "tr":
        text = _TURKISH_NAME.sub(_turkish_name, text)
    split, named = _split(text)
    for i, sent_words in enumerate(split):
        weight = LEAD_WEIGHT if i < LEAD_SENTENCES else 1.0
        for j, w in enumerate(sent_words):
            if len(w) <= 2 or w.lower() in stop:
                continue
            name = w[0].isupper() and (j > 0 or w in named)
            counts[_foreign_term(w, name, foreign) if foreign else _term(w, name)] += weight
            if english and not name and (head := concepts.english_headword(w.lower())):
                said[_stem(head)] += weight
    return counts, said if english else _headword_terms(counts)


def _turkish_name(m: re.Match[str]) -> str:
    """A capitalised Turkish word without its case ending, spelled as English would spell a
    name (a word the concept dictionary translates, 'Çocuklar' opening a sentence, is left
    as written)."""
    word = case_stem(m.group())
    if concepts.english(unidecode(word).lower(), "tr"):
        return word
    return word.translate(_TURKISH_SOUNDS)


def _headword_terms(counts: dict[str, float]) -> dict[str, float]:
    heads = _concept_terms()
    return {t: c for t, c in counts.items() if t in heads}


@lru_cache(maxsize=1)
def _concept_terms() -> frozenset[str]:
    return frozenset(_stem(h) for h in concepts.headwords())


def _script_counts(text: str, language: str) -> dict[str, float]:
    """A report in a script we have no reader for: its words as written (no dictionary
    translates them, no capital marks a name), which only reports in its language share."""
    counts: defaultdict[str, float] = defaultdict(float)
    for i, sentence in enumerate(sentences(text)):
        weight = LEAD_WEIGHT if i < LEAD_SENTENCES else 1.0
        for w in _ANY_WORD.findall(sentence.lower()):
            if len(w) > 2:
                counts[f"{language}~{w}"] += weight
    return counts


def _arabic_counts(text: str) -> dict[str, float]:
    """An Arabic report's stems: the English word where the concept dictionary has one;
    a word the language's dictionary lacks as a name (nothing else marks one); other
    words not at all: in a corpus with few Arabic reports their common words look rare,
    and made any two of them alike."""
    counts: defaultdict[str, float] = defaultdict(float)
    for i, sentence in enumerate(sentences(text)):
        weight = LEAD_WEIGHT if i < LEAD_SENTENCES else 1.0
        for w, common in arabic.words(sentence):
            english = _arabic_english(w)
            if english:
                counts[_stem(english)] += weight
            else:
                counts[(ARABIC if common else NAME + ARABIC) + w] += weight
    return counts


@lru_cache(maxsize=1 << 16)
def _arabic_english(stem: str) -> str | None:
    return concepts.english(stem, "ar")


def skeletons(text: str, language: str | None) -> frozenset[str]:
    """Consonant skeletons of the names a report writes (`arabic.skeleton`): in an Arabic
    one, of every word the concept dictionary does not translate (a name is often also a
    word of the language: تعز, يونس)."""
    if language == "ar":
        found = {
            arabic.skeleton(w)
            for sentence in sentences(text)
            for w, _ in arabic.words(sentence)
            if not _arabic_english(w)
        }
    elif language in CASELESS:
        # every word, and without its last consonant: a case ending (Georgian
        # გუგუტიანთკარის, of Gugutiantkari) or a final letter read as one (Hebrew ו)
        found = {k for w in _ANY_WORD.findall(text) for k in _trimmed(arabic.skeleton(w))}
    else:
        split, named = _split(text)
        found = {
            arabic.skeleton(w)
            for words in split
            for j, w in enumerate(_ARTICLE.sub("", w) if "-" in w else w for w in words)
            if w[0].isupper() and (j > 0 or w in named) and w.lower() not in STOP_WORDS
        }
    return frozenset(found - {""})


def _trimmed(key: str) -> tuple[str, ...]:
    return (key, key[:-1]) if len(key) > SKELETON_TRIM else (key,)
