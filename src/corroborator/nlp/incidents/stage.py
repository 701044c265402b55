"""Incidents stage: sentences that report a violation, typed and merged per document.

A trigger lexicon (lexicons/incident_triggers.json) finds candidate acts; the dependency
parse then reads who did it to whom (agent, patient) and in what mood. The mood decides
more than the verb does: "ordered to kill everyone" is a no-quarter order, "threatened to
kill deserters" is coercion, "can simply shoot" and "no one ever shoots civilians" are not
events at all. Victim words (lexicons/incident_roles.json) then type a killing as of
civilians, captives or one's own side. Mentions of one act (lead, quote, recap) are
merged, and fields are filled from the earlier stages' records in the same sentences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.tokens import Doc, Span

from corroborator.models import Span as TextSpan
from corroborator.nlp.incidents import counts as tolls
from corroborator.nlp.incidents import dated, fields
from corroborator.nlp.incidents import merge as doc_merge
from corroborator.nlp.incidents.fill import fill
from corroborator.nlp.incidents.groups import Group, fold_headline, fold_subheadings, merge
from corroborator.nlp.incidents.later_toll import fold_later_tolls
from corroborator.nlp.incidents.lexicon import act_families
from corroborator.nlp.incidents.mention import Mention, family_of, kin_families
from corroborator.nlp.incidents.resolve import resolve_types
from corroborator.nlp.incidents.sentence import mentions_in_unit
from corroborator.nlp.incidents.summary import summary
from corroborator.nlp.incidents.threats import threat_mentions
from corroborator.nlp.incidents.units import Layout, layout, para_gap, quote_index
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.stages.hedges import sentence_units

HEDGE_AHEAD = 3  # paragraphs after a disclaimer whose acts it may still qualify
_VERIFY = re.compile(r"verif|confirm|corroborat", re.I)
# What a disclaimer about numbers calls them ("could not verify the figures").
_FIGURES = re.compile(r"\b(?:figures?|numbers?|tolls?|tall(?:y|ies)|statistics|counts?)\b", re.I)


@dataclass(frozen=True)
class Disclaimer:
    """A verification disclaimer and what it can qualify."""

    span: TextSpan
    families: frozenset[str]  # act families it names (none: any)
    figures: bool  # about figures: qualifies only incidents told with a toll
    unit: int  # its sentence unit
    scope: frozenset[int] | None  # the incidents' units of its paragraph it is about


def report_hedges(
    ctx: DocContext, units: list[Span], claimed: set[int], lay: Layout
) -> list[Disclaimer]:
    """Verification disclaimers and what each can qualify. A sentence that names no act
    ("Euronews could not verify these claims") qualifies the report, unless its paragraph
    tells acts: then it doubts those ("Resistance fighters say they killed seven soldiers.
    We cannot verify either side's claims": an exchange of claims no incident holds, so
    none; beside a video of two men shot, that killing only). One that reports an incident of its own
    ("an unverified video of a beheading surfaced") qualifies that incident only, which
    holds it already. One that names an act outside any incident ("unable to verify the
    number of deaths") qualifies acts of that family. One about figures ("it was not
    possible to verify the figures") qualifies only incidents that give a toll."""
    out = []
    for h in ctx.extraction.hedges:
        if not _VERIFY.search(h.text):
            continue
        k = next((k for k, u in enumerate(units) if u.start_char <= h.start < u.end_char), None)
        if k is None:
            continue
        families = frozenset(f for t in units[k] for f in act_families(t))
        if families and k in claimed:
            continue
        scope = None
        if not families:
            told = [
                j
                for j in range(len(units))
                if j != k and lay.para[j] == lay.para[k]
                if any(act_families(t) for t in units[j])
            ]
            if told:
                scope = frozenset(j for j in told if j in claimed)
                if not scope:
                    continue
        figures = bool(_FIGURES.search(h.text))
        out.append(Disclaimer(TextSpan(h.start, h.end, h.text), families, figures, k, scope))
    return out


def _qualifies(d: Disclaimer, g: Group, lay: Layout) -> bool:
    """The disclaimer can doubt this incident: one of the acts it names, or any; in its
    scope; and told before it ('None of their accounts can be verified', 'these claims'),
    or just after: not acts a report goes on to tell paragraphs later (a minister's toll
    below soldiers' unverifiable accounts)."""
    family = family_of(g.type)
    if d.families and not d.families & kin_families(family):
        return False
    units = {m.unit for m in g.mentions}
    if d.scope is not None and not units & d.scope:
        return False
    first = min(units)
    return first <= d.unit or para_gap(lay, d.unit, first) <= HEDGE_AHEAD


def _unit_of(units: list[Span], char: int) -> int | None:
    return next((k for k, u in enumerate(units) if u.start_char <= char < u.end_char), None)


class IncidentsStage:
    """Typed DocIncidents with their mention sentences and fields, one per reported act."""

    name = "corroborator.incidents.v1"

    def __call__(self, ctx: DocContext) -> None:
        doc: Doc = ctx.doc
        units = sentence_units(doc)
        found: list[Mention] = []
        denied_victims: set[str] = set()
        recalled: set[int] = set()
        for k in range(len(units)):
            ms, den, old = mentions_in_unit(units, k)
            if not any(m.type == "coercion_of_troops" for m in ms):
                ms += threat_mentions(units, k, old)
            found += ms
            denied_victims |= den
            recalled.update(t.i for t in old)
        ex = ctx.extraction
        today = dated.report_day(ctx.published, ex.dates)
        old_units = dated.long_ago(units, ex.dates, today, {m.unit for m in found})
        recalled.update(m.trigger.i for m in found if m.unit in old_units)
        found = [m for m in found if m.unit not in old_units]
        lay = layout(doc, units)
        found = resolve_types(found, lay)
        counts: dict[int, set[int]] = {}
        triggers = [m.trigger for m in found]
        text = text_of(doc)
        for c in ctx.extraction.counts:
            if c.outcome not in ("killed", "wounded") or c.low is None:
                continue
            if not tolls.binds(doc, c, triggers, recalled):
                continue  # 'after the massacre in Karma, where soldiers killed 147'
            if tolls.partitive(text, c):
                continue  # 'killing seven, two of them children'
            at = _unit_of(units, c.start)
            if at is not None:
                counts.setdefault(at, set()).add(c.low)
        towns: dict[int, set[str]] = {}
        for p in ex.places:
            if p.precision == "settlement" and fields.usable_place(doc, p):
                at = _unit_of(units, p.start)
                if at is not None:
                    towns.setdefault(at, set()).add(p.name)
        groups = merge(found, counts, towns, quote_index(units, ctx), lay)
        groups = fold_headline(groups, units, lay)
        groups = fold_subheadings(groups, units, lay)
        groups = doc_merge.fold(groups, units, counts, towns, ex.places, ex.dates, lay.para)
        fold_later_tolls(groups, units, counts, lay.para)
        doc_hedges = report_hedges(ctx, units, {m.unit for g in groups for m in g.mentions}, lay)
        recap = fields.recap(doc, ex.dates, ex.places) if groups else (None, None)
        acts = fields.act_sentences(units, recalled) if groups else ([], [])
        for g in groups:
            hedges = [(d.span, d.figures) for d in doc_hedges if _qualifies(d, g, lay)]
            inc = fill(g, units, ctx, hedges, recalled, recap, acts)
            hit = denied_victims & set(inc.victims)
            if hit and family_of(inc.type) == "kill" and inc.status != "confessed":
                inc.status = "disputed"  # reported, and denied by the accused
                inc.summary = summary(inc)
            ctx.extraction.incidents.append(inc)
