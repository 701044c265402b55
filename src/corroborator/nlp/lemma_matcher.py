"""spaCy's `Matcher`, for lemma-sequence patterns, without its cost per pattern and token.

The Matcher starts every pattern at every token and tests a `{"LEMMA": {"IN": [...]}}`
set with a Python call per token and set; with the hedge and evidence lexicons (about a
hundred patterns) that was most of the hedges stage. This class runs the same state
machine (`spacy/matcher/matcher.pyx`: `find_matches`, `transition_states`, `get_action`,
`finish_states`) but starts a pattern only at a token its first word can match. A state
whose required first token fails is dropped at once by spaCy without a trace (no match, no
new state), so skipping it changes nothing: the matches and their order are spaCy's.

Patterns are lists of spaCy token specs using only `LEMMA: {"IN": [...]}`, `POS` and
`OP: "?"` (what `hedges.lemma_pattern` writes); anything else is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spacy.tokens import Doc

from corroborator.nlp.columns import column

# get_action's results for the quantifiers used here (ONE and ZERO_ONE)
_REJECT, _MATCH, _ADVANCE, _RETRY, _RETRY_ADVANCE, _MATCH_REJECT, _MATCH_DOUBLE = range(7)

_Step = tuple[frozenset[str], str | None, bool]  # lemmas, required POS, optional
_State = tuple[int, int, int, int]  # pattern index, step index, start, length


def _step(spec: dict[str, Any]) -> _Step:
    if set(spec) - {"LEMMA", "POS", "OP"} or spec.get("OP", "?") != "?":
        raise ValueError(f"LemmaMatcher cannot run the token spec {spec!r}")
    lemma = spec["LEMMA"]
    if not (isinstance(lemma, dict) and set(lemma) == {"IN"}):
        raise ValueError(f"LemmaMatcher needs LEMMA IN, got {lemma!r}")
    return frozenset(lemma["IN"]), spec.get("POS"), spec.get("OP") == "?"


class LemmaMatcher:
    def __init__(self) -> None:
        self._keys: list[str] = []
        self._steps: list[list[_Step]] = []
        self._by_lemma: dict[str, list[int]] = {}  # first lemma -> patterns, in added order
        self._always: list[int] = []  # patterns whose first step is optional

    def add(self, key: str, patterns: Sequence[list[dict[str, Any]]]) -> None:
        for pattern in patterns:
            if not pattern:
                raise ValueError("empty pattern")
            n = len(self._steps)
            self._keys.append(key)
            self._steps.append([_step(spec) for spec in pattern])
            lemmas, _, optional = self._steps[n][0]
            if optional:
                self._always.append(n)
                for starts in self._by_lemma.values():
                    starts.append(n)
            else:
                for lemma in lemmas:
                    self._by_lemma.setdefault(lemma, list(self._always)).append(n)

    def __len__(self) -> int:
        return len(set(self._keys))

    def _action(self, p: int, s: int, lemma: str, pos: str) -> int:
        lemmas, need_pos, optional = self._steps[p][s]
        hit = lemma in lemmas and (need_pos is None or pos == need_pos)
        final = s + 1 == len(self._steps[p])
        if not optional:
            return (_MATCH if final else _ADVANCE) if hit else _REJECT
        if hit:
            return _MATCH_DOUBLE if final else _RETRY_ADVANCE
        return _MATCH_REJECT if final else _RETRY

    def __call__(self, doc: Doc) -> list[tuple[str, int, int]]:
        """(key, start, end) of every match, in the order spaCy's Matcher gives them."""
        lemmas, tags = column(doc, "lemma_"), column(doc, "pos_")
        found: list[tuple[int, int, int]] = []  # (pattern, start, length)
        states: list[_State] = []
        for i, lemma in enumerate(lemmas):
            states.extend((p, 0, i, 0) for p in self._by_lemma.get(lemma, self._always))
            if not states:
                continue
            pos = tags[i]
            kept: list[_State] = []
            spawned: list[_State] = []
            for p, s, start, length in states:
                action = self._action(p, s, lemma, pos)
                while action in (_RETRY, _RETRY_ADVANCE):
                    if action == _RETRY_ADVANCE:
                        spawned.append((p, s + 1, start, length + 1))
                    s += 1
                    action = self._action(p, s, lemma, pos)
                if action == _ADVANCE:
                    kept.append((p, s + 1, start, length + 1))
                elif action == _MATCH:
                    found.append((p, start, length + 1))
                elif action == _MATCH_DOUBLE:
                    if length > 0:
                        found.append((p, start, length))
                    found.append((p, start, length + 1))
                elif action == _MATCH_REJECT:
                    found.append((p, start, length))
            states = kept + spawned
        for p, s, start, length in states:  # finish_states: patterns ending in optional steps
            steps = self._steps[p]
            while s < len(steps) and steps[s][2]:
                if s + 1 == len(steps):
                    found.append((p, start, length))
                    break
                s += 1
        out: list[tuple[str, int, int]] = []
        seen: set[tuple[str, int, int]] = set()
        for p, start, length in found:
            match = (self._keys[p], start, start + length)
            if length > 0 and match not in seen:
                seen.add(match)
                out.append(match)
        return out
