"""`corroborator show`: one incident as plain text, every field with the words behind it."""

from __future__ import annotations

from typing import Any

from corroborator.errors import CorroboratorError
from corroborator.exports.records import add_pages
from corroborator.storage.db import Store
from corroborator.storage.queries import get_incident


def _range(r: dict[str, Any] | None) -> str:
    if not r or (r.get("low") is None and r.get("high") is None):
        return "not stated"
    low, high = r.get("low"), r.get("high")
    text = (
        f"{low}"
        if low == high
        else f"{low if low is not None else '?'}-{high if high is not None else ''}"
    )
    return ("about " if r.get("approx") else "") + text.rstrip("-") + ("+" if high is None else "")


def render_incident(store: Store, incident_id: str) -> str:
    inc = get_incident(store, incident_id)
    if inc is None:
        raise CorroboratorError(f"no incident {incident_id!r}; `corroborator incidents` lists them")
    docs = {
        d["document_id"]: d
        for d in store.documents(
            sorted({m["document_id"] for m in inc["mentions"]}), with_text=False
        )
    }
    loc, date, cor = inc["location"], inc["date"], inc["corroboration"]
    lines = [
        f"Incident {inc['incident_id']}  [{inc['type']}]",
        f"  {inc['summary']}",
        "",
        f"  status:        {inc['status']}",
    ]
    if inc.get("status_explanation"):
        lines.append(f"                 {inc['status_explanation']}")
    lines += [
        f"  perpetrators:  {', '.join(p['name'] for p in inc['perpetrators']) or 'not named'}",
        f"  victims:       {', '.join(inc['victims']) or 'not stated'}",
        f"  killed:        {_range(inc['killed'])}",
        f"  wounded:       {_range(inc['wounded'])}",
        f"  location:      {loc.get('name') or 'unknown'}"
        + (
            f" ({loc.get('admin1') or '-'}, {loc.get('country') or '-'}; {loc['precision']})"
            if loc.get("name")
            else ""
        ),
        f"  date:          {date.get('start') or 'unknown'}"
        + (f" to {date['end']}" if date.get("end") and date.get("end") != date.get("start") else "")
        + f" ({date['precision']})",
        f"  evidence:      {', '.join(inc['evidence_types']) or '-'}",
        f"  hedges:        {'; '.join(inc['hedges']) or '-'}",
        f"  corroboration: {cor['documents']} document(s), {cor['independent_sources']} independent"
        f" source(s), score {cor['score']:.2f}",
    ]
    if inc["contradictions"]:
        lines.append("  contradictions:")
        for c in inc["contradictions"]:
            vals = "; ".join(
                f"{v['value']} ({docs.get(v['document_id'], {}).get('source_file', v['document_id'])})"
                for v in c["values"]
            )
            lines.append(f"    {c['field']}: {vals}")
    lines.append("")
    lines.append("  mentions (source words):")
    add_pages(store, inc["mentions"])
    media = store.document_media(list(docs))
    forwards = store.document_origins(list(docs))
    for m in inc["mentions"]:
        d = docs.get(m["document_id"], {})
        page = f", page {m['page']}" if m.get("page") else ""
        lines.append(f'    [{m["source_file"]} {m["start"]}-{m["end"]}{page}] "{m["text"]}"')
        if d:
            lines.append(
                f"      sha256 {d['sha256'][:16]}…  ledger #{d['ledger_seq']}  ingested {d['ingested_at']}"
                + (f"  copy of {d['duplicate_of']}" if d.get("duplicate_of") else "")
            )
            fw = forwards.pop(m["document_id"], None)
            if fw:
                lines.append(f"      forwarded from {fw['origin']}")
            lines += [f"      {media_line(f)}" for f in media.pop(m["document_id"], [])]
    return "\n".join(lines)


def media_line(f: dict[str, Any]) -> str:
    """One media file of a message: type, hashes, or why it is not archived."""
    kind = f["kind"] + (f" ({f['role']})" if f.get("role") else "")
    if not f.get("sha256"):
        return f"media: {kind} {f['media_type']} not archived: {f['missing']}"
    phash = f"  phash {f['phash']}" if f.get("phash") else ""
    return f"media: {kind} {f['media_type']} sha256 {f['sha256']} {f['size_bytes']} bytes{phash}"
