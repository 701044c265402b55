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


def nominative(name: str, lang: str) -> str:
    """A name in the nominative case, gender kept ("Олени Петренко" -> "Олена Петренко"),
    so that cross-document resolution compares one form per person."""
    out = []
    for word in name.split():
        parse = analyzer(lang).parse(word)[0]
        form = None if parse.tag.case in (None, "nomn") else parse.inflect({"nomn"})
        new = form.word if form is not None else word
        out.append(new[:1].upper() + new[1:] if word[:1].isupper() else new)
    return " ".join(out)
