"""Every incident field traces to source words; disclaimers stay with the claim they qualify."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corroborator.eval_grounding import field_span_checks
from corroborator.nlp.pipeline import extract

FIXTURES = Path(__file__).parent / "fixtures"

DISCLAIMERS = (
    "Militia fighters shot dead eleven civilians at a checkpoint outside Dorvan on 3 May, "
    "three survivors told reporters.\n\n"
    "Separately, an unverified video circulating online appears to show fighters burning a "
    "captured soldier alive.\n\n"
    "The Courier could not independently verify the survivors' accounts."
)


def test_disclaimer_about_another_claim_stays_with_that_claim() -> None:
    ex = extract(DISCLAIMERS, "2024-05-06")
    shooting = next(i for i in ex.incidents if "checkpoint" in i.mentions[0].text)
    hedges = [h.text for h in shooting.hedges]
    assert any("could not independently verify" in h for h in hedges)
    assert not any("unverified" in h for h in hedges)
    others = [i for i in ex.incidents if i is not shooting]
    # the video's own claim, where extracted, keeps its disclaimer
    for inc in others:
        if any("video" in m.text for m in inc.mentions):
            assert any("unverified" in h.text for h in inc.hedges)


FIGURES = (
    "Artillery fire killed 14 civilians in the village of Maren on 2 June, the regional "
    "governor said.\n\n"
    "A detained conscript said in a filmed interview that his commander had ordered the "
    "unit to shoot anyone who tried to retreat.\n\n"
    "It was not possible to independently verify the figures."
)


def test_disclaimer_about_figures_qualifies_only_the_claim_with_a_toll() -> None:
    ex = extract(FIGURES, "2024-06-04")
    shelling = next(i for i in ex.incidents if i.killed.low == 14)
    assert any("verify the figures" in h.text for h in shelling.hedges)
    order = [i for i in ex.incidents if "retreat" in i.mentions[0].text]
    assert order, [i.type for i in ex.incidents]
    assert not any("figures" in h.text for i in order for h in i.hedges)


def test_every_field_of_a_document_incident_has_its_words() -> None:
    text = (
        "KHARTOUM - Paramilitary fighters killed at least 23 villagers, among them six "
        "children, and wounded about 40 others in an attack on Um Kadada on 12 March 2024, "
        "a local rights group said, citing witnesses and video it had reviewed.\n\n"
        '"They came at dawn and shot at everyone who ran," one survivor said.'
    )
    ex = extract(text, "2024-03-14")
    assert ex.incidents
    for inc in ex.incidents:
        for name, spans in inc.sources.items():
            for s in spans:
                assert text[s.start : s.end] == s.text, name
        assert inc.killed.low is None or inc.sources.get("killed")
        for v in inc.victims:
            assert any(s.value == v for s in inc.sources["victims"]), v
        for e in inc.evidence_types:
            assert any(s.value == e for s in inc.sources["evidence_types"]), e
        if inc.location.name:
            assert inc.sources["location"]
        assert inc.sources["status"] and inc.sources["type"]


def test_exported_incidents_and_dossier_show_words_for_every_field(cli, db: Path) -> None:
    assert cli("ingest", "--quiet", str(FIXTURES / "heldout" / "docs")).exit_code == 0
    out = cli("export", "--what", "incidents").output
    incidents = [json.loads(line) for line in out.splitlines()]
    docs = {
        d["document_id"]: d["text"]
        for d in map(json.loads, cli("export", "--what", "documents").output.splitlines())
    }
    assert len(incidents) >= 5
    checks = list(field_span_checks(incidents))
    assert len(checks) > 40 and all(checks)
    for inc in incidents:
        for rows in inc["field_spans"].values():
            for r in rows:
                assert docs[r["document_id"]][r["start"] : r["end"]] == r["text"]

    report = json.loads(cli("eval", "--json", str(FIXTURES / "heldout" / "gold.jsonl")).output)
    assert report["grounding"]["field_spans"]["accuracy"] == 1.0
    assert report["grounding"]["field_spans"]["total"] == len(checks)

    from fastapi.testclient import TestClient

    from corroborator.web.app import create_app

    client = TestClient(create_app(str(db), db.with_suffix(".archive")))
    page = client.get(f"/incidents/{incidents[0]['incident_id']}").text
    assert "no source words recorded" not in page


@pytest.mark.parametrize("field", ["killed", "location"])
def test_field_span_share_counts_missing_words(field: str) -> None:
    inc = {
        "type": "killing_civilians",
        "status": "alleged",
        "killed": {"low": 3, "high": 3},
        "location": {"name": "Dorvan"},
        "field_spans": {
            "type": [{"value": "killing_civilians"}],
            "status": [{"value": "alleged"}],
            "killed": [{"value": ""}],
            "location": [{"value": ""}],
        },
    }
    assert all(field_span_checks([inc]))
    del inc["field_spans"][field]
    assert list(field_span_checks([inc])).count(False) == 1
