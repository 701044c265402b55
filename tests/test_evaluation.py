"""Scorer behind `corroborator eval`: gold-as-system is perfect, each fault moves its figure."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_DOCS, EXAMPLE_GOLD, working_texts
from corroborator.evaluation import (
    EvalReport,
    evaluate,
    format_report,
    load_gold,
    speaker_matches,
)

FIGURES = (
    "incidents",
    "cross_document_links",
    "quotes",
    "quotes_with_speaker",
    "same_story",
    "entities",
)

System = dict[str, list[dict[str, Any]]]


def _span(text: str, words: str) -> tuple[int, int]:
    start = text.index(words)
    return start, start + len(words)


def _system_from_gold(gold: list[dict[str, Any]]) -> System:
    """Export-shaped records that say exactly what the gold says, with real offsets."""
    files = sorted(
        {m["source_file"] for r in gold if r["kind"] == "incident" for m in r["mentions"]}
    )
    every = working_texts(EXAMPLE_DOCS)
    texts = {f: every[f] for f in files}
    story = {f: f"story-{f}" for f in files}
    for r in gold:
        if r["kind"] == "same_story":
            for f in r["source_files"]:
                story[f] = story[r["source_files"][0]]
    documents = [
        {"document_id": f"doc-{f}", "source_file": f, "story_id": story[f], "text": texts[f]}
        for f in files
    ]
    incidents, quotes, entities = [], [], []
    for r in gold:
        if r["kind"] == "incident":
            mentions = []
            for m in r["mentions"]:
                start, end = _span(texts[m["source_file"]], m["quote"])
                doc_text = texts[m["source_file"]]
                mentions.append(
                    {
                        "document_id": f"doc-{m['source_file']}",
                        "source_file": m["source_file"],
                        "start": start,
                        "end": end,
                        "text": doc_text[start:end],
                    }
                )
            incidents.append(
                {
                    "incident_id": r["id"],
                    "type": r["type"],
                    "mentions": mentions,
                    "killed": r.get("killed"),
                    "location": r.get("location"),
                    "date": r.get("date"),
                    "status": r.get("status"),
                }
            )
        elif r["kind"] == "quote":
            start, end = _span(texts[r["source_file"]], r["text"])
            quotes.append(
                {
                    "document_id": f"doc-{r['source_file']}",
                    "source_file": r["source_file"],
                    "start": start,
                    "end": end,
                    "text": texts[r["source_file"]][start:end],
                    "speaker": r["speaker"],
                }
            )
        elif r["kind"] == "entity":
            entities.append({"name": r["name"], "aliases": r["aliases"], "kind": r["kind_of"]})
    return {"documents": documents, "incidents": incidents, "quotes": quotes, "entities": entities}


@pytest.fixture(scope="module")
def gold() -> list[dict[str, Any]]:
    return load_gold(EXAMPLE_GOLD)


@pytest.fixture(scope="module")
def perfect(gold: list[dict[str, Any]]) -> System:
    return _system_from_gold(gold)


def _run(gold: list[dict[str, Any]], system: System) -> EvalReport:
    return evaluate(
        gold, system["documents"], system["incidents"], system["quotes"], system["entities"]
    )


def _f1s(report: EvalReport) -> dict[str, float]:
    return {name: score.f1 for name, score in report.scores().items()}


def _only_changed(report: EvalReport, *names: str) -> None:
    """The named figures fell below 1; every other figure and field stayed perfect."""
    f1s = _f1s(report)
    for name in FIGURES:
        assert (f1s[name] < 1.0) == (name in names), (name, f1s[name])
    assert all(acc.value == 1.0 for acc in report.fields.values())


def test_gold_as_system_is_perfect(gold: list[dict[str, Any]], perfect: System) -> None:
    report = _run(gold, perfect)
    assert _f1s(report) == {name: 1.0 for name in FIGURES}
    assert report.incidents.gold == 18  # (incident, document) pairs: 3 + 7 x 2 + 1
    assert report.cross_document_links.gold == 9  # the market strike's 3 reports give 3 pairs
    assert report.quotes.gold == 31
    assert report.same_story.gold == 6
    assert {name: acc.value for name, acc in report.fields.items()} == dict.fromkeys(
        ("killed_low", "killed_high", "location", "date", "status"), 1.0
    )
    assert report.fields["status"].total == 10
    assert report.missing_source_files == []
    assert format_report(report).splitlines()[-1] == "overall F1 1.000"


def test_removing_a_quote_lowers_quote_recall_only(
    gold: list[dict[str, Any]], perfect: System
) -> None:
    system = copy.deepcopy(perfect)
    del system["quotes"][3]
    report = _run(gold, system)
    _only_changed(report, "quotes", "quotes_with_speaker")
    assert report.quotes.found == 30 and report.quotes.precision == 1.0


def test_retyping_an_incident_lowers_incident_figure_only(
    gold: list[dict[str, Any]], perfect: System
) -> None:
    system = copy.deepcopy(perfect)
    two_file = next(
        i for i in system["incidents"] if len({m["source_file"] for m in i["mentions"]}) == 2
    )
    two_file["type"] = "other" if two_file["type"] != "other" else "killing_civilians"
    report = _run(gold, system)
    _only_changed(report, "incidents")
    assert report.incidents.found == 16 and report.incidents.correct == 16
    assert report.incidents.system == 18


def test_splitting_a_story_lowers_same_story_recall_only(
    gold: list[dict[str, Any]], perfect: System
) -> None:
    system = copy.deepcopy(perfect)
    transcript = next(
        d for d in system["documents"] if d["source_file"] == "balakliia_transcript.txt"
    )
    transcript["story_id"] = "story-of-its-own"
    report = _run(gold, system)
    _only_changed(report, "same_story")
    assert (report.same_story.found, report.same_story.precision) == (5, 1.0)


def test_merging_stories_counts_false_links(gold: list[dict[str, Any]], perfect: System) -> None:
    system = copy.deepcopy(perfect)
    for d in system["documents"]:
        d["story_id"] = "one-war"
    report = _run(gold, system)
    assert report.same_story.recall == 1.0
    assert (report.same_story.correct, report.same_story.system) == (6, 55)  # 11 documents


def test_merging_two_entities_lowers_entity_precision_only(
    gold: list[dict[str, Any]], perfect: System
) -> None:
    system = copy.deepcopy(perfect)
    officer = next(e for e in system["entities"] if e["name"] == "Rustam Nabiyev")
    teacher = next(e for e in system["entities"] if e["name"] == "Olha Denysenko")
    officer["aliases"] += teacher["aliases"]
    system["entities"].remove(teacher)
    report = _run(gold, system)
    _only_changed(report, "entities")
    assert report.entities.recall == 1.0
    assert report.entities.system - report.entities.correct == 4  # each side counts the other


def test_splitting_an_entity_lowers_entity_recall(
    gold: list[dict[str, Any]], perfect: System
) -> None:
    system = copy.deepcopy(perfect)
    adf = next(e for e in system["entities"] if e["name"] == "Allied Democratic Forces")
    adf["aliases"] = ["Allied Democratic Forces", "allied democratic forces"]  # one form
    system["entities"].append({"name": "ADF", "aliases": ["ADF"]})
    report = _run(gold, system)
    assert report.entities.precision == 1.0
    assert report.entities.gold - report.entities.found == 1  # best part holds 1 of 2 forms


def test_one_incident_per_file_loses_cross_document_links_only(
    gold: list[dict[str, Any]], perfect: System
) -> None:
    system = copy.deepcopy(perfect)
    split = []
    for incident in system["incidents"]:
        for source_file in sorted({m["source_file"] for m in incident["mentions"]}):
            part = copy.deepcopy(incident)
            part["mentions"] = [m for m in incident["mentions"] if m["source_file"] == source_file]
            split.append(part)
    system["incidents"] = split
    report = _run(gold, system)
    _only_changed(report, "cross_document_links")
    assert report.cross_document_links.found == 0


def test_wrong_fields_lower_field_accuracy_not_f1(
    gold: list[dict[str, Any]], perfect: System
) -> None:
    system = copy.deepcopy(perfect)
    by_id = {i["incident_id"]: i for i in system["incidents"]}
    massacre = by_id["mamove-massacre"]
    massacre["killed"] = {"low": 120, "high": 120}
    massacre["location"] = dict(massacre["location"], name="Oicha")  # the nearby town
    abductions = by_id["mamove-abductions"]
    abductions["location"] = dict(abductions["location"], name="MAMOVE")
    order = by_id["vuhledar-no-prisoners-order"]
    order["date"] = {"start": "2023-10-17", "end": "2023-10-17", "precision": "day"}
    report = _run(gold, system)
    assert _f1s(report) == {name: 1.0 for name in FIGURES}
    assert report.fields["killed_low"].value == 1.0
    assert report.fields["killed_high"].correct == 9
    assert report.fields["location"].correct == 9  # case is folded; another place is wrong
    assert report.fields["date"].value == 1.0  # that gold date is month precision


@pytest.mark.parametrize("first", ["mixed", "pure"])
def test_fields_are_read_from_the_purest_matching_incident_in_any_order(
    gold: list[dict[str, Any]], perfect: System, first: str
) -> None:
    """A gold incident found by two system incidents is scored on the one that holds
    fewer mentions of other things, whatever order the export lists them in."""
    system = copy.deepcopy(perfect)
    by_id = {i["incident_id"]: i for i in system["incidents"]}
    massacre, other = by_id["mamove-massacre"], by_id["el-obeid-school-shelling"]
    mixed = copy.deepcopy(massacre)
    mixed["incident_id"] = "mixed"
    mixed["mentions"] = massacre["mentions"] + other["mentions"]
    mixed["location"] = other["location"]
    ordered = [mixed, massacre] if first == "mixed" else [massacre, mixed]
    system["incidents"] = [i for i in system["incidents"] if i is not massacre] + ordered
    report = _run(gold, system)
    assert report.fields["location"].value == 1.0


def test_mention_containment_ignores_quote_style_case_and_spacing() -> None:
    gold = [
        {
            "kind": "incident",
            "type": "killing_captives",
            "mentions": [
                {"source_file": "a.txt", "quote": "they shot the prisoners who’d surrendered"}
            ],
        }
    ]
    documents = [{"document_id": "1", "source_file": "a.txt", "story_id": "s", "text": ""}]

    def found(text: str, kind: str = "killing_captives") -> int:
        mention = {"document_id": "1", "source_file": "a.txt", "text": text}
        return evaluate(
            gold, documents, [{"type": kind, "mentions": [mention]}], [], []
        ).incidents.found

    assert found("Witnesses said They shot the prisoners\nwho'd surrendered, near the road.") == 1
    assert found("they shot the prisoners who’d surrendered", "killing_civilians") == 0
    assert found("they shot the prisoners") == 0
    assert found("Guards at Mathey shot the prisoners who’d surrendered") == 0  # word edge


def test_quote_needs_half_its_characters_and_matches_one_to_one() -> None:
    first = "We were ordered to leave nobody alive in the village."
    second = "Nobody asked us whether we wanted to go."
    gold = [
        {"kind": "quote", "source_file": "a.txt", "text": first, "speaker": "Ivan Petrov"},
        {"kind": "quote", "source_file": "a.txt", "text": second, "speaker": "Ivan Petrov"},
    ]

    def score(*texts: str, speaker: str = "Petrov") -> tuple[int, int, int]:
        quotes = [{"source_file": "a.txt", "text": t, "speaker": speaker} for t in texts]
        report = evaluate(gold, [], [], quotes, [])
        return report.quotes.found, report.quotes_with_speaker.found, report.quotes.system

    assert score("“We were ordered to leave nobody alive") == (1, 1, 1)  # 38 of 53 chars
    assert score("We were ordered") == (0, 0, 1)
    assert score(f"‘{first} {second}’") == (1, 1, 1)  # one system quote finds one gold
    assert score(first, second, speaker="Sergei Shoigu") == (2, 0, 2)


@pytest.mark.parametrize(
    ("system", "gold", "expected"),
    [
        ("Evgeniy Prigozhin", "Yevgeny Prigozhin", True),
        ("Prigozhin", "Yevgeny Prigozhin", True),
        ("Wagner boss Prigozhin", "Yevgeny Prigozhin", True),
        ("Prigozhin's press service", "Yevgeny Prigozhin", False),
        ("the captured soldier", "Azamat Uldarov", False),
        ("Dmitry Astakhov", "Astakhov Dmitry Mikhailovich", True),
        ("Vladimir Putin", "Volodymyr Zelensky", False),
        ("the captured Russian soldier", "captured Russian soldier (Kharkiv)", True),
        ("the soldier", "captured Russian soldier (Kharkiv)", True),
        ("the soldier", "wife of a Russian soldier", False),
        ("his wife", "wife of a Russian soldier", True),
        ("a Russian military technician", "Russian military technician", True),
        ("20-year-old air assault trooper", "Russian air assault trooper (Kherson region)", True),
        ("22-year-old soldier", "captured Russian soldier (22-year-old)", True),
        ("Ukrainian soldier", "captured Russian soldier (Kharkiv)", False),
        ("Russian paratrooper", "Russian air assault trooper (Kherson region)", False),
        ("POW", "captured Russian soldier (Kharkiv)", False),
        ("Ukrainian official", "head of the Ukrainian Presidential Office", False),
        (None, "Sergey", False),
    ],
)
def test_speaker_matching(system: str | None, gold: str, expected: bool) -> None:
    aliases = {
        "yevgeny prigozhin": frozenset({"yevgeny prigozhin", "evgeniy prigozhin", "prigozhin"})
    }
    assert speaker_matches(system, gold, aliases) is expected


def test_only_gold_files_are_scored(gold: list[dict[str, Any]], perfect: System) -> None:
    system = copy.deepcopy(perfect)
    other = {
        "document_id": "x",
        "source_file": "elsewhere.txt",
        "story_id": "story-market_wire.txt",
        "text": "x",
    }
    system["documents"].append(other)
    system["quotes"].append(
        {"source_file": "elsewhere.txt", "text": "Unrelated words here", "speaker": "A"}
    )
    system["incidents"].append(
        {
            "type": "other",
            "mentions": [{"document_id": "x", "source_file": "elsewhere.txt", "text": "x"}],
        }
    )
    assert _f1s(_run(gold, system)) == {name: 1.0 for name in FIGURES}


def test_report_dict_and_text(gold: list[dict[str, Any]], perfect: System) -> None:
    system = copy.deepcopy(perfect)
    system["quotes"] = system["quotes"][:20]
    report = _run(gold, system)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["quotes_with_speaker"]["found"] == 20
    assert data["overall_f1"] == pytest.approx((1 + report.quotes_with_speaker.f1 + 1 + 1) / 4)
    text = format_report(report)
    assert "quotes_with_speaker" in text and "20/31" in text
    assert text.splitlines()[-1] == f"overall F1 {data['overall_f1']:.3f}"


def test_missing_kinds_are_not_scored() -> None:
    gold = [{"kind": "same_story", "source_files": ["a.txt", "b.txt"]}]
    documents = [
        {"document_id": "1", "source_file": "a.txt", "story_id": "s", "text": ""},
        {"document_id": "2", "source_file": "b.txt", "story_id": "s", "text": ""},
    ]
    report = evaluate(gold, documents, [], [], [])
    assert not report.entities.scored and report.same_story.scored
    assert report.overall_f1 == 1.0
    assert "not scored" in format_report(report)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"kind": "quote", "source_file": "a.txt", "text": "x"', "malformed JSON"),
        ('{"kind": "rumour", "text": "x"}', "unknown kind 'rumour'"),
        ('["kind", "quote"]', "expected a JSON object"),
        ('{"kind": "incident", "type": "other", "mentions": [{"quote": "x"}]}', "source_file"),
        ('{"kind": "same_story", "source_files": ["a.txt"]}', "two or more"),
        (
            '{"kind": "incident", "type": "other", "date": "2025-03-14", '
            '"mentions": [{"source_file": "a.txt", "quote": "x"}]}',
            "incident date must be an object or null, not str",
        ),
    ],
)
def test_malformed_gold_names_its_line(tmp_path: Path, line: str, message: str) -> None:
    good = '{"kind": "entity", "name": "Kyiv", "aliases": ["Kyiv"]}'
    path = tmp_path / "gold.jsonl"
    path.write_text(f"{good}\n\n{line}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"line 3: .*{message}") as error:
        load_gold(path)
    assert "\n" not in str(error.value)


def test_eval_quotes_scores_speaker_role_and_stance_on_found_quotes() -> None:
    from corroborator.eval_quotes import score_quote_fields

    gold = [
        {
            "kind": "quote",
            "source_file": "a.txt",
            "text": "We hid in the cellar for a week",
            "speaker": "Iryna Kostenko",
            "speaker_role": "victim",
            "stance": "asserts",
        },
        {
            "kind": "quote",
            "source_file": "a.txt",
            "text": "Our forces never strike civilians",
            "speaker": "Igor Konashenkov",
            "speaker_role": "accused",
            "stance": "denies",
        },
        {
            "kind": "quote",
            "source_file": "a.txt",
            "text": "Nobody came for the wounded men",
            "speaker": "Nikolai Sidorov",
            "speaker_role": "witness",
            "stance": "asserts",
        },
    ]
    system = [
        {
            "source_file": "a.txt",
            "text": "We hid in the cellar for a week,",
            "speaker": "Kostenko",
            "speaker_role": "witness",
            "stance": "asserts",
        },
        {
            "source_file": "a.txt",
            "text": "Our forces never strike civilians",
            "speaker": "Russian Defence Ministry",
            "speaker_role": "accused",
            "stance": "denies",
        },
    ]
    scores = score_quote_fields(gold, system, {"a.txt"}, {}, {})
    assert (scores["speaker"].correct, scores["speaker"].total) == (1, 2)
    assert (scores["speaker_role"].correct, scores["speaker_role"].total) == (1, 2)
    assert (scores["stance"].correct, scores["stance"].total) == (2, 2)
