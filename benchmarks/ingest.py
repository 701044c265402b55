"""Archive + ledger throughput without NLP: documents/s and peak memory at N = 1k, 10k.

    python benchmarks/ingest.py [N ...]

Prints one line per size and the time ratio per 10x (linear growth gives ~10).
"""

from __future__ import annotations

import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from corroborator.ingest.archive import Archive
from corroborator.ingest.runner import ingest_paths
from corroborator.storage.db import archive_root_for, open_store
from corroborator.verify import verify

WORDS = [
    "residents",
    "said",
    "shelling",
    "destroyed",
    "homes",
    "near",
    "the",
    "river",
    "while",
    "officials",
    "reported",
    "casualties",
    "and",
    "investigators",
    "collected",
    "testimony",
    "from",
    "witnesses",
    "in",
    "the",
    "region",
]


def make_corpus(folder: Path, n: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for i in range(n):
        body = " ".join(rng.choice(WORDS) for _ in range(400))
        (folder / f"doc{i:06d}.txt").write_text(f"Report {i}. {body}\n", encoding="utf-8")


def run(n: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        make_corpus(corpus, n)
        db = str(Path(tmp) / "bench.db")
        store = open_store(db)
        archive = Archive(archive_root_for(db))
        tracemalloc.start()
        t0 = time.perf_counter()
        report = ingest_paths(store, archive, [str(corpus)])
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        t1 = time.perf_counter()
        ok = verify(store, archive).ok
        vtime = time.perf_counter() - t1
        assert len(report.stored) == n and ok
        print(
            f"N={n:>6}  ingest {elapsed:7.2f} s  {n / elapsed:8.0f} docs/s  "
            f"peak traced {peak / 2**20:6.1f} MiB  verify {vtime:6.2f} s"
        )
        return elapsed


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 10000]
    times = [run(n) for n in sizes]
    for k in range(1, len(sizes)):
        a, ta, b, tb = sizes[k - 1], times[k - 1], sizes[k], times[k]
        print(f"time ratio N={b}/N={a}: {tb / ta:.2f} (size ratio {b / a:.0f})")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process max RSS {rss:.0f} MiB")


if __name__ == "__main__":
    main()
