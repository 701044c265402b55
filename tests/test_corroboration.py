"""Corroboration, contradictions, status and merged fields of linked incident clusters."""

from __future__ import annotations

from dataclasses import replace

from corroborator.linking.corroboration import (
    contradictions,
    corroboration,
    explain_status,
    incident_record,
    merge_fields,
    source_keys,
    status,
    summarize,
)
from corroborator.linking.incidents import IncidentItem
from corroborator.models import DateRange, DocIncident, Location, Range, Span

BAKHMUT = Location("Bakhmut", 706524, 48.59, 38.0, "Donetsk", "UA", "settlement")
DONETSK_OBLAST = Location("Donetsk Oblast", 709716, 48.0, 37.8, "Donetsk", "UA", "admin1")
KHERSON = Location("Kherson", 706448, 46.64, 32.61, "Kherson", "UA", "settlement")
FEB_2023 = DateRange("2023-02-01", "2023-02-28", "month")

WIRE = (
    "KYIV, April 18 (Reuters) - A former mercenary commander said in a video that his unit "
    "killed between 300 and 400 people, including children, in basements in February. "
    "Reuters could not independently verify the video."
)


def span(text: str, words: str) -> Span:
    start = text.index(words)
    return Span(start, start + len(words), words)


def report(**kw: object) -> DocIncident:
    base = DocIncident(
        type="killing_civilians",
        mentions=[span(WIRE, "his unit killed between 300 and 400 people, including children")],
        perpetrators=["Wagner Group"],
        victims=["civilians", "children"],
        killed=Range(300, 400),
        location=BAKHMUT,
        date=FEB_2023,
        evidence_types=["video"],
    )
    return replace(base, **kw)


def item(doc: str, inc: DocIncident, **kw: object) -> IncidentItem:
    return IncidentItem(document_id=doc, index=0, incident=inc, source_file=f"{doc}.txt", **kw)


VIDEO = ("video:ukrainian security service",)


def test_two_outlets_relaying_one_video_are_one_source() -> None:
    cluster = [
        item("bbc", report(), outlet="BBC", origins=VIDEO),
        item("cnn", report(), outlet="CNN", origins=VIDEO),
    ]
    c = corroboration(cluster)
    assert (c.documents, c.independent_sources) == (2, 1)
    assert status(cluster) == "alleged"


def test_copies_count_once_and_independent_outlets_corroborate() -> None:
    cluster = [
        item("wire", report(), outlet="Reuters"),
        item("wire-copy", report(), outlet="Yahoo News", duplicate_of="wire"),
    ]
    assert corroboration(cluster).documents == 1
    assert source_keys(cluster) == ["outlet:reuters"]
    cluster.append(item("own", report(), outlet="Kyiv Independent"))
    assert corroboration(cluster).independent_sources == 2
    assert status(cluster) == "corroborated"


def test_diverse_evidence_beats_retellings_of_one_video_and_hedges_cost() -> None:
    retellings = [item(f"d{i}", report(), outlet=f"O{i}", origins=VIDEO) for i in range(3)]
    diverse = [
        item("x", report(evidence_types=["confession"]), origins=("video:gulagu.net",)),
        item("y", report(evidence_types=["document"]), origins=("document:prosecutor",)),
        item("z", report(evidence_types=["intercepted_communication"]), origins=("intercept:sbu",)),
    ]
    one_rich = [
        item("r", report(evidence_types=["confession", "document", "intercepted_communication"]))
    ]
    s_ret, s_div, s_rich = (corroboration(c).score for c in (retellings, diverse, one_rich))
    assert s_div > s_rich > s_ret
    assert s_ret >= 0.0 and s_div <= 1.0
    hedged = [
        replace(it, incident=report(hedges=[span(WIRE, "could not independently verify")]))
        for it in retellings
    ]
    assert corroboration(hedged).score < s_ret


def test_status_precedence() -> None:
    asserted = item("a", report(), outlet="A")
    denial = item("d", report(status="denied"), outlet="TASS")
    assert status([denial]) == "denied"
    assert status([asserted, denial]) == "disputed"
    confession = item("c", report(status="confessed"), outlet="C")
    assert status([confession, denial]) == "confessed"  # a perpetrator's admission outweighs
    verified = item("v", report(status="confirmed"), outlet="V")
    assert status([asserted, verified]) == "confirmed"
    two = [asserted, item("b", report(), outlet="B")]
    assert status(two) == "corroborated"
    assert status([asserted]) == "alleged"


def test_explain_status_names_claimants_deniers_sources_and_hedges() -> None:
    hedge = span(WIRE, "could not independently verify")
    cluster = [
        item("a", report(hedges=[hedge]), outlet="Reuters", origins=VIDEO),
        item("d", report(status="denied", perpetrators=["Yevgeny Prigozhin"]), outlet="RIA"),
    ]
    text = explain_status(cluster)
    assert text.startswith("Disputed: alleged by Reuters and denied by")
    assert "Yevgeny Prigozhin" in text and "(RIA)" in text
    assert "2 independent sources" in text
    assert "'could not independently verify'" in text
    assert "confirmed" not in text.lower()


