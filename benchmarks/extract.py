"""Extraction speed against bare spaCy on the same texts, and peak memory.

    python benchmarks/extract.py [REPEAT]

Texts: the seed articles (repeated REPEAT times, default 8). Prints words/s of bare
`nlp.pipe` with the same pipeline, words/s of the full extraction, and their ratio
(goal >= 0.6: our stages add at most 40 %).
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from corroborator.nlp.pipeline import default_stages, extract_many, load_nlp

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    texts = [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))] * repeat
    t0 = time.perf_counter()
    nlp = load_nlp()
    stages = default_stages()
    list(extract_many([(texts[0], None)], stages))  # warm caches (gazetteer, lexicons)
    print(f"pipeline load + warm-up {time.perf_counter() - t0:.1f} s")

    t0 = time.perf_counter()
    words = sum(len(doc) for doc in nlp.pipe(texts, batch_size=16))
    bare = time.perf_counter() - t0

    t0 = time.perf_counter()
    for _ in extract_many([(t, None) for t in texts], stages):
        pass
    full = time.perf_counter() - t0

    spent: dict[str, float] = {}

    def timed(stage):  # type: ignore[no-untyped-def]
        def run(ctx):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            stage(ctx)
            spent[stage.name] = spent.get(stage.name, 0.0) + time.perf_counter() - t

        run.name = stage.name  # type: ignore[attr-defined]
        return run

    for _ in extract_many([(t, None) for t in texts], [timed(s) for s in stages]):
        pass
    for name, secs in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<32} {secs:6.2f} s  ({100 * secs / bare:5.1f} % of bare spaCy)")

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(texts)} texts, {words} tokens")
    print(f"bare nlp.pipe      {words / bare:8.0f} tokens/s")
    print(f"full extraction    {words / full:8.0f} tokens/s")
    print(f"ratio full/bare    {bare / full:8.2f}  (goal >= 0.60)")
    print(f"peak RSS           {rss:8.0f} MiB")


if __name__ == "__main__":
    main()
