"""A map over forked copies of this process, for CPU-bound steps after extraction.

Story clustering scores thousands of document pairs on one core while the others idle.
A forked child already holds every vector the scorer reads (copy-on-write), so only the
pairs' scores travel back. Where there is no fork, in a daemonic process (a Dask or pool
worker may not have children) or for a short list, the map runs here.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from corroborator.errors import CorroboratorError

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 2000  # below this the fork (tens of ms for a loaded process) costs more than it saves


def fork_map(fn: Callable[[T], R], items: Sequence[T], jobs: int) -> list[R]:
    """`[fn(x) for x in items]`, in order, split over `jobs` processes: this one and
    `jobs - 1` forked children. `fn` must be pure (its side effects stay in the child)."""
    jobs = min(jobs, len(items) // (MIN_ITEMS // 2) or 1)
    if (
        jobs < 2
        or "fork" not in multiprocessing.get_all_start_methods()
        or multiprocessing.current_process().daemon
    ):
        return [fn(x) for x in items]
    size = -(-len(items) // jobs)
    parts = [items[i : i + size] for i in range(0, len(items), size)]
    ctx = multiprocessing.get_context("fork")
    children = []
    for part in parts[1:]:
        receive, send = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_child, args=(fn, part, send), daemon=True)
        child.start()
        send.close()
        children.append((child, receive))
    out = [fn(x) for x in parts[0]]
    for child, receive in children:
        try:
            ok, value = receive.recv()
        except EOFError:
            raise CorroboratorError(f"linking worker died (exit code {child.exitcode})") from None
        finally:
            child.join()
        if not ok:
            raise CorroboratorError(f"linking worker failed: {value}")
        out.extend(value)
    return out


def _child(fn: Callable[[Any], Any], part: Sequence[Any], send: Any) -> None:
    try:
        result: tuple[bool, Any] = (True, [fn(x) for x in part])
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        result = (False, f"{type(exc).__name__}: {exc}")
    send.send(result)
    send.close()
