"""Exporters: JSON Lines, CSV, GeoJSON and ACLED/UCDP-shaped CSV from contract records."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, TextIO

from corroborator.exports import records
from corroborator.exports.conflict_data import acled_rows, ucdp_rows
from corroborator.storage.db import Store


def load(store: Store, archive_root: Path, what: str) -> list[dict[str, Any]]:
    if what == "documents":
        return records.documents(store, archive_root)
    if what == "quotes":
        return records.quotes(store)
    if what == "entities":
        return records.entities(store)
    return records.incidents(store)


def flatten(rec: dict[str, Any]) -> dict[str, Any]:
    """CSV cells: scalars as they are, nested values as compact JSON."""
    return {
        k: (json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else v)
        for k, v in rec.items()
    }


def geojson(incidents: list[dict[str, Any]]) -> dict[str, Any]:
    features = []
    for inc in incidents:
        loc = inc.get("location") or {}
        geometry = None
        if loc.get("lat") is not None and loc.get("lon") is not None:
            geometry = {"type": "Point", "coordinates": [loc["lon"], loc["lat"]]}
        props = {k: v for k, v in inc.items() if k != "mentions"}
        props["mention_count"] = len(inc.get("mentions", []))
        features.append(
            {"type": "Feature", "id": inc["incident_id"], "geometry": geometry, "properties": props}
        )
    return {"type": "FeatureCollection", "features": features}


def write_csv(rows: list[dict[str, Any]], out: TextIO, fields: list[str] | None = None) -> None:
    fields = fields or list(dict.fromkeys(k for r in rows for k in r))  # `page` on some rows
    writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()
    for r in rows:
        writer.writerow(flatten(r))


def write_export(store: Store, archive_root: Path, what: str, fmt: str, out: TextIO) -> None:
    rows = load(store, archive_root, what)
    if fmt == "jsonl":
        for r in rows:
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
    elif fmt == "csv":
        write_csv(rows, out)
    elif fmt == "geojson":
        json.dump(geojson(rows), out, ensure_ascii=False)
        out.write("\n")
    elif fmt == "acled":
        docs = {d["document_id"]: d for d in records.documents(store, archive_root)}
        acled = acled_rows(rows, docs)
        write_csv(acled, out, list(acled[0]) if acled else None)
    elif fmt == "ucdp":
        docs = {d["document_id"]: d for d in records.documents(store, archive_root)}
        ucdp = ucdp_rows(rows, docs)
        write_csv(ucdp, out, list(ucdp[0]) if ucdp else None)
    else:  # pragma: no cover - click restricts choices
        raise ValueError(f"unknown format {fmt}")
