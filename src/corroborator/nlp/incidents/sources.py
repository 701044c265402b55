"""The words behind each field of a document's incident.

An investigator must be able to see why a field holds its value, so every non-empty field
gets source words: the victim words that named each victim group, the cue or quote behind
each evidence type, the sentence that alleges the act (or the confession) behind the
status. Where no narrower words were read, the sentence the value came from is the source.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from corroborator.models import DocIncident, Quote, ValueSpan
from corroborator.models import Span as TextSpan
from corroborator.nlp.incidents.lexicon import lexicon, longest
from corroborator.nlp.incidents.mention import Mention
from corroborator.nlp.pipeline import text_of

QUOTE_EVIDENCE = {
    "perpetrator": "confession",
    "witness": "witness_testimony",
    "victim": "witness_testimony",
    "official": "official_statement",
    "accused": "official_statement",
}


def tagged(spans: list[TextSpan], value: str = "") -> list[ValueSpan]:
    return [ValueSpan(s.start, s.end, s.text, value) for s in spans]


def victim_words(doc: Doc, ms: list[Mention], units: list[Span], group: str) -> list[ValueSpan]:
    """Words that name the victim group in the incident's sentences, patients first."""
    grams = lexicon().victims.get(group, frozenset())
    found: list[ValueSpan] = []
    for m in ms:
        scopes = [m.patient] if m.patient else []
        scopes.append(list(units[m.unit]))
        for toks in scopes:
            toks = sorted(toks, key=lambda t: t.i)
            for i, tok in enumerate(toks):
                best = longest(toks, i, grams)
                if best:
                    end = toks[min(i + len(best[0]), len(toks)) - 1]
                    s, e = tok.idx, end.idx + len(end.text)
                    found.append(ValueSpan(s, e, text_of(doc)[s:e], group))
            if found:
                return found
    return found


def evidence_sources(
    evidence: list[tuple[str, TextSpan]],
    quotes: list[Quote],
    spans: list[TextSpan],
    prev: list[Span],
    confession: TextSpan | None,
) -> dict[str, list[ValueSpan]]:
    """Evidence type -> the cues, quotes or confession sentence it was read from."""
    out: dict[str, list[ValueSpan]] = {}
    windows = [(s.start, s.end) for s in spans] + [(p.start_char, p.end_char) for p in prev]
    for etype, s in evidence:
        if any(a <= s.start and s.end <= b for a, b in windows):
            out.setdefault(etype, []).append(ValueSpan(s.start, s.end, s.text, etype))
    for q in quotes:
        if any(q.start < s.end and s.start < q.end for s in spans):
            etype = QUOTE_EVIDENCE.get(q.speaker_role, "witness_testimony")
            out.setdefault(etype, []).append(ValueSpan(q.start, q.end, q.text, etype))
    if confession is not None:
        out.setdefault("confession", []).append(tagged([confession], "confession")[0])
    return out


def complete(inc: DocIncident, fallback: TextSpan) -> None:
    """Any non-empty field still without words gets the sentence that reports the act: the
    value was read there, and an empty source would look like an invented value."""
    src = inc.sources
    values: dict[str, list[str]] = {
        "type": [inc.type],
        "perpetrators": list(inc.perpetrators),
        "victims": list(inc.victims),
        "evidence_types": list(inc.evidence_types),
        "status": [inc.status],
    }
    for name, vals in values.items():
        have = {s.value for s in src.get(name, [])}
        for v in vals:
            if v not in have and not (name in ("type", "status") and src.get(name)):
                src.setdefault(name, []).append(tagged([fallback], v)[0])
    singles = {
        "killed": inc.killed.low is not None or inc.killed.high is not None,
        "wounded": inc.wounded.low is not None or inc.wounded.high is not None,
        "location": bool(inc.location.name),
        "date": bool(inc.date.start),
    }
    for name, present in singles.items():
        if present and not src.get(name):
            src[name] = tagged([fallback])
