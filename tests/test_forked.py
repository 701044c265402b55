"""Work in forked children: results in order from more than one process, a child's failure
raised in the parent, no fork while another thread runs. The fork paths run in a fresh
interpreter: once a test has used Dask, this one keeps Dask's offload thread for good."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from conftest import run_fresh
from corroborator import forked
from corroborator.errors import CorroboratorError
from corroborator.storage.db import open_store

needs_fork = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)


@needs_fork
def test_results_come_back_in_order_from_more_than_one_process() -> None:
    out = run_fresh(
        """
        import os
        from corroborator import forked
        n = 3 * forked.MIN_ITEMS
        out = forked.fork_map(lambda x: (x * x, os.getpid()), list(range(n)), jobs=2)
        assert [v for v, _ in out] == [x * x for x in range(n)]
        assert out[0][1] == os.getpid()  # the first share is scored here
        print(len({pid for _, pid in out}))
        """
    )
    assert out == "2"


def test_a_short_list_stays_in_this_process() -> None:
    out = forked.fork_map(lambda x: os.getpid(), list(range(10)), jobs=4)
    assert set(out) == {os.getpid()}


@needs_fork
def test_a_failure_in_a_child_is_raised_here_as_it_was_there() -> None:
    out = run_fresh(
        """
        from corroborator import forked
        n = 3 * forked.MIN_ITEMS
        def f(x):
            if x == n - 1:  # in the last share: a child's
                raise ValueError("bad pair")
            return x
        try:
            forked.fork_map(f, list(range(n)), jobs=2)
        except ValueError as exc:
            print("raised", exc)
        """
    )
    assert out == "raised bad pair"


def _dies() -> None:
    os._exit(3)


@needs_fork
def test_a_child_that_dies_is_one_clear_error() -> None:
    child = forked.Child(_dies, "test worker")
    with pytest.raises(CorroboratorError, match=r"test worker died \(exit code 3\)"):
        child.result()


def test_no_fork_while_another_thread_runs() -> None:
    """A thread holding a lock at the fork would leave the child waiting on it for ever:
    with one alive, the map runs here."""
    import threading

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not forked.can_fork()
        out = forked.fork_map(lambda x: os.getpid(), list(range(3 * forked.MIN_ITEMS)), jobs=2)
        assert set(out) == {os.getpid()}
    finally:
        stop.set()
        other.join()


@needs_fork
def test_two_processes_cluster_stories_as_one_does() -> None:
    """Every retelling set's texts at once (hundreds of reports, thousands of pairs)."""
    out = run_fresh(
        f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from conftest import read_documents
        from corroborator import forked
        from corroborator.linking.stories import StoryDoc, StoryIndex, assign_stories

        root = Path({os.path.dirname(__file__)!r}) / "fixtures" / "retellings"
        records = [r for folder in sorted(root.glob("*/docs")) for r in read_documents(folder)]
        docs = [
            StoryDoc(f"{{i}}:{{r.source_file}}", r.text, r.published, (), (), None)
            for i, r in enumerate(records)
        ]
        assert forked.can_fork()
        one, two = StoryIndex(jobs=1), StoryIndex(jobs=2)
        assert assign_stories(docs, index=one) == assign_stories(docs, index=two)
        # two processes also score ahead pairs the merges may ask for: the same scores,
        # and more of them
        assert all(two._sims[k] == v for k, v in one._sims.items())
        print(len(two._sims) >= forked.MIN_ITEMS)  # enough pairs for the forked path
        """
    )
    assert out == "True"


@needs_fork
def test_a_full_relink_on_two_processes_writes_what_one_writes(tmp_path: Path) -> None:
    """Story pairs scored on two processes: same incidents, records and stories as one
    process builds."""
    from corroborator.ingest.archive import Archive
    from corroborator.ingest.runner import ingest_paths
    from corroborator.process import process

    store = open_store(str(tmp_path / "r.db"))
    ingest_paths(
        store, Archive(tmp_path / "a"), [str(Path(__file__).parent / "fixtures" / "linking")]
    )
    process(store, jobs=1)
    store.close()
    out = run_fresh(
        f"""
        from corroborator.linking.build import relink
        from corroborator.storage.db import open_store
        store = open_store({str(tmp_path / "r.db")!r})
        tables = []
        for jobs in (1, 2):
            relink(store, None, jobs)
            tables.append((
                store.rows("SELECT incident_id, record FROM incidents ORDER BY incident_id"),
                store.rows("SELECT document_id, story_id FROM documents ORDER BY document_id"),
            ))
        assert tables[0] == tables[1]
        print(len(tables[0][0]) > 3)
        """
    )
    assert out == "True"
