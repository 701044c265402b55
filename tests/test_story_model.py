"""The story pair model: its fit, its shipped weights, and where the linker uses it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from corroborator.linking import story_model
from corroborator.linking.stories import (
    CONCEPT_WORDS,
    EVIDENCE_THRESHOLD,
    THRESHOLD,
    StoryDoc,
    StoryIndex,
)


def _model(fitted: dict[str, Any]) -> story_model.Model:
    return story_model.Model.fitted(
        fitted["mean"], fitted["scale"], fitted["coef"], fitted["intercept"]
    )


def test_fit_recovers_the_weights_that_made_the_labels() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(20000, 3)) * [1.0, 2.0, 0.5] + [0.0, 1.0, -1.0]
    true = np.array([1.5, -0.8, 2.0])
    p = 1 / (1 + np.exp(-(x @ true - 0.5)))
    y = (rng.random(len(p)) < p).astype(float)
    fitted = story_model.fit(x, y, np.ones(len(y)), strength=100.0)
    model = _model(fitted)
    assert np.allclose(model.weights, true, atol=0.1), model.weights
    assert abs(model.bias + 0.5) < 0.1
    # the folded weights give what the standardised fit gives
    mean, scale, coef = (np.array(fitted[k]) for k in ("mean", "scale", "coef"))
    z = float((x[0] - mean) / scale @ coef) + float(fitted["intercept"])  # type: ignore[arg-type]
    assert abs(model.probability(x[0]) - 1 / (1 + math.exp(-z))) < 1e-12


def test_weighted_examples_count_as_repeated_ones() -> None:
    x = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0.0, 1.0, 0.0, 1.0])
    twice = story_model.fit(np.vstack([x, x[1:2]]), np.append(y, 1.0), np.ones(5), 1e6)
    weighted = story_model.fit(x, y, np.array([1.0, 2.0, 1.0, 1.0]), 1e6)
    # the standardising mean and scale differ (they are unweighted), and with them what the
    # penalty weighs: with next to none, the fitted probabilities agree
    for row in x:
        assert abs(_model(twice).probability(row) - _model(weighted).probability(row)) < 1e-6


def test_the_shipped_model_reads_its_features_and_says_what_counts() -> None:
    data = story_model.lexicon.load_json(story_model.MODEL_FILE)
    assert tuple(data["features"]) == story_model.FEATURES
    weight = dict(zip(story_model.FEATURES, story_model.model().weights, strict=True))
    # shared words of what happened and shared names raise it; a town or site the other
    # report never names lowers it
    assert weight["sqrt(concepts)"] > 0 and weight["sqrt(text)"] > 0
    assert weight["place_conflict"] < 0 and weight["site_conflict"] < 0
    assert weight["evidence"] > 0


def test_news_without_words_of_violence_is_scored_by_the_hand_weights() -> None:
    """ECB+-like general news says too few of the concept dictionary's words: there the
    linker falls back on the hand-weighted score, scaled to the model's threshold."""
    a = StoryDoc(
        "a",
        "Apple unveiled a new laptop on Tuesday in Cupertino, with a faster chip and a "
        "longer battery. Tim Cook presented the machine to reporters.",
        entities=("Apple", "Tim Cook"),
    )
    b = StoryDoc(
        "b",
        "Tim Cook showed Apple's new laptop in Cupertino, saying its chip is faster and its "
        "battery lasts longer than before.",
        entities=("Apple", "Tim Cook"),
    )
    index = StoryIndex()
    for d in (a, b):
        index.observe(d)
    va, vb = index.index(a), index.index(b)
    parts = index.pair_parts(va, vb)
    assert parts is not None and parts["concept_words"] < CONCEPT_WORDS
    expected = min(1.0, parts["evidence"] * THRESHOLD / EVIDENCE_THRESHOLD)
    assert index.similarity(va, vb) == expected > 0
