"""Crash safety: SIGKILL `corroborator ingest`, `extract --all` and review writes at random
points, rerun, and check that nothing committed was lost or half-written.

    python benchmarks/crash.py [--runs 50] [--docs 1000] [--seed 7]
                               [--extract-runs 12] [--extract-docs 40] [--review-runs 10]

Every kill is of the installed CLI in a real subprocess (`python -m corroborator`) on
SQLite. Ingest: each run starts on a fresh database, is killed at a random moment of a
`--docs` document ingest (txt files plus one JSONL file), then ingest is rerun to
completion and `verify` run. Goals: 0 lost, 0 duplicated, 0 verify problems, 0 orphan
archive files, 0 failed reruns.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import corroborator
from corroborator.ingest.archive import Archive
from corroborator.storage.db import archive_root_for, now, open_store
from corroborator.verify import verify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from newsgen import write_corpus  # noqa: E402

SRC = str(Path(corroborator.__file__).resolve().parents[1])


def cli_env(db: Path) -> dict[str, str]:
    env = {**os.environ, "CORROBORATOR_DB": str(db), "PYTHONPATH": SRC}
    env.pop("CORROBORATOR_ARCHIVE", None)
    return env


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "corroborator", *args],
        env=cli_env(db),
        capture_output=True,
        text=True,
    )


def start(db: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "corroborator", *args],
        env=cli_env(db),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def kill_after(proc: subprocess.Popen[bytes], delay: float, before: Any = None) -> tuple[bool, Any]:
    """SIGKILL `proc` after `delay` s; `before()` runs just before the kill (a snapshot of
    what was committed). Returns (killed while running, snapshot)."""
    end = time.perf_counter() + delay
    while time.perf_counter() < end and proc.poll() is None:
        time.sleep(0.01)
    snap = before() if before else None
    running = proc.poll() is None
    if running:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return running, snap


def read_rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    """A reader beside the writer (WAL): sees exactly what has been committed."""
    if not db.exists():
        return []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute(sql).fetchall()
    except sqlite3.OperationalError:  # killed before the schema was committed
        return []
    finally:
        conn.close()


def committed_documents(db: Path) -> dict[str, tuple[Any, ...]]:
    rows = read_rows(db, "SELECT source_file, sha256, ledger_seq, text FROM documents")
    return {r[0]: r[1:] for r in rows}


def verify_problems(db: Path) -> list[str]:
    store = open_store(str(db))
    try:
        return verify(store, Archive(archive_root_for(str(db)))).problems
    finally:
        store.close()


def orphan_files(db: Path) -> int:
    """Files in the archive folder that no archive_files row names (incl. temp files)."""
    root = archive_root_for(str(db))
    if not root.exists():
        return 0
    named = {r[0] for r in read_rows(db, "SELECT relpath FROM archive_files")}
    found = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    return len(found - named)


def cli_verify_failures(db: Path) -> int:
    out = cli(db, "verify")
    fails = sum(1 for line in out.stdout.splitlines() if line.startswith("FAIL"))
    return fails if fails or out.returncode == 0 else 1


# -- ingest --------------------------------------------------------------------------------
@dataclass
class IngestTally:
    runs: int = 0
    killed: int = 0
    committed_at_kill: int = 0
    lost: int = 0
    changed: int = 0
    final_missing: int = 0
    final_duplicates: int = 0
    final_wrong_hash: int = 0
    partial_verify_problems: int = 0
    final_verify_problems: int = 0
    orphans: int = 0
    failed_reruns: int = 0
    notes: list[str] = field(default_factory=list)


def ingest_trial(
    work: Path, corpus: Path, expected: dict[str, str], delay: float, t: IngestTally
) -> None:
    db = work / "crash.db"
    args = ("ingest", "--quiet", "--no-extract", str(corpus))
    proc = start(db, *args)
    killed, snap = kill_after(proc, delay, lambda: committed_documents(db))
    t.runs += 1
    t.killed += killed
    after = committed_documents(db)
    t.committed_at_kill += len(after)
    for name, row in snap.items():
        if name not in after:
            t.lost += 1
        elif after[name] != row:
            t.changed += 1
    t.partial_verify_problems += len(verify_problems(db)) if db.exists() else 0
    rerun = cli(db, *args)
    if rerun.returncode != 0:
        t.failed_reruns += 1
        t.notes.append(f"rerun exit {rerun.returncode}: {rerun.stderr.strip()[-300:]}")
    final = committed_documents(db)
    t.lost += sum(1 for name in snap if name not in final)
    t.changed += sum(1 for name, row in snap.items() if name in final and final[name] != row)
    counts = read_rows(db, "SELECT source_file, sha256, COUNT(*) FROM documents GROUP BY 1, 2")
    t.final_duplicates += sum(c - 1 for _, _, c in counts)
    have = {name: sha for name, sha, _ in counts}
    t.final_missing += sum(1 for name in expected if name not in have)
    t.final_wrong_hash += sum(1 for name, sha in expected.items() if have.get(name, sha) != sha)
    t.final_verify_problems += cli_verify_failures(db)
    t.orphans += orphan_files(db)


def crash_ingest(work: Path, runs: int, docs: int, seed: int) -> IngestTally:
    corpus = work / "corpus"
    expected = write_corpus(corpus, docs, seed)
    t0 = time.perf_counter()
    full = cli(work / "calibrate.db", "ingest", "--quiet", "--no-extract", str(corpus))
    duration = time.perf_counter() - t0
    assert full.returncode == 0, full.stderr
    print(
        f"ingest: {docs} documents ({sum(1 for k in expected if k.endswith('.txt'))} txt files,"
        f" {sum(1 for k in expected if not k.endswith('.txt'))} JSONL records),"
        f" uninterrupted run {duration:.2f} s; killing at uniform random points of that"
    )
    rng = random.Random(seed)
    tally = IngestTally()
    for n in range(runs):
        trial = work / f"ingest{n:03d}"
        trial.mkdir()
        ingest_trial(trial, corpus, expected, rng.uniform(0.05, duration * 0.98), tally)
    return tally


# -- extraction ----------------------------------------------------------------------------
@dataclass
class ExtractTally:
    runs: int = 0
    killed: int = 0
    extracted_at_kill: int = 0
    half_written: int = 0
    differs_from_reference: int = 0
    verify_problems: int = 0
    final_unextracted: int = 0
    final_unlinked: int = 0
    final_link_diffs: int = 0
    failed_reruns: int = 0
    notes: list[str] = field(default_factory=list)


def extraction_rows(db: Path) -> dict[str, str | None]:
    rows = read_rows(
        db,
        "SELECT d.document_id, e.payload FROM documents d LEFT JOIN extractions e"
        " ON e.document_id = d.document_id AND e.version = d.extracted_version"
        " WHERE d.extracted_version IS NOT NULL",
    )
    return {r[0]: r[1] for r in rows}


def _next_second() -> str:
    """Wait for the next whole second and return it as stored (`created_at` has 1 s grain),
    so rows written by the previous run do not count for the next."""
    time.sleep(1 - time.time() % 1 + 0.01)
    return now()


def _saved_since(db: Path, since: str) -> int:
    found = read_rows(db, f"SELECT COUNT(*) FROM extractions WHERE created_at >= '{since}'")
    return int(found[0][0]) if found else 0


def link_view(db: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    docs = read_rows(db, "SELECT document_id, story_id, duplicate_of FROM documents ORDER BY 1")
    incs = read_rows(db, "SELECT incident_id, record FROM incidents ORDER BY 1")
    return docs, incs


def crash_extract(work: Path, runs: int, docs: int, seed: int) -> ExtractTally:
    corpus = work / "corpus"
    write_corpus(corpus, docs, seed + 1)
    ref = work / "reference.db"
    t0 = time.perf_counter()
    done = cli(ref, "ingest", "--quiet", str(corpus))
    assert done.returncode == 0, done.stderr
    reference = {k: json.loads(v) for k, v in extraction_rows(ref).items() if v}
    print(
        f"extract: {docs} documents, uninterrupted ingest with extraction"
        f" {time.perf_counter() - t0:.1f} s (the reference)"
    )
    db = work / "extract.db"
    assert cli(db, "ingest", "--quiet", "--no-extract", str(corpus)).returncode == 0
    rng = random.Random(seed)
    t = ExtractTally()
    for n in range(runs):
        # the first run extracts stale documents (as `ingest` does), the rest redo all;
        # each is killed once a random number of its extractions have committed (all of
        # them: then during linking), a moment later
        args = ("extract", "--quiet") if n == 0 else ("extract", "--all", "--quiet")
        target = rng.randint(0, docs)
        since = _next_second()
        proc = start(db, *args)
        while proc.poll() is None and _saved_since(db, since) < target:
            time.sleep(0.02)
        killed, _ = kill_after(proc, rng.uniform(0, 0.5))
        t.runs += 1
        t.killed += killed
        rows = extraction_rows(db)
        t.extracted_at_kill += len(rows)
        for doc_id, payload in rows.items():
            try:
                parsed = json.loads(payload) if payload else None
            except json.JSONDecodeError:
                parsed = None
            if parsed is None:
                t.half_written += 1
            elif parsed != reference.get(doc_id):
                t.differs_from_reference += 1
        t.verify_problems += len(verify_problems(db))
    rerun = cli(db, "extract", "--quiet")
    if rerun.returncode != 0:
        t.failed_reruns += 1
        t.notes.append(f"extract rerun exit {rerun.returncode}: {rerun.stderr.strip()[-300:]}")
    t.final_unextracted = docs - len(extraction_rows(db))
    got_docs, got_incs = link_view(db)
    ref_docs, ref_incs = link_view(ref)
    t.final_unlinked = sum(1 for _, story, _ in got_docs if story is None)
    t.final_link_diffs = len(set(got_docs) ^ set(ref_docs)) + len(set(got_incs) ^ set(ref_incs))
    t.verify_problems += cli_verify_failures(db)
    return t


# -- review writes -------------------------------------------------------------------------
@dataclass
class ReviewTally:
    runs: int = 0
    acknowledged: int = 0
    acknowledged_missing: int = 0
    logged: int = 0
    ledger_mismatches: int = 0
    unapplied: int = 0
    verify_problems: int = 0
    notes: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(base: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    import httpx

    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError("server exited before it answered")
        try:
            httpx.get(base + "/api/csrf", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("server did not answer in time")


def post_reviews(
    base: str, incidents: list[str], acked: list[str], stop: threading.Event, rng: random.Random
) -> None:
    """Confirm/reject random incidents until the server dies; record acknowledged ids."""
    import httpx

    with httpx.Client(base_url=base, timeout=30) as client:
        try:
            token = client.get("/api/csrf").json()["csrf"]
        except httpx.HTTPError:  # killed before this writer started
            return
        while not stop.is_set():
            action = rng.choice(["confirm", "reject"])
            body = {
                "action": action,
                "target": rng.choice(incidents),
                "reviewer": "crash bench",
                "reason": "" if action == "confirm" else "bench rejection",
            }
            try:
                r = client.post("/api/reviews", json=body, headers={"X-CSRF-Token": token})
            except httpx.HTTPError:
                return
            if r.status_code == 201:
                acked.append(r.json()["review_id"])


def review_consistency(db: Path, t: ReviewTally, acked: list[str]) -> None:
    log = read_rows(
        db, "SELECT review_id, action, target, ledger_seq FROM reviews ORDER BY ledger_seq"
    )
    ledger = {
        r[0]: r[1] for r in read_rows(db, "SELECT seq, subject FROM ledger WHERE kind = 'review'")
    }
    t.logged = len(log)
    ids = {r[0] for r in log}
    t.acknowledged_missing += sum(1 for a in acked if a not in ids)
    t.ledger_mismatches += abs(len(ledger) - len(log))
    t.ledger_mismatches += sum(1 for rid, _, _, seq in log if ledger.get(seq) != rid)
    last: dict[str, str] = {}
    for _, action, target, _ in log:
        last[target] = "confirmed" if action == "confirm" else "rejected"
    shown = {
        r[0]: json.loads(r[1]).get("review_state")
        for r in read_rows(db, "SELECT incident_id, record FROM incidents")
    }
    t.unapplied = sum(1 for target, state in last.items() if shown.get(target) != state)


def crash_review(work: Path, source_db: Path, runs: int, seed: int) -> ReviewTally:
    db = work / "review.db"
    src = sqlite3.connect(source_db)
    src.execute(f"VACUUM INTO '{db}'")
    src.close()
    import shutil

    shutil.copytree(archive_root_for(str(source_db)), archive_root_for(str(db)))
    incidents = [r[0] for r in read_rows(db, "SELECT incident_id FROM incidents")]
    assert incidents, "the review corpus produced no incidents"
    rng = random.Random(seed)
    t = ReviewTally()
    acked: list[str] = []
    for _ in range(runs):
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start(db, "serve", "--port", str(port))
        try:
            wait_up(base, proc)
        except RuntimeError as exc:
            proc.kill()
            proc.wait()
            t.notes.append(str(exc))
            continue
        stop = threading.Event()
        writers = [
            threading.Thread(
                target=post_reviews,
                args=(base, incidents, acked, stop, random.Random(rng.random())),
            )
            for _ in range(4)
        ]
        for w in writers:
            w.start()
        kill_after(proc, rng.uniform(0.2, 3.0))
        stop.set()
        for w in writers:
            w.join()
        t.runs += 1
    t.acknowledged = len(acked)
    review_consistency(db, t, acked)
    t.verify_problems = cli_verify_failures(db)
    return t


def ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "-"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50, help="ingest kills")
    ap.add_argument("--docs", type=int, default=1000, help="documents per killed ingest")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--extract-runs", type=int, default=12)
    ap.add_argument("--extract-docs", type=int, default=40)
    ap.add_argument("--review-runs", type=int, default=10)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="crash-") as tmp:
        work = Path(tmp)
        (work / "ingest").mkdir()
        (work / "extract").mkdir()
        (work / "review").mkdir()
        t0 = time.perf_counter()
        ing = crash_ingest(work / "ingest", args.runs, args.docs, args.seed)
        print(
            f"  runs {ing.runs} (killed while running {ing.killed}); documents committed at"
            f" kill {ing.committed_at_kill} (mean {ing.committed_at_kill / max(1, ing.runs):.0f}"
            f" per run, {ratio(ing.committed_at_kill, ing.runs * args.docs)} of the corpus)"
        )
        print(
            f"  lost {ing.lost}, changed {ing.changed}; after rerun: missing"
            f" {ing.final_missing}, duplicated {ing.final_duplicates}, wrong hash"
            f" {ing.final_wrong_hash}, failed reruns {ing.failed_reruns}"
        )
        print(
            f"  verify problems: after kill {ing.partial_verify_problems}, after rerun"
            f" {ing.final_verify_problems}; orphan archive files {ing.orphans}"
            f"  ({time.perf_counter() - t0:.0f} s)"
        )
        t1 = time.perf_counter()
        ext = crash_extract(work / "extract", args.extract_runs, args.extract_docs, args.seed)
        print(
            f"  runs {ext.runs} (killed while running {ext.killed}); extractions present at"
            f" kill {ext.extracted_at_kill}; half-written {ext.half_written}; differing from"
            f" an uninterrupted run {ext.differs_from_reference}"
        )
        print(
            f"  after `extract` rerun: unextracted {ext.final_unextracted}, unlinked documents"
            f" {ext.final_unlinked}, link rows differing from the reference"
            f" {ext.final_link_diffs}, failed reruns {ext.failed_reruns}; verify problems"
            f" {ext.verify_problems}  ({time.perf_counter() - t1:.0f} s)"
        )
        t2 = time.perf_counter()
        rev = crash_review(
            work / "review", work / "extract" / "reference.db", args.review_runs, args.seed
        )
        print(
            f"review: server killed {rev.runs} times mid-write (4 writers); acknowledged"
            f" {rev.acknowledged}, logged {rev.logged}, acknowledged but missing"
            f" {rev.acknowledged_missing}"
        )
        print(
            f"  review/ledger mismatches {rev.ledger_mismatches}; logged but not applied"
            f" {rev.unapplied}; verify problems {rev.verify_problems}"
            f"  ({time.perf_counter() - t2:.0f} s)"
        )
        for note in ing.notes[:5] + ext.notes[:5] + rev.notes[:5]:
            print(f"  note: {note}")
    return {"ingest": ing, "extract": ext, "review": rev}


if __name__ == "__main__":
    main()
