"""People, organisations and armed forces in Russian/Ukrainian text.

natasha's news NER (slovnet, bundled weights, Russian-trained) finds PER/ORG/LOC; it works
tolerably on Ukrainian, whose names share the script. National forces ("российские
военные", "ЗСУ") get the same canonical names the English stage gives them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from corroborator.models import EntityMention
from corroborator.nlp.lang.ru_uk.text import Token, lex

_KINDS = {"PER": "person", "ORG": "organization", "LOC": "place"}


@cache
def _tagger() -> Any:
    from natasha import NewsEmbedding, NewsNERTagger

    return NewsNERTagger(NewsEmbedding())


def named_many(texts: list[str]) -> list[list[EntityMention]]:
    """NER over many texts in one batched pass (4x faster than one call per text)."""
    return [
        [
            EntityMention(s.start, s.stop, text[s.start : s.stop], _KINDS[s.type], s.type)
            for s in markup.spans
            if s.type in _KINDS
        ]
        for text, markup in zip(texts, _tagger().map(texts), strict=True)
    ]


def forces(text: str, toks: list[Token]) -> list[EntityMention]:
    """'российские военные', 'украинские войска', 'оккупанты', 'ЗСУ' as armed groups."""
    table: dict[str, str] = lex()["forces"]
    nouns = set(lex()["force_nouns"])
    out: list[EntityMention] = []
    for i, t in enumerate(toks):
        canon = table.get(t.lemma) or table.get(t.lower)
        if not canon:
            continue
        end = t.end
        if i + 1 < len(toks) and toks[i + 1].lemma in nouns:
            end = toks[i + 1].end
        elif t.lemma in ("российский", "русский", "російський", "украинский", "український"):
            continue  # "российский город" is not a force
        out.append(EntityMention(t.start, end, text[t.start : end], "armed_group", "NORP", canon))
    return out
