"""A merged group filled out into a DocIncident with fields and their sources.

Counts, place, date, perpetrators, evidence types, hedges and status all come from the
earlier stages' records in the group's sentences; gathering them is one job apart from
finding and merging the acts.
"""

from __future__ import annotations

from typing import Any

from spacy.tokens import Span

from corroborator.models import VICTIM_GROUPS, DateRange, DocIncident, Location, Range
from corroborator.models import Span as TextSpan
from corroborator.nlp.incidents import blame, counts
from corroborator.nlp.incidents import fields as fields
from corroborator.nlp.incidents.groups import Group
from corroborator.nlp.incidents.lexicon import is_act
from corroborator.nlp.incidents.mention import Mention
from corroborator.nlp.incidents.perpetrators import perpetrators
from corroborator.nlp.incidents.summary import summary
from corroborator.nlp.incidents.units import is_headline, paragraph
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.stages.hedges import to_span


def _within(start: int, end: int, spans: list[Any]) -> list[Any]:
    return [s for s in spans if start <= s.start and s.end <= end]


def fill(g: Group, units: list[Span], ctx: DocContext, doc_hedges: list[TextSpan]) -> DocIncident:
    ex = ctx.extraction
    doc = ctx.doc
    ms = sorted(g.mentions, key=lambda m: m.unit)
    unit_ids = sorted({m.unit for m in ms})
    spans = [to_span(doc, units[u].start, units[u].end, trim=False) for u in unit_ids]
    inc = DocIncident(type=g.type, mentions=spans)
    src: dict[str, list[TextSpan]] = {
        "type": [to_span(doc, m.trigger.i, m.trigger.i + 1) for m in ms]
    }
    victims: set[str] = set().union(*(m.victims for m in ms))
    inc.victims = [v for v in VICTIM_GROUPS if v in victims]
    pats = [
        to_span(doc, min(t.i for t in m.patient), max(t.i for t in m.patient) + 1)
        for m in ms
        if m.patient
    ]
    if pats:
        src["victims"] = pats
    triggers = [m.trigger for m in ms]
    for outcome, attr in (("killed", "killed"), ("wounded", "wounded")):
        cs = [
            c
            for s in spans
            for c in _within(s.start, s.end, ex.counts)
            if c.outcome == outcome and (c.counted is None or c.counted in victims)
            if counts.binds(doc, c, triggers)
        ]
        if cs and g.type not in ("no_quarter_order", "coercion_of_troops"):
            best = max(
                cs,
                key=lambda c: (c.high is not None and c.high < 900 or c.high is None, c.low or 0),
            )
            setattr(inc, attr, Range(best.low, best.high, best.approx))
            src[attr] = [TextSpan(best.start, best.end, best.text)]
    main = [m for m in ms if not is_headline(units, m.unit)] or ms
    order = [(s.start, s.end) for u, s in zip(unit_ids, spans, strict=True) if u != 0]
    order += [(s.start, s.end) for u, s in zip(unit_ids, spans, strict=True) if u == 0]
    para = paragraph(text_of(doc), units[main[0].unit].start_char)
    trig = main[0].trigger.idx
    recap_date, recap_place = fields.recap(doc, ex.dates, ex.places)
    p = fields.choose_place(doc, ex.places, order, trig, recap_place)
    if p is not None:
        inc.location = Location(
            p.name, p.geonames_id, p.lat, p.lon, p.admin1, p.country, p.precision
        )
        if any(s <= p.start < e for s, e in order):
            src["location"] = [TextSpan(p.start, p.end, p.text)]
    d = fields.choose_date(doc, ex.dates, order, para, trig, recap_date)
    if d is not None:
        inc.date = DateRange(d.date_start, d.date_end, d.precision)
        src["date"] = [TextSpan(d.start, d.end, d.text)]
    inc.perpetrators, src["perpetrators"] = perpetrators(ms, ctx)
    if not inc.perpetrators:  # 'a group blamed the militia for the shelling'
        party = blame.blamed(units, unit_ids, is_act)
        if party:
            inc.perpetrators, src["perpetrators"] = perpetrators(
                [Mention(0, g.type, party[0], set(), party)], ctx
            )
    if not src["perpetrators"]:
        del src["perpetrators"]
    ev = {t for t, s in ex.evidence for sp in spans if sp.start <= s.start and s.end <= sp.end}
    prev = [units[u - 1] for u in unit_ids if u > 0]
    ev |= {
        t for t, s in ex.evidence for p in prev if p.start_char <= s.start and s.end <= p.end_char
    }
    for q in ex.quotes:
        if any(q.start < s.end and s.start < q.end for s in spans):
            ev.add(
                {
                    "perpetrator": "confession",
                    "witness": "witness_testimony",
                    "victim": "witness_testimony",
                    "official": "official_statement",
                    "accused": "official_statement",
                }.get(q.speaker_role, "witness_testimony")
            )
    confessed = any(m.confessed for m in ms)
    if confessed:
        ev.add("confession")
    inc.evidence_types = sorted(ev)
    inc.hedges = [
        TextSpan(h.start, h.end, h.text) for s in spans for h in _within(s.start, s.end, ex.hedges)
    ] + doc_hedges
    if inc.hedges:
        src["hedges"] = list(inc.hedges)
    inc.status = "confessed" if confessed else "alleged"
    if confessed:
        first = next(m for m in ms if m.confessed)
        src["status"] = [spans[unit_ids.index(first.unit)]]
    inc.sources = src
    inc.summary = summary(inc)
    return inc
