"""Casualty figures: "от 300 до 400 человек", "близько 40 дітей", "двадцять п'ять загиблих".

A number counts only when a person noun or a casualty word follows within a few words, so
years, house numbers and brigade numbers stay out. Number words are read by lemma.
"""

from __future__ import annotations

from corroborator.models import Count, DateRef
from corroborator.nlp.lang.ru_uk.text import Token, lex

_PEOPLE = frozenset(
    {"человек", "люди", "людина", "особа", "чоловік", "мужчина", "тело", "тіло", "жертва"}
)
_WINDOW = 3


def _number(toks: list[Token], i: int) -> tuple[int, int] | None:
    """(value, index after) of the number starting at toks[i]: digits or number words."""
    t = toks[i]
    if t.text.isdigit():
        return int(t.text), i + 1
    words: dict[str, int] = lex()["numbers"]
    total, j = 0, i
    while j < len(toks) and (toks[j].lemma in words or toks[j].lower in words):
        total += words.get(toks[j].lemma, words.get(toks[j].lower, 0))
        j += 1
    return (total, j) if j > i else None


def _approx_before(text: str, toks: list[Token], i: int) -> int | None:
    """Start of an approximation phrase ending just before toks[i]."""
    before = text[max(0, toks[i].start - 20) : toks[i].start].lower()
    for phrase in sorted(lex()["approx"], key=len, reverse=True):
        if before.rstrip().endswith(phrase):
            return toks[i].start - (len(before) - before.rstrip().rfind(phrase))
    return None


def _same_sentence(text: str, a: Token, b: Token) -> bool:
    lo, hi = (a, b) if a.start < b.start else (b, a)
    return not any(ch in ".!?\n" for ch in text[lo.end : hi.start])


def find(text: str, toks: list[Token], dates: list[DateRef]) -> list[Count]:
    victims: dict[str, str] = lex()["victims"]
    outcomes: dict[str, str] = lex()["outcomes"]
    in_date = {t.start for t in toks for d in dates if d.start <= t.start < d.end}
    out: list[Count] = []
    i = 0
    while i < len(toks):
        if toks[i].start in in_date or (num := _number(toks, i)) is None:
            i += 1
            continue
        low, j = num
        high = low
        start = toks[i].start
        approx_at = _approx_before(text, toks, i)
        if i > 0 and toks[i - 1].lower in ("от", "від") and j < len(toks) and toks[j].lower == "до":
            if j + 1 < len(toks) and (second := _number(toks, j + 1)):
                high, j = second
                start = toks[i - 1].start
        elif (
            j < len(toks)
            and text[toks[j - 1].end : toks[j].start] in ("-", "–", "—")
            and (second := _number(toks, j))
        ):
            high, j = second
        counted = outcome = None
        person = False
        for k in range(j, min(j + _WINDOW, len(toks))):
            lem = toks[k].lemma
            counted = counted or victims.get(lem)
            outcome = outcome or outcomes.get(lem) or outcomes.get(toks[k].lower)
            if not _same_sentence(text, toks[i], toks[k]):
                end_tok = j - 1
                break
            if counted or outcome or lem in _PEOPLE:
                person, end_tok = True, k
                break
        else:
            end_tok = j - 1
        while (
            end_tok + 1 < len(toks)
            and end_tok >= j
            and toks[end_tok + 1].lemma in _PEOPLE.union(victims)
        ):
            end_tok += 1
        if not (person or outcome or counted):
            i = j
            continue
        if approx_at is not None:
            start = approx_at
        end = toks[max(end_tok, j - 1)].end
        if counted == "wounded":
            counted, outcome = None, outcome or "wounded"
        near = [*range(end_tok + 1, min(len(toks), end_tok + 5)), *range(i - 1, max(-1, i - 5), -1)]
        for k in near:
            if _same_sentence(text, toks[i], toks[k]):
                outcome = outcome or outcomes.get(toks[k].lemma) or outcomes.get(toks[k].lower)
        out.append(
            Count(start, end, text[start:end], low, high, approx_at is not None, outcome, counted)
        )
        i = max(j, end_tok + 1)
    return out
