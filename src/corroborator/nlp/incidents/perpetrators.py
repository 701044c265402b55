"""Named perpetrators of a group of mentions.

Entities inside agent phrases, a quote's speaker for 'I'/'we', or the nation of a weapon
('a Russian missile'): naming the doer is its own job with its own evidence spans.
"""

from __future__ import annotations

from spacy.tokens import Token

from corroborator.models import ValueSpan
from corroborator.nlp.incidents.lexicon import has
from corroborator.nlp.incidents.mention import Mention
from corroborator.nlp.incidents.roles import first_person, is_person, noun_group
from corroborator.nlp.pipeline import DocContext, text_of
from corroborator.nlp.stages.hedges import to_span


def perpetrators(ms: list[Mention], ctx: DocContext) -> tuple[list[str], list[ValueSpan]]:
    """Named agents: entities inside agent phrases (or 'orders came from X'), else the phrase.
    Each name comes with the words it was read from (a first-person doer: the speaker's)."""
    names: list[str] = []
    spans: list[ValueSpan] = []
    ents = [
        e for e in ctx.extraction.entities if e.kind in ("armed_group", "person", "organization")
    ]
    for m in ms:
        toks = list(m.agents)
        head = m.trigger.head
        for anc in (m.trigger, head, head.head):
            for c in anc.children:
                if c.dep_ == "prep" and c.lower_ == "from":
                    toks += [t for g in c.children for t in noun_group(g)]
        if first_person(toks):
            for q in ctx.extraction.quotes:
                if q.start <= m.trigger.idx < q.end and q.speaker:
                    names.append(q.speaker)
                    if q.speaker_start is not None and q.speaker_end is not None:
                        words = text_of(ctx.doc)[q.speaker_start : q.speaker_end]
                        spans.append(ValueSpan(q.speaker_start, q.speaker_end, words, q.speaker))
        hits = []
        if toks:
            lo, hi = min(t.idx for t in toks), max(t.idx + len(t) for t in toks)
            hits = [e for e in ents if lo <= e.start and e.end <= hi]
        for e in hits:
            names.append(e.canonical or e.text)
            spans.append(ValueSpan(e.start, e.end, e.text, e.canonical or e.text))
        nation = None if hits else _weapon_nationality(m.trigger, toks)
        if nation is not None:  # 'a Russian missile': the nation's forces fired it
            names.append(f"{nation.text} forces")
            end = nation.idx + len(nation)
            spans.append(ValueSpan(nation.idx, end, nation.text, f"{nation.text} forces"))
            continue
        if not hits and not ents and toks:
            named = [t for t in toks if t.pos_ == "PROPN" or t.ent_type_ in ("NORP", "ORG")]
            if named and has(toks, "combatants"):
                sp = to_span(ctx.doc, min(t.i for t in toks), max(t.i for t in toks) + 1)
                names.append(sp.text)
                spans.append(ValueSpan(sp.start, sp.end, sp.text, sp.text))
    return list(dict.fromkeys(names)), spans


def _weapon_nationality(trigger: Token, agents: list[Token]) -> Token | None:
    """The nationality adjective on a weapon or attack noun ('A Russian missile',
    "Tuesday's Russian missile strike"); people ('Russian soldiers') are named elsewhere."""
    heads = [trigger] + [t for t in agents if t.pos_ == "NOUN" and not is_person(t)]
    for h in heads:
        if h.pos_ != "NOUN" or is_person(h):
            continue
        stack = [h]
        while stack:
            t = stack.pop()
            for c in t.lefts:
                if c.dep_ in ("amod", "compound", "nmod"):
                    if c.ent_type_ == "NORP" and c.tag_ == "JJ":
                        return c
                    stack.append(c)
    return None
