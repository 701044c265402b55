"""Batch extraction on a real Dask cluster gives the same records as a local run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import EXAMPLE_DOCS, run_cli
from corroborator.storage.db import open_store


@pytest.mark.slow
def test_dask_localcluster_extraction_matches_local(tmp_path: Path) -> None:
    from distributed import LocalCluster

    local_env = {"CORROBORATOR_DB": str(tmp_path / "local.db")}
    dask_env = {"CORROBORATOR_DB": str(tmp_path / "dask.db")}
    for env in (local_env, dask_env):
        os.environ.pop("CORROBORATOR_ARCHIVE", None)
        assert (
            run_cli("ingest", "--quiet", "--no-extract", str(EXAMPLE_DOCS), env=env).returncode == 0
        )

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        result = run_cli("extract", "--quiet", "--dask", cluster.scheduler_address, env=dask_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "11 document(s) extracted"
    assert run_cli("extract", "--quiet", env=local_env).returncode == 0

    local = open_store(local_env["CORROBORATOR_DB"]).extractions()
    remote = open_store(dask_env["CORROBORATOR_DB"]).extractions()
    assert remote == local and sum(len(x["incidents"]) for x in remote.values()) > 10
    # the single writer also relinked: incidents and stories exist on the Dask-built store
    store = open_store(dask_env["CORROBORATOR_DB"])
    assert store.one("SELECT COUNT(*) AS n FROM incidents")["n"] > 0


def test_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    env = {"CORROBORATOR_DB": str(tmp_path / "x.db")}
    run_cli("ingest", "--quiet", "--no-extract", str(EXAMPLE_DOCS), env=env)
    result = run_cli("extract", "--quiet", "--dask", "tcp://127.0.0.1:9", env=env, timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and "Dask" in result.stderr


@pytest.mark.slow
def test_process_pool_extraction_matches_one_process(tmp_path: Path) -> None:
    """Two worker processes (forked on Linux) on small batches store the records one process stores."""
    from corroborator.ingest.archive import Archive
    from corroborator.ingest.runner import ingest_paths
    from corroborator.process import process

    fixtures = Path(__file__).parent / "fixtures"
    folders = [str(fixtures / "heldout" / "docs"), str(fixtures / "linking")]
    stores = []
    for name, jobs in (("one", 1), ("pool", 2)):
        store = open_store(str(tmp_path / f"{name}.db"))
        ingest_paths(store, Archive(tmp_path / f"{name}.archive"), folders)
        done = process(store, batch=3, jobs=jobs)
        assert done.extracted == store.document_count() > 12
        stores.append(store)
    one, pool = (s.extractions() for s in stores)
    assert pool == one and sum(len(x["incidents"]) for x in one.values()) > 5
    incidents = [s.rows("SELECT incident_id FROM incidents ORDER BY incident_id") for s in stores]
    assert incidents[0] == incidents[1] and incidents[0]
