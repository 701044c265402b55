"""How likely two reports tell one story: a logistic model over what they share.

The parts of a pair's evidence (cosines of words, names and concept words, shared
entities, quotes and figures, the look-alike conflicts, the main incidents' town, toll
and day, the publication gap) used to be added with hand-set weights. Their best mix
depends on the pair: across languages the concept and name cosines carry what the words
cannot, and a shared town matters most when the words agree. A logistic model weighs the
parts, the hand-weighted score among them, from labelled pairs: the project's own
retellings sets (`tests/fixtures/retellings`), fitted by
`benchmarks/fit_story_model.py` into `lexicons/story_model.json`. Its output is a
probability, so the story threshold reads as one.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from corroborator.nlp import lexicon

MODEL_FILE = "story_model.json"
CONTINUOUS = ("text", "event", "names", "concepts", "entities", "quotes", "figures", "scripts")
FLAGS = (
    "place_conflict",
    "actor_conflict",
    "what_conflict",
    "protagonist_conflict",
    "site_conflict",
    "same_event_place",
    "other_toll",
    "other_day",
    "cross_language",
    "arabic_latin",
)
FEATURES = (
    *(f"sqrt({c})" for c in CONTINUOUS),
    *FLAGS,
    "days_apart",
    "evidence",  # the hand-weighted score
    "cross_language*concepts",
    "cross_language*names",
    "same_event_place*text",
    "same_protagonist",
    "other_event_place",
    "rare_name",
)


def features(parts: dict[str, float]) -> list[float]:
    """The model's inputs, in FEATURES order, from the named parts of a pair's evidence
    (the CONTINUOUS and FLAGS names, `days_apart` and `evidence`). Similarities enter by
    their square roots: the model then grows with each but less and less (raw and root
    together fitted the dev sets as well and ECB+ worse)."""
    x = [math.sqrt(max(float(parts[c]), 0.0)) for c in CONTINUOUS]
    x.extend(float(parts[name]) for name in FLAGS)
    x.append(float(parts["days_apart"]))
    x.append(float(parts["evidence"]))
    x.append(parts["cross_language"] * parts["concepts"])
    x.append(parts["cross_language"] * parts["names"])
    x.append(parts["same_event_place"] * parts["text"])
    x.append(float(parts["same_protagonist"]))
    x.append(float(parts["other_event_place"]))
    x.append(float(parts["rare_name"]))
    return x


@dataclass(frozen=True)
class Model:
    """The fitted model folded into one weight per input (the standardising scale and
    mean taken in): a pair costs one short dot product."""

    weights: tuple[float, ...]
    bias: float

    @classmethod
    def fitted(
        cls, mean: Sequence[float], scale: Sequence[float], coef: Sequence[float], intercept: float
    ) -> Model:
        weights = tuple(c / s for c, s in zip(coef, scale, strict=True))
        return cls(weights, intercept - sum(m * w for m, w in zip(mean, weights, strict=True)))

    def probability(self, x: Sequence[float]) -> float:
        z = sum(map(operator.mul, x, self.weights)) + self.bias
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


@cache
def model() -> Model:
    data = lexicon.load_json(MODEL_FILE)
    if tuple(data["features"]) != FEATURES:
        raise RuntimeError(f"{MODEL_FILE} was fitted on other features: refit it")
    return Model.fitted(data["mean"], data["scale"], data["coef"], data["intercept"])


def fit(
    x: np.ndarray, y: np.ndarray, weights: np.ndarray, strength: float = 1.0
) -> dict[str, list[float] | float]:
    """L2-regularised logistic regression on standardised inputs by Newton's method (the
    intercept unpenalised; `strength` is the inverse of the penalty, as scikit-learn's C)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.column_stack([(x - mean) / scale, np.ones(len(x))])
    beta = np.zeros(z.shape[1])
    ridge = np.eye(len(beta)) / strength
    ridge[-1, -1] = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -700, 700)))
        grad = z.T @ (weights * (p - y)) + ridge @ beta
        hess = (z * (weights * p * (1 - p))[:, None]).T @ z + ridge
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    return {
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "coef": beta[:-1].tolist(),
        "intercept": float(beta[-1]),
    }
