"""A merged group filled out into a DocIncident with fields and their sources.

Counts, place, date, perpetrators, evidence types, hedges and status all come from the
earlier stages' records in the group's sentences; gathering them is one job apart from
finding and merging the acts.
"""

from __future__ import annotations

from typing import Any

from spacy.tokens import Span

from corroborator.models import (
    VICTIM_GROUPS,
    DateRange,
    DateRef,
    DocIncident,
    Location,
    PlaceRef,
    Range,
    ValueSpan,
)
from corroborator.models import Span as TextSpan
from corroborator.nlp.incidents import blame, counts
from corroborator.nlp.incidents import fields as fields
from corroborator.nlp.incidents.groups import Group
from corroborator.nlp.incidents.lexicon import is_act
from corroborator.nlp.incidents.mention import Mention
from corroborator.nlp.incidents.perpetrators import perpetrators
from corroborator.nlp.incidents.roles import CIVILIAN_SUBGROUPS
from corroborator.nlp.incidents.sources import complete, evidence_sources, tagged, victim_words
from corroborator.nlp.incidents.summary import summary
from corroborator.nlp.incidents.units import is_headline, paragraph
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.stages.hedges import to_span


def _within(start: int, end: int, spans: list[Any]) -> list[Any]:
    return [s for s in spans if start <= s.start and s.end <= end]


def fill(
    g: Group,
    units: list[Span],
    ctx: DocContext,
    doc_hedges: list[tuple[TextSpan, bool]],
    recalled: set[int],
    recap: tuple[DateRef | None, PlaceRef | None],
    acts: tuple[list[tuple[int, int]], list[tuple[int, int]]],
) -> DocIncident:
    """The incident's fields; `doc_hedges` are the report's disclaimers that can qualify
    it, each flagged when it is about figures (then it qualifies only an incident told
    with a figure); `recalled` are the triggers of earlier acts, whose tolls are theirs;
    `recap` is the report's summary date and place (`fields.recap`) and `acts` its
    sentences recalling and telling acts (`fields.act_sentences`), both read once a
    report."""
    ex = ctx.extraction
    doc = ctx.doc
    ms = sorted(g.mentions, key=lambda m: m.unit)
    unit_ids = sorted({m.unit for m in ms})
    spans = [to_span(doc, units[u].start, units[u].end, trim=False) for u in unit_ids]
    inc = DocIncident(type=g.type, mentions=spans)
    src: dict[str, list[ValueSpan]] = {
        "type": tagged(
            [to_span(doc, m.trigger.i, m.trigger.i + 1) for m in ms if not m.toll], g.type
        )
    }
    victims: set[str] = set().union(*(m.victims for m in ms))
    # civilians' figures may count some of them ('wounding three women' after a strike on
    # a bus station): the group counted is then among the victims
    countable = victims | (CIVILIAN_SUBGROUPS if "civilians" in victims else set())
    triggers = [m.trigger for m in ms]
    for outcome, attr in (("killed", "killed"), ("wounded", "wounded")):
        cs = [
            c
            for s in spans
            for c in _within(s.start, s.end, ex.counts)
            if c.outcome == outcome and (c.counted is None or c.counted in countable)
            if counts.binds(doc, c, triggers, recalled)
        ]
        if cs and g.type not in ("no_quarter_order", "coercion_of_troops"):
            best = max(
                cs,
                key=lambda c: (c.high is not None and c.high < 900 or c.high is None, c.low or 0),
            )
            setattr(inc, attr, Range(best.low, best.high, best.approx))
            src[attr] = [ValueSpan(best.start, best.end, best.text)]
            if best.counted in CIVILIAN_SUBGROUPS:
                victims.add(best.counted)
    inc.victims = [v for v in VICTIM_GROUPS if v in victims]
    for v in inc.victims:
        src.setdefault("victims", []).extend(victim_words(doc, ms, units, v))
    main = [m for m in ms if not is_headline(units, m.unit)] or ms
    # a headline's place comes last: it may name where the news is, not the act's town
    top = [is_headline(units, u) for u in unit_ids]
    order = [(s.start, s.end) for h, s in zip(top, spans, strict=True) if not h]
    order += [(s.start, s.end) for h, s in zip(top, spans, strict=True) if h]
    para = paragraph(text_of(doc), units[main[0].unit].start_char)
    trig = main[0].trigger.idx
    recap_date, recap_place = recap
    p = fields.choose_place(doc, ex.places, order, trig, recap_place, para[0], acts[1])
    if p is not None:
        inc.location = Location(
            p.name, p.geonames_id, p.lat, p.lon, p.admin1, p.country, p.precision
        )
        src["location"] = [ValueSpan(p.start, p.end, p.text)]
    d = fields.choose_date(doc, ex.dates, order, para, trig, recap_date, *acts)
    if d is not None:
        inc.date = DateRange(d.date_start, d.date_end, d.precision)
        src["date"] = [ValueSpan(d.start, d.end, d.text)]
    inc.perpetrators, src["perpetrators"] = perpetrators(ms, ctx)
    if not inc.perpetrators:  # 'a group blamed the militia for the shelling'
        party = blame.blamed(units, unit_ids, is_act)
        if party:
            inc.perpetrators, src["perpetrators"] = perpetrators(
                [Mention(0, g.type, party[0], set(), party)], ctx
            )
    prev = [units[u - 1] for u in unit_ids if u > 0]
    confessed = any(m.confessed for m in ms)
    confession = (
        spans[unit_ids.index(next(m for m in ms if m.confessed).unit)] if confessed else None
    )
    by_type = evidence_sources(ex.evidence, ex.quotes, spans, prev, confession)
    inc.evidence_types = sorted(by_type)
    src["evidence_types"] = [w for t in inc.evidence_types for w in by_type[t]]
    own = [
        TextSpan(h.start, h.end, h.text) for s in spans for h in _within(s.start, s.end, ex.hedges)
    ]
    toll = any(_within(s.start, s.end, ex.counts) for s in spans)
    inc.hedges = own + [h for h, figures in doc_hedges if h not in own and (toll or not figures)]
    if inc.hedges:
        src["hedges"] = tagged(inc.hedges)
    inc.status = "confessed" if confessed else "alleged"
    main_span = spans[unit_ids.index(main[0].unit)]
    src["status"] = tagged([confession or main_span], inc.status)
    src = {k: v for k, v in src.items() if v}
    inc.sources = src
    complete(inc, main_span)
    inc.summary = summary(inc)
    return inc
