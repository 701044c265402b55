"""Find direct quotations by their marks, paragraph by paragraph.

News text mixes “curly”, "straight" and British ‘single’ quotes, the last of which share
their closing mark with the apostrophe (don’t, soldiers’). Off-the-shelf extractors give up
on unbalanced marks, so this scanner decides each mark from its neighbours and a little
state: ’ between letters is an apostrophe, ‘ after a space opens, ’ before a space or
punctuation closes only while a single quote is open. A quote still open at the end of a
paragraph ends there (`runs_on`): the British convention re-opens it on the next paragraph.
A closing mark with no opening one before it in its paragraph closes a quote that began
with the paragraph.
Marks of the other family inside an open quote are nested quotes and are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DOUBLE_OPEN = "“„«"
DOUBLE_CLOSE = "”»"
DOUBLE_ANY = '"' + DOUBLE_OPEN + DOUBLE_CLOSE
SINGLE_OPEN = "‘‚‹"
SINGLE_AMBIG = "’'›"
OPEN_AFTER = "([{—–-:;/,…" + DOUBLE_ANY + SINGLE_OPEN
CLOSE_BEFORE = ".,;:!?)]}—–-…" + DOUBLE_ANY + SINGLE_AMBIG


@dataclass(frozen=True)
class MarkedQuote:
    """Quoted words (`start`/`end`, trimmed) with the marks around them.

    `open_at` is the opening mark (the paragraph start, equal to `start`, when only a
    closing mark was printed); `close_at` the closing mark or None when the quote runs
    to the end of its paragraph; `para` indexes the paragraph (line) it sits in.
    """

    start: int
    end: int
    open_at: int
    close_at: int | None
    para: int
    para_start: int
    para_end: int

    @property
    def runs_on(self) -> bool:
        return self.close_at is None

    @property
    def outer_end(self) -> int:
        """First character after the quote including its closing mark."""
        return self.close_at + 1 if self.close_at is not None else self.para_end


def paragraphs(text: str) -> list[tuple[int, int]]:
    """Non-blank lines as (start, end) offsets."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        end = pos + len(line)
        if line.strip():
            spans.append((pos, end))
        pos = end + 1
    return spans


def _opens(text: str, i: int, lo: int, hi: int) -> bool:
    prev = text[i - 1] if i > lo else ""
    nxt = text[i + 1] if i + 1 < hi else ""
    return (not prev or prev.isspace() or prev in OPEN_AFTER) and bool(nxt) and not nxt.isspace()


def _closes(text: str, i: int, lo: int, hi: int) -> bool:
    prev = text[i - 1] if i > lo else ""
    nxt = text[i + 1] if i + 1 < hi else ""
    return bool(prev) and not prev.isspace() and (not nxt or nxt.isspace() or nxt in CLOSE_BEFORE)


def _plural_possessive(text: str, i: int, hi: int, open_at: int) -> bool:
    """soldiers’ families: an s, then the mark, then a lowercase word, and either a closer
    later or an open quotation of whole sentences, whose closer follows punctuation, not a
    bare word (a quotation running on into the next paragraph has no closer here)."""
    if text[i - 1] not in "sS" or i + 2 >= hi or text[i + 1] != " ":
        return False
    if not text[i + 2].islower():
        return False
    rest = text[i + 1 : hi]
    if any(ch in SINGLE_AMBIG and _closes(text, i + 1 + k, i, hi) for k, ch in enumerate(rest)):
        return True
    return re.search(r"[.!?]\s", text[open_at:i]) is not None


def _is_apostrophe(text: str, i: int, lo: int, hi: int) -> bool:
    prev = text[i - 1] if i > lo else ""
    nxt = text[i + 1] if i + 1 < hi else ""
    return prev.isalnum() and nxt.isalnum()


def _closes_unopened(text: str, i: int, lo: int, hi: int) -> bool:
    """A closing mark after punctuation with no opening mark before it in the paragraph
    ("They even took the kettle," he said): the quote began at the paragraph start, its
    opening mark lost (a quotation re-opened without one, or a syndicating site's slip)."""
    return (
        i - lo > 2
        and text[i - 1] in ",.!?…"
        and _closes(text, i, lo, hi)
        and not any(c in DOUBLE_ANY + SINGLE_OPEN for c in text[lo:i])
    )


def _scan_paragraph(text: str, lo: int, hi: int, para: int) -> list[MarkedQuote]:
    found: list[MarkedQuote] = []
    family = ""  # "d" or "s" while a quote is open
    open_at = -1

    def emit(close: int | None, end: int, start: int | None = None, opened: int = -1) -> None:
        """Record the quote between its marks, trimmed of spaces and a trailing comma."""
        opened = open_at if start is None else opened
        start = open_at + 1 if start is None else start
        while start < end and text[start].isspace():
            start += 1
        while end > start and (text[end - 1].isspace() or text[end - 1] == ","):
            end -= 1
        if end > start:
            found.append(MarkedQuote(start, end, opened, close, para, lo, hi))

    for i in range(lo, hi):
        ch = text[i]
        if ch in DOUBLE_ANY:
            if family == "s":
                continue  # nested inside a single-quoted passage
            if family == "d":
                if ch in DOUBLE_CLOSE or (ch == '"' and _closes(text, i, lo, hi)):
                    emit(i, i)
                    family = ""
                elif ch in DOUBLE_OPEN or ch == '"':
                    emit(None, i)  # never closed: a new quote begins here
                    open_at = i
                continue
            if ch in DOUBLE_OPEN or (ch == '"' and _opens(text, i, lo, hi)):
                family, open_at = "d", i
            elif not found and _closes_unopened(text, i, lo, hi):
                emit(i, i, start=lo, opened=lo)
        elif ch in SINGLE_OPEN:
            if not family and _opens(text, i, lo, hi):
                family, open_at = "s", i
        elif ch in SINGLE_AMBIG:
            if family == "d" or _is_apostrophe(text, i, lo, hi):
                continue
            if family == "s":
                if _closes(text, i, lo, hi) and not _plural_possessive(text, i, hi, open_at):
                    emit(i, i)
                    family = ""
            elif _opens(text, i, lo, hi) and not text[i + 1].isdigit():
                family, open_at = "s", i
    if family:
        emit(None, hi)
    return found


def scan_quotes(text: str) -> list[MarkedQuote]:
    """Every outermost quotation in `text`, in order; nested quotes are not returned."""
    found: list[MarkedQuote] = []
    for n, (lo, hi) in enumerate(paragraphs(text)):
        found.extend(_scan_paragraph(text, lo, hi, n))
    return found
