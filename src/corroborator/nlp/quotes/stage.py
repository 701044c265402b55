"""Direct quotations with their speakers, the speaker's role and the quote's stance.

Quote marks are found by `marks.scan_quotes`, speakers by `speakers` (who may
speak) and `attribution` (who speaks each quote), roles and stance by `roles`.
This stage runs them in order and builds the records.
"""

from __future__ import annotations

from spacy.tokens import Doc

from corroborator.models import Quote, TextSpan
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.quotes.attribution import Attribution, Attributor
from corroborator.nlp.quotes.lexicon import Lexicon, cue_lemma, lexicon
from corroborator.nlp.quotes.marks import MarkedQuote, scan_quotes
from corroborator.nlp.quotes.roles import (
    narrates,
    narrative_evidence,
    quote_denies,
    role_of,
    self_report,
)
from corroborator.nlp.quotes.speakers import Discourse, Referent
from corroborator.nlp.quotes.turns import Turn, find_turns

MIN_WORDS = 4
DEFENDERS = ("official", "accused")


def _inside_mask(doc: Doc, marks: list[MarkedQuote]) -> list[bool]:
    inside = [False] * len(doc)
    for q in marks:
        span = doc.char_span(q.open_at, q.outer_end, alignment_mode="expand")
        if span is not None:
            for t in span:
                inside[t.i] = True
    return inside


def _known_names(ctx: DocContext) -> dict[int, str]:
    """Canonical person names from the entities stage, keyed by token index."""
    known: dict[int, str] = {}
    for e in ctx.extraction.entities:
        if e.kind == "person" and e.canonical:
            span = ctx.doc.char_span(e.start, e.end, alignment_mode="expand")
            if span is not None:
                for t in span:
                    known[t.i] = e.canonical
    return known


def _words(text: str, span: tuple[int, int] | None) -> TextSpan | None:
    return TextSpan(span[0], span[1], text[span[0] : span[1]]) if span else None


def _merge(marks: list[MarkedQuote], turns: list[Turn]) -> list[MarkedQuote]:
    """Marked quotes and unmarked turns in text order. A quote nested in a transcript
    turn stays a quote of its own (the answer's "he told me: '...'" is his words)."""
    return sorted([*marks, *(t.quote for t in turns)], key=lambda q: (q.start, -q.end))


def _label_speakers(
    kept: list[MarkedQuote], attributions: list[Attribution], turns: list[Turn], disc: Discourse
) -> None:
    """A transcript label names its turn's speaker; an answer is the interviewee's; one who
    only asks, in two turns or more, is the interviewer."""
    by_quote = {t.quote: t for t in turns}
    text = text_of(disc.doc)
    asked: dict[int, tuple[Referent, list[bool]]] = {}
    for k, q in enumerate(kept):
        turn = by_quote.get(q)
        if turn is None:
            continue
        if turn.label is not None:
            speaker = disc.label_referent(turn.label)
            attributions[k] = Attribution(speaker, None, "label", turn.label)
            if speaker is not None:
                words = text[q.start : q.end].rstrip(" \"'’”")
                asked.setdefault(id(speaker), (speaker, []))[1].append(words.endswith("?"))
        elif turn.answer:
            first = min(t.quote.para_start for t in turns if t.answer)
            # an answer is the interviewee's; unnamed ("witness K-14"), it is left out
            attributions[k] = Attribution(disc.interviewee(first), None, "answer")
    for speaker, questions in asked.values():
        if len(questions) >= 2 and all(questions):
            speaker.roles.add("journalist")


def extract_quotes(ctx: DocContext) -> list[Quote]:
    """Quotes of four or more words with speaker, role and stance."""
    doc = ctx.doc
    text = text_of(doc)
    lex = lexicon()
    turns = find_turns(text, lex)
    marked = scan_quotes(text)
    marks = _merge(marked, turns)
    # a transcript turn or answer is narrative too: a quote nested in it has its own speaker
    dashes = [t.quote for t in turns if t.label is None and not t.answer]
    disc = Discourse(doc, _inside_mask(doc, marked + dashes), _known_names(ctx))
    kept = [q for q in marks if len(text[q.start : q.end].split()) >= MIN_WORDS]
    attributions = Attributor(doc, kept, disc).attribute()
    _label_speakers(kept, attributions, turns, disc)
    narrative_evidence(disc)

    drafts: list[tuple[Quote, Attribution, MarkedQuote]] = []
    for q, att in zip(kept, attributions, strict=True):
        if att.referent is None and att.cue is None and q.open_at != q.para_start:
            continue  # an unattributed phrase in running text: a slogan or a title
        record = Quote(q.start, q.end, text[q.start : q.end], None)
        drafts.append((record, att, q))

    denies = [quote_denies(doc, r, a.cue, lex) for r, a, _ in drafts]
    runs: list[list[int]] = []  # paragraphs of one re-opened quotation share a stance
    for i, (_, att, _) in enumerate(drafts):
        prev = drafts[i - 1][1] if i else None
        if runs and att.how == "continues" and prev is not None and prev.referent is att.referent:
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        if any(denies[i] for i in run):
            for i in run:
                denies[i] = True
    for (record, att, _), denied in zip(drafts, denies, strict=True):
        ref = att.referent
        if ref is None:
            continue
        did, harmed = self_report(doc, record, lex)
        ref.narrates |= narrates(doc, record)
        ref.confesses |= did
        ref.harmed |= harmed
        ref.denies |= denied
    _defences(drafts, denies, lex)

    out: list[Quote] = []
    for (record, att, _), denied in zip(drafts, denies, strict=True):
        ref = att.referent
        cue = cue_lemma(att.cue, lex) if att.cue is not None else None
        if ref is None:
            out.append(Quote(record.start, record.end, record.text, None, cue=cue))
            continue
        span = ref.span
        out.append(
            Quote(
                record.start,
                record.end,
                record.text,
                ref.canonical,
                span[0] if span else None,
                span[1] if span else None,
                role_of(ref, lex),
                "denies" if denied else "asserts",
                cue,
                _words(text, att.mention),
                _words(text, span) if ref.kind == "name" else None,
            )
        )
    return out


def _defences(
    drafts: list[tuple[Quote, Attribution, MarkedQuote]], denies: list[bool], lex: Lexicon
) -> None:
    """After a state or accused party's denial, what that side goes on to say in the same
    paragraph is its defence ("... never targeted a hospital," the ministry said. It said
    the building had been "used as a base by militants"): a denial too."""
    denied_paras: set[int] = set()
    for i, (_, att, q) in enumerate(drafts):
        ref = att.referent
        if ref is None or ref.confesses or role_of(ref, lex) not in DEFENDERS:
            continue
        if q.para in denied_paras and not denies[i]:
            denies[i] = ref.denies = True
        if denies[i]:
            denied_paras.add(q.para)


class QuotesStage:
    name = "corroborator.quotes.v2"

    def __call__(self, ctx: DocContext) -> None:
        ctx.extraction.quotes.extend(extract_quotes(ctx))
