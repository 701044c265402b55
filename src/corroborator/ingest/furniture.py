"""Page furniture in plain text: menus, bylines, dates, share buttons, sign-up and cookie
notices, related-headline lists around the article body.

trafilatura drops it from HTML, but text and JSONL records arrive with it pasted in, and
there it misleads every later stage (a menu line became the "lead" of story linking). Each
line gets features (words, stopword share, sentence punctuation, interface-word share,
date-token share, separators, repetition); the body runs from the first to the last line
that reads as prose. Before the body only a headline survives; after it nothing does;
inside it only lines that are plainly interface are dropped, with any list of headlines
that an interface line ("Read more") introduces. The caller drops the ranges while
normalising, so the offset map still points into the archived original.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from corroborator.nlp import lexicon
from corroborator.nlp.stop_words import stop_words

PROSE_WORDS = 8  # a line this long that ends like a sentence is prose
RUN_ON_WORDS = 20  # ... or this long without an end (an excerpt cut mid-sentence)
HEADLINE_WORDS = (2, 20)
# Function words of every language we read: prose is told from menus by them, and a
# Russian or Ukrainian closing sentence has no English ones.
STOP_WORDS = stop_words("en") | stop_words("ru") | stop_words("uk")
LONG_WORDS = 15  # a line this long is text unless it looks like interface
MAX_INTERFACE = 0.12  # interface-word share above which a prose-looking line is a notice
SHORT_INTERFACE = 0.25  # ... and above which a short line is a button or menu item

_WORD = re.compile(r"[^\W\d_][\w'’.-]*|\d+", re.UNICODE)
_GUILLEMETS = re.compile(r"«[^»]*»")
_SEPARATORS = re.compile(r"\s[|•·›»/>–—-]\s|\s{2,}\S|[|•·›»]")
_BREADCRUMB = re.compile(r"\w\s+[›»>]\s+\w")
# a sentence end, allowing a signed-off source after it ("... on social media. — Euronews")
_SENTENCE_END = re.compile(r"(?:[.!?…][\"'”’)\]]*|[\"”’])(?:\s+[—–-]+\s*(?:\S+\s?){1,4})?\s*$")
_TIME = re.compile(r"^\d{1,2}[:.]\d{2}(?:[ap]m)?$|^\d{1,4}([./-])\d{1,2}\1\d{2,4}$", re.I)
_BYLINE = re.compile(r"^(?:by|text|photo|photos|words|reporting|editing)\b[:\s]", re.I)
_LABEL = re.compile(r"^[^\W\d_][\w ]{0,25}:\s*\S")


@dataclass(frozen=True)
class Line:
    start: int
    end: int  # after the line's newline
    text: str


DATELINE_WORDS = 10  # a date stamp or dateline is no longer than this
_DATELINE = re.compile(r"[^\n]{1,80}?\s[-–—]+\s")  # "KYIV, 3 March 2025 (Agency) - "
CONTINUED_WORDS = 5  # a line this long, ending mid-sentence, runs on into the next


def lines(text: str) -> list[Line]:
    """The text's lines, a hard-wrapped paragraph as one: a line that ends mid-sentence
    and is followed by one starting in lower case continues it, and is judged with it."""
    out: list[Line] = []
    pos = 0
    for raw in text.splitlines(keepends=True):
        line = Line(pos, pos + len(raw), raw.strip())
        pos += len(raw)
        prev = out[-1] if out else None
        if prev and line.text[:1].islower() and _runs_on(prev.text):
            out[-1] = Line(prev.start, line.end, prev.text + " " + line.text)
        else:
            out.append(line)
    return out


def _runs_on(text: str) -> bool:
    return len(_WORD.findall(text)) >= CONTINUED_WORDS and not _SENTENCE_END.search(text)


@cache
def _date_words() -> frozenset[str]:
    stamp = {"updated", "published", "am", "pm", "gmt", "utc", "at"}
    return lexicon.calendar_words() | stamp


@dataclass(frozen=True)
class Features:
    words: int
    stopwords: float  # share of words that are stopwords
    interface: float  # share that are interface words
    dates: float  # share that are dates, times, weekdays, months or bare numbers
    sentence: bool  # ends like a sentence
    separators: int
    byline: bool
    label: bool  # "Tags:", "Read also:" and other short labels
    copyright: bool
    quoted: bool  # holds quotation marks: someone's words, never page interface
    breadcrumb: bool  # "Africa › Sudan": a section trail, never a headline


def features(line: str) -> Features:
    words = _WORD.findall(line)
    lower = [w.lower().strip(".") for w in words]
    n = len(words) or 1
    interface = lexicon.words("furniture_interface.txt", lower=True)
    dates = _date_words()
    n_date = sum(w in dates or w.isdigit() for w in lower)
    n_date += sum(bool(_TIME.match(t)) for t in line.split())
    return Features(
        words=len(words),
        stopwords=sum(w in STOP_WORDS for w in lower) / n,
        interface=sum(w in interface for w in lower) / n,
        dates=min(1.0, n_date / n),
        sentence=bool(_SENTENCE_END.search(line)),
        separators=len(_SEPARATORS.findall(_GUILLEMETS.sub("", line))),  # «» quote, not »
        byline=bool(_BYLINE.match(line)) and len(words) <= 7,
        label=_is_label(line, interface),
        copyright="©" in line or "(c)" in line.lower(),
        quoted=any(c in line for c in '«»“”„"'),
        breadcrumb=bool(_BREADCRUMB.search(_GUILLEMETS.sub("", line))),
    )


def _is_label(line: str, interface: frozenset[str]) -> bool:
    """ "Tags: war", "Read also: ...", "Photo: Reuters": a short prefix naming interface, or
    a value of a word or two. "Kharkiv governor: Russian drones hit Zolochiv" is a
    headline in the "who: what" form, not a label."""
    if not _LABEL.match(line) or len(_WORD.findall(line)) > 6:
        return False
    prefix, value = line.split(":", 1)
    named = any(w.lower() in interface for w in _WORD.findall(prefix))
    return named or len(_WORD.findall(value)) <= 2


def is_prose(f: Features) -> bool:
    """Reads as running text: long, and a sentence or rich in function words."""
    if f.words < PROSE_WORDS or f.interface > MAX_INTERFACE or f.separators > 2:
        return False
    return f.sentence or (f.stopwords >= 0.3 and f.words >= RUN_ON_WORDS)


def is_text(f: Features) -> bool:
    """Prose, or a long line with no interface look (a paragraph ending in markup or a
    caption): text a reader came for, which the body must never start after."""
    if is_prose(f):
        return True
    return f.words >= LONG_WORDS and f.interface <= MAX_INTERFACE and f.separators <= 2


def is_cut(f: Features) -> bool:
    """Reads as the start of a sentence cut short ("The governor said two of the"): the
    last line of an excerpt, which must not be taken for furniture after the body."""
    return (
        f.words >= CONTINUED_WORDS
        and not f.sentence
        and f.stopwords >= 0.3
        and f.interface <= MAX_INTERFACE
        and f.separators <= 1
        and not (f.label or f.byline or f.copyright)
    )


def is_interface(f: Features, repeated: bool) -> bool:
    """Plainly page interface: a button, menu, date stamp, byline or sign-up notice."""
    if f.words == 0:
        return False
    if f.byline or f.copyright or (f.dates >= 0.6 and f.words <= 8):
        return True
    if f.separators >= 2 and f.stopwords < 0.3:
        return True  # a menu or breadcrumb: "Home / News / Regions"
    if f.words <= 3 and (f.interface > 0 or repeated or (not f.sentence and f.stopwords == 0)):
        return True  # "Share", "Advertisement"; a subhead ("Detention of volunteers") stays
    return f.words < 15 and f.interface >= SHORT_INTERFACE


def is_headline(f: Features) -> bool:
    lo, hi = HEADLINE_WORDS
    return (
        lo <= f.words <= hi
        and f.interface <= (MAX_INTERFACE if f.words >= 6 else 0)  # "families search for"
        and f.dates < 0.5
        and f.separators < 2
        and not (f.label or f.byline or f.breadcrumb)
    )


@dataclass(frozen=True)
class Page:
    """A pasted page read once: its furniture (ranges leaving the working text) and its
    header (where it states when and by whom it was published, `header`)."""

    furniture: list[tuple[int, int]]
    header: list[tuple[int, int, bool]]


def page(text: str) -> Page:
    ls = lines(text)
    feats = [features(ln.text) for ln in ls]
    drop, _ = _furniture(ls, feats)
    return Page(
        _merge([(ls[i].start, ls[i].end) for i in sorted(drop)]), _header(text, ls, feats, drop)
    )


def furniture_ranges(text: str) -> list[tuple[int, int]]:
    """(start, end) character ranges of furniture lines, sorted, not overlapping."""
    return page(text).furniture


def _header(
    text: str, ls: list[Line], feats: list[Features], drop: set[int]
) -> list[tuple[int, int, bool]]:
    """Character ranges above the first paragraph of prose where a pasted page states when
    and by whom it was published, each marked whether it is furniture: the furniture and
    short lines there (a byline, "Stockholm, 27 November 2025", "Outlet | Interview |
    3 September 2025"; a short line may also be a headline), and the dateline opening the
    first paragraph ("ZAPORIZHZHIA, 24 June 2025 - A Russian soldier ...")."""
    out = []
    for i, (ln, f) in enumerate(zip(ls, feats, strict=True)):
        if not ln.text:
            continue
        if is_prose(f) and f.sentence:  # a long title may run on without a full stop
            lead = _DATELINE.match(text, ln.start, ln.end)
            if lead and len(_WORD.findall(lead[0])) <= DATELINE_WORDS:
                out.append((ln.start, lead.end(), True))
            break
        if i in drop or (f.words <= DATELINE_WORDS and not f.sentence):
            out.append((ln.start, ln.end, i in drop))
    return out


def _furniture(ls: list[Line], feats: list[Features]) -> tuple[set[int], int]:
    """Indices of the furniture lines, and of the body's first line."""
    if len(ls) < 3:
        return set(), 0
    counts = Counter(ln.text.lower() for ln in ls if ln.text)
    prose = [i for i, f in enumerate(feats) if is_text(f)]
    if not prose:
        return set(), 0
    first, last = _extend(ls, feats, prose[0], -1), _extend(ls, feats, prose[-1], 1)
    cut = max((i for i, ln in enumerate(ls) if ln.text), default=last)
    if cut > last and all(not ln.text for ln in ls[last + 1 : cut]) and is_cut(feats[cut]):
        last = cut  # an excerpt's last sentence, cut short
    drop: set[int] = set()
    for i in range(first):  # before the body: keep the headline(s) only
        if ls[i].text and not is_headline(feats[i]):
            drop.add(i)
    drop.update(i for i in range(last + 1, len(ls)) if ls[i].text)
    in_list = False
    for i in range(first + 1, last):
        f = feats[i]
        if not ls[i].text:
            continue
        if is_prose(f):
            in_list = False
        elif is_interface(f, counts[ls[i].text.lower()] > 1) or (f.label and not f.sentence):
            drop.add(i)
            in_list = f.interface > 0 or f.label  # "Read more", "Related:" open a list
        elif in_list and not f.sentence:
            drop.add(i)
    return drop, first


def _extend(ls: list[Line], feats: list[Features], i: int, step: int) -> int:
    """Move a body edge over adjacent short sentences ("Reuters could not verify it.")."""
    j = i + step
    while 0 <= j < len(ls):
        f = feats[j]
        if ls[j].text:
            short_sentence = f.sentence and f.words >= 4 and (f.stopwords > 0 or f.quoted)
            if not short_sentence or f.interface > MAX_INTERFACE or is_interface(f, False):
                break
            i = j
        j += step
    return i


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in ranges:
        if out and out[-1][1] == s:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out
