"""Incidents on the seeds (scored as `eval` scores them) and on short texts of other styles."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from corroborator.models import DocIncident, Extraction
from corroborator.nlp.pipeline import DocContext, default_stages, load_nlp

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="module")
def extract():
    nlp = load_nlp()
    stages = default_stages()

    def _run(text: str) -> Extraction:
        ctx = DocContext(doc=nlp(text))
        for stage in stages:
            stage(ctx)
        return ctx.extraction

    return _run


def _types(ex: Extraction) -> list[str]:
    return sorted(i.type for i in ex.incidents)


def _norm(s: str) -> str:
    s = s.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", s).strip().lower()


@pytest.fixture(scope="module")
def seed_incidents(extract) -> dict[str, list[DocIncident]]:
    return {
        p.name: extract(p.read_text(encoding="utf-8")).incidents
        for p in sorted((SHARED / "seeds").glob("*.txt"))
    }


def test_seed_gold_pairs(seed_incidents) -> None:
    """(incident, document) pairs as `eval` counts them: same type, a mention containing gold."""
    gold = [json.loads(line) for line in (SHARED / "gold" / "seeds.jsonl").open(encoding="utf-8")]
    found = total = 0
    matched: set[tuple[str, int]] = set()
    for g in (g for g in gold if g["kind"] == "incident"):
        for sf in {m["source_file"] for m in g["mentions"]}:
            total += 1
            quotes = [_norm(m["quote"]) for m in g["mentions"] if m["source_file"] == sf]
            hits = [
                i
                for i, inc in enumerate(seed_incidents[sf])
                if inc.type == g["type"]
                and any(q in _norm(m.text) for m in inc.mentions for q in quotes)
            ]
            found += bool(hits)
            matched.update((sf, i) for i in hits)
    n_sys = sum(len(v) for v in seed_incidents.values())
    recall, precision = found / total, len(matched) / n_sys
    f1 = 2 * precision * recall / (precision + recall)
    assert f1 >= 0.8, (precision, recall)


def test_seed_offsets_and_fields(seed_incidents) -> None:
    texts = {p.name: p.read_text(encoding="utf-8") for p in (SHARED / "seeds").glob("*.txt")}
    for sf, incs in seed_incidents.items():
        for inc in incs:
            assert inc.summary.endswith(".")
            for m in inc.mentions:
                assert texts[sf][m.start : m.end] == m.text
            for spans in inc.sources.values():
                for s in spans:
                    assert texts[sf][s.start : s.end] == s.text


def test_confession_and_denial_on_seed(seed_incidents) -> None:
    incs = seed_incidents["000_fb352e0b2e3a6033.txt"]
    massacre = [i for i in incs if i.killed.low == 300]
    assert massacre and massacre[0].type == "killing_civilians"
    assert massacre[0].status == "confessed" and massacre[0].killed.high == 400
    # Prigozhin's "no one ever shoots civilians" is a denial, never a mention
    assert not any("no one ever shoots" in m.text for i in incs for m in i.mentions)


def test_wire_copy_attack_with_outcome(extract) -> None:
    ex = extract(
        "KYIV, May 3 (Reuters) - Russian forces shelled a residential district of Kharkiv on "
        "Tuesday, killing five civilians including two children, the regional governor said. "
        "Reuters could not independently verify the report."
    )
    assert _types(ex) == ["attack_populated_area"]
    inc = ex.incidents[0]
    assert "Reuters could not independently verify the report" in [h.text for h in inc.hedges]
    assert "official_statement" in inc.evidence_types


def test_military_target_is_not_an_attack_on_civilians(extract) -> None:
    ex = extract(
        "A military airfield south of the city has been hit by missiles, destroying the "
        "runway and a fuel depot."
    )
    assert ex.incidents == []


def test_captives_in_numbers_written_as_words(extract) -> None:
    ex = extract(
        "Twenty-three prisoners of war were executed after they surrendered near the village, "
        "according to a UN report."
    )
    assert _types(ex) == ["killing_captives"]
    assert "prisoners_of_war" in ex.incidents[0].victims


def test_said_after_quote_and_abduction(extract) -> None:
    ex = extract(
        '"They took my husband away and we never saw him again," said Olena. '
        "Soldiers abducted at least 12 men from the village in March, witnesses told investigators."
    )
    assert _types(ex) == ["abduction_detention"]
    assert {"witness_testimony", "investigation"} <= set(ex.incidents[0].evidence_types)


def test_british_single_quotes_order_and_threat(extract) -> None:
    ex = extract(
        "The soldier said: ‘We were told to shoot anyone who didn’t surrender. "
        "The commander’s orders were clear: take no prisoners.’\n"
        "He added that his unit’s officers had threatened to jail anyone who refused to advance."
    )
    assert _types(ex) == ["coercion_of_troops", "no_quarter_order"]
    order = next(i for i in ex.incidents if i.type == "no_quarter_order")
    assert order.status == "confessed"  # 'we were told to shoot': the speaker received it
    assert len(order.mentions) == 2  # one quote, one order


def test_modality_denial_and_questions_are_not_events(extract) -> None:
    for text in (
        "The defence ministry denied that its troops had killed any civilians in the town.",
        "Our soldiers never target civilians, a spokesman said.",
        "Officials warned that Russian troops could shell the evacuation convoy.",
        "If the corridor is not respected, civilians may be killed.",
        "Who killed the civilians in the square?",
        "Ukrainian forces said they had killed 200 Russian soldiers in fighting near the front.",
        "A commander shot himself in the leg to get out of the war.",
    ):
        assert extract(text).incidents == [], text


def test_threat_to_kill_own_soldiers_is_coercion(extract) -> None:
    ex = extract(
        "The captured soldier said commanders had threatened to kill deserters. "
        "‘They told us they’d kill us if we went back,’ he said."
    )
    assert _types(ex) == ["coercion_of_troops"]


def test_own_forces_and_sexual_violence(extract) -> None:
    ex = extract(
        "Several conscripts who tried to flee the front were shot by their own commanders, "
        "a deserter told the BBC.\nWomen in the occupied villages described being raped by soldiers."
    )
    assert _types(ex) == ["killing_own_forces", "sexual_violence"]
    sexual = next(i for i in ex.incidents if i.type == "sexual_violence")
    assert "women" in sexual.victims


def test_adjacent_retelling_merges(extract) -> None:
    ex = extract(
        "He said they had killed at least 60 injured prisoners of war near the river. "
        "Anyone not killed by the grenades was incinerated."
    )
    assert _types(ex) == ["killing_captives"]
    assert len(ex.incidents[0].mentions) == 2
