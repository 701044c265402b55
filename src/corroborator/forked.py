"""Work in forked copies of this process: a child that computes one thing and sends it
back, and a map over such children.

A forked child already holds everything the parent loaded (copy-on-write), so only its
answer travels: the archiving of an ingest runs in one while the parent loads the models,
and story clustering scores thousands of document pairs on every core instead of one.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from corroborator.errors import CorroboratorError

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 2000  # below this the fork (tens of ms for a loaded process) costs more than it saves


def can_fork() -> bool:
    """Fork exists here, this process may have children (a Dask or pool worker is daemonic
    and may not), and no other thread runs: a child forked while another thread holds a
    lock (a client's event loop, a progress bar's monitor) could wait on it for ever."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
        and threading.active_count() == 1
    )


class Child(Generic[R]):
    """`run()` in a forked child that dies with this process; `result()` is its value, or
    raises what it raised."""

    def __init__(self, run: Callable[[], R], name: str) -> None:
        self.name = name
        ctx = multiprocessing.get_context("fork")
        self._receive, send = ctx.Pipe(duplex=False)
        self._process = ctx.Process(target=_run_child, args=(run, send), daemon=True)
        self._process.start()
        send.close()

    def done(self) -> bool:
        return bool(self._receive.poll())

    def result(self) -> R:
        try:
            ok, value = self._receive.recv()
        except EOFError:
            ok, value = None, None  # it died before sending
        finally:
            self._process.join()
        if ok is None:
            code = self._process.exitcode
            raise CorroboratorError(f"{self.name} died (exit code {code})")
        if not ok:
            raise value
        return value


def _run_child(run: Callable[[], Any], send: Any) -> None:
    import ctypes
    import pickle
    import signal
    import sys

    if sys.platform == "linux":  # die with the parent: a killed ingest leaves no writer behind
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    try:
        result: tuple[bool, Any] = (True, run())
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        try:
            pickle.loads(pickle.dumps(exc))  # an exception with its own __init__ may not load
            result = (False, exc)
        except Exception:  # noqa: BLE001
            result = (False, CorroboratorError(f"{type(exc).__name__}: {exc}"))
    send.send(result)
    send.close()


def fork_map(
    fn: Callable[[T], R], items: Sequence[T], jobs: int, min_items: int = MIN_ITEMS
) -> list[R]:
    """`[fn(x) for x in items]`, in order, split over `jobs` processes: this one and
    `jobs - 1` forked children. `fn` must be pure (its side effects stay in the child).
    A list shorter than `min_items` (half that per process), or no fork, runs here."""
    jobs = min(jobs, len(items) // (min_items // 2) or 1)
    if jobs < 2 or not can_fork():
        return [fn(x) for x in items]
    size = -(-len(items) // jobs)
    parts = [items[i : i + size] for i in range(0, len(items), size)]
    children = [Child(_mapper(fn, part), "linking worker") for part in parts[1:]]
    out = [fn(x) for x in parts[0]]
    for child in children:
        out.extend(child.result())
    return out


def _mapper(fn: Callable[[T], R], part: Sequence[T]) -> Callable[[], list[R]]:
    return lambda: [fn(x) for x in part]
