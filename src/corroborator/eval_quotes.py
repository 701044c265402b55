"""Who said it, scored on the quotes the system found (`corroborator eval`).

`quotes_with_speaker` mixes finding a quote with naming its speaker; these figures
separate them. Each found gold quote is paired with the system quote of its document that
overlaps it most (the same half-the-characters rule as the quote figure); over those
pairs, `speaker` is the share whose speaker matches (`speaker_matches`), `speaker_role`
and `stance` the shares whose role or stance equals the gold's (where the gold gives one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from corroborator.evaluation import (
    Accuracy,
    Record,
    _overlap,
    _quote_chars,
    speaker_matches,
)

QUOTE_FIELDS = ("speaker", "speaker_role", "stance")


def _best_match(gold: Record, candidates: Sequence[tuple[str, Record]]) -> Record | None:
    g_text = _quote_chars(gold["text"])
    best, best_size = None, 0
    for q_text, q in candidates:
        size = _overlap(g_text, q_text)
        if 2 * size >= len(g_text) and size > best_size:
            best, best_size = q, size
    return best


def score_quote_fields(
    gold: Sequence[Record],
    system: Sequence[Record],
    scope: set[str],
    file_of: Mapping[str, str],
    aliases: Mapping[str, frozenset[str]],
) -> dict[str, Accuracy]:
    """Speaker, role and stance accuracy over the gold quotes that a system quote finds."""
    by_file: dict[str, list[tuple[str, Record]]] = {}
    for q in system:
        source_file = q.get("source_file") or file_of.get(q.get("document_id", ""))
        if source_file in scope:
            by_file.setdefault(source_file, []).append((_quote_chars(q.get("text") or ""), q))
    scores = {name: Accuracy() for name in QUOTE_FIELDS}
    for g in gold:
        found = _best_match(g, by_file.get(g["source_file"], []))
        if found is None:
            continue
        scores["speaker"].add(speaker_matches(found.get("speaker"), g.get("speaker"), aliases))
        for name in ("speaker_role", "stance"):
            if g.get(name):
                scores[name].add(found.get(name) == g[name])
    return scores
