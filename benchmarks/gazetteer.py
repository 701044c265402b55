"""Gazetteer size, build and load time, memory, and lookup speed at several index sizes.

    python benchmarks/gazetteer.py [--build]

Maps the cached index (building it first if absent) and prints its entries, names,
tagging keys, cache size on disk, load time and resident memory (the mapped pages a
process has touched). Lookup speed is timed on the full index and on indexes written from
random subsets of 1 % and 10 % of its names: the index is a hash table, so the rate should
not fall as the gazetteer grows. `--build` also times a fresh build into a temporary cache
folder (minutes).
"""

from __future__ import annotations

import os
import random
import resource
import sys
import tempfile
import time
from dataclasses import astuple
from pathlib import Path

from corroborator.nlp import gazetteer
from corroborator.nlp.gazetteer_build import Index
from corroborator.nlp.gazetteer_file import MappedIndex, write

QUERIES = 200_000


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rate(gaz: gazetteer.Gazetteer, names: list[str], tokens: list[tuple[str, ...]]) -> tuple:
    t0 = time.perf_counter()
    for name in names:
        gaz.candidates(name)
    by_name = len(names) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for key in tokens:
        gaz.by_tokens.get(key)
    by_tokens = len(tokens) / (time.perf_counter() - t0)
    return by_name, by_tokens


def main() -> None:
    if "--build" in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["CORROBORATOR_CACHE"] = tmp
            t0 = time.perf_counter()
            gazetteer._load_or_build(None)
            print(f"fresh build          {time.perf_counter() - t0:8.1f} s")
        del os.environ["CORROBORATOR_CACHE"]
    path = gazetteer.cache_path()
    if not path.exists():
        gazetteer.load()
    before = _rss_mb()
    t0 = time.perf_counter()
    gaz = gazetteer._load_or_build(None)
    load_s = time.perf_counter() - t0
    after = _rss_mb()
    kinds: dict[str, int] = {}
    for p in gaz.places.values():
        kinds[p.kind] = kinds.get(p.kind, 0) + 1
    print(
        f"entries              {len(gaz.places):8d}  "
        + ", ".join(f"{k} {n}" for k, n in kinds.items())
    )
    print(f"lookup names         {len(gaz.by_norm):8d}")
    print(f"tagging keys         {len(gaz.by_tokens):8d}")
    print(f"cache on disk        {path.stat().st_size / 2**20:8.1f} MB  ({path.name})")
    print(f"load from cache      {load_s:8.2f} s")
    print(f"resident memory      {after - before:8.0f} MB for the index ({after:.0f} MB process)")

    rng = random.Random(7)
    norms = list(gaz.by_norm)
    toks = list(gaz.by_tokens)
    rows = [astuple(p) for p in gaz.places.values()]
    misses = [f"zz{rng.random()}" for _ in range(QUERIES // 2)]  # as most text windows are
    token_misses = [("Zz", str(i)) for i in range(QUERIES // 2)]
    print(f"{'index share':<14}{'names':>10}{'candidates()/s':>16}{'tag lookups/s':>16}")
    for share in (0.01, 0.1, 1.0):
        keep = rng.sample(norms, int(len(norms) * share))
        keep_t = rng.sample(toks, int(len(toks) * share))
        # half hits drawn from the subset itself, so each size does the same work per query
        queries = [rng.choice(keep) for _ in range(QUERIES // 2)] + misses
        token_queries = [rng.choice(keep_t) for _ in range(QUERIES // 2)] + token_misses
        with tempfile.TemporaryDirectory() as tmp:
            part = Path(tmp) / "part.index"
            sub_norm = {k: gaz.by_norm[k] for k in keep}
            write(part, Index(rows, sub_norm, {k: gaz.by_tokens[k] for k in keep_t}))
            by_name, by_tokens = _rate(
                gazetteer.Gazetteer(MappedIndex(part)), queries, token_queries
            )
        print(f"{share:<14.0%}{len(keep):>10d}{by_name:>16,.0f}{by_tokens:>16,.0f}")


if __name__ == "__main__":
    main()
