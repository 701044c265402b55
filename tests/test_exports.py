"""Exports in every format, and the incidents/show commands, on the extracted seeds."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from conftest import SEEDS

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
def seeded(cli):
    assert cli("ingest", "--quiet", str(SEEDS)).exit_code == 0
    return cli


def test_incident_records_follow_the_contract(seeded) -> None:
    recs = [json.loads(x) for x in seeded("export", "--what", "incidents").output.splitlines()]
    assert len(recs) >= 10
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
        assert r["mentions"] and all(m["source_file"].endswith(".txt") for m in r["mentions"])
        if r["status"] != "confirmed":
            assert "confirmed" not in r["summary"].lower()
    scores = [r["corroboration"]["score"] for r in recs]
    assert scores == sorted(scores, reverse=True)  # best-corroborated first


def test_quotes_and_entities_export(seeded) -> None:
    quotes = [json.loads(x) for x in seeded("export", "--what", "quotes").output.splitlines()]
    assert len(quotes) >= 40
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
    entities = [json.loads(x) for x in seeded("export", "--what", "entities").output.splitlines()]
    people = [e for e in entities if e["kind"] == "person"]
    # one person across outlets and spellings: a surname-only mention joins the full name
    prig = [e for e in people if any("Prigozhin" in a for a in e["aliases"])]
    assert len(prig) == 1 and len(prig[0]["document_ids"]) >= 2


def test_csv_flattens_the_same_fields(seeded, tmp_path: Path) -> None:
    out = tmp_path / "incidents.csv"
    assert (
        seeded("export", "--what", "incidents", "--format", "csv", "--output", str(out)).exit_code
        == 0
    )
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows and set(rows[0]) >= INCIDENT_FIELDS
    assert json.loads(rows[0]["corroboration"])["documents"] >= 1


def test_geojson_is_valid_and_keeps_unlocated_incidents(seeded) -> None:
    gj = json.loads(seeded("export", "--what", "incidents", "--format", "geojson").output)
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
def test_conflict_data_layouts(seeded, fmt: str, columns: list[str]) -> None:
    text = seeded("export", "--what", "incidents", "--format", fmt).output
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and set(columns) <= set(rows[0])
    if fmt == "ucdp":
        for r in rows:
            assert int(r["low"]) <= int(r["best"]) <= int(r["high"]) or r["high"] == r["best"]


def test_geojson_refused_for_documents(seeded) -> None:
    result = seeded("export", "--what", "documents", "--format", "geojson")
    assert result.exit_code != 0 and "incidents only" in result.output


def test_incidents_table_and_show(seeded) -> None:
    table = seeded("incidents").output.splitlines()
    assert table[0].split()[:4] == ["incident", "type", "status", "docs"]
    linked = [ln for ln in table[1:] if int(ln.split()[3]) >= 2]
    assert linked, "no incident reported by two documents"
    incident_id = linked[0].split()[0]
    shown = seeded("show", incident_id).output
    assert "mentions (source words):" in shown
    assert shown.count("sha256 ") >= 2 and "ledger #" in shown
    assert "corroboration:" in shown and "status:" in shown


def test_show_unknown_incident_is_one_line(seeded) -> None:
    result = seeded("show", "inc_nope")
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "no incident" in result.output


@pytest.mark.parametrize("fmt", ["csv", "acled", "ucdp"])
def test_csv_exports_load_in_pandas(seeded, tmp_path: Path, fmt: str) -> None:
    import pandas as pd

    out = tmp_path / f"incidents.{fmt}.csv"
    assert (
        seeded("export", "--what", "incidents", "--format", fmt, "--output", str(out)).exit_code
        == 0
    )
    frame = pd.read_csv(out)
    n = len(seeded("export", "--what", "incidents").output.splitlines())
    assert len(frame) == n
    if fmt == "acled":
        assert frame["fatalities"].dtype.kind == "i" and (frame["fatalities"] >= 0).all()
