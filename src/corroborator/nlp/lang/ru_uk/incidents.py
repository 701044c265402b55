"""Incidents in Russian/Ukrainian text from a trigger lexicon (lemmas), same taxonomy.

One incident per type per document, from the sentences holding its trigger words; its
fields come from the records the other ru_uk steps found in those sentences (the whole
document for place and date when the sentences name none). Every value keeps its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from corroborator.models import (
    Count,
    DateRange,
    DocIncident,
    Extraction,
    Location,
    Range,
    Span,
    ValueSpan,
)
from corroborator.nlp.lang.ru_uk.text import Token, lex

_ROLE_EVIDENCE = {"witness": "witness_testimony", "official": "official_statement"}


@dataclass
class _Hit:
    type: str
    token: Token
    sentence: tuple[int, int]


class _Located(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


def _inside(rec: _Located, spans: list[tuple[int, int]]) -> bool:
    return any(a <= rec.start < b for a, b in spans)


def _vs(rec: _Located, text: str, value: str = "") -> ValueSpan:
    return ValueSpan(rec.start, rec.end, text[rec.start : rec.end], value)


def _range(counts: list[Count]) -> Range:
    if not counts:
        return Range()
    best = max(counts, key=lambda c: c.high or c.low or 0)
    return Range(best.low, best.high, best.approx)


def find(
    text: str, toks: list[Token], sents: list[tuple[int, int]], ex: Extraction
) -> list[DocIncident]:
    triggers: dict[str, str] = lex()["triggers"]
    victims_lex: dict[str, str] = lex()["victims"]
    threats = set(lex()["threats"])
    hits = []
    for n, t in enumerate(toks):
        kind = triggers.get(t.lemma)
        if kind and not any(p.lemma in threats for p in toks[max(0, n - 2) : n]):
            sent = next((s for s in sents if s[0] <= t.start < s[1]), (t.start, t.end))
            hits.append(_Hit(kind, t, sent))
    by_type: dict[str, list[_Hit]] = {}
    for h in hits:
        by_type.setdefault(h.type, []).append(h)
    out: list[DocIncident] = []
    for kind, group in by_type.items():
        spans = list(dict.fromkeys(h.sentence for h in group))
        # the sentence after a mention often gives its toll ("...обстреляли. Погибли 30")
        triggered = {h.sentence for h in hits}
        after = [sents[k + 1] for k, s in enumerate(sents[:-1]) if s in spans]
        near = spans + [s for s in after if s not in triggered]
        src: dict[str, list[ValueSpan]] = {}
        victims: list[str] = []
        for t in toks:
            g = victims_lex.get(t.lemma)
            if g and g != "wounded" and _inside(t, near) and g not in victims:
                victims.append(g)
                src.setdefault("victims", []).append(_vs(t, text, g))
        for c in ex.counts:
            if c.counted and c.counted not in victims and _inside(c, near):
                victims.append(c.counted)
                src.setdefault("victims", []).append(_vs(c, text, c.counted))
        if kind == "killing_civilians" and "prisoners_of_war" in victims:
            kind = "killing_captives"
        src["type"] = [_vs(h.token, text, kind) for h in group]
        killed = [c for c in ex.counts if c.outcome == "killed" and _inside(c, near)]
        wounded = [c for c in ex.counts if c.outcome == "wounded" and _inside(c, near)]
        inc = DocIncident(
            type=kind, mentions=[Span(a, b, text[a:b]) for a, b in spans], victims=victims
        )
        inc.killed, inc.wounded = _range(killed), _range(wounded)
        for name, cs in (("killed", killed), ("wounded", wounded)):
            if cs:
                src[name] = [_vs(max(cs, key=lambda c: c.high or c.low or 0), text)]
        places = [p for p in ex.places if _inside(p, spans)] or ex.places[:1]
        if places:
            p = places[0]
            inc.location = Location(
                p.name, p.geonames_id, p.lat, p.lon, p.admin1, p.country, p.precision
            )
            src["location"] = [_vs(p, text)]
        dates = [d for d in ex.dates if _inside(d, spans)] or ex.dates[:1]
        if dates:
            d = dates[0]
            inc.date = DateRange(d.date_start, d.date_end, d.precision)
            src["date"] = [_vs(d, text)]
        for e in ex.entities:
            if (
                e.kind == "armed_group"
                and _inside(e, spans)
                and e.canonical not in inc.perpetrators
            ):
                inc.perpetrators.append(e.canonical)
                src.setdefault("perpetrators", []).append(_vs(e, text, e.canonical))
        for etype, span in ex.evidence:
            if etype not in inc.evidence_types:
                inc.evidence_types.append(etype)
                src.setdefault("evidence_types", []).append(_vs(span, text, etype))
        denied = [q for q in ex.quotes if q.stance == "denies"]
        if denied:
            inc.status = "denied"
        src["status"] = [
            _vs(denied[0], text, "denied")
            if denied
            else ValueSpan(spans[0][0], spans[0][1], text[spans[0][0] : spans[0][1]], "alleged")
        ]
        inc.hedges = [Span(h.start, h.end, h.text) for h in ex.hedges]
        if inc.hedges:
            src["hedges"] = [_vs(h, text) for h in inc.hedges]
        inc.summary = _summary(inc)
        inc.sources = src
        out.append(inc)
    return out


def evidence(text: str, toks: list[Token], ex: Extraction) -> list[tuple[str, Span]]:
    """Evidence cues by lemma ("свідок", "відео"), and quoted witnesses and officials."""
    table: dict[str, str] = lex()["evidence"]
    out: list[tuple[str, Span]] = [
        (table[t.lemma], Span(t.start, t.end, t.text)) for t in toks if t.lemma in table
    ]
    for q in ex.quotes:
        if q.speaker_role in _ROLE_EVIDENCE:
            out.append((_ROLE_EVIDENCE[q.speaker_role], Span(q.start, q.end, q.text)))
    return out


def _summary(inc: DocIncident) -> str:
    what = inc.type.replace("_", " ")
    parts = [f"Alleged {what}"]
    if inc.victims:
        parts.append(f"({', '.join(inc.victims)})")
    if inc.perpetrators:
        parts.append(f"by {', '.join(inc.perpetrators)}")
    if inc.location.name:
        parts.append(f"in {inc.location.name}")
    if inc.date.start:
        parts.append(f"on {inc.date.start}")
    text = " ".join(parts)
    if inc.killed.low is not None:
        n = (
            inc.killed.low
            if inc.killed.low == inc.killed.high
            else f"{inc.killed.low}-{inc.killed.high}"
        )
        text += f"; {n} reported killed"
    return text + "."
