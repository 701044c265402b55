"""The same store on a real PostgreSQL server (CORROBORATOR_TEST_PG, started by .ci/run)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import EXAMPLE_DOCS, run_cli

PG = os.environ.get("CORROBORATOR_TEST_PG")
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG, reason="CORROBORATOR_TEST_PG not set (.ci/run starts a server)"),
]


@pytest.fixture
def pg_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    import psycopg

    assert PG
    name = "t_" + uuid.uuid4().hex[:10]
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = PG.rsplit("/", 1)[0] + "/" + name
    yield {"CORROBORATOR_DB": url, "CORROBORATOR_ARCHIVE": str(tmp_path / "archive")}
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_postgres_ingest_verify_export_and_tamper(pg_env: dict[str, str]) -> None:
    first = run_cli("ingest", "--quiet", str(EXAMPLE_DOCS), env=pg_env)
    assert first.returncode == 0, first.stderr
    again = run_cli("ingest", "--quiet", str(EXAMPLE_DOCS), env=pg_env)
    assert "0 new document(s) stored, 11 already stored" in again.stdout
    assert run_cli("verify", env=pg_env).returncode == 0
    docs = [
        json.loads(x)
        for x in run_cli("export", "--what", "documents", env=pg_env).stdout.splitlines()
    ]
    assert len(docs) == 11 and all(Path(d["archive_path"]).exists() for d in docs)
    story = {d["source_file"]: d["story_id"] for d in docs}
    assert story["market_wire.txt"] == story["digest-market-copy"] == story["market_courier.html"]
    assert story["balakliia_transcript.txt"] == story["balakliia_report.txt"]
    assert story["market_wire.txt"] != story["balakliia_report.txt"]
    incidents = run_cli("export", "--what", "incidents", env=pg_env).stdout.splitlines()
    assert incidents, "extraction produced no incidents on PostgreSQL"

    import psycopg

    with psycopg.connect(pg_env["CORROBORATOR_DB"], autocommit=True) as conn:
        conn.execute("UPDATE ledger SET source = 'forged' WHERE seq = 3")
    bad = run_cli("verify", env=pg_env)
    assert bad.returncode == 1 and "ledger entry 3: contents altered" in bad.stdout


def test_postgres_requires_archive_folder(pg_env: dict[str, str]) -> None:
    env = dict(pg_env, CORROBORATOR_ARCHIVE="")
    result = run_cli("ingest", "--quiet", str(EXAMPLE_DOCS), env=env)
    assert result.returncode == 1
    assert "CORROBORATOR_ARCHIVE" in result.stderr
