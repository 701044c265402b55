"""Shared fixtures: the example corpus, a fresh database per test, the CLI as a user runs it.

General tests run on the project's own `examples/` corpus. Tests about the workspace's
shared data (`../shared/`: seed articles, their gold, ECB+) ask for it through
`shared_path`, which skips them with a one-line reason in a clone that lacks it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from corroborator.models import RawRecord

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_DOCS = EXAMPLES / "docs"
EXAMPLE_GOLD = EXAMPLES / "gold.jsonl"
SHARED = Path(__file__).resolve().parents[2] / "shared"


def shared_path(*parts: str) -> Path:
    """A path under the workspace's `../shared/`; skips the calling test when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs ../shared/{'/'.join(parts)} (workspace data), not in this checkout")
    return path


def requires_shared(*parts: str) -> pytest.MarkDecorator:
    """Skip marker for tests (or modules) that read `../shared/<parts>` at collection time."""
    return pytest.mark.skipif(
        not SHARED.joinpath(*parts).exists(),
        reason=f"needs ../shared/{'/'.join(parts)} (workspace data), not in this checkout",
    )


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "test.db"
    monkeypatch.setenv("CORROBORATOR_DB", str(path))
    monkeypatch.delenv("CORROBORATOR_ARCHIVE", raising=False)
    return path


@pytest.fixture
def cli(db: Path):
    """Run a corroborator command in-process against the test database."""
    from corroborator.cli import cli as group

    def run(*args: str) -> Result:
        return CliRunner().invoke(group, list(args), catch_exceptions=False)

    return run


def one_document_page(db: Path) -> tuple[dict, str]:
    """The one stored document of the test database and its page in the review UI."""
    from fastapi.testclient import TestClient

    from corroborator.storage.db import open_store
    from corroborator.web.app import create_app

    (doc,) = open_store(str(db)).documents(with_text=False)
    client = TestClient(create_app(str(db), db.with_suffix(".archive")))
    return doc, client.get(f"/documents/{doc['document_id']}").text


def run_cli(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    """The installed command in a real process (for exit codes, signals, stderr)."""
    return subprocess.run(
        [sys.executable, "-m", "corroborator", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        **kw,
    )


def gold_set_texts(docs: Path) -> dict[str, str]:
    """source_file -> raw text of a gold set's folder, as the contract names them (JSONL
    records by their id, other files by base name)."""
    import json

    texts: dict[str, str] = {}
    for path in sorted(docs.iterdir()):
        if path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                texts[record["id"]] = record["text"]
        else:
            texts[path.name] = path.read_text(encoding="utf-8")
    return texts


def read_documents(docs: Path) -> list[RawRecord]:
    """Every document in a folder, read and normalised by the project's own readers (HTML
    and WARC pages as extracted), without a database: `text` is the working text."""
    from corroborator.ingest.normalize import normalize
    from corroborator.ingest.readers import read_path

    return [
        replace(item, text=normalize(item.text)[0])
        for path in sorted(docs.iterdir())
        for item in read_path(path)
        if isinstance(item, RawRecord)
    ]


def working_texts(docs: Path) -> dict[str, str]:
    """source_file -> working text of every document in a folder."""
    return {record.source_file: record.text for record in read_documents(docs)}


def gold_strings(records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(source_file, exact string) for every incident mention and quote of a gold file."""
    pairs: list[tuple[str, str]] = []
    for record in records:
        if record["kind"] == "incident":
            pairs += [(m["source_file"], m["quote"]) for m in record["mentions"]]
        elif record["kind"] == "quote":
            pairs.append((record["source_file"], record["text"]))
    return pairs


def stage_quotes(nlp: Any, text: str) -> list[Any]:
    """The quotes stage alone on `text`, every span checked against the words it names."""
    from corroborator.nlp.pipeline import DocContext
    from corroborator.nlp.quotes import QuotesStage

    ctx = DocContext(doc=nlp(text))
    QuotesStage()(ctx)
    for q in ctx.extraction.quotes:
        assert text[q.start : q.end] == q.text
        if q.speaker_start is not None:
            assert text[q.speaker_start : q.speaker_end] == q.speaker
        for span in (q.speaker_mention, q.speaker_name_span):
            if span is not None:
                assert text[span.start : span.end] == span.text
    return list(ctx.extraction.quotes)


def ingest_and_score(folder: Path, docs: Path, gold: Path) -> dict[str, Any]:
    """Ingest `docs` into a fresh database in `folder` with the real command, as a user
    would; return the ingest and verify results, the `eval --json` report and every export."""
    import json

    db = folder / "set.db"
    env = {"CORROBORATOR_DB": str(db), "CORROBORATOR_ARCHIVE": str(db.with_suffix(".archive"))}
    ingest = run_cli("ingest", "--quiet", str(docs), env=env)
    assert ingest.returncode == 0, ingest.stderr
    scored = run_cli("eval", str(gold), "--json", env=env)
    assert scored.returncode == 0, scored.stderr
    print(run_cli("eval", str(gold), env=env).stdout)
    out: dict[str, Any] = {
        "ingest": ingest,
        "verify": run_cli("verify", env=env),
        "report": json.loads(scored.stdout),
    }
    for what in ("documents", "incidents", "quotes", "entities"):
        exported = run_cli("export", "--what", what, "--format", "jsonl", env=env)
        assert exported.returncode == 0, exported.stderr
        out[what] = [json.loads(line) for line in exported.stdout.splitlines() if line]
    return out


def run_fresh(code: str) -> str:
    """Run `code` in a new interpreter (one thread: no Dask offload thread left by an
    earlier test, so forking is allowed); its standard output."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()
