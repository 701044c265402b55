"""Offline language detection per document and per paragraph (lingua, no network).

Restricted to the languages our sources come in, which keeps lingua fast and stops it
guessing Bulgarian for a short Russian line. A declared language (JSONL/HTML metadata)
wins for every paragraph written in its script; a paragraph in another script (an English
quote block in a Ukrainian article) gets its own detected language.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from corroborator.models import LangRange
from corroborator.nlp.lexicon import load_json

if TYPE_CHECKING:
    from lingua import Language, LanguageDetector

LANGUAGES = ("en", "ru", "uk", "fr", "de", "es", "pl", "ar", "it", "pt", "nl", "tr", "cs", "ro")
CYRILLIC = frozenset({"ru", "uk"})
_UK_ONLY = re.compile(r"[іїєґІЇЄҐ]")  # letters Russian never uses
_RU_ONLY = re.compile(r"[ыэъёЫЭЪЁ]")  # letters Ukrainian never uses
_PARAGRAPH = re.compile(r"[^\n]+(?:\n(?!\s*\n)[^\n]+)*")  # lines up to a blank line
_ASCII_WORD = re.compile(r"[A-Za-z]+")
# Scripts that write one language we have no reader for: a paragraph in one of them is
# that language, which no model of ours reads (English NER took Georgian words for names).
SCRIPT_LANGUAGES = {  # code: (name, letters)
    "ka": ("Georgian", "[\u10a0-\u10ff]"),
    "hy": ("Armenian", "[\u0530-\u058f]"),
    "he": ("Hebrew", "[\u0590-\u05ff]"),
    "el": ("Greek", "[\u0370-\u03ff]"),
    "am": ("Amharic", "[\u1200-\u139f]"),  # Ethiopic (also Tigrinya)
    "hi": ("Hindi", "[\u0900-\u097f]"),  # Devanagari
    "bn": ("Bengali", "[\u0980-\u09ff]"),
    "ta": ("Tamil", "[\u0b80-\u0bff]"),
    "th": ("Thai", "[\u0e00-\u0e7f]"),
    "my": ("Burmese", "[\u1000-\u109f]"),
    "ko": ("Korean", "[\uac00-\ud7af]"),  # Hangul
}
CASED_SCRIPTS = frozenset({"el"})  # of those, the one that capitalises names
_SCRIPT_RUNS = {  # every Cyrillic or Arabic block character counts; Latin: ASCII letters
    "cyrillic": re.compile(r"[\u0400-\u04ff]+"),
    "arabic": re.compile(r"[\u0600-\u06ff]+"),
    "latin": _ASCII_WORD,
    **{code: re.compile(letters + "+") for code, (_, letters) in SCRIPT_LANGUAGES.items()},
}
_READ_BY_LINGUA = ("cyrillic", "arabic", "latin")
_OTHER_LETTER = re.compile(r"[^\W\d_\x00-\x7f]")  # a letter outside ASCII
# Letters only Turkish writes (dotless i, s and g with marks): lingua answers Turkish for
# short English lines too ("By Ayse Demir"), so a short line needs one of them to be Turkish.
_TURKISH_ONLY = re.compile(r"[ıİşŞğĞ]")
TURKISH_WORDS = 8


@lru_cache(maxsize=2)
def detector(long: bool = False) -> LanguageDetector:
    """lingua over our languages; with `long`, its low-accuracy mode (trigrams only), which
    loads in ~0.07 s where the full models take ~1.3 s. On the project's texts it gave the
    full mode's answer for every paragraph of `LONG` characters or more that reaches
    lingua (995), and erred on shorter ones (a headline and byline of 147 characters read
    as German), also where it was sure (`SURE`) of them."""
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = [getattr(IsoCode639_1, c.upper()) for c in LANGUAGES]
    builder = LanguageDetectorBuilder.from_iso_codes_639_1(*codes)
    return (builder.with_low_accuracy_mode() if long else builder).build()


LONG = 200
SURE = 0.9  # the fast mode's confidence below which the full models decide


def script(text: str) -> str:
    """'cyrillic', 'arabic', 'latin' or the language code of a `SCRIPT_LANGUAGES` script, by
    majority of letters ('' when there are none)."""
    counts = {name: sum(map(len, runs.findall(text))) for name, runs in _SCRIPT_RUNS.items()}
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else ""


def _script_of(lang: str) -> str:
    if lang in SCRIPT_LANGUAGES:
        return lang
    return "cyrillic" if lang in CYRILLIC else "arabic" if lang == "ar" else "latin"


def detect(text: str) -> str | None:
    """ISO 639-1 code of the text's language, or None when there are no letters to judge.

    Short paragraphs repeat (datelines, bylines, page furniture), so their answers are
    remembered; lingua takes about a millisecond a paragraph."""
    if len(text) <= _REMEMBER_CHARS:
        return _detect_short(text)
    return _detect(text)


_REMEMBER_CHARS = 2000


@lru_cache(maxsize=8192)
def _detect_short(text: str) -> str | None:
    return _detect(text)


def _detect(text: str) -> str | None:
    found = script(text)
    if not found:
        return None
    if found in SCRIPT_LANGUAGES:
        return found
    if found == "cyrillic":
        uk, ru = len(_UK_ONLY.findall(text)), len(_RU_ONLY.findall(text))
        if uk and not ru:
            return "uk"
        if ru and not uk:
            return "ru"
    elif found == "latin" and _plainly_english(text):
        return "en"
    text = text[:5000]
    lang = None
    if len(text) >= LONG:
        lang = _surely(text)
    lang = lang or detector().detect_language_of(text)
    if lang is not None and lang.iso_code_639_1.name == "TR" and not _turkish(text):
        lang = next(
            (
                c.language
                for c in detector().compute_language_confidence_values(text)
                if c.language.iso_code_639_1.name != "TR" and c.value > 0
            ),
            None,
        )
    return lang.iso_code_639_1.name.lower() if lang is not None else None


def _turkish(text: str) -> bool:
    return bool(_TURKISH_ONLY.search(text)) or len(text.split()) >= TURKISH_WORDS


def _plainly_english(text: str) -> bool:
    """Eight words or more in ASCII letters, a fifth or more of them English function
    words and none a (lower-case) French, German or Spanish one: lingua answers English for
    every such paragraph of the project's texts (and would at one word in eight), and not
    asking it saves ~1 ms a paragraph."""
    if _OTHER_LETTER.search(text):
        return False
    words = _ASCII_WORD.findall(text[:5000])
    function = _function_words()
    if len(words) < 8 or not function["other"].isdisjoint(words):
        return False
    return 5 * sum(w.lower() in function["english"] for w in words) >= len(words)


@lru_cache(maxsize=1)
def _function_words() -> dict[str, frozenset[str]]:
    raw = load_json("language_function_words.json")
    return {k: frozenset(v) for k, v in raw.items() if isinstance(v, list)}


def ranges(text: str, declared: str | None = None) -> list[LangRange]:
    """(start, end, language) per run of paragraphs in one language, covering every
    paragraph; the declared language wins where the script agrees with it."""
    declared = (declared or "").lower().split("-")[0] or None
    out: list[LangRange] = []
    for m in _PARAGRAPH.finditer(text):
        para = m.group()
        if not para.strip():
            continue
        lang: str | None
        if declared and script(para) in ("", _script_of(declared)):
            lang = declared
        else:
            lang = detect(para) or (out[-1].language if out else declared or "en")
        if out and out[-1].language == lang:
            out[-1] = LangRange(out[-1].start, m.end(), lang)
        else:
            out.append(LangRange(m.start(), m.end(), lang))
    return out


def language_name(code: str) -> str:
    """'de' -> 'German' (lingua's names); the code itself where lingua has none."""
    if code in SCRIPT_LANGUAGES:
        return SCRIPT_LANGUAGES[code][0]
    from lingua import IsoCode639_1, Language

    iso = getattr(IsoCode639_1, code.upper(), None)
    return Language.from_iso_code_639_1(iso).name.title() if iso is not None else code


def main_language(found: list[LangRange]) -> str | None:
    """The language covering most characters."""
    sizes: dict[str, int] = {}
    for r in found:
        sizes[r.language] = sizes.get(r.language, 0) + r.end - r.start
    return max(sizes, key=lambda k: sizes[k]) if sizes else None


def language_of(text: str) -> str | None:
    """A document's language: the one covering most of its paragraphs. Where plainly
    English paragraphs alone fill over half the text, English covers most whatever the
    others are, so lingua is not asked about them (nor loaded, ~1 s, if no document needs
    it); likewise where the long paragraphs of one language do, the short ones (headlines,
    datelines, which need lingua's full models) are not asked; nor are they where its fast
    mode, reading them together, is sure of one language (`_surely`)."""
    paragraphs = _PARAGRAPH.findall(text)
    plain = sum(len(p) for p in paragraphs if _plainly_english(p) and script(p) == "latin")
    if 2 * plain > len(text):
        return "en"
    sizes: dict[str, int] = {}
    for para in paragraphs:
        if len(para) >= LONG and (code := detect(para)):
            sizes[code] = sizes.get(code, 0) + len(para)
    short = [p for p in paragraphs if len(p) < LONG and script(p) in _READ_BY_LINGUA]
    joined = "\n".join(short)
    lang = _surely(joined) if len(joined) >= LONG else None
    if lang and all(_surely(p) in (lang, None) for p in short):
        code = lang.iso_code_639_1.name.lower()
        sizes[code] = sizes.get(code, 0) + len(joined)
    best = max(sizes, key=lambda k: sizes[k], default=None)
    if best is not None and 2 * sizes[best] > len(text):
        return best
    return main_language(ranges(text))


def _surely(text: str) -> Language | None:
    """The language lingua's fast mode is sure of (`SURE`), else None. A report's short
    paragraphs, read together, name their language without the full models (~3 s to
    load) unless one of them alone is surely another: read together, a mix is no test
    (two Italian lines and an English one gave English at 0.94)."""
    sure = detector(long=True).compute_language_confidence_values(text[:5000])
    return sure[0].language if sure and sure[0].value >= SURE else None
