"""Exports in every format, and the incidents/show commands, on the extracted examples."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from conftest import EXAMPLE_DOCS

INCIDENT_FIELDS = {
    "incident_id",
    "type",
    "summary",
    "perpetrators",
    "victims",
    "killed",
    "wounded",
    "location",
    "date",
    "evidence_types",
    "status",
    "hedges",
    "corroboration",
    "contradictions",
    "mentions",
}
ACLED_COLUMNS = [
    "event_date",
    "event_type",
    "sub_event_type",
    "actor1",
    "actor2",
    "admin1",
    "location",
    "latitude",
    "longitude",
    "geo_precision",
    "time_precision",
    "source",
    "source_scale",
    "notes",
    "fatalities",
]
UCDP_COLUMNS = [
    "best",
    "low",
    "high",
    "where_prec",
    "date_prec",
    "number_of_sources",
    "source_article",
]


@pytest.fixture
def ingested(cli):
    assert cli("ingest", "--quiet", str(EXAMPLE_DOCS)).exit_code == 0
    return cli


def test_incident_records_follow_the_contract(ingested) -> None:
    recs = [json.loads(x) for x in ingested("export", "--what", "incidents").output.splitlines()]
    assert len(recs) >= 10
    documents = ingested("export", "--what", "documents").output.splitlines()
    files = {json.loads(x)["source_file"] for x in documents}
    for r in recs:
        assert set(r) >= INCIDENT_FIELDS
        assert set(r["corroboration"]) == {"documents", "independent_sources", "score"}
        assert r["date"]["precision"] in ("day", "week", "month", "year", "unknown")
        assert r["location"]["precision"] in (
            "settlement",
            "admin2",
            "admin1",
            "country",
            "unknown",
        )
        assert r["mentions"] and all(m["source_file"] in files for m in r["mentions"])
        if r["status"] != "confirmed":
            assert "confirmed" not in r["summary"].lower()
    scores = [r["corroboration"]["score"] for r in recs]
    assert scores == sorted(scores, reverse=True)  # best-corroborated first


def test_quotes_and_entities_export(ingested) -> None:
    quotes = [json.loads(x) for x in ingested("export", "--what", "quotes").output.splitlines()]
    assert len(quotes) >= 25
    assert {
        "quote_id",
        "document_id",
        "source_file",
        "start",
        "end",
        "text",
        "speaker",
        "speaker_entity_id",
        "speaker_role",
        "stance",
    } <= set(quotes[0])
    entities = [json.loads(x) for x in ingested("export", "--what", "entities").output.splitlines()]
    people = [e for e in entities if e["kind"] == "person"]
    # one person across outlets and spellings: a surname-only mention joins the full name
    named = [e for e in people if any("Marchenko" in a for a in e["aliases"])]
    assert len(named) == 1 and len(named[0]["document_ids"]) >= 2
    assert set(named[0]["aliases"]) >= {"Ihor Marchenko", "Marchenko"}


def test_csv_flattens_the_same_fields(ingested, tmp_path: Path) -> None:
    out = tmp_path / "incidents.csv"
    assert (
        ingested("export", "--what", "incidents", "--format", "csv", "--output", str(out)).exit_code
        == 0
    )
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows and set(rows[0]) >= INCIDENT_FIELDS
    assert json.loads(rows[0]["corroboration"])["documents"] >= 1


def test_geojson_is_valid_and_keeps_unlocated_incidents(ingested) -> None:
    gj = json.loads(ingested("export", "--what", "incidents", "--format", "geojson").output)
    assert gj["type"] == "FeatureCollection" and gj["features"]
    located = [f for f in gj["features"] if f["geometry"]]
    assert located
    for f in located:
        lon, lat = f["geometry"]["coordinates"]
        assert -180 <= lon <= 180 and -90 <= lat <= 90
        assert f["geometry"]["type"] == "Point"
    for f in gj["features"]:
        if f["properties"]["location"]["lat"] is None:
            assert f["geometry"] is None


@pytest.mark.parametrize(("fmt", "columns"), [("acled", ACLED_COLUMNS), ("ucdp", UCDP_COLUMNS)])
def test_conflict_data_layouts(ingested, fmt: str, columns: list[str]) -> None:
    text = ingested("export", "--what", "incidents", "--format", fmt).output
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and set(columns) <= set(rows[0])
    if fmt == "ucdp":
        for r in rows:
            assert int(r["low"]) <= int(r["best"]) <= int(r["high"]) or r["high"] == r["best"]


def test_geojson_refused_for_documents(ingested) -> None:
    result = ingested("export", "--what", "documents", "--format", "geojson")
    assert result.exit_code != 0 and "incidents only" in result.output


def test_incidents_table_and_show(ingested) -> None:
    table = ingested("incidents").output.splitlines()
    assert table[0].split()[:4] == ["incident", "type", "status", "docs"]
    linked = [ln for ln in table[1:] if int(ln.split()[3]) >= 2]
    assert linked, "no incident reported by two documents"
    incident_id = linked[0].split()[0]
    shown = ingested("show", incident_id).output
    assert "mentions (source words):" in shown
    assert shown.count("sha256 ") >= 2 and "ledger #" in shown
    assert "corroboration:" in shown and "status:" in shown


def test_show_unknown_incident_is_one_line(ingested) -> None:
    result = ingested("show", "inc_nope")
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "no incident" in result.output


@pytest.mark.parametrize("fmt", ["csv", "acled", "ucdp"])
def test_csv_exports_load_in_pandas(ingested, tmp_path: Path, fmt: str) -> None:
    import pandas as pd

    out = tmp_path / f"incidents.{fmt}.csv"
    assert (
        ingested("export", "--what", "incidents", "--format", fmt, "--output", str(out)).exit_code
        == 0
    )
    frame = pd.read_csv(out)
    n = len(ingested("export", "--what", "incidents").output.splitlines())
    assert len(frame) == n
    if fmt == "acled":
        assert frame["fatalities"].dtype.kind == "i" and (frame["fatalities"] >= 0).all()
