"""Tokens with offsets, lemmas and sentences for Russian and Ukrainian text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from corroborator.nlp import lexicon

_WORD = re.compile(r"\d+(?:[.,]\d+)?|[^\W\d_]+(?:['’ʼ-][^\W\d_]+)*", re.UNICODE)


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str
    lemma: str

    @property
    def lower(self) -> str:
        return self.text.lower()

    @property
    def is_title(self) -> bool:
        return self.text[:1].isupper()


@cache
def analyzer(lang: str) -> Any:
    """pymorphy3 with its bundled ru or uk dictionary (loaded once per process)."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="uk" if lang == "uk" else "ru")


@cache
def _lemma(word: str, lang: str) -> str:
    if word[:1].isdigit():
        return word
    return str(analyzer(lang).parse(word)[0].normal_form).replace("ё", "е")


def lemma(word: str, lang: str) -> str:
    return _lemma(word.lower(), lang)


def tokens(text: str, lang: str) -> list[Token]:
    return [
        Token(m.start(), m.end(), m.group(), lemma(m.group(), lang)) for m in _WORD.finditer(text)
    ]


def sentences(text: str) -> list[tuple[int, int]]:
    """Sentence (start, end) pairs; a line break always ends one (headlines lack stops)."""
    from razdel import sentenize

    out: list[tuple[int, int]] = []
    for s in sentenize(text):
        start = s.start
        for part in s.text.split("\n"):
            if part.strip():
                lead = len(part) - len(part.lstrip())
                out.append((start + lead, start + len(part.rstrip())))
            start += len(part) + 1
    return out


@cache
def lex() -> dict[str, Any]:
    data: dict[str, Any] = lexicon.load_json("ru_uk.json")
    return data


_NAME_TAGS = ("Name", "Surn", "Patr")


def _name_parses(word: str, lang: str) -> list[Any]:
    return [p for p in analyzer(lang).parse(word) if any(t in p.tag for t in _NAME_TAGS)]


def is_name_word(word: str, lang: str) -> bool:
    """A word that can be a given name, surname or patronymic, or one the dictionary
    does not know (a rare surname); "Відео", "Після" are known common words."""
    return bool(_name_parses(word, lang)) or not analyzer(lang).word_is_known(word.lower())


def nominative(name: str, lang: str) -> str:
    """A name in the nominative case, read from the case and gender of its given name
    ("Івана Федорова" -> "Іван Федоров", "Олени Петренко" -> "Олена Петренко"), so that
    cross-document resolution compares one form per person. A bare surname stays as is."""
    words = name.split()
    given = next(
        (
            ps
            for w in words
            if (
                ps := [
                    p for p in analyzer(lang).parse(w) if "Name" in p.tag and "plur" not in p.tag
                ]
            )
        ),
        [],
    )
    if len(words) < 2 or not given or any(p.tag.case == "nomn" for p in given):
        return name
    case, gender = given[0].tag.case, given[0].tag.gender
    out = []
    for word in words:
        parses = [
            p
            for p in analyzer(lang).parse(word)
            if p.tag.case == case and "plur" not in p.tag and p.tag.gender in (gender, None)
        ]
        form = parses[0].inflect({"nomn"}) if parses else None
        new = form.word.replace("ё", "е") if form is not None else word
        out.append(new[:1].upper() + new[1:] if word[:1].isupper() else new)
    return " ".join(out)
