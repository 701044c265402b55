"""Place mentions scored against gold `place` records (Accuracy@161 km, end to end).

A gold record `{"kind": "place", "source_file", "text", "geonames_id", "lat", "lon"}`
names one mention by its words. Records with the same file and words take that file's
whole-word, case-sensitive occurrences of the words in order (an optional 1-based
`occurrence` picks one instead), so a metonymic "Kyiv denied" before a real "Kyiv" can be
skipped. A gold mention is found by the system place of that document overlapping it most.

- Accuracy@161 km: found mentions whose system coordinates lie within 161 km (100 miles,
  the usual geoparsing figure) of the gold ones, over all gold mentions; a found mention
  without coordinates counts as wrong.
- exact-id accuracy: found mentions with the gold GeoNames id, over all gold mentions.
- median error: over found mentions with coordinates.
- recall: found / gold; precision: system places overlapping a gold mention / system
  places in the scored files (names the gold calls no place: "Moscow said", outlets).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from corroborator.geo import distance_km

KIND = "place"
RADIUS_KM = 161.0

Record = Mapping[str, Any]


def check(record: Record, number: int) -> None:
    """Raise ValueError naming the gold line when a place record is unusable."""
    for key in ("geonames_id", "lat", "lon"):
        if not isinstance(record.get(key), int | float) or isinstance(record.get(key), bool):
            raise ValueError(f"gold line {number}: place lacks a numeric {key}")
    occurrence = record.get("occurrence")
    if occurrence is not None and (not isinstance(occurrence, int) or occurrence < 1):
        raise ValueError(f"gold line {number}: place occurrence must be a positive integer")


@dataclass
class PlaceScore:
    """Counts behind the place figures (see the module docstring)."""

    gold: int = 0
    found: int = 0
    within: int = 0
    exact: int = 0
    system: int = 0
    correct: int = 0
    errors_km: list[float] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)  # gold words not in their file

    @property
    def accuracy_161(self) -> float:
        return self.within / self.gold if self.gold else 1.0

    @property
    def exact_id(self) -> float:
        return self.exact / self.gold if self.gold else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 1.0

    @property
    def precision(self) -> float:
        return self.correct / self.system if self.system else 1.0

    @property
    def median_error_km(self) -> float | None:
        return statistics.median(self.errors_km) if self.errors_km else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "accuracy_161km": self.accuracy_161,
            "median_error_km": self.median_error_km,
            "exact_id_accuracy": self.exact_id,
            "recall": self.recall,
            "precision": self.precision,
            "gold": self.gold,
            "found": self.found,
            "within_161km": self.within,
            "exact_id": self.exact,
            "system": self.system,
            "correct": self.correct,
            "unplaced_gold": self.unplaced,
        }


def gold_spans(text: str, records: Sequence[Record]) -> list[tuple[int, int, Record] | None]:
    """(start, end, record) of each record's occurrence in `text`, None when it is absent."""
    taken: dict[str, int] = {}
    out: list[tuple[int, int, Record] | None] = []
    for r in records:
        words = r["text"]
        hits = [m.span() for m in re.finditer(rf"(?<!\w){re.escape(words)}(?!\w)", text)]
        n = r.get("occurrence") or taken.get(words, 0) + 1
        taken[words] = n
        out.append((*hits[n - 1], r) if n <= len(hits) else None)
    return out


def score_places(
    gold: Sequence[Record],
    documents: Sequence[Record],
    places: Mapping[str, Sequence[Record]],
) -> PlaceScore:
    """Score system places (`places`: document_id -> PlaceRef dicts) on gold place records."""
    records = [r for r in gold if r.get("kind") == KIND]
    score = PlaceScore(gold=len(records))
    by_file: dict[str, list[Record]] = {}
    for r in records:
        by_file.setdefault(r["source_file"], []).append(r)
    for d in documents:
        file_records = by_file.pop(d.get("source_file") or "", None)
        if file_records is None:
            continue
        system = list(places.get(d["document_id"], []))
        score.system += len(system)
        spans = gold_spans(d.get("text") or "", file_records)
        hit_system: set[int] = set()
        for span, r in zip(spans, file_records, strict=True):
            if span is None:
                score.unplaced.append(f"{r['source_file']}: {r['text']}")
                continue
            _score_one(score, span, system, hit_system)
        score.correct += len(hit_system)
    score.unplaced += [f"{f}: {r['text']}" for f, rs in by_file.items() for r in rs]
    return score


def _score_one(
    score: PlaceScore,
    span: tuple[int, int, Record],
    system: Sequence[Record],
    hit_system: set[int],
) -> None:
    start, end, g = span
    overlaps = [
        (min(end, p["end"]) - max(start, p["start"]), i)
        for i, p in enumerate(system)
        if p["start"] < end and start < p["end"]
    ]
    if not overlaps:
        return
    best = system[max(overlaps)[1]]
    hit_system.update(i for _, i in overlaps)
    score.found += 1
    score.exact += best.get("geonames_id") == g["geonames_id"]
    if best.get("lat") is None or best.get("lon") is None:
        return
    km = distance_km(best["lat"], best["lon"], g["lat"], g["lon"])
    score.errors_km.append(km)
    score.within += km <= RADIUS_KM


def system_places(store: Any) -> dict[str, list[dict[str, Any]]]:
    """document_id -> the stored extraction's places."""
    return {doc_id: ex.get("places") or [] for doc_id, ex in store.extractions().items()}


def format_lines(score: PlaceScore) -> list[str]:
    """Report lines for `corroborator eval`."""
    median = score.median_error_km
    lines = [
        f"{'places (gold mentions)':<26}{'value':>9}{'count':>15}",
        f"{'accuracy@161km':<26}{score.accuracy_161:>9.3f}{f'{score.within}/{score.gold}':>15}",
        f"{'exact geonames id':<26}{score.exact_id:>9.3f}{f'{score.exact}/{score.gold}':>15}",
        f"{'mention recall':<26}{score.recall:>9.3f}{f'{score.found}/{score.gold}':>15}",
        f"{'mention precision':<26}{score.precision:>9.3f}{f'{score.correct}/{score.system}':>15}",
        f"{'median error km':<26}{'n/a' if median is None else f'{median:.1f}':>9}",
    ]
    if score.unplaced:
        lines.append("gold place words not found in their file: " + "; ".join(score.unplaced))
    return lines
