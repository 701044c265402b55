"""Copies and origins on the example corpus and hand-written wire copy / rewrites."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import EXAMPLE_DOCS, shared_path
from corroborator.linking import copies

FIX = Path(__file__).parent / "fixtures" / "linking"


def _example_texts() -> list[tuple[str, str]]:
    """(source_file, text) of the examples' plain-text documents, the wire before its copy."""
    items = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(EXAMPLE_DOCS.glob("*.txt"))]
    for line in (EXAMPLE_DOCS / "outlets.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "text" in record:
            items.append((record["id"], record["text"]))
    record = json.loads((EXAMPLE_DOCS / "intercept_vuhledar.json").read_text(encoding="utf-8"))
    items.append((record["id"], record["text"]))
    return items


def _read(name: str) -> str:
    return (FIX / name).read_text(encoding="utf-8")


def test_signature_roundtrip_and_jaccard() -> None:
    a, b = _read("a1_wire.txt"), _read("a2_rewrite.txt")
    sig = copies.signature(a)
    assert isinstance(sig, bytes)
    assert copies.estimated_jaccard(sig, copies.signature(a)) == 1.0
    assert copies.estimated_jaccard(sig, copies.signature(b)) > 0.4
    assert copies.estimated_jaccard(sig, copies.signature(_read("a3_paraphrase.txt"))) < 0.1


def test_edited_wire_copy_found_paraphrase_not() -> None:
    index = copies.CopyIndex()
    texts = {"a1": _read("a1_wire.txt")}
    index.add("a1", copies.signature(texts["a1"]), texts["a1"])
    rewrite = _read("a2_rewrite.txt")
    hit = copies.find_original("a2", rewrite, copies.signature(rewrite), index, texts)
    assert hit is not None and hit[0] == "a1" and hit[1] > 0.7
    para = _read("a3_paraphrase.txt")
    assert copies.find_original("a3", para, copies.signature(para), index, texts) is None


def test_only_the_near_copy_among_the_examples_is_a_copy() -> None:
    """The Digest's reprint is the wire's copy; the Balakliia transcript and report, and the
    intercept and the prosecutors' story, tell the same events in their own words."""
    items = _example_texts()
    assert len(items) == 7
    assert copies.group_copies(items) == {"digest-market-copy": "market_wire.txt"}


def test_reordered_sentences_and_trimmed_copy() -> None:
    text = (EXAMPLE_DOCS / "oicha_feature.txt").read_text(encoding="utf-8")
    paras = [p for p in text.split("\n") if p.strip()]
    reordered = "\n".join(reversed(paras[:8]))  # a rewrite keeping 8 paragraphs, reordered
    assert copies.containment(reordered, text) > 0.9
    found = copies.group_copies([("orig", text), ("copy", reordered)])
    assert found == {"copy": "orig"}


def test_long_article_quoting_short_one_is_not_its_copy() -> None:
    short = _read("b4_statement.txt")
    long_ = (EXAMPLE_DOCS / "oicha_feature.txt").read_text(encoding="utf-8") + "\n" + short
    assert copies.containment(short, long_) == 1.0
    assert copies.containment(long_, short) < 0.3
    assert copies.group_copies([("short", short), ("long", long_)]) == {}


def test_copy_index_is_blocked() -> None:
    index = copies.CopyIndex()
    for name, t in _example_texts():
        index.add(name, copies.signature(t), t)
    t = _read("l3_other_mayor.txt")
    assert index.query(copies.signature(t), t) == []


def test_origins_general_patterns() -> None:
    text = (
        "The claims were made in a video released by the Ukrainian Security Service on "
        "Facebook, according to Gulagu.net. One man told Reuters on Monday and another told "
        "a relative. The call was published by The New York Times. Prisoners interviewed "
        "by Ukrainian forces said the same."
    )
    keys = copies.origins(text)
    assert copies.origin_key("Security Service of Ukraine") in keys
    assert copies.origin_key("Gulagu") in keys
    assert copies.origin_key("Reuters") in keys
    assert copies.origin_key("New York Times") in keys
    assert len(keys) == 4  # not "a relative", not "Ukrainian forces"


def test_example_transcript_names_its_origin() -> None:
    o = {name: set(copies.origins(t)) for name, t in _example_texts()}
    assert o["balakliia_transcript.txt"] == {copies.origin_key("Kharkiv Documentation Project")}
    assert not o["market_wire.txt"] and not o["oicha_feature.txt"]


def test_seed_origins_shared_by_relaying_outlets() -> None:
    seeds = sorted(shared_path("seeds").glob("*.txt"))
    o = {p.name[:3]: set(copies.origins(p.read_text(encoding="utf-8"))) for p in seeds}
    assert o["000"] & o["001"]  # both relay the same human-rights group's video
    assert o["002"] & o["004"]  # both relay the same security-service footage
    assert not o["000"] & o["002"]


def test_signatures_of_datasketch_1_are_rewritten(cli, db: Path) -> None:
    """datasketch 1 stored another format (positive count, no scheme byte): a full relink
    replaces such rows and still finds the copy."""
    import struct

    from corroborator.storage.db import open_store

    assert cli("ingest", "--quiet", "--no-extract", str(FIX / "a1_wire.txt")).exit_code == 0
    store = open_store(str(db))
    (doc,) = store.documents()
    legacy = struct.pack("@qi128I", 1, 128, *range(128))
    with store.transaction():
        store.execute(
            "INSERT INTO signatures (document_id, signature) VALUES (?, ?)",
            (doc["document_id"], legacy.hex()),
        )
    assert cli("ingest", "--quiet", str(FIX / "a2_rewrite.txt")).exit_code == 0
    rows = store.rows("SELECT document_id, signature FROM signatures")
    assert {r["signature"] for r in rows} == {
        copies.signature(d["text"]).hex() for d in store.documents()
    }
    assert any(d["duplicate_of"] == doc["document_id"] for d in open_store(str(db)).documents())
