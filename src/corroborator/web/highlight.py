"""Cut a document's text into segments marked by the records whose offsets cover them.

Spans nest and overlap (a place inside a quote inside an incident sentence), and HTML
links cannot nest, so the text is cut at every span boundary; each piece carries the
classes of all spans over it and links to the smallest (most specific) one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Mark:
    start: int
    end: int
    kind: str  # incident | quote | entity | place | date | hedge | count
    href: str
    title: str


@dataclass
class Segment:
    text: str
    start: int
    kinds: list[str]
    href: str | None
    title: str


def segments(text: str, marks: list[Mark]) -> list[Segment]:
    good = [m for m in marks if 0 <= m.start < m.end <= len(text)]
    cuts = sorted({0, len(text), *(m.start for m in good), *(m.end for m in good)})
    out: list[Segment] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        over = [m for m in good if m.start <= a and b <= m.end]
        if not over:
            out.append(Segment(text[a:b], a, [], None, ""))
            continue
        best = min(over, key=lambda m: (m.end - m.start, m.kind))
        kinds = sorted({m.kind for m in over})
        title = "; ".join(dict.fromkeys(m.title for m in over))
        out.append(Segment(text[a:b], a, kinds, best.href, title))
    return out


def marks_for(
    doc_id: str,
    extraction: dict[str, Any],
    incidents: list[dict[str, Any]],
    quotes: list[dict[str, Any]],
    entity_ids: dict[tuple[int, int], str],
) -> list[Mark]:
    """Every record of one document as a Mark linking to what it belongs to."""
    marks: list[Mark] = []
    for inc in incidents:
        for m in inc["mentions"]:
            if m["document_id"] == doc_id:
                marks.append(
                    Mark(
                        m["start"],
                        m["end"],
                        "incident",
                        f"/incidents/{inc['incident_id']}",
                        f"incident: {inc['type']}",
                    )
                )
    for q in quotes:
        marks.append(
            Mark(
                q["start"],
                q["end"],
                "quote",
                f"#{q['quote_id']}",
                f"quote: {q.get('speaker') or 'unknown speaker'} ({q.get('speaker_role')})",
            )
        )
    for e in extraction.get("entities", []):
        eid = entity_ids.get((e["start"], e["end"]))
        href = f"/entities#{eid}" if eid else f"#x-{e['start']}"
        marks.append(
            Mark(
                e["start"],
                e["end"],
                "entity",
                href,
                f"{e['kind']}: {e.get('canonical') or e['text']}",
            )
        )
    for p in extraction.get("places", []):
        marks.append(
            Mark(
                p["start"],
                p["end"],
                "place",
                f"#p-{p['start']}",
                f"place: {p.get('name')} ({p.get('precision')})",
            )
        )
    for d in extraction.get("dates", []):
        marks.append(
            Mark(
                d["start"],
                d["end"],
                "date",
                f"#d-{d['start']}",
                f"date: {d.get('date_start')} ({d.get('precision')})",
            )
        )
    for h in extraction.get("hedges", []):
        marks.append(Mark(h["start"], h["end"], "hedge", f"#h-{h['start']}", "hedge"))
    for c in extraction.get("counts", []):
        marks.append(
            Mark(
                c["start"],
                c["end"],
                "count",
                f"#c-{c['start']}",
                f"count: {c.get('low')}-{c.get('high')} {c.get('outcome') or ''}".strip(),
            )
        )
    return marks
