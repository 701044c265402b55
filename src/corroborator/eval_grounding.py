"""Whether incident fields are tied to their words (`corroborator eval`, field table).

- `field_spans`: over every in-scope system incident and every field holding a value
  (type, perpetrators, victims, killed, wounded, location, date, evidence types, status,
  hedges), the share with source words in `field_spans` (for list fields, words for each
  value); a value a reviewer corrected counts as sourced by the correction record. Must be
  1.0: a value without words cannot be checked.
- `hedges_attached`: over found gold incidents whose gold record lists its `hedges`, the
  share of the system incident's hedges that are among the gold incident's (word
  containment either way): a disclaimer about another claim attached here counts wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

LIST_FIELDS = ("perpetrators", "victims", "evidence_types")
SINGLE_FIELDS = ("type", "killed", "wounded", "location", "date", "status", "hedges")


def field_values(record: Mapping[str, Any], name: str) -> list[str]:
    """The values an incident record holds in one field ("*" for a known single value)."""
    value = record.get(name)
    if name == "perpetrators":
        return [p["name"] if isinstance(p, dict) else str(p) for p in value or []]
    if name in LIST_FIELDS:
        return [str(v) for v in value or []]
    if isinstance(value, dict):
        known = any(value.get(k) is not None for k in ("low", "high", "name", "start"))
        return ["*"] if known else []
    return ["*"] if value else []


def field_span_checks(incidents: Iterable[Mapping[str, Any]]) -> Iterable[bool]:
    """One bool per (incident, field value): has it source words?"""
    for inc in incidents:
        spans = inc.get("field_spans") or {}
        corrected = {c.get("field") for c in inc.get("corrections") or []}
        for name in (*LIST_FIELDS, *SINGLE_FIELDS):
            rows = spans.get(name) or []
            for v in field_values(inc, name):
                if name in corrected:
                    yield True
                elif name in ("victims", "evidence_types"):
                    yield any(r.get("value") == v for r in rows)
                else:
                    yield bool(rows)


def hedge_checks(
    pairs: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]], words: Callable[[str], str]
) -> Iterable[bool]:
    """One bool per hedge the system attached to a found gold incident listing its hedges."""
    for gold, system in pairs:
        if "hedges" not in gold:
            continue
        golds = [words(h) for h in gold["hedges"]]
        for h in system.get("hedges") or []:
            w = words(h if isinstance(h, str) else h.get("text", ""))
            yield any(w in g or g in w for g in golds)
