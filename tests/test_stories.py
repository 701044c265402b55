"""Story linking on the example corpus, a hand-written look-alike set, and (slow) ECB+."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLE_DOCS, EXAMPLE_GOLD, read_documents, requires_shared, shared_path
from corroborator.linking import copies
from corroborator.linking.names import resolve
from corroborator.linking.stories import StoryDoc, StoryIndex, assign_stories, pairwise_prf
from corroborator.nlp.pipeline import load_nlp

FIX = Path(__file__).parent / "fixtures" / "linking"
KIND = {
    "PERSON": "person",
    "ORG": "organization",
    "NORP": "organization",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
}

Row = tuple[str, str, str | None]  # doc_id, text, published


def story_docs(rows: list[Row], duplicate_of: dict[str, str] | None = None) -> list[StoryDoc]:
    """spaCy entities -> cross-document resolution -> canonical keys, as the lead will wire it."""
    nlp = load_nlp()
    mentions: list[tuple[str, str, str]] = []
    for (doc_id, _, _), doc in zip(rows, nlp.pipe(t for _, t, _ in rows), strict=True):
        mentions += [(doc_id, e.text, KIND[e.label_]) for e in doc.ents if e.label_ in KIND]
    names: dict[str, set[str]] = {}
    places: dict[str, set[str]] = {}
    for c in resolve(mentions):
        target = places if c.kind == "place" else names
        for m in c.members:
            target.setdefault(mentions[m][0], set()).add(c.name)
    dup = duplicate_of or {}
    return [
        StoryDoc(
            d,
            t,
            p,
            tuple(sorted(names.get(d, ()))),
            tuple(sorted(places.get(d, ()))),
            dup.get(d),
        )
        for d, t, p in rows
    ]


@pytest.fixture(scope="module")
def example_docs() -> list[StoryDoc]:
    rows = [(r.source_file, r.text, r.published) for r in read_documents(EXAMPLE_DOCS)]
    return story_docs(rows, copies.group_copies([(d, t) for d, t, _ in rows]))


@pytest.fixture(scope="module")
def fixture_set() -> tuple[list[StoryDoc], dict[str, str]]:
    manifest = json.loads((FIX / "manifest.json").read_text(encoding="utf-8"))
    rows = [
        (m["id"], (FIX / m["file"]).read_text(encoding="utf-8"), m["published"]) for m in manifest
    ]
    dup = copies.group_copies([(d, t) for d, t, _ in rows])
    assert dup == {m["id"]: m["copy_of"] for m in manifest if m["copy_of"]}
    return story_docs(rows, dup), {m["id"]: m["story"] for m in manifest}


def test_example_stories_are_the_gold_groups(example_docs: list[StoryDoc]) -> None:
    """Four stories told by 2-3 documents (a near-copy among them); two stand alone."""
    stories = assign_stories(example_docs)
    groups: dict[str, set[str]] = {}
    for doc_id, story in stories.items():
        groups.setdefault(story, set()).add(doc_id)
    gold = [json.loads(line) for line in EXAMPLE_GOLD.read_text(encoding="utf-8").splitlines()]
    told = [set(r["source_files"]) for r in gold if r["kind"] == "same_story"]
    alone = [{d} for d in stories if not any(d in g for g in told)]
    assert sorted(map(sorted, groups.values())) == sorted(map(sorted, told + alone))
    assert len(alone) == 2


def test_lookalike_set_pairwise_f1(fixture_set: tuple[list[StoryDoc], dict[str, str]]) -> None:
    docs, gold = fixture_set
    p, r, f1 = pairwise_prf(assign_stories(docs), gold)
    assert (p, r, f1) >= (0.9, 0.0, 0.9) and f1 >= 0.9, (p, r, f1)


def test_ids_are_stable_and_incremental(fixture_set: tuple[list[StoryDoc], dict[str, str]]) -> None:
    docs, _ = fixture_set
    batch = assign_stories(docs)
    # Story id is the earliest member's id, whatever the input order.
    assert assign_stories(list(reversed(docs))) == batch
    # Linking one new document touches only its blocks and leaves earlier assignments alone.
    index = StoryIndex()
    for d in docs:
        index.observe(d)
    for d in sorted(docs, key=lambda d: (d.published or "", d.doc_id))[:-1]:
        index.link(d)
    before = dict(index.story_of)
    last = max(docs, key=lambda d: (d.published or "", d.doc_id))
    vec = index._vector(last)
    assert len(index.candidates(vec)) < len(docs) - 1
    index.link(last)
    assert {k: v for k, v in index.story_of.items() if k in before} == before


def test_date_window_blocks_distant_reports(example_docs: list[StoryDoc]) -> None:
    pair = ("market_wire.txt", "market_courier.html")
    near = [d for d in example_docs if d.doc_id in pair]
    stories = assign_stories(near)
    assert stories[pair[0]] == stories[pair[1]]
    far = [
        StoryDoc(
            d.doc_id,
            d.text,
            "2022-03-01" if d.doc_id == pair[0] else "2023-06-01",
            d.entities,
            d.places,
        )
        for d in near
    ]
    stories = assign_stories(far)
    assert stories[pair[0]] != stories[pair[1]]


def _ecb_rows(split: str) -> tuple[list[Row], dict[str, str]]:
    rows: list[Row] = []
    gold: dict[str, str] = {}
    with open(shared_path("data", "ecbplus", f"ecbplus_{split}.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            sents = d["sentences"][1:] if d["doc_id"].endswith("ecbplus") else d["sentences"]
            rows.append((d["doc_id"], "\n".join(" ".join(s["tokens"]) for s in sents), None))
            gold[d["doc_id"]] = d["subtopic"]
    return rows, gold


@pytest.mark.slow
@requires_shared("data", "ecbplus")
def test_ecbplus_dev_document_clustering() -> None:
    rows, gold = _ecb_rows("dev")
    p, r, f1 = pairwise_prf(assign_stories(story_docs(rows)), gold)
    assert f1 >= 0.78, (p, r, f1)