def test_compatible_figures_are_not_contradictions_but_disjoint_ones_are() -> None:
    about_40 = report(killed=Range(40, 40, approx=True))
    dozens = report(killed=Range(24, 99), location=DONETSK_OBLAST, date=DateRange())
    assert contradictions([item("a", about_40), item("b", dozens)]) == []
    day = DateRange("2023-02-18", "2023-02-18", "day")
    hundreds = report(killed=Range(200, 999), date=day)
    assert contradictions([item("a", report()), item("b", hundreds)]) == []

    two = report(killed=Range(2, 2), date=DateRange("2022-02-24", "2022-02-24", "day"))
    one = report(
        killed=Range(1, 1), date=DateRange("2022-02-25", "2022-02-25", "day"), location=KHERSON
    )
    found = {c["field"]: c["values"] for c in contradictions([item("a", two), item("b", one)])}
    assert set(found) == {"killed", "date", "location"}
    assert found["killed"] == [
        {"value": {"low": 2, "high": 2, "approx": False}, "document_id": "a"},
        {"value": {"low": 1, "high": 1, "approx": False}, "document_id": "b"},
    ]
    assert [v["value"] for v in found["location"]] == ["Bakhmut", "Kherson"]


def test_copy_does_not_create_a_contradiction_with_itself() -> None:
    a = item("a", report(killed=Range(40, 40)))
    copy = item("b", report(killed=Range(400, 400)), duplicate_of="a")  # garbled copy
    assert contradictions([a, copy]) == []


def test_merged_fields_take_most_specific_compatible_values() -> None:
    cluster = [
        item("a", report(killed=Range(200, 999), location=DONETSK_OBLAST, perpetrators=["Wagner"])),
        item(
            "b",
            report(
                perpetrators=["Wagner Group", "Evgeniy Prigozhin"],
                date=DateRange("2023-02-18", "2023-02-18", "day"),
                evidence_types=["confession"],
            ),
        ),
        item("c", report(perpetrators=["Yevgeny Prigozhin"], victims=["women"])),
    ]
    m = merge_fields(cluster)
    assert m.killed == Range(300, 400)
    assert m.location == BAKHMUT
    assert m.date == DateRange("2023-02-18", "2023-02-18", "day")
    assert m.perpetrators in (
        ["Wagner Group", "Evgeniy Prigozhin"],
        ["Wagner Group", "Yevgeny Prigozhin"],
    )
    assert m.victims == ["civilians", "children", "women"]
    assert m.evidence_types == ["confession", "video"]


def test_summary_sentence() -> None:
    m = merge_fields([item("a", report())])
    assert summarize(m, "alleged") == (
        "Wagner Group allegedly killed 300-400 civilians, including children, "
        "in Bakhmut, Donetsk, in February 2023."
    )
    for st in ("alleged", "corroborated", "disputed", "denied", "confessed"):
        assert "confirm" not in summarize(m, st)
    assert "confirmed" in summarize(m, "confirmed")
    nobody = merge_fields(
        [item("a", report(perpetrators=[], killed=Range(1, 1), date=DateRange()))]
    )
    assert summarize(nobody) == "1 child was allegedly killed in Bakhmut, Donetsk."
    captives = merge_fields(
        [
            item(
                "a",
                report(
                    type="killing_captives",
                    victims=["prisoners_of_war", "wounded"],
                    killed=Range(60, None),
                    date=DateRange("2022-02-24", "2022-02-24", "day"),
                ),
            )
        ]
    )
    assert summarize(captives, "confessed") == (
        "Wagner Group allegedly killed at least 60 people, among them prisoners of war and "
        "wounded people, in Bakhmut, Donetsk, on 24 February 2022; a perpetrator has admitted it."
    )


def test_incident_record_has_contract_fields_and_exact_mentions() -> None:
    cluster = [item("a", report(), outlet="Reuters"), item("b", report(), outlet="AP")]
    rec = incident_record(cluster, "inc_test")
    for key in [
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
    ]:
        assert key in rec
    assert rec["status"] == "corroborated"
    assert rec["corroboration"] == {"documents": 2, "independent_sources": 2, "score": 0.61}
    for m in rec["mentions"]:
        assert WIRE[m["start"] : m["end"]] == m["text"]


def test_summary_of_one_soldier_killed_by_own_side_reads_as_english() -> None:
    from corroborator.linking.corroboration import merge_fields, summarize
    from corroborator.linking.incidents import IncidentItem
    from corroborator.models import DocIncident, Range, Span

    inc = DocIncident(
        type="killing_own_forces",
        mentions=[Span(0, 5, "shot")],
        victims=["own_soldiers"],
        killed=Range(1, 1),
    )
    text = summarize(merge_fields([IncidentItem("d1", 0, inc)]), "alleged")
    assert text.startswith("1 soldier was allegedly killed"), text
