"""The project's own example corpus end to end through the real CLI, as the README tour runs
it: every input format ingested, the ledger verified, the hand annotation scored.

`examples/docs` holds invented reports in txt, HTML, JSON, JSONL and WARC (see
examples/README.md); `examples/gold.jsonl` was annotated by hand before the system's output
was looked at. Floors sit a little under the figures measured when the corpus was written,
so regressions show.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import (
    EXAMPLE_DOCS,
    EXAMPLE_GOLD,
    gold_strings,
    ingest_and_score,
    working_texts,
)
from corroborator.evaluation import load_gold

# Measured when the corpus was written (before any tuning on it): incidents P .600 R .667
# F1 .632, cross-document links R .222, quotes F1 .967, with speaker .767, same_story 1.0,
# entities .884, overall .820; fields killed .667, location .833, date .500, status .500.
# After the precision, stories and places work merged, links R fell to .111: the Balakliia
# report and transcript's torture accounts (both undated) no longer join; overall .827.
# Links R rose to .667 (P .857) when a background "since 2022" stopped dating the wire's
# yearless day and reports of one story anchored incident links.
FLOORS = {
    "incidents": 0.6,
    "quotes": 0.93,
    "quotes_with_speaker": 0.73,
    "same_story": 1.0,
    "entities": 0.85,
}
FIELD_FLOORS = {"killed_low": 0.6, "location": 0.75, "date": 0.45}
OVERALL_FLOOR = 0.79
LINKS_RECALL_FLOOR = 0.6

FORMATS = {  # source_file prefix -> the input format it was read from
    "market_wire.txt": "txt",
    "market_courier.html": "html",
    "kyivmonitor-vuhledar-intercept": "json",
    "digest-market-copy": "jsonl",
    "digest-oleshky-children": "jsonl (html record)",
    "bulletin-vuhledar-case": "jsonl",
    "monitor.warc.gz:https://sahelnile.example/": "warc",
    "monitor.warc.gz:https://greatlakesradio.example/": "warc",
}


def _gold() -> list[dict[str, Any]]:
    return load_gold(EXAMPLE_GOLD)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Ingest examples/docs once into a fresh database; verify, score and export it."""
    return ingest_and_score(tmp_path_factory.mktemp("examples"), EXAMPLE_DOCS, EXAMPLE_GOLD)


def test_gold_strings_occur_verbatim_in_working_texts() -> None:
    texts = working_texts(EXAMPLE_DOCS)
    assert [(f, s) for f, s in gold_strings(_gold()) if s not in texts[f]] == []
    corpus = "\n".join(texts.values())
    aliases = [a for r in _gold() if r["kind"] == "entity" for a in r["aliases"]]
    assert aliases and [a for a in aliases if a not in corpus] == []
    files = {f for r in _gold() if r["kind"] == "same_story" for f in r["source_files"]}
    assert files <= set(texts)


def test_gold_mentions_are_five_to_twenty_words() -> None:
    lengths = [
        len(m["quote"].split()) for r in _gold() if r["kind"] == "incident" for m in r["mentions"]
    ]
    assert lengths and all(5 <= n <= 20 for n in lengths)


def test_every_format_produced_documents(run: dict[str, Any]) -> None:
    assert "11 new document(s) stored, 0 already stored, 0 rejected" in run["ingest"].stdout
    files = [d["source_file"] for d in run["documents"]]
    assert len(files) == 11
    for prefix, fmt in FORMATS.items():
        assert any(f.startswith(prefix) for f in files), fmt
    assert {f for f in files if f.endswith(".txt")} == {p.name for p in EXAMPLE_DOCS.glob("*.txt")}
    assert all(d["text"].strip() for d in run["documents"])


def test_metadata_from_html_json_and_warc(run: dict[str, Any]) -> None:
    docs = {d["source_file"]: d for d in run["documents"]}
    page = docs["market_courier.html"]
    assert (page["outlet"], page["published"]) == ("The Eastern Courier", "2024-09-15")
    assert page["title"].startswith("Kostiantynivka market strike: toll rises to 21")
    for furniture in ("Support us", "Donate from", "Related", "Photo essay", "Cookie settings"):
        assert furniture not in page["text"]
    intercept = docs["kyivmonitor-vuhledar-intercept"]
    assert (intercept["outlet"], intercept["published"]) == ("Kyiv Monitor", "2023-11-08")
    school = next(d for f, d in docs.items() if f.startswith("monitor.warc.gz:https://sahel"))
    assert school["url"] == "https://sahelnile.example/sudan/2025/01/21/el-obeid-school-shelling"
    assert school["published"] == "2025-01-21" and school["outlet"] == "Sahel & Nile Monitor"
    assert "Wheat prices" not in school["text"]


def test_near_copy_is_marked_and_shares_the_story(run: dict[str, Any]) -> None:
    docs = {d["source_file"]: d for d in run["documents"]}
    wire, copy, courier = (
        docs[f] for f in ("market_wire.txt", "digest-market-copy", "market_courier.html")
    )
    assert copy["duplicate_of"] == wire["document_id"]  # the wire, ingested first, is original
    assert wire["duplicate_of"] is None
    assert courier["duplicate_of"] is None  # the independent retelling is no copy
    assert wire["story_id"] == copy["story_id"] == courier["story_id"]


def test_verify_is_ok(run: dict[str, Any]) -> None:
    result = run["verify"]
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith("OK: 21 ledger entries, 10 archive files, 11 documents")


@pytest.mark.parametrize("kind", sorted(FLOORS))
def test_f1_floor(run: dict[str, Any], kind: str) -> None:
    assert run["report"][kind]["f1"] >= FLOORS[kind], run["report"][kind]


@pytest.mark.parametrize("field", sorted(FIELD_FLOORS))
def test_field_floor(run: dict[str, Any], field: str) -> None:
    assert run["report"]["fields"][field]["accuracy"] >= FIELD_FLOORS[field]


def test_overall_and_links_floor(run: dict[str, Any]) -> None:
    assert run["report"]["overall_f1"] >= OVERALL_FLOOR
    assert run["report"]["cross_document_links"]["recall"] >= LINKS_RECALL_FLOOR


def test_contradicting_tolls_are_flagged(run: dict[str, Any]) -> None:
    """The wire (and its copy) say 17 killed, the Courier's later count 21: one incident
    holding both reports, with the disagreement listed."""
    ids = {d["document_id"]: d["source_file"] for d in run["documents"]}
    strike = [
        i
        for i in run["incidents"]
        if "market_courier.html" in {ids[m["document_id"]] for m in i["mentions"]}
        and {"market_wire.txt", "digest-market-copy"}
        & {ids[m["document_id"]] for m in i["mentions"]}
    ]
    assert strike and strike[0]["type"] == "attack_populated_area"
    killed = [c for c in strike[0]["contradictions"] if c["field"] == "killed"]
    assert killed and {v["value"]["low"] for v in killed[0]["values"]} == {17, 21}
