"""Cross-document incident linking: merge retellings, keep look-alikes and same-document
incidents apart, stay independent of input order and stable under incremental adds."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLE_DOCS, EXAMPLE_GOLD, shared_path, working_texts
from corroborator.linking.incidents import (
    IncidentItem,
    IncidentLinker,
    Suggestion,
    cluster,
    cluster_id,
    compare,
    dates_compatible,
    link,
    place_relation,
    ranges_compatible,
    same_actor,
)
from corroborator.models import DateRange, DocIncident, Location, Range, Span

BAKHMUT = Location("Bakhmut", 706524, 48.59, 38.0, "Donetsk Oblast", "UA", "settlement")
DONETSK_OBLAST = Location("Donetsk Oblast", 709716, 48.0, 37.8, "Donetsk Oblast", "UA", "admin1")
SOLEDAR = Location("Soledar", 700646, 48.68, 38.09, "Donetsk Oblast", "UA", "settlement")
KHERSON = Location("Kherson", 706448, 46.64, 32.61, "Kherson Oblast", "UA", "settlement")
FEB_2023 = DateRange("2023-02-01", "2023-02-28", "month")


def mention(text: str, sentence: str) -> Span:
    start = text.index(sentence)
    return Span(start, start + len(sentence), sentence)


TEXT_A = (
    "MOSCOW (Reuters) - Two former commanders of the mercenary force said in a video that "
    "their unit shot about 40 children in basements as it advanced on the town in February "
    "2023. Evgeniy Prigozhin's press service called the account a provocation."
)
TEXT_B = (
    "In a video released on Telegram, the commanders confessed that Wagner fighters shot "
    "dozens of children hiding in basements in Donetsk Oblast, on orders they said came from "
    "Yevgeny Prigozhin."
)
TEXT_C = (
    "A captured Ukrainian soldier said his comrades shot wounded Russian prisoners near "
    "Kherson in June 2022, according to a video the Russian defence ministry released."
)


def item(doc: str, index: int, inc: DocIncident, **kw: object) -> IncidentItem:
    return IncidentItem(document_id=doc, index=index, incident=inc, **kw)


def confession_a() -> DocIncident:
    return DocIncident(
        type="killing_civilians",
        mentions=[mention(TEXT_A, TEXT_A.split(" - ")[1].split(". ")[0])],
        perpetrators=["Wagner Group", "Evgeniy Prigozhin"],
        victims=["civilians", "children"],
        killed=Range(40, 40, approx=True),
        location=BAKHMUT,
        date=FEB_2023,
        evidence_types=["confession", "video"],
        status="confessed",
    )


def confession_b() -> DocIncident:
    return DocIncident(
        type="killing_civilians",
        mentions=[mention(TEXT_B, TEXT_B)],
        perpetrators=["Wagner", "Yevgeny Prigozhin"],
        victims=["children"],
        killed=Range(24, 99),
        location=DONETSK_OBLAST,
        evidence_types=["confession", "video"],
        status="confessed",
    )


def lookalike_c() -> DocIncident:
    """Same type of claim by another POW about another unit, place and month."""
    return DocIncident(
        type="killing_captives",
        mentions=[mention(TEXT_C, TEXT_C)],
        perpetrators=["Ukrainian Armed Forces"],
        victims=["prisoners_of_war", "wounded"],
        location=KHERSON,
        date=DateRange("2022-06-01", "2022-06-30", "month"),
        evidence_types=["pow_testimony", "video"],
    )


def captives_d() -> DocIncident:
    text = (
        "Mercenaries blew up about 40 wounded prisoners with grenades in a basement near "
        "Bakhmut in February 2023, one commander said."
    )
    return DocIncident(
        type="killing_captives",
        mentions=[mention(text, text)],
        perpetrators=["Wagner Group"],
        victims=["prisoners_of_war", "wounded"],
        killed=Range(40, 40, approx=True),
        location=BAKHMUT,
        date=FEB_2023,
        evidence_types=["confession"],
    )


def test_field_compatibility_rules() -> None:
    assert same_actor("Evgeniy Prigozhin", "Yevgeny Prigozhin")
    assert same_actor("Prigozhin", "Yevgeny Prigozhin")
    assert same_actor("Wagner", "Wagner Group")
    assert same_actor("Russian forces", "Russian Armed Forces")
    assert not same_actor("Russian forces", "Ukrainian forces")
    assert not same_actor("Azamat Uldarov", "Alexey Savichev")
    assert place_relation(BAKHMUT, DONETSK_OBLAST) == "contains"
    assert place_relation(BAKHMUT, SOLEDAR) == "near"  # ~14 km apart
    assert place_relation(BAKHMUT, KHERSON) == "incompatible"
    assert place_relation(BAKHMUT, Location()) == "unknown"
    assert ranges_compatible(Range(200, 999), Range(300, 400))  # "hundreds" vs 300-400
    assert ranges_compatible(Range(40, 40, approx=True), Range(24, 99))  # "dozens"
    assert not ranges_compatible(Range(1, 1), Range(300, 400))
    assert dates_compatible(FEB_2023, DateRange("2023-02-18", "2023-02-18", "day"))
    assert not dates_compatible(FEB_2023, DateRange("2022-03-01", "2022-03-31", "month"))


def test_retold_confession_merges_and_lookalike_stays_apart() -> None:
    items = [
        item("a", 0, confession_a(), published="2023-04-17"),
        item("b", 0, confession_b(), published="2023-04-18"),
        item("c", 0, lookalike_c(), published="2022-07-01"),
        item("a", 1, captives_d(), published="2023-04-17"),
    ]
    pair = compare(items[0], items[1])
    assert pair.compatible and pair.anchored, pair
    groups = cluster(items)
    assert sorted(map(sorted, groups)) == [[0, 1], [2], [3]]
    # The look-alike is not even a reviewer suggestion: its fields are incompatible.
    assert not compare(items[2], items[3]).compatible


def test_incidents_of_one_document_never_merge() -> None:
    twin = confession_a()
    items = [item("a", 0, confession_a()), item("a", 1, twin), item("b", 0, confession_b())]
    groups = cluster(items)
    assert len(groups) == 2
    for g in groups:
        assert len({items[i].document_id for i in g}) == len(g)


def test_wire_copy_joins_its_original() -> None:
    items = [item("a", 0, confession_a()), item("a-copy", 0, confession_a(), duplicate_of="a")]
    assert cluster(items) == [[0, 1]]


def test_chain_cannot_join_incompatible_ends() -> None:
    """A (1 killed) ~ B (unknown) ~ C (300-400): A and C are incompatible, so B joins one."""
    base = confession_a()
    one = DocIncident(**{**base.__dict__, "killed": Range(1, 1)})
    unknown = DocIncident(**{**base.__dict__, "killed": Range()})
    many = DocIncident(**{**base.__dict__, "killed": Range(300, 400)})
    items = [item("x", 0, one), item("y", 0, unknown), item("z", 0, many)]
    groups = cluster(items)
    assert not any({0, 2} <= set(g) for g in groups)
    assert any(len(g) == 2 for g in groups)


def test_weak_match_becomes_a_suggestion_not_a_merge() -> None:
    """Same city and army, no date, little shared wording: ask a reviewer, do not merge."""
    t1 = "Russian forces shelled residential districts of Kherson overnight, officials said."
    t2 = "Artillery hit a hospital in Kherson, killing patients, the regional governor said."
    common = {"type": "attack_populated_area", "perpetrators": ["Russian forces"]}
    a = DocIncident(mentions=[mention(t1, t1)], location=KHERSON, victims=["civilians"], **common)
    b = DocIncident(mentions=[mention(t2, t2)], location=KHERSON, victims=["civilians"], **common)
    groups, suggestions = link([item("p", 0, a), item("q", 0, b)])
    assert len(groups) == 2
    assert [(s.a, s.b) for s in suggestions] == [("p#0", "q#0")]


def test_a_retelling_in_another_language_merges_when_its_document_shares_the_story() -> None:
    """A Ukrainian retelling shares no words with the English report, and a month, a town
    and an army do not anchor a merge; the two documents telling one story do."""
    t1 = "Russian troops tortured detained men in a basement in Kherson in February 2023."
    t2 = "Російські військові катували затриманих чоловіків у підвалі в Херсоні у лютому 2023."
    common = {"type": "torture_mistreatment", "perpetrators": ["Russian forces"]}
    a = DocIncident(mentions=[mention(t1, t1)], location=KHERSON, date=FEB_2023, **common)
    b = DocIncident(mentions=[mention(t2, t2)], location=KHERSON, date=FEB_2023, **common)
    apart, _ = link([item("en", 0, a, story="s1"), item("uk", 0, b, story="s2")])
    assert len(apart) == 2
    together, _ = link([item("en", 0, a, story="s1"), item("uk", 0, b, story="s1")])
    assert len(together) == 1
    assert (
        "same story" in compare(item("en", 0, a, story="s1"), item("uk", 0, b, story="s1")).reasons
    )


def _gold_items(gold_path: Path, texts: dict[str, str]) -> list[tuple[str, IncidentItem]]:
    """Gold incidents of a gold file, one report per document, mentions as exact spans."""
    out: list[tuple[str, IncidentItem]] = []
    for line in gold_path.read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        if g["kind"] != "incident":
            continue
        for f in sorted({m["source_file"] for m in g["mentions"]}):
            text = texts[f]
            spans = [mention(text, m["quote"]) for m in g["mentions"] if m["source_file"] == f]
            assert all(text[s.start : s.end] == s.text for s in spans)
            loc = g["location"]
            precision = loc.get("precision") or ("settlement" if loc["name"] else "unknown")
            inc = DocIncident(
                type=g["type"],
                mentions=spans,
                perpetrators=g["perpetrators"],
                victims=g["victims"],
                killed=Range(**g["killed"]),
                wounded=Range(**g["wounded"]),
                location=Location(
                    name=loc["name"], country=loc.get("country"), precision=precision
                ),
                date=DateRange(**g["date"]),
                evidence_types=g.get("evidence_types", []),
                status=g["status"],
            )
            out.append((g["id"], item(f, len(out), inc, source_file=f)))
    return out


def _linked_pairs(
    labelled: list[tuple[str, IncidentItem]],
) -> tuple[set[tuple[int, int]], set[tuple[int, int]], list[Suggestion]]:
    """(gold cross-document pairs, pairs the linker merged, its suggestions)."""
    items = [it for _, it in labelled]
    groups, suggestions = link(items)

    def cross_pairs(gs: list[list[int]]) -> set[tuple[int, int]]:
        return {
            (a, b)
            for g in gs
            for a, b in itertools.combinations(sorted(g), 2)
            if items[a].document_id != items[b].document_id
        }

    by_gold: dict[str, list[int]] = {}
    for i, (gid, _) in enumerate(labelled):
        by_gold.setdefault(gid, []).append(i)
    return cross_pairs(list(by_gold.values())), cross_pairs(groups), suggestions


def test_example_gold_reports_link_without_false_merges() -> None:
    labelled = _gold_items(EXAMPLE_GOLD, working_texts(EXAMPLE_DOCS))
    gold, found, suggestions = _linked_pairs(labelled)
    assert len(gold) == 9
    assert found <= gold  # Balakliia's three incidents and Mamove's two stay apart by type
    assert len(found) == 8  # the market strike's copy and retelling link, and more
    # The thin link (a man taken out at night vs "at least two died in custody") is offered
    # to reviewers rather than merged, and nothing else is.
    keys = {it.key: gid for gid, it in labelled}
    offered = {(keys[s.a], keys[s.b]) for s in suggestions}
    assert offered == {("balakliia-deaths-in-custody", "balakliia-deaths-in-custody")}


def test_seed_gold_reports_link_without_false_merges() -> None:
    seeds = shared_path("seeds")
    texts = {p.name: p.read_text(encoding="utf-8") for p in seeds.glob("*.txt")}
    labelled = _gold_items(shared_path("gold", "seeds.jsonl"), texts)
    gold, found, suggestions = _linked_pairs(labelled)
    assert len(gold) == 8
    assert found <= gold  # no false merge among the same-type look-alike pairs
    assert len(found) >= 6
    # The two thin links (a siege vs a blockade; a video with no place or date) are
    # offered to reviewers rather than merged, and nothing else is.
    keys = {it.key: gid for gid, it in labelled}
    offered = {(keys[s.a], keys[s.b]) for s in suggestions}
    assert offered == {(g, g) for g in ("mariupol-siege", "wagner-decapitation-video")}


def _scenario() -> list[IncidentItem]:
    return [
        item("a", 0, confession_a(), seq=1),
        item("b", 0, confession_b(), seq=2),
        item("c", 0, lookalike_c(), seq=3),
        item("a", 1, captives_d(), seq=1),
        item("e", 0, confession_a(), duplicate_of="a", seq=4),
        item("f", 0, captives_d(), seq=5),
    ]


def _partition(items: list[IncidentItem], groups: list[list[int]]) -> set[frozenset[str]]:
    return {frozenset(items[i].key for i in g) for g in groups}


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(range(6))))
def test_clusters_do_not_depend_on_input_order(order: list[int]) -> None:
    base = _scenario()
    shuffled = [base[i] for i in order]
    assert _partition(shuffled, cluster(shuffled)) == _partition(base, cluster(base))


def test_incremental_add_matches_batch_and_keeps_ids() -> None:
    items = _scenario()
    linker = IncidentLinker()
    by_doc: dict[str, list[IncidentItem]] = {}
    for it in items:
        by_doc.setdefault(it.document_id, []).append(it)
    first_id = None
    for doc in ["a", "b", "c", "e", "f"]:
        changed = linker.add(by_doc[doc])
        if doc == "a":
            first_id = linker.cluster_of["a#0"]
        if doc == "c":
            assert changed == {linker.cluster_of["c#0"]}  # a new block touches nothing else
    assert linker.cluster_of["a#0"] == first_id  # later reports never rename a cluster
    batch = _partition(items, cluster(items))
    assert {frozenset(it.key for it in m) for m in linker.clusters().values()} == batch
    for cid, members in linker.clusters().items():
        assert cid == cluster_id(members)
