"""Accuracy on every gold set the project holds, through the real CLI.

    python benchmarks/accuracy.py [--set NAME ...] [--jobs N] [--json]

Each set is ingested into a fresh database (`corroborator ingest`) and scored with
`corroborator eval --json`, exactly as a user would; the seeds are scored when
`../shared/` is present. Prints one row per set: overall F1, incident P/R, same-story F1,
quote+speaker F1, places within 161 km and the grounding shares, so the README's figures
are refreshed in one run and compared before and after a change.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures"
SHARED = ROOT.parent / "shared"


@dataclass(frozen=True)
class GoldSet:
    name: str
    docs: tuple[Path, ...]
    gold: Path


def _sets() -> list[GoldSet]:
    pairs = [
        ("examples", ROOT / "examples" / "docs", ROOT / "examples" / "gold.jsonl"),
        ("heldout", FIX / "heldout" / "docs", FIX / "heldout" / "gold.jsonl"),
        ("blind", FIX / "blind" / "docs", FIX / "blind" / "gold.jsonl"),
        ("quotes-dev", FIX / "quotes" / "docs", FIX / "quotes" / "dev.jsonl"),
        ("quotes-held", FIX / "quotes" / "docs", FIX / "quotes" / "heldout.jsonl"),
        ("ru_uk-dev", FIX / "ru_uk" / "docs.jsonl", FIX / "ru_uk" / "gold.jsonl"),
        (
            "ru_uk-held",
            FIX / "ru_uk" / "heldout" / "docs.jsonl",
            FIX / "ru_uk" / "heldout" / "gold.jsonl",
        ),
        ("seeds", SHARED / "seeds", SHARED / "gold" / "seeds.jsonl"),
    ]
    # Every fixture folder laid out as <set>/<split>/{docs,gold.jsonl} (retellings,
    # precision, places, and any set added later).
    for gold in sorted(FIX.glob("*/*/gold.jsonl")):
        if (gold.parent / "docs").is_dir():
            split = gold.parent
            pairs.append((f"{split.parent.name}-{split.name}", split / "docs", gold))
    return [GoldSet(n, (d,), g) for n, d, g in pairs if d.exists() and g.exists()]


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "corroborator", *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def score(s: GoldSet, jobs: int) -> dict[str, object]:
    """`eval --json` of the set ingested into a fresh database."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "set.db"
        env = {"CORROBORATOR_DB": str(db), "CORROBORATOR_ARCHIVE": str(db.with_suffix(".archive"))}
        done = _cli("ingest", "--quiet", "--jobs", str(jobs), *map(str, s.docs), env=env)
        if done.returncode:
            raise SystemExit(f"{s.name}: ingest failed: {done.stderr.strip()}")
        scored = _cli("eval", str(s.gold), "--json", env=env)
        if scored.returncode:
            raise SystemExit(f"{s.name}: eval failed: {scored.stderr.strip()}")
        report: dict[str, object] = json.loads(scored.stdout)
        return report


def _kind(report: dict[str, object], kind: str, what: str = "f1") -> str:
    row = report.get(kind)
    if not isinstance(row, dict) or not (row.get("scored") or row.get("gold")):
        return "  -  "
    return f"{row[what]:.3f}"


def _share(report: dict[str, object], what: str) -> str:
    row = report.get("grounding", {})
    value = row.get(what, {}).get("accuracy") if isinstance(row, dict) else None
    return "  -  " if value is None else f"{value:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--set", action="append", help="only these sets (repeatable)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="every report, as one JSON object")
    args = parser.parse_args()
    sets = [s for s in _sets() if not args.set or s.name in args.set]
    reports = {s.name: score(s, args.jobs) for s in sets}
    if args.json:
        print(json.dumps(reports, indent=1, sort_keys=True))
        return
    head = (
        "set",
        "overall",
        "inc P",
        "inc R",
        "inc F1",
        "story",
        "q+spk",
        "places",
        "spans",
        "hedges",
    )
    print(f"{head[0]:<20}" + "".join(f"{h:>8}" for h in head[1:]))
    for name, r in reports.items():
        cells = (
            f"{r.get('overall_f1', 0.0):.3f}",
            _kind(r, "incidents", "precision"),
            _kind(r, "incidents", "recall"),
            _kind(r, "incidents"),
            _kind(r, "same_story"),
            _kind(r, "quotes_with_speaker"),
            _kind(r, "places", "accuracy_161km"),
            _share(r, "field_spans"),
            _share(r, "hedges_attached"),
        )
        print(f"{name:<20}" + "".join(f"{c:>8}" for c in cells))


if __name__ == "__main__":
    main()
