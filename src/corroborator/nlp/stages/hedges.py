"""Hedges and evidence cues: the words that tell an investigator how sure a report is.

Patterns are lemma sequences kept as data (lexicons/hedges_phrases.json, evidence_cues.json) and
matched as spaCy's Matcher would (`nlp.lemma_matcher`, same matches, a tenth of the time),
so "could not independently verify", "cannot be verified" and "were not able to confirm"
share one entry. Verification disclaimers are widened to
their clause ("Euronews could not independently verify these claims") because the
object of the doubt matters as much as the doubt.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from spacy.tokens import Doc, Span

from corroborator.models import Hedge
from corroborator.models import Span as TextSpan
from corroborator.nlp import lexicon
from corroborator.nlp.columns import column, lows
from corroborator.nlp.lemma_matcher import LemmaMatcher
from corroborator.nlp.pipeline import DocContext, text_of

_VERIFY = {"verify", "confirm", "corroborate"}
_NEGATIVE_SUBJECTS = {"none", "no", "nobody", "neither"}
_CLAUSE_CLIMB = {"xcomp", "acomp", "aux", "auxpass", "neg", "advmod", "ccomp", "attr"}


load_lexicon = lexicon.load_json


def lemma_pattern(pattern: str) -> list[dict[str, Any]]:
    """'could|can not independently? verify' -> Matcher token specs on lowercased lemmas.

    A word may end in '/POS' ('record/NOUN') to require a coarse part of speech.
    """
    specs: list[dict[str, Any]] = []
    for word in pattern.split():
        optional = word.endswith("?")
        word, _, pos = word.rstrip("?").partition("/")
        words = word.split("|")
        # built-in LEMMA (fast, unlike a Python getter); lemmas keep case only at a capital
        spec: dict[str, Any] = {"LEMMA": {"IN": words + [w.capitalize() for w in words]}}
        if pos:
            spec["POS"] = pos
        if optional:
            spec["OP"] = "?"
        specs.append(spec)
    return specs


def sentence_units(doc: Doc) -> list[Span]:
    """spaCy sentences cut again at line breaks and trimmed of blank tokens.

    The parser sometimes runs a caption into the next paragraph; a reported act never
    crosses a paragraph break, so the unit of extraction never does either.
    Built once per doc: hedges, evidence and incidents all read them.
    """
    cached = doc.user_data.get("corroborator_units")
    if cached is None:
        cached = doc.user_data["corroborator_units"] = _sentence_units(doc)
    return list(cached)


def _sentence_units(doc: Doc) -> list[Span]:
    units: list[Span] = []
    texts = column(doc, "text")
    for sent in doc.sents:
        start = sent.start
        for i in range(sent.start, sent.end):
            if "\n" in texts[i] and doc[i].is_space:
                units.append(doc[start:i])
                start = i + 1
        units.append(doc[start : sent.end])
    out: list[Span] = []
    for u in units:
        s, e = u.start, u.end
        while s < e and doc[s].is_space:
            s += 1
        while e > s and doc[e - 1].is_space:
            e -= 1
        if e <= s:
            continue
        # 'she was five or six' | 'and I shot her': a split before a lowercase word is wrong
        first = doc[s].text[0]
        if out and first.islower() and "\n" not in text_of(doc)[out[-1].end_char : doc[s].idx]:
            out[-1] = doc[out[-1].start : e]
        else:
            out.append(doc[s:e])
    return out


def unit_of(doc: Doc) -> dict[int, Span]:
    """Token index -> its sentence unit."""
    return {i: u for u in sentence_units(doc) for i in range(u.start, u.end)}


def to_span(doc: Doc, start: int, end: int, trim: bool = True) -> TextSpan:
    """Character span of tokens [start, end), trailing punctuation trimmed if `trim`."""
    while end - 1 > start and (doc[end - 1].is_space or (trim and doc[end - 1].is_punct)):
        end -= 1
    s = doc[start].idx
    e = doc[end - 1].idx + len(doc[end - 1].text)
    return TextSpan(s, e, text_of(doc)[s:e])


def _clause(match: Span, unit: Span) -> tuple[int, int]:
    """Token range of the clause that governs a matched disclaimer, within its unit."""
    head = match.root
    while (
        head.dep_ in _CLAUSE_CLIMB
        and head.head.i != head.i
        and unit.start <= head.head.i < unit.end
    ):
        if head.dep_ == "ccomp" and head.head.lemma_ not in ("be", "possible"):
            break
        head = head.head
    left = max(head.left_edge.i, unit.start)
    right = min(head.right_edge.i + 1, unit.end)
    return min(left, match.start), max(right, match.end)


@lru_cache(maxsize=1)
def _hedge_matcher_spec() -> list[tuple[str, list[dict[str, Any]], str]]:
    """(key, pattern, widen) with widen in '', 'clause', 'object'."""
    out = []
    for i, p in enumerate(load_lexicon("hedges_phrases.json")["phrases"]):
        widen = "clause" if p.get("clause") else "object" if p.get("object") else ""
        out.append((f"hedge{i}", lemma_pattern(p["pattern"]), widen))
    return out


def _object(match: Span, unit: Span) -> tuple[int, int]:
    """'according to' + the source it names."""
    last = match[-1]
    objs = [c for c in last.children if c.dep_ == "pobj"]
    if not objs:
        return match.start, match.end
    return match.start, min(objs[0].right_edge.i + 1, unit.end)


def _negated_verifications(doc: Doc, units: dict[int, Span]) -> list[tuple[int, int]]:
    """'None of their accounts can be verified': a verify verb with a negative subject."""
    out = []
    pos = column(doc, "pos_")
    for i, lemma in enumerate(lows(doc)):
        if lemma not in _VERIFY or pos[i] != "VERB":
            continue
        tok = doc[i]
        subj = [c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")]
        negative = any(c.dep_ == "neg" for c in tok.children) or any(
            w.lower_ in _NEGATIVE_SUBJECTS for s in subj for w in s.subtree
        )
        if negative:
            unit = units[tok.i]
            out.append((max(tok.left_edge.i, unit.start), min(tok.right_edge.i + 1, unit.end)))
    return out


@lru_cache(maxsize=1)
def _evidence_spec() -> list[tuple[str, list[dict[str, Any]], frozenset[str], bool]]:
    out: list[tuple[str, list[dict[str, Any]], frozenset[str], bool]] = []
    for etype, entries in load_lexicon("evidence_cues.json").items():
        if etype.startswith("_"):
            continue
        for entry in entries:
            need = frozenset(entry.get("needs", []))
            out.append((etype, lemma_pattern(entry["pattern"]), need, bool(entry.get("clause"))))
    return out


def _is_subject(span: Span) -> bool:
    root = span.root
    return root.dep_ in ("nsubj", "nsubjpass") or root.head.dep_ in ("nsubj", "nsubjpass")


@lru_cache(maxsize=1)
def _hedge_matcher() -> tuple[LemmaMatcher, dict[str, str]]:
    """Built once."""
    matcher = LemmaMatcher()
    widen: dict[str, str] = {}
    for key, pattern, how in _hedge_matcher_spec():
        matcher.add(key, [pattern])
        widen[key] = how
    return matcher, widen


@lru_cache(maxsize=1)
def _evidence_matcher() -> tuple[LemmaMatcher, dict[str, frozenset[str]], set[str]]:
    matcher = LemmaMatcher()
    needs: dict[str, frozenset[str]] = {}
    clause: set[str] = set()
    for i, (etype, pattern, need, widen) in enumerate(_evidence_spec()):
        key = f"{etype}#{i}"
        matcher.add(key, [pattern])
        needs[key] = need
        if widen:
            clause.add(key)
    return matcher, needs, clause


def find_hedges(doc: Doc) -> list[Hedge]:
    """Non-overlapping hedge spans, longest first."""
    matcher, widen = _hedge_matcher()
    units = unit_of(doc)
    ranges = _negated_verifications(doc, units)
    for key, start, end in matcher(doc):
        how = widen[key]
        if how == "clause":
            start, end = _clause(doc[start:end], units[start])
        elif how == "object":
            start, end = _object(doc[start:end], units[start])
        ranges.append((start, end))
    hedges: list[Hedge] = []
    taken: list[tuple[int, int]] = []
    for start, end in sorted(ranges, key=lambda r: (r[0] - r[1], r[0])):
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        sp = to_span(doc, start, end)
        hedges.append(Hedge(sp.start, sp.end, sp.text))
    return sorted(hedges, key=lambda h: h.start)


def find_evidence(doc: Doc) -> list[tuple[str, TextSpan]]:
    """(evidence_type, span) for each cue; a cue with `needs` counts only beside such a word."""
    matcher, needs, clause = _evidence_matcher()
    units = unit_of(doc)
    seen: set[tuple[str, int, int]] = set()
    out: list[tuple[str, TextSpan]] = []
    for key, start, end in matcher(doc):
        etype = key.split("#")[0]
        sent = units[start]
        if needs[key] and not any(t.lemma_.lower() in needs[key] for t in sent):
            continue
        if etype == "pow_testimony" and not _is_subject(doc[start:end]):
            continue  # 'killed prisoners of war': victims, not witnesses
        if key in clause:
            # "The Guardian has seen ...": the outlet's own check, not a speaker's ("he had seen")
            verb = doc[end - 1]
            if any(c.dep_ == "nsubj" and c.pos_ == "PRON" for c in verb.children):
                continue
            start, end = _clause(doc[start:end], sent)
        sp = to_span(doc, start, end)
        if (etype, sp.start, sp.end) in seen:
            continue
        seen.add((etype, sp.start, sp.end))
        out.append((etype, sp))
    # drop a cue nested inside a longer cue of the same type
    return sorted(
        (
            (t, s)
            for t, s in out
            if not any(
                t == t2 and s2.start <= s.start and s.end <= s2.end and s2 != s for t2, s2 in out
            )
        ),
        key=lambda x: x[1].start,
    )


class HedgesStage:
    """Hedge phrases to ctx.extraction.hedges; evidence cues to ctx.extraction.evidence."""

    name = "corroborator.hedges.v1"

    def __call__(self, ctx: DocContext) -> None:
        ctx.extraction.hedges.extend(find_hedges(ctx.doc))
        ctx.extraction.evidence.extend(find_evidence(ctx.doc))
