"""Villages the gazetteer lacks, in a Latin-script language without a pipeline: the
names a report calls settlements ('le village de Manidjé', 'la aldea de Puerto Nuevo',
'im Dorf Kriwa').

GeoNames holds few of the villages where atrocities are reported, and the English
reader keeps them by their cue word; without it a French or Spanish retelling names no
town its English telling names, and the story linker reads the two as look-alikes. Such a
village has no id; it takes its position, region and country from the nearest place the
report names that the gazetteer holds. Later bare mentions of the name are the village too.
"""

from __future__ import annotations

import re
from functools import cache

from corroborator.models import PlaceRef
from corroborator.nlp import lexicon
from corroborator.nlp.lang.latin.words import Word
from corroborator.nlp.lang.places import repeated, uncharted


@cache
def _cue() -> re.Pattern[str]:
    """A settlement word (and its preposition) ending right before a name."""
    cues = sorted(lexicon.words("latin_settlement_cues.txt"), key=len, reverse=True)
    alternatives = "|".join(re.escape(c).replace(r"\ ", r"\s+") for c in cues)
    return re.compile(rf"(?<!\w)(?:{alternatives})\s*$", re.IGNORECASE)


def cued(text: str, name_runs: list[list[Word]], places: list[PlaceRef]) -> list[PlaceRef]:
    """Settlements named after a cue word, with every later mention of their names,
    outside the `places` already found."""
    taken = {i for p in places for i in range(p.start, p.end)}
    out: list[PlaceRef] = []
    for run in name_runs:
        start, end = run[0].start, run[-1].end
        if any(i in taken for i in range(start, end)):
            continue
        if not _cue().search(text, max(0, start - 40), start):
            continue
        near = min(places, key=lambda p: abs(p.start - start), default=None)
        where = (near.admin1, near.country) if near else (None, None)
        out.append(uncharted(text, start, end, text[start:end], *where, near))
        taken.update(range(start, end))
    return out + repeated(text, out, taken)
