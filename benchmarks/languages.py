"""Extraction speed per language, one process, models already loaded.

    python benchmarks/languages.py [--repeat 8]

Texts: the ru/uk development set (tests/fixtures/ru_uk/docs.jsonl), grouped by detected
language and repeated `--repeat` times. Prints, per language, words/s through
`extract_many` (detection and routing included), and lingua's detection speed alone.
Words are whitespace-separated, so the figures compare across scripts.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from corroborator.nlp.lang.detect import language_of
from corroborator.nlp.pipeline import default_stages, extract_many

DOCS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "ru_uk" / "docs.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=8)
    args = parser.parse_args()
    texts = [json.loads(line)["text"] for line in DOCS.open(encoding="utf-8")]
    by_lang: dict[str, list[str]] = defaultdict(list)
    for text in texts:
        by_lang[language_of(text) or "?"].append(text)
    stages = default_stages()
    for sample in by_lang.values():  # warm-up: load spaCy, natasha, pymorphy3, gazetteer
        list(extract_many([(sample[0], None)], stages))
    for lang, sample in sorted(by_lang.items()):
        batch = sample * args.repeat
        words = sum(len(t.split()) for t in batch)
        t0 = time.perf_counter()
        for _ in extract_many([(t, None) for t in batch], stages):
            pass
        secs = time.perf_counter() - t0
        print(f"{lang}: {len(batch)} docs, {words} words, {words / secs:,.0f} words/s")
    batch = texts * args.repeat
    words = sum(len(t.split()) for t in batch)
    t0 = time.perf_counter()
    for t in batch:
        language_of(t)
    print(f"detection alone: {words / (time.perf_counter() - t0):,.0f} words/s")


if __name__ == "__main__":
    main()
