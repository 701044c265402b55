"""LemmaMatcher gives spaCy's Matcher's matches in spaCy's order (hedge and evidence
lexicons, and patterns with optional first, middle and last words)."""

from __future__ import annotations

import random

from spacy.matcher import Matcher

from conftest import EXAMPLE_DOCS, working_texts
from corroborator.nlp.lemma_matcher import LemmaMatcher
from corroborator.nlp.pipeline import load_nlp
from corroborator.nlp.stages.hedges import _evidence_spec, _hedge_matcher_spec

_WORDS = ["be", "the", "not", "have", "say", "kill", "a", "of", "to", "in", "and", "it"]
_WORDS += ["could", "verify", ".", "\n\n", "he", "they", "soldier", "Russian", "report"]


def _random_patterns(seed: int) -> list[tuple[str, list[dict[str, object]]]]:
    rnd = random.Random(seed)
    out = []
    for i in range(60):
        pattern: list[dict[str, object]] = []
        for _ in range(rnd.randint(1, 4)):
            spec: dict[str, object] = {"LEMMA": {"IN": rnd.sample(_WORDS, rnd.randint(1, 3))}}
            if rnd.random() < 0.4:
                spec["OP"] = "?"
            if rnd.random() < 0.1:
                spec["POS"] = rnd.choice(["NOUN", "VERB", "AUX"])
            pattern.append(spec)
        out.append((f"k{i % 23}", pattern))  # some keys hold several patterns
    return out


def test_same_matches_in_the_same_order_as_spacy() -> None:
    nlp = load_nlp()
    sets = [
        [(key, pattern) for key, pattern, _ in _hedge_matcher_spec()],
        [(f"{e}#{i}", pattern) for i, (e, pattern, _, _) in enumerate(_evidence_spec())],
        _random_patterns(1),
        _random_patterns(2),
    ]
    texts = list(working_texts(EXAMPLE_DOCS).values()) + [
        "It could not be independently verified. They say he was not killed.\n\nReport.",
        "",
    ]
    for patterns in sets:
        spacy_matcher, ours = Matcher(nlp.vocab), LemmaMatcher()
        for key, pattern in patterns:
            spacy_matcher.add(key, [pattern])
            ours.add(key, [pattern])
        for doc in nlp.pipe(texts):
            expected = [(nlp.vocab.strings[k], s, e) for k, s, e in spacy_matcher(doc)]
            assert ours(doc) == expected
