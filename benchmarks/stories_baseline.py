"""Story linking against a plain TF-IDF average-link baseline, set by set.

Each set is ingested once with the real command into a cached database (extraction is
the slow part); the linker's stories are then rebuilt from the stored extractions with
the current code (what a full relink does), so tuning the linker needs no re-ingest.
The baseline sees only the working texts: lower-cased word unigrams, sublinear TF, smooth
IDF over the set, cosine, average-link clustering cut at one fixed similarity chosen on
ECB+ train (never on the retellings). Both are scored by pairwise precision/recall/F1
over every document of the set.

    python benchmarks/stories_baseline.py [SET ...] [--fresh] [--oracle]

Sets: retellings_dev retellings_heldout hard_dev hard_heldout blind blind2 ... blind10
seedtell seedtell2 seedtell3 examples ru_uk ru_uk_heldout ecb_dev ecb_train ecb_dev_cut
ecb_train_cut (the `_cut` ECB+ variants are transformed like a scraper's output: page
furniture above, cut at 2,000 characters mid-sentence, no dates). With no SET, every set
but the held-out ones (blind10, seedtell3: written in session 20 and scored once, at its
end). The earlier held-out sets were each scored once in their session and are
development sets since. Every document of a set is scored, one in no
`same_story` record being its own story. `--oracle` also prints the baseline at its best threshold in hindsight, per set.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage

from corroborator.linking import build, stories
from corroborator.storage.db import open_store

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CACHE = Path(os.environ.get("STORIES_BENCH_CACHE", "/tmp/stories_bench"))
BASELINE_THRESHOLD = 0.2  # best pairwise F1 on ECB+ train (0.1-0.5 in 0.05 steps)
CUT = 2000
FURNITURE = [
    "Home | News | World | Ukraine | Opinion | Video | Podcasts",
    "Support independent journalism - Donate",
    "Sign up for our newsletter",
    "We use cookies to improve your experience. Accept all | Manage",
    "Updated 3 hours ago | Share | Print",
]
_WORD = re.compile(r"\w\w+")

FOLDERS = {
    "retellings_dev": ROOT / "tests/fixtures/retellings/dev",
    "retellings_heldout": ROOT / "tests/fixtures/retellings/heldout",
    "hard_dev": ROOT / "tests/fixtures/retellings/hard_dev",
    "hard_heldout": ROOT / "tests/fixtures/retellings/hard_heldout",
    "blind": ROOT / "tests/fixtures/retellings/blind",
    "blind2": ROOT / "tests/fixtures/retellings/blind2",
    "blind3": ROOT / "tests/fixtures/retellings/blind3",
    "blind4": ROOT / "tests/fixtures/retellings/blind4",
    "blind5": ROOT / "tests/fixtures/retellings/blind5",
    "blind6": ROOT / "tests/fixtures/retellings/blind6",
    "blind7": ROOT / "tests/fixtures/retellings/blind7",
    "blind8": ROOT / "tests/fixtures/retellings/blind8",
    "seedtell": ROOT / "tests/fixtures/retellings/seedtell",
    "blind9": ROOT / "tests/fixtures/retellings/blind9",
    "seedtell2": ROOT / "tests/fixtures/retellings/seedtell2",
    "blind10": ROOT / "tests/fixtures/retellings/blind10",
    "seedtell3": ROOT / "tests/fixtures/retellings/seedtell3",
    "seedtell4": ROOT / "tests/fixtures/retellings/seedtell4",
    "blind11": ROOT / "tests/fixtures/retellings/blind11",
    "blind12": ROOT / "tests/fixtures/retellings/blind12",
    "blind13": ROOT / "tests/fixtures/retellings/blind13",
    "blind14": ROOT / "tests/fixtures/retellings/blind14",
    "blind15": ROOT / "tests/fixtures/retellings/blind15",
    "blind16": ROOT / "tests/fixtures/retellings/blind16",
    "blind17": ROOT / "tests/fixtures/retellings/blind17",
    "blind18": ROOT / "tests/fixtures/retellings/blind18",
    "blind19": ROOT / "tests/fixtures/retellings/blind19",
    "blind20": ROOT / "tests/fixtures/retellings/blind20",
    "blind21": ROOT / "tests/fixtures/retellings/blind21",
    "blind22": ROOT / "tests/fixtures/retellings/blind22",
    "blind23": ROOT / "tests/fixtures/retellings/blind23",
    "blind24": ROOT / "tests/fixtures/retellings/blind24",
    "blind25": ROOT / "tests/fixtures/retellings/blind25",
    "blind26": ROOT / "tests/fixtures/retellings/blind26",
    "blind27": ROOT / "tests/fixtures/retellings/blind27",
    "blind28": ROOT / "tests/fixtures/retellings/blind28",
    "blind29": ROOT / "tests/fixtures/retellings/blind29",
    "blind30": ROOT / "tests/fixtures/retellings/blind30",
    "blind31": ROOT / "tests/fixtures/retellings/blind31",
    "blind32": ROOT / "tests/fixtures/retellings/blind32",
    "blind33": ROOT / "tests/fixtures/retellings/blind33",
    "blind34": ROOT / "tests/fixtures/retellings/blind34",
    "blind35": ROOT / "tests/fixtures/retellings/blind35",
    "blind36": ROOT / "tests/fixtures/retellings/blind36",
    "blind37": ROOT / "tests/fixtures/retellings/blind37",
    "blind38": ROOT / "tests/fixtures/retellings/blind38",
    "blind39": ROOT / "tests/fixtures/retellings/blind39",
    "blind40": ROOT / "tests/fixtures/retellings/blind40",
    "blind41": ROOT / "tests/fixtures/retellings/blind41",
    "blind42": ROOT / "tests/fixtures/retellings/blind42",
    "blind43": ROOT / "tests/fixtures/retellings/blind43",
    "blind44": ROOT / "tests/fixtures/retellings/blind44",
    "blind45": ROOT / "tests/fixtures/retellings/blind45",
    "blind46": ROOT / "tests/fixtures/retellings/blind46",
    "blind47": ROOT / "tests/fixtures/retellings/blind47",
    "blind48": ROOT / "tests/fixtures/retellings/blind48",
    "blind49": ROOT / "tests/fixtures/retellings/blind49",
    "blind50": ROOT / "tests/fixtures/retellings/blind50",
    "blind51": ROOT / "tests/fixtures/retellings/blind51",
    "blind52": ROOT / "tests/fixtures/retellings/blind52",
    "blind53": ROOT / "tests/fixtures/retellings/blind53",
    "blind54": ROOT / "tests/fixtures/retellings/blind54",
    "blind55": ROOT / "tests/fixtures/retellings/blind55",
    "blind56": ROOT / "tests/fixtures/retellings/blind56",
    "blind57": ROOT / "tests/fixtures/retellings/blind57",
    "blind58": ROOT / "tests/fixtures/retellings/blind58",
    "blind59": ROOT / "tests/fixtures/retellings/blind59",
    "blind60": ROOT / "tests/fixtures/retellings/blind60",
    "blind61": ROOT / "tests/fixtures/retellings/blind61",
    "blind62": ROOT / "tests/fixtures/retellings/blind62",
    "blind63": ROOT / "tests/fixtures/retellings/blind63",
    "blind64": ROOT / "tests/fixtures/retellings/blind64",
    "blind65": ROOT / "tests/fixtures/retellings/blind65",
    "blind66": ROOT / "tests/fixtures/retellings/blind66",
    "blind67": ROOT / "tests/fixtures/retellings/blind67",
    "blind68": ROOT / "tests/fixtures/retellings/blind68",
    "blind69": ROOT / "tests/fixtures/retellings/blind69",
    "blind70": ROOT / "tests/fixtures/retellings/blind70",
    "blind71": ROOT / "tests/fixtures/retellings/blind71",
    "blind72": ROOT / "tests/fixtures/retellings/blind72",
    "blind73": ROOT / "tests/fixtures/retellings/blind73",
    "blind74": ROOT / "tests/fixtures/retellings/blind74",
    "blind75": ROOT / "tests/fixtures/retellings/blind75",
    "blind76": ROOT / "tests/fixtures/retellings/blind76",
    "blind77": ROOT / "tests/fixtures/retellings/blind77",
    "seedtell5": ROOT / "tests/fixtures/retellings/seedtell5",
    "blind78": ROOT / "tests/fixtures/retellings/blind78",
    "blind79": ROOT / "tests/fixtures/retellings/blind79",
    "ardev": ROOT / "tests/fixtures/retellings/ardev",
    "examples": ROOT / "examples",
}
RU_UK = {  # Russian and Ukrainian reports beside English ones (one JSON Lines file each)
    "ru_uk": ROOT / "tests/fixtures/ru_uk",
    "ru_uk_heldout": ROOT / "tests/fixtures/ru_uk/heldout",
}
# scored once, at the end
HELD = (
    "blind12",
    "blind13",
    "blind14",
    "blind15",
    "blind16",
    "blind17",
    "blind18",
    "blind19",
    "blind20",
    "blind21",
    "blind22",
    "blind23",
    "blind24",
    "blind25",
    "blind26",
    "blind27",
    "blind28",
    "blind29",
    "blind30",
    "blind31",
    "blind32",
    "blind33",
    "blind34",
    "blind35",
    "blind36",
    "blind37",
    "blind38",
    "blind39",
    "blind40",
    "blind41",
    "blind42",
    "blind43",
    "blind44",
    "blind45",
    "blind46",
    "blind47",
    "blind48",
    "blind49",
    "blind50",
    "blind51",
)
ECB = ("ecb_dev", "ecb_train", "ecb_dev_cut", "ecb_train_cut")
DEFAULT = [s for s in (*FOLDERS, *RU_UK, *ECB) if s not in HELD]


def baseline_stories(
    texts: Mapping[str, str], threshold: float = BASELINE_THRESHOLD
) -> dict[str, str]:
    """{doc_id: cluster label}: TF-IDF cosine, average link, cut at `threshold`."""
    ids = sorted(texts)
    if len(ids) < 2:
        return {i: i for i in ids}
    vocab: dict[str, int] = {}
    rows = []
    for i in ids:
        counts: dict[int, int] = {}
        for w in _WORD.findall(texts[i].lower()):
            j = vocab.setdefault(w, len(vocab))
            counts[j] = counts.get(j, 0) + 1
        rows.append(counts)
    tf = np.zeros((len(ids), len(vocab)))
    for r, counts in enumerate(rows):
        for j, c in counts.items():
            tf[r, j] = 1 + np.log(c)
    df = (tf > 0).sum(axis=0)
    x = tf * (np.log((1 + len(ids)) / (1 + df)) + 1)
    x /= np.linalg.norm(x, axis=1, keepdims=True) + 1e-12
    tree = linkage(x, method="average", metric="cosine")
    labels = fcluster(tree, t=1 - threshold, criterion="distance")
    return {i: f"c{lab}" for i, lab in zip(ids, labels, strict=True)}


def gold_labels(gold: Path) -> dict[str, str]:
    """source_file -> story label for every in-scope file (singletons for the rest)."""
    labels: dict[str, str] = {}
    for line in gold.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if r["kind"] == "same_story":
            for f in r["source_files"]:
                labels[f] = "s:" + r["source_files"][0]
        for f in [r.get("source_file")] + [m.get("source_file") for m in r.get("mentions", [])]:
            if f:
                labels.setdefault(f, "f:" + f)
    return labels


def _ecb(split: str, cut: bool) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """ECB+ as JSON Lines records and same_story gold (as tests/test_stories.py reads it)."""
    rng = random.Random(split)
    records, groups = [], {}
    path = SHARED / "data" / "ecbplus" / f"ecbplus_{split}.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        sents = d["sentences"][1:] if d["doc_id"].endswith("ecbplus") else d["sentences"]
        text = "\n".join(" ".join(s["tokens"]) for s in sents)
        if cut:
            header = rng.sample(FURNITURE, 3)
            text = "\n".join(header) + "\n\n" + text[: CUT - 200]
        records.append({"id": d["doc_id"], "text": text})
        groups.setdefault(d["subtopic"], []).append(d["doc_id"])
    gold = [{"kind": "same_story", "source_files": g} for g in groups.values()]
    return records, gold


def _prepare(name: str) -> tuple[Path, Path]:
    """(docs path, gold path) of a set, writing the ECB+ ones into the cache."""
    if name in FOLDERS:
        return FOLDERS[name] / "docs", FOLDERS[name] / "gold.jsonl"
    if name in RU_UK:
        return RU_UK[name] / "docs.jsonl", RU_UK[name] / "gold.jsonl"
    split, cut = name.split("_")[1], name.endswith("_cut")
    records, gold = _ecb(split, cut)
    docs, gold_path = CACHE / f"{name}.jsonl", CACHE / f"{name}.gold.jsonl"
    docs.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    gold_path.write_text("".join(json.dumps(g) + "\n" for g in gold), encoding="utf-8")
    return docs, gold_path


def _ingest(name: str, docs: Path, fresh: bool) -> Path:
    db = CACHE / f"{name}.db"
    if db.exists() and not fresh:
        return db
    for old in CACHE.glob(f"{name}.db*"):
        subprocess.run(["rm", "-rf", str(old)], check=True)
    env = {
        **os.environ,
        "CORROBORATOR_DB": str(db),
        "CORROBORATOR_ARCHIVE": str(db.with_suffix(".archive")),
        "PYTHONPATH": str(ROOT / "src"),
    }
    cmd = [sys.executable, "-m", "corroborator", "ingest", "--quiet", str(docs)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{name}: ingest failed: {done.stderr.strip()[-300:]}")
    return db


def story_docs(db: Path) -> tuple[list[dict[str, Any]], list[stories.StoryDoc]]:
    """A cached ingest's documents and what story linking reads of each (as a full relink
    builds it with the current code)."""
    store = open_store(str(db))
    docs = store.documents()
    ex = store.extractions()
    dups = build.find_copies(docs, build.store_signatures(store, docs))
    aliases = build.index_aliases(build.entities_from_mentions(build.mention_rows(docs, ex)))
    store.close()
    items = [build.story_doc(d, ex.get(d["document_id"], {}), dups, aliases) for d in docs]
    return docs, items


def linker_stories(db: Path) -> tuple[dict[str, str], dict[str, str]]:
    """({source_file: story_id} rebuilt with the current linker, {source_file: text})."""
    docs, items = story_docs(db)
    story_of = stories.assign_stories(items)
    return (
        {d["source_file"]: story_of[d["document_id"]] for d in docs},
        {d["source_file"]: d["text"] for d in docs},
    )


def measure(name: str, fresh: bool = False) -> dict[str, Any]:
    """Pairwise P/R/F1 of the linker and of the baseline on one set."""
    CACHE.mkdir(parents=True, exist_ok=True)
    docs, gold_path = _prepare(name)
    db = _ingest(name, docs, fresh)
    linked, texts = linker_stories(db)
    # Every document counts, a file in no `same_story` record being its own story: a
    # look-alike the gold does not name is still a false pair when it joins a story.
    gold = {f: "f:" + f for f in linked} | gold_labels(gold_path)
    scope = sorted(f for f in gold if f in linked)
    base = baseline_stories({f: texts[f] for f in scope})
    sub = {f: gold[f] for f in scope}
    return {
        "set": name,
        "docs": len(scope),
        "linker": stories.pairwise_prf({f: linked[f] for f in scope}, sub),
        "baseline": stories.pairwise_prf(base, sub),
        "oracle": max(
            (stories.pairwise_prf(baseline_stories({f: texts[f] for f in scope}, t), sub)[2], t)
            for t in np.arange(0.05, 0.55, 0.05).round(2)
        ),
    }


def main(argv: list[str]) -> None:
    fresh = "--fresh" in argv
    oracle = "--oracle" in argv
    names = [a for a in argv if not a.startswith("--")] or DEFAULT
    print(f"{'set':20} {'docs':>4}  linker P / R / F1     baseline P / R / F1")
    for name in names:
        r = measure(name, fresh)
        lp, lr, lf = r["linker"]
        bp, br, bf = r["baseline"]
        line = f"{name:20} {r['docs']:4}  {lp:.2f} / {lr:.2f} / {lf:.3f}   {bp:.2f} / {br:.2f} / {bf:.3f}"
        if oracle:
            line += f"   oracle {r['oracle'][0]:.3f} @ {r['oracle'][1]}"
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
