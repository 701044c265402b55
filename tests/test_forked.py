"""Story pairs scored over forked processes: the same answers as one process, in order."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from conftest import read_documents
from corroborator import forked
from corroborator.errors import CorroboratorError
from corroborator.linking.stories import StoryDoc, StoryIndex, assign_stories

RETELLINGS = Path(__file__).parent / "fixtures" / "retellings"
needs_fork = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)


def _with_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


@needs_fork
def test_results_come_back_in_order_from_more_than_one_process() -> None:
    out = forked.fork_map(_with_pid, list(range(3 * forked.MIN_ITEMS)), jobs=2)
    assert [v for v, _ in out] == [x * x for x in range(3 * forked.MIN_ITEMS)]
    assert len({pid for _, pid in out}) == 2
    assert out[0][1] == os.getpid()  # the first share is scored here


def test_a_short_list_stays_in_this_process() -> None:
    out = forked.fork_map(_with_pid, list(range(10)), jobs=4)
    assert {pid for _, pid in out} == {os.getpid()}


def _fails_late(x: int) -> int:
    if x == 3 * forked.MIN_ITEMS - 1:
        raise ValueError("bad pair")
    return x


@needs_fork
def test_a_failure_in_a_child_is_raised_here_as_it_was_there() -> None:
    with pytest.raises(ValueError, match="bad pair"):
        forked.fork_map(_fails_late, list(range(3 * forked.MIN_ITEMS)), jobs=2)


def _dies() -> None:
    os._exit(3)


@needs_fork
def test_a_child_that_dies_is_one_clear_error() -> None:
    child = forked.Child(_dies, "test worker")
    with pytest.raises(CorroboratorError, match=r"test worker died \(exit code 3\)"):
        child.result()


@needs_fork
def test_two_processes_cluster_stories_as_one_does() -> None:
    """Every retelling set's texts at once (hundreds of reports, thousands of pairs)."""
    records = [r for folder in sorted(RETELLINGS.glob("*/docs")) for r in read_documents(folder)]
    docs = [
        StoryDoc(f"{i}:{r.source_file}", r.text, r.published, (), (), None)
        for i, r in enumerate(records)
    ]
    one, two = StoryIndex(jobs=1), StoryIndex(jobs=2)
    assert assign_stories(docs, index=one) == assign_stories(docs, index=two)
    assert len(two._sims) >= forked.MIN_ITEMS  # the forked path was taken
    assert one._sims == two._sims
