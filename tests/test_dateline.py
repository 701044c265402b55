"""A pasted page's own date stamp dates a record that has no `published` field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from corroborator.exports.records import all_records
from corroborator.ingest.dateline import stated_date
from corroborator.storage.db import archive_root_for, open_store
from corroborator.web.app import create_app

BODY = (
    "A Russian missile struck an apartment block in the city late on Tuesday, killing "
    "seven people and wounding 23, regional officials said on Wednesday.\n\n"
    "Rescuers worked through the night to reach residents trapped in the stairwell.\n"
)


@pytest.mark.parametrize(
    ("head", "day"),
    [
        (
            "Missile kills seven in Zaporizhzhia\n\nPublished: 12 March 2025, 14:05 CET\n\n",
            "2025-03-12",
        ),
        ("Court jails former officer for life\n\nStockholm, 27 November 2025\n\n", "2025-11-27"),
        (
            "LIVE: toll rises\n\nLevant Daily live blog | Tuesday 22 July 2025 | Editors: Yara Mansour\n\n",
            "2025-07-22",
        ),
        ("Missile kills seven\n\nBy Anna Bell, Wire\nMarch 4, 2024\n\n", "2024-03-04"),
        ("Missile kills seven\n\nZAPORIZHZHIA, 24 June 2025 - ", "2025-06-24"),
        ("Missile kills seven\n\nUpdated 2023-10-09 08:15\n\n", "2023-10-09"),
        # other languages' month names, as their stamps write them
        ("Ракета попала в дом\n\nОпубликовано 12 марта 2025, 14:05\n\n", "2025-03-12"),
        ("Ракета влучила в будинок\n\nКиїв, 5 березня 2025\n\n", "2025-03-05"),
        ("Rakete trifft Wohnhaus\n\nVeröffentlicht am 5. März 2025\n\n", "2025-03-05"),
        ("Un missile frappe un immeuble\n\nPublié le 12 mars 2025 à 14h05\n\n", "2025-03-12"),
        ("Un misil impacta un edificio\n\nKiev, 12 de marzo de 2025\n\n", "2025-03-12"),
        ("Rakieta trafiła w blok\n\nKijów, 12 marca 2025\n\n", "2025-03-12"),
    ],
)
def test_a_header_date_stamp_is_read(head: str, day: str) -> None:
    text = head + BODY
    stated = stated_date(text)
    assert stated is not None and stated.day.isoformat() == day
    assert stated.day.strftime("%Y") in text[stated.start : stated.end]


@pytest.mark.parametrize(
    "text",
    [
        # a headline's date is what the news is about, not when it was published
        "Remembering 24 February 2022: the morning the war began\n\n" + BODY,
        # a date in the body is the act's
        BODY + "\nThe first strike on the district was on 3 March 2022.\n",
        # a date stamp without a year dates nothing
        "Missile kills seven\n\nMarch 12\n\n" + BODY,
        # no real day
        "Missile kills seven\n\n31 February 2025\n\n" + BODY,
    ],
)
def test_no_stamp_no_date(text: str) -> None:
    assert stated_date(text) is None


def test_ingested_text_is_dated_by_its_stamp_and_says_so(cli, db: Path, tmp_path: Path) -> None:
    """The stamp dates the record, anchors 'on Tuesday' and is shown with its words; a
    record that states its own date keeps it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.txt").write_text(
        "Missile kills seven in Zaporizhzhia\n\nPublished: 12 March 2025, 14:05 CET\n\n"
        "ZAPORIZHZHIA, Ukraine - " + BODY,
        encoding="utf-8",
    )
    record = {"id": "r1", "text": "Published: 12 March 2025\n\n" + BODY, "published": "2025-03-20"}
    (docs / "feed.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert cli("ingest", "--quiet", str(docs)).exit_code == 0
    store = open_store(str(db))
    recs = all_records(store, archive_root_for(str(db)))
    by_file = {d["source_file"]: d for d in recs["documents"]}
    assert by_file["page.txt"]["published"] == "2025-03-12"
    assert by_file["r1"]["published"] == "2025-03-20"
    assert "Published:" not in by_file["page.txt"]["text"]  # still furniture
    page = by_file["page.txt"]["document_id"]
    (strike,) = [i for i in recs["incidents"] if i["mentions"][0]["document_id"] == page]
    assert strike["date"]["start"] == "2025-03-11"  # the Tuesday before
    facts = store.document_facts([page])[page]
    assert facts["published_from"]["words"] == "12 March 2025"
    html = TestClient(create_app(str(db), archive_root_for(str(db)))).get(f"/documents/{page}").text
    assert "read from the page's date line “12 March 2025”" in html.replace("&#39;", "'")


@pytest.mark.parametrize(
    ("head", "day"),
    [
        # a long title without a full stop, then the place and date line
        (
            "Statement by the Minister of Justice on the killings in Kenscoff, the abduction on "
            "National Road 1 and the deaths of two detainees in custody\n\n"
            "Port-au-Prince, 24 April 2025\n\n",
            "2025-04-24",
        ),
        (
            "Five shot dead on aid route\n\nDEIR AL-BALAH, Gaza Strip, 13 June 2025\n\n",
            "2025-06-13",
        ),
        ("Deserters' video\n\nPublished 18 November 2024 | By Anna Bell\n\n", "2024-11-18"),
    ],
)
def test_a_place_and_date_line_after_a_long_title_is_read(head: str, day: str) -> None:
    stated = stated_date(head + BODY)
    assert stated is not None and stated.day.isoformat() == day
