"""Whole-ingest speed against bare spaCy on the same texts, per core, and peak memory.

    python benchmarks/extract.py [--docs 240] [--jobs 1,2] [--stages]

Texts: the project's own articles (examples/, tests/fixtures/) topped up with generated
news-like articles (benchmarks/newslike.py) to `--docs`. Prints
- bare `nlp.pipe` tokens/s in one process: the English model as shipped, already loaded
  (the reference), and our pipeline's parse alone (the model with the gazetteer tagger and
  the faster but identical attribute ruler and lemmatizer of nlp/fast_rules.py);
- for each `--jobs` J, a real `corroborator ingest --jobs J` of the corpus into a fresh
  SQLite database (archive, ledger, extraction, linking, process start and model loads
  included), its tokens/s, its ratio to J x bare (goal >= 0.6 per core), and its speed-up
  over J=1 (goal: near-linear);
- the ingest's CPU seconds over all its processes, and its tokens per CPU second over bare's
  (the work ratio, which other load on a shared machine does not skew);
- with `--stages`, each stage's share of the time, measured in this process.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import corroborator  # noqa: F401 - first: it sets one BLAS thread per process, as in an ingest

# isort: split
import spacy
from newslike import corpus
from spacy.language import Language

from corroborator.nlp.pipeline import SPACY_MODEL, default_stages, extract_many, load_nlp
from corroborator.process import default_jobs


def parse_speed(nlp: Language, texts: list[str]) -> tuple[int, float, float]:
    """Tokens, tokens per wall second and per CPU second of one warmed-up process."""
    list(nlp.pipe(texts[:4]))  # warm-up
    t0 = time.perf_counter()
    c0 = time.process_time()
    tokens = sum(len(doc) for doc in nlp.pipe(texts, batch_size=16))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return tokens, tokens / wall, tokens / cpu


def ingest_seconds(texts: list[str], jobs: int) -> tuple[float, float, float]:
    """Wall time of one real `ingest` run, its CPU seconds (all its processes: a figure the
    other users of a shared machine do not inflate), and the peak RSS (MiB) of its largest
    process."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        for i, text in enumerate(texts):
            (folder / f"a{i:04d}.txt").write_text(text, encoding="utf-8")
        env = {**os.environ, "CORROBORATOR_DB": str(Path(tmp) / "b.db")}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "corroborator", "ingest", "--quiet", "--jobs", str(jobs)]
            + [str(folder)],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, after.ru_maxrss / 1024


def stage_shares(texts: list[str], bare_seconds: float) -> None:
    spent: dict[str, float] = {}

    def timed(stage):  # type: ignore[no-untyped-def]
        def run(ctx):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            stage(ctx)
            spent[stage.name] = spent.get(stage.name, 0.0) + time.perf_counter() - t

        run.name = stage.name  # type: ignore[attr-defined]
        return run

    for _ in extract_many([(t, None) for t in texts], [timed(s) for s in default_stages()]):
        pass
    for name, secs in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<32} {secs:6.2f} s  ({100 * secs / bare_seconds:5.1f} % of bare spaCy)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=240)
    ap.add_argument("--jobs", default=f"1,{default_jobs()}")
    ap.add_argument("--stages", action="store_true")
    args = ap.parse_args()
    texts = corpus(args.docs)
    tokens, bare, bare_cpu = parse_speed(spacy.load(SPACY_MODEL), texts)
    print(f"{len(texts)} texts, {tokens} tokens, {sum(map(len, texts)) / 1e6:.2f} M chars")
    print(f"bare nlp.pipe, 1 process      {bare:8.0f} tokens/s  ({bare_cpu:.0f} per CPU second)")
    _, ours, _ = parse_speed(load_nlp(), texts)
    print(f"our pipeline's parse alone    {ours:8.0f} tokens/s  ({ours / bare:4.2f} x bare)")
    if args.stages:
        stage_shares(texts, tokens / bare)
    base = None
    for jobs in sorted({int(j) for j in args.jobs.split(",")}):
        seconds, cpu, rss = ingest_seconds(texts, jobs)
        tps = tokens / seconds
        base = base or tps
        print(
            f"ingest --jobs {jobs:<2}              {tps:8.0f} tokens/s  {seconds:6.1f} s  "
            f"{len(texts) / seconds:5.1f} docs/s  "
            f"per-core ratio {tps / (jobs * bare):4.2f} (goal >= 0.60)  "
            f"speed-up {tps / base:4.2f}x  peak RSS {rss:5.0f} MiB  "
            f"CPU {cpu:5.1f} s (ratio per CPU second {tokens / cpu / bare_cpu:4.2f})"
        )
    print(f"cores available               {default_jobs():8d}")


if __name__ == "__main__":
    main()
