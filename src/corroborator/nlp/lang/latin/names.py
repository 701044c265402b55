"""Runs of name words, and what each names: a person named in full, an organisation by
its acronym or its English name; a place is what `places` resolves first.

One capitalised word alone is a person only as the family name of someone the text
names in full; otherwise its kind cannot be told without a model, and it is left out.
"""

from __future__ import annotations

from corroborator.models import EntityMention
from corroborator.nlp import lexicon
from corroborator.nlp.lang.latin.words import (
    PARTICLES,
    Word,
    acronym,
    capitalised_inside,
    name_word,
    ordinary,
)

MAX_NAME_WORDS = 5  # "Jean Robert Pierre Louis"; a longer run is a list or a title


def runs(ws: list[Word], language: str) -> list[list[Word]]:
    """Name words next to each other in one sentence, particles between them kept."""
    inside = capitalised_inside(ws)

    def named(w: Word) -> bool:
        return name_word(w, language, inside)

    out: list[list[Word]] = []
    run: list[Word] = []
    for i, w in enumerate(ws):
        joins = bool(run) and not w.first and w.start - run[-1].end <= 1
        if named(w) and (joins or not run):
            run.append(w)
            continue
        if (
            joins
            and w.text.lower() in PARTICLES
            and i + 1 < len(ws)
            and not ws[i + 1].first
            and ws[i + 1].start - w.end <= 1
            and named(ws[i + 1])
        ):
            run.append(w)
            continue
        if run:
            out.append(run)
        run = [w] if named(w) else []
    if run:
        out.append(run)
    return [r for r in out if r[-1].text.lower() not in PARTICLES]


def entities(text: str, name_runs: list[list[Word]], language: str) -> list[EntityMention]:
    """People and organisations among runs no place took."""
    out: list[EntityMention] = []
    orgs = lexicon.words("latin_org_words.txt")
    regions = lexicon.words("latin_place_words.txt")
    for run in name_runs:
        start, end = run[0].start, run[-1].end
        names = [w for w in run if w.text.lower() not in PARTICLES]
        parts = {part for w in names for part in w.text.lower().split("-")}
        if len(run) == 1 and acronym(run[0], language):
            out.append(EntityMention(start, end, run[0].text, "organization", "ORG"))
        elif len(names) >= 2 and (
            parts & orgs or all(ordinary(w.text, "en") for w in names)  # "Human Rights Watch"
        ):
            out.append(EntityMention(start, end, text[start:end], "organization", "ORG"))
        elif (
            2 <= len(names) <= MAX_NAME_WORDS
            and not parts & regions
            and not any(w.upper for w in names)
        ):
            out.append(EntityMention(start, end, text[start:end], "person", "PER"))
    family = {e.text.split()[-1] for e in out if e.kind == "person"}
    out += [
        EntityMention(r[0].start, r[0].end, r[0].text, "person", "PER")
        for r in name_runs
        if len(r) == 1 and r[0].text in family
    ]
    return sorted(out, key=lambda e: e.start)
