"""The chain of custody: verify passes on an intact store and names every tampered part."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import EXAMPLE_DOCS, run_cli
from corroborator.ingest.archive import Archive
from corroborator.storage.db import archive_root_for, open_store
from corroborator.verify import verify


def _ingest_examples(cli) -> None:
    assert cli("ingest", "--quiet", "--no-extract", str(EXAMPLE_DOCS)).exit_code == 0


def test_verify_passes_on_intact_store(cli) -> None:
    _ingest_examples(cli)
    result = cli("verify")
    assert result.exit_code == 0
    assert result.output.startswith("OK: 21 ledger entries, 10 archive files, 11 documents")


def test_flipped_archive_byte_is_named(cli, db: Path) -> None:
    _ingest_examples(cli)
    store = open_store(str(db))
    doc = next(d for d in store.documents(with_text=False) if d["source_file"] == "market_wire.txt")
    path = archive_root_for(str(db)) / doc["archive_relpath"]
    data = bytearray(path.read_bytes())
    data[100] ^= 0x01
    path.write_bytes(bytes(data))
    result = cli("verify")
    assert result.exit_code == 1
    fails = [ln for ln in result.output.splitlines() if ln.startswith("FAIL")]
    assert any(doc["archive_relpath"] in ln and "bytes changed" in ln for ln in fails)
    assert any(doc["document_id"] in ln and doc["source_file"] in ln for ln in fails)


def test_edited_ledger_entry_is_named(cli, db: Path) -> None:
    _ingest_examples(cli)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE ledger SET source = 'forged.txt' WHERE seq = 4")
    conn.commit()
    conn.close()
    result = cli("verify")
    assert result.exit_code == 1
    assert "FAIL ledger entry 4: contents altered" in result.output


def test_deleted_and_reordered_entries_are_detected(cli, db: Path) -> None:
    _ingest_examples(cli)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA foreign_keys=OFF")
    conn.execute("DELETE FROM ledger WHERE seq = 6")
    conn.commit()
    conn.close()
    result = cli("verify")
    assert result.exit_code == 1
    assert "ledger entry 7: out of sequence" in result.output
    assert "ledger entry 7: previous-hash link broken" in result.output
    assert "no matching ledger entry" in result.output


def test_edited_working_text_is_detected(cli, db: Path) -> None:
    _ingest_examples(cli)
    conn = sqlite3.connect(db)
    conn.execute(
        "UPDATE documents SET text = replace(text, '17', '71') WHERE source_file = 'market_wire.txt'"
    )
    conn.commit()
    conn.close()
    report = verify(open_store(str(db)), Archive(archive_root_for(str(db))))
    assert any("market_wire.txt" in p and "working text" in p for p in report.problems)


@pytest.mark.slow
def test_sigkill_mid_ingest_then_rerun_stores_each_once(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    n = 400
    for i in range(n):
        (corpus / f"doc{i:04d}.txt").write_text(
            f"Report {i}: residents of village {i} said shelling destroyed {i % 17} homes.\n" * 40,
            encoding="utf-8",
        )
    env = {**os.environ, "CORROBORATOR_DB": str(tmp_path / "k.db")}
    env.pop("CORROBORATOR_ARCHIVE", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "corroborator", "ingest", "--quiet", "--no-extract", str(corpus)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    db = tmp_path / "k.db"
    deadline = time.time() + 60
    stored = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if db.exists():
            try:
                c = sqlite3.connect(db, timeout=1)
                stored = c.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
                c.close()
            except sqlite3.OperationalError:
                continue
            if stored >= 40:
                break
    assert proc.poll() is None, "ingest finished before it could be killed; make the corpus bigger"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = sqlite3.connect(db).execute("SELECT COUNT(*) FROM documents").fetchone()[0]
    assert 0 < partial < n

    rerun = run_cli("ingest", "--quiet", "--no-extract", str(corpus), env=env)
    assert rerun.returncode == 0, rerun.stderr
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT source_file, COUNT(*) FROM documents GROUP BY source_file"
    ).fetchall()
    assert len(rows) == n and all(count == 1 for _, count in rows)
    check = run_cli("verify", env=env)
    assert check.returncode == 0, check.stdout
    assert f"{n} documents checked" in check.stdout
    exported = run_cli("export", "--what", "documents", env=env)
    assert len([json.loads(x) for x in exported.stdout.splitlines()]) == n
