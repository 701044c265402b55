"""Speech without quote marks: transcript turns, interview answers, dash dialogue.

Interview transcripts give each turn a speaker label ("DOVZHENKO: In March ..."), Q&A
pieces answer "Q:" with "A:" (the answers are the interviewee's, named in the
introduction; the questions are the outlet's and are no quotes), and translated dialogue
opens each line with a dash ("— We hid, she said. — Then they left."). These are quotes
under the gold rules; reported speech without marks ("X said the soldiers had ...") is not.
Each turn is returned as a `MarkedQuote` so attribution treats it like any other quote,
with the label's offsets where a label names the speaker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corroborator.nlp.quotes.lexicon import Lexicon
from corroborator.nlp.quotes.marks import DOUBLE_ANY, SINGLE_OPEN, MarkedQuote, paragraphs

# An upper-case speaker label of one to four words, or a Q/A letter, then a colon.
_LABEL = re.compile(r"([A-Z][A-Z.'’-]*(?: [A-Z][A-Z.'’-]+){0,3}):\s+(?=\S)")
_DASH = re.compile(r"(?:^|(?<=[.!?…] ))[—–-] (?=[A-Z«\"“])")
_IRREGULAR = {"said": "say", "told": "tell", "wrote": "write", "spoke": "speak"}
QUESTION, ANSWER = ("Q", "QUESTION"), ("A", "ANSWER")


@dataclass(frozen=True)
class Turn:
    """A quote without marks; `label` is the speaker label's (start, end) or None, `answer`
    marks an interview answer (its speaker is the interviewee)."""

    quote: MarkedQuote
    label: tuple[int, int] | None = None
    answer: bool = False


def _is_cue_word(word: str, lex: Lexicon) -> bool:
    low = word.lower()
    forms = {low, _IRREGULAR.get(low, low), low[:-2], low[:-1], low[:-3] + "y"}
    return any(f in lex.cues for f in forms)


def _has_marks(text: str) -> bool:
    return any(mark in text for mark in DOUBLE_ANY + SINGLE_OPEN)


def label_turns(text: str) -> list[Turn]:
    """Transcript turns and answers: paragraphs that open with a speaker label.

    A document counts as a transcript only when at least two paragraphs open with name
    labels, so a single "WARNING: ..." or "UPDATE: ..." line is left alone; answers count
    where questions are asked."""
    found: list[tuple[int, int, int, int, tuple[int, int], str]] = []
    for n, (lo, hi) in enumerate(paragraphs(text)):
        m = _LABEL.match(text, lo)
        if m is None or m.end() >= hi or len(m.group(1)) < 1:
            continue
        found.append((n, lo, hi, m.end(), (m.start(1), m.end(1)), m.group(1)))
    named = [f for f in found if f[5] not in QUESTION + ANSWER]
    questions = [f for f in found if f[5] in QUESTION]
    turns: list[Turn] = []
    for n, lo, hi, start, label, name in found:
        if name in QUESTION:
            continue
        if name not in ANSWER and len(named) < 2:
            continue  # one "CHAIR:" or "UPDATE:" line makes no transcript
        if name in ANSWER and not questions:
            continue
        end = len(text[:hi].rstrip())
        quote = MarkedQuote(start, end, start - 1, end - 1, n, lo, hi)
        if name in ANSWER:
            turns.append(Turn(quote, None, answer=True))
        else:
            turns.append(Turn(quote, label))
    return turns


def _attribution_at(text: str, start: int, hi: int, lex: Lexicon) -> int | None:
    """The punctuation that ends the words after a dash, before "X said" / "she asked"."""
    pattern = re.compile(
        r"([,?!…])\s+((?:[A-Z][\w'’-]*\s+){1,3}|(?:he|she|they)\s+|the\s+(?:\w+\s+){1,2})(\w+)"
    )
    for m in pattern.finditer(text, start, hi):
        if _is_cue_word(m.group(3), lex):
            return m.start(1)
    return None


def dash_turns(text: str, lex: Lexicon) -> list[Turn]:
    """Dialogue opened by a dash at the start of a line or after a sentence."""
    turns: list[Turn] = []
    for n, (lo, hi) in enumerate(paragraphs(text)):
        line = text[lo:hi]
        if _has_marks(line):
            continue
        for m in _DASH.finditer(line):
            start = lo + m.end()
            nxt = _DASH.search(line, m.end())
            stop = lo + nxt.start() if nxt is not None else hi
            punct = _attribution_at(text, start, stop, lex)
            if punct is None:  # no "she said": the words run to the next dash or line end
                end = len(text[:stop].rstrip())
                close = end - 1
            else:  # the punctuation stands where a closing mark would ("...," she said)
                end = punct if text[punct] == "," else punct + 1
                close = punct + 1
            quote = MarkedQuote(start, end, lo + m.start(), close, n, lo, hi)
            turns.append(Turn(quote))
    return turns


def find_turns(text: str, lex: Lexicon) -> list[Turn]:
    """Every unmarked quote of `text`, in order."""
    turns = label_turns(text) + dash_turns(text, lex)
    return sorted(turns, key=lambda t: t.quote.start)
