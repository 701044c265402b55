"""Quotes in «», „“ and “” and dash-introduced speech, with their speakers.

Russian and Ukrainian punctuate speech the same way: «Цитата», — сказал Имя; Имя заявил:
«Цитата»; and in interviews a paragraph opening with a dash, "— Цитата, — рассказал Имя."
A marked span counts as a quote only with a speech verb beside it (scare quotes and
names in «» do not), and the speaker is the person named next to that verb.
"""

from __future__ import annotations

import re

from corroborator.models import EntityMention, Hedge, Quote
from corroborator.nlp.lang.ru_uk.text import Token, analyzer, lex

_MARKED = re.compile(r"«([^«»]{3,}?)»|„([^„“”]{3,}?)[“”]|“([^“”]{3,}?)”|\"([^\"]{3,}?)\"")
_DASHED = re.compile(
    r"^[ \t]*[—–-][ \t]*(?P<q>[^\n]+?)[,.!?]?[ \t]+[—–][ \t]+(?P<tail>[^\n]+)$", re.M
)
_WINDOW = 90  # characters beside a quote where its speech verb and speaker may stand


def _cue(toks: list[Token], start: int, end: int) -> Token | None:
    cues = set(lex()["cues"]) | set(lex()["denials"])
    return next((t for t in toks if start <= t.start < end and t.lemma in cues), None)


def _speaker(
    text: str, toks: list[Token], people: list[EntityMention], start: int, end: int
) -> tuple[str | None, int | None, int | None, str]:
    """Nearest person named in [start, end), else a role word ("житель"); and the role."""
    roles: dict[str, str] = lex()["roles"]
    role = next(
        (roles[t.lemma] for t in toks if start <= t.start < end and t.lemma in roles), "other"
    )
    inside = [p for p in people if start <= p.start and p.end <= end]
    if inside:
        p = inside[0]
        return p.text, p.start, p.end, role
    word = next((t for t in toks if start <= t.start < end and t.lemma in roles), None)
    if word:
        return word.text, word.start, word.end, role
    return None, None, None, role


def _sentence_edge(text: str, pos: int, forward: bool) -> int:
    if forward:
        found = [i for i in (text.find(c, pos) for c in ".!?\n") if i >= 0]
        return min([*found, min(len(text), pos + _WINDOW)])
    found = [text.rfind(c, 0, pos) for c in ".!?\n"]
    return max(max(found) + 1, pos - _WINDOW, 0)


def _narrated(quote: str, lang: str) -> bool:
    """A verb in the past: the speaker tells what happened ('Люди купували овочі, коли
    пролунав вибух'), as a witness of it, where no word names a role."""
    morph = analyzer(lang)
    return any(
        {"VERB", "past"} <= set(morph.parse(w.lower())[0].tag.grammemes)
        for w in re.findall(r"[^\W\d_]+", quote)
    )


def find(text: str, toks: list[Token], entities: list[EntityMention], lang: str) -> list[Quote]:
    people = [e for e in entities if e.kind == "person"]
    denials = set(lex()["denials"])
    out: list[Quote] = []
    taken: list[tuple[int, int]] = []
    for m in _DASHED.finditer(text):
        tail_start = m.start("tail")
        cue = _cue(toks, tail_start, m.end("tail"))
        if cue is None:
            continue
        q_start, q_end = m.start("q"), m.end("q")
        who, s, e, role = _speaker(text, toks, people, tail_start, m.end("tail"))
        if role == "other" and s is not None and _narrated(text[m.start("q") : m.end("q")], lang):
            role = "witness"
        stance = "denies" if cue.lemma in denials else "asserts"
        out.append(Quote(q_start, q_end, text[q_start:q_end], who, s, e, role, stance, cue.lemma))
        taken.append((m.start(), m.end()))
    for m in _MARKED.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        group = next(g for g in range(1, 5) if m.group(g) is not None)
        q_start, q_end = m.start(group), m.end(group)
        after = (m.end(), _sentence_edge(text, m.end(), True))
        before = (_sentence_edge(text, m.start(), False), m.start())
        for lo, hi in (after, before):
            cue = _cue(toks, lo, hi)
            if cue is not None:
                who, s, e, role = _speaker(text, toks, people, lo, hi)
                if role == "other" and s is not None and _narrated(m.group(group), lang):
                    role = "witness"
                stance = "denies" if cue.lemma in denials else "asserts"
                quote = Quote(
                    q_start, q_end, text[q_start:q_end], who, s, e, role, stance, cue.lemma
                )
                out.append(quote)
                break
    return sorted(out, key=lambda q: q.start)


def hedges(text: str) -> list[Hedge]:
    """Phrases that say a claim is unverified ("не удалось независимо проверить")."""
    low = text.lower()
    out: list[Hedge] = []
    for phrase in sorted(lex()["hedges"], key=len, reverse=True):
        for m in re.finditer(rf"(?<!\w){re.escape(phrase)}(?!\w)", low):
            if not any(h.start <= m.start() < h.end for h in out):
                out.append(Hedge(m.start(), m.end(), text[m.start() : m.end()]))
    return sorted(out, key=lambda h: h.start)
