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

from spacy.tokens import Doc, Span

from corroborator.models import Span as TextSpan
from corroborator.nlp.incidents import counts as tolls
from corroborator.nlp.incidents import dated, fields
from corroborator.nlp.incidents import merge as doc_merge
from corroborator.nlp.incidents.fill import fill
from corroborator.nlp.incidents.groups import fold_headline, merge
from corroborator.nlp.incidents.lexicon import act_families
from corroborator.nlp.incidents.mention import Mention, family_of
from corroborator.nlp.incidents.resolve import resolve_types
from corroborator.nlp.incidents.sentence import mentions_in_unit
from corroborator.nlp.incidents.summary import summary
from corroborator.nlp.incidents.threats import threat_mentions
from corroborator.nlp.incidents.units import layout, quote_index
from corroborator.nlp.pipeline import DocContext
from corroborator.nlp.stages.hedges import sentence_units

# An attack's toll is told in kill words ("the casualty figures"), so the two families
# share disclaimers about one another.
_KIN = {"kill": {"kill", "attack"}, "attack": {"attack", "kill"}}
# What a disclaimer about numbers calls them ("could not verify the figures").
_FIGURES = re.compile(r"\b(?:figures?|numbers?|tolls?|tall(?:y|ies)|statistics|counts?)\b", re.I)


def report_hedges(
    ctx: DocContext, units: list[Span], claimed: set[int]
) -> list[tuple[TextSpan, set[str], bool]]:
    """Verification disclaimers, each with the act families it can qualify and whether it
    is about figures. A sentence that names no act ("Euronews could not verify these
    claims") qualifies the whole report. One that reports an incident of its own ("an
    unverified video of a beheading surfaced") qualifies that incident only, which holds it
    already. One that names an act outside any incident ("unable to verify the number of
    deaths") qualifies acts of that family. One about figures ("it was not possible to
    verify the figures") qualifies only incidents that give a toll."""
    out = []
    for h in ctx.extraction.hedges:
        if not any(w in h.text.lower() for w in ("verif", "confirm", "corroborat")):
            continue
        k = next((k for k, u in enumerate(units) if u.start_char <= h.start < u.end_char), None)
        if k is None:
            continue
        families = {f for t in units[k] for f in act_families(t)}
        if families and k in claimed:
            continue
        figures = bool(_FIGURES.search(h.text))
        out.append((TextSpan(h.start, h.end, h.text), families, figures))
    return out


def _qualifies(families: set[str], incident_type: str) -> bool:
    family = family_of(incident_type)
    return not families or bool(families & _KIN.get(family, {family}))


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
        for c in ctx.extraction.counts:
            if c.outcome not in ("killed", "wounded") or c.low is None:
                continue
            if not tolls.binds(doc, c, triggers, recalled):
                continue  # 'after the massacre in Karma, where soldiers killed 147'
            for k, u in enumerate(units):
                if u.start_char <= c.start < u.end_char:
                    counts.setdefault(k, set()).add(c.low)
        groups = fold_headline(merge(found, counts, quote_index(units, ctx), lay), units, lay)
        groups = doc_merge.fold(groups, units, counts, ex.places, ex.dates, lay.para)
        doc_hedges = report_hedges(ctx, units, {m.unit for g in groups for m in g.mentions})
        recap = fields.recap(doc, ex.dates, ex.places) if groups else (None, None)
        for g in groups:
            hedges = [(h, n) for h, fs, n in doc_hedges if _qualifies(fs, g.type)]
            inc = fill(g, units, ctx, hedges, recalled, recap)
            hit = denied_victims & set(inc.victims)
            if hit and family_of(inc.type) == "kill" and inc.status != "confessed":
                inc.status = "disputed"  # reported, and denied by the accused
                inc.summary = summary(inc)
            ctx.extraction.incidents.append(inc)
