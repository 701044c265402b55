"""After ingest: extract stale documents, then rebuild the links that depend on them.

Extraction is embarrassingly parallel per document: batches go to a pool of worker
processes on this machine (`jobs=`, default every core) or to a Dask cluster (`dask=` an
address, or "local" for a LocalCluster); workers only parse and return plain records, and
this process writes every extraction and link. Two forked children of an ingest write too,
each on its own connection (`warm_up_beside`): the archiving child, before the pool
starts, and the linking reader, whose MinHash signatures are stored while this process
stores extractions (the database serialises the two writers).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from corroborator import forked
from corroborator.errors import CorroboratorError, one_line
from corroborator.storage.db import Store

if TYPE_CHECKING:
    from corroborator.linking.prepare import Prepared

T = TypeVar("T")
U = TypeVar("U")
Batch = list[tuple[str, str, str | None, str | None]]  # (document_id, text, published, language)


FAILED = "failed"  # key of a payload whose extraction raised, with the one-line reason


def extract_batch(batch: Batch) -> list[tuple[str, dict[str, Any]]]:
    """Plain-record extraction of one batch (runs in this process or on a Dask worker).

    A document the stages fail on costs only itself: the batch is retried one document at
    a time, and the failing one gets an empty extraction marked FAILED (archived and
    listed, never retried by every later ingest until the stages change)."""
    from corroborator.models import Extraction
    from corroborator.nlp.pipeline import default_stages, extract_many

    try:
        exs = extract_many(
            [(text, published) for _, text, published, _ in batch],
            default_stages(),
            languages=[lang for *_, lang in batch],
        )
        return [(doc_id, asdict(ex)) for (doc_id, *_), ex in zip(batch, exs, strict=True)]
    except Exception as exc:  # noqa: BLE001 - any stage's bug, on hostile text
        if len(batch) > 1:
            return [r for one in batch for r in extract_batch([one])]
        reason = one_line(f"{type(exc).__name__}: {exc}")
        return [(batch[0][0], {**asdict(Extraction()), FAILED: reason})]


def _batches(store: Store, todo: list[str], size: int, jobs: int = 0) -> Iterator[Batch]:
    """Batches of `size` documents; for a pool of `jobs` workers, fewer as the work left
    shrinks (a third of a worker's share, down to one document), so the workers finish
    together instead of one parsing the last big batch while the others idle."""
    i = 0
    while i < len(todo):
        n = min(size, max(1, -(-(len(todo) - i) // (3 * jobs)))) if jobs else size
        docs = store.documents(todo[i : i + n])
        yield [(d["document_id"], d["text"], d["published"], d["language"]) for d in docs]
        i += n


def _run_local(store: Store, todo: list[str], size: int) -> Iterator[tuple[str, dict[str, Any]]]:
    for batch in _batches(store, todo, size):
        yield from extract_batch(batch)


def default_jobs() -> int:
    """Cores this process may use (the affinity mask, not the machine's total)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _warm() -> None:
    """Load the pipeline (here, or in a fresh worker before its first batch arrives), then
    freeze what is alive: the model and the gazetteer's million objects leave the garbage
    collector's reach, so its full collections during extraction stop walking them (about
    2 s per 240 texts) and forked workers stop dirtying their shared pages. The first
    freeze comes before the stages' imports, whose allocations would otherwise start full
    collections over the fresh gazetteer (~0.4 s)."""
    import gc

    from corroborator.nlp.pipeline import default_stages, load_nlp

    load_nlp()
    gc.freeze()
    default_stages()
    gc.freeze()


def warm_up_beside(
    run: Callable[[], T], jobs: int | None, then: Callable[[T], U] | None = None
) -> tuple[T, Callable[[], U | None]]:
    """`run()` in a forked child while this process loads the pipeline; `run`'s result,
    and a function that gives what `then` made of it in a second child forked once `run` is
    done (None where no child ran or `then` failed: `then` is work done ahead on a core,
    which the caller does itself when it gets None).

    For a pool of two or more workers on Linux: the archiving and language detection of an
    ingest then overlap the model load instead of preceding it, the pool still forks from
    this process, models loaded, and starts as soon as both are done, while `then` (reading
    ahead of linking) shares the cores with it instead of delaying it. `run` and `then` must
    open their own database connection (a forked child may not use this one); a child
    leaves by `os._exit`, so the inherited one is never closed, and dies with this process.
    With one job, or no fork, `run()` simply runs here first.
    """
    import sys

    jobs = default_jobs() if jobs is None else jobs
    if jobs < 2 or sys.platform != "linux" or not forked.can_fork():
        return run(), lambda: None
    child = forked.Child(run, "ingest worker")  # before spaCy's import: archiving needs none
    _warm()
    done = child.result()
    if then is None:
        return done, lambda: None
    ahead = forked.Child(lambda: then(done), "linking reader")

    def later() -> U | None:
        try:
            return ahead.result()
        except Exception:  # noqa: BLE001 - work done ahead; the caller does it itself instead
            return None

    return done, later


def _linking_modules() -> None:
    """Linking's imports (~0.2 s), ahead of the linking pass, on a core a worker left idle."""
    import corroborator.linking.build  # noqa: F401


def _warm_shared(store: Store, todo: list[str], size: int) -> list[str]:
    """Before forking: what each worker would otherwise build for itself, built once and
    shared: the Russian/Ukrainian NER (~1.7 s) when documents in those languages fill more
    than one batch. Fewer go first, in one batch, and only the worker that takes it loads
    the NER, beside the other's work. `todo` in that order."""
    import gc

    from corroborator.nlp.lang.detect import CYRILLIC

    cyrillic: set[str] = set()
    for i in range(0, len(todo), 500):
        docs = store.documents(todo[i : i + 500], with_text=False)
        cyrillic.update(d["document_id"] for d in docs if d["language"] in CYRILLIC)
    if len(cyrillic) > size:
        from corroborator.nlp.lang.ru_uk.entities import _tagger

        _tagger()
    gc.freeze()
    return [d for d in todo if d in cyrillic] + [d for d in todo if d not in cyrillic]


def _pool_context() -> tuple[Any, Any]:
    """Fork where the platform has it, after loading the models here: the workers share one
    copy of spaCy and the gazetteer (copy-on-write) instead of each loading its own (~0.5 GB,
    seconds per worker). Forked workers never touch the inherited database handle and leave
    by `os._exit`; the stdlib pool forks them all before starting its manager thread, and
    nothing in this process has started torch or a BLAS thread pool yet (no parse has run).
    Elsewhere each spawned worker loads the models itself."""
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods():
        _warm()
        return multiprocessing.get_context("fork"), None
    return multiprocessing.get_context("spawn"), _warm


def _run_pool(
    store: Store, todo: list[str], size: int, jobs: int
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Batches over `jobs` worker processes; results as they finish, at most two batches per
    worker in flight so memory stays bounded on big runs. Once a worker has nothing left to
    take, this process uses the free core to import what linking needs."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    ctx, initializer = _pool_context()
    if initializer is None:  # forked workers share what this process loads now
        todo = _warm_shared(store, todo, size)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=initializer) as pool:
        pending: set[Future[list[tuple[str, dict[str, Any]]]]] = set()
        for batch in _batches(store, todo, size, jobs):
            pending.add(pool.submit(extract_batch, batch))
            if len(pending) >= 2 * jobs:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield from fut.result()
        while pending:
            if len(pending) < jobs:
                _linking_modules()
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield from fut.result()


def _run_dask(
    store: Store, todo: list[str], size: int, address: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    from distributed import Client, LocalCluster, as_completed

    cluster = (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        if address == "local"
        else None
    )
    try:
        client = Client(cluster) if cluster else Client(address, timeout="10s")
    except OSError as exc:
        raise CorroboratorError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        futures = [client.submit(extract_batch, b, pure=False) for b in _batches(store, todo, size)]
        for fut in as_completed(futures):
            yield from fut.result()
    finally:
        client.close()
        if cluster:
            cluster.close()


def _record_failures(store: Store, failed: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each document the stages failed on, listed with the rejected inputs: its original
    stays archived, its extraction empty."""
    import uuid

    named = []
    for doc_id, reason in failed:
        source = store.documents([doc_id], with_text=False)[0]["source_file"]
        text = f"archived, but extraction failed: {reason}"
        store.add_rejection(uuid.uuid4().hex, source, text, "extract")
        named.append((source, reason))
    return named


@dataclass
class Processed:
    extracted: int
    failed: list[tuple[str, str]] = field(default_factory=list)  # (source file, reason)
    link_mode: str | None = None  # "full" or "incremental"
    link_seconds: float | None = None


def process(
    store: Store,
    progress: bool = False,
    redo_all: bool = False,
    batch: int = 32,
    dask: str | None = None,
    jobs: int | None = None,
    ahead: Callable[[], Prepared | None] | None = None,
) -> Processed:
    """Extract every document whose stored extraction is missing or from older stages.

    Each document's extraction commits on its own, so a killed run resumes where it stopped.
    A pool pays a few seconds per worker to load spaCy, so a run of one batch or less stays
    in this process. `ahead`: what linking read ahead of new documents' words, asked for
    when linking starts.
    """
    from tqdm import tqdm

    from corroborator.nlp.pipeline import default_stages, stages_version

    version = stages_version(default_stages())
    todo = (
        [d["document_id"] for d in store.documents(with_text=False)]
        if redo_all
        else store.stale_documents(version)
    )
    done = 0
    extracted: list[str] = []
    failed: list[tuple[str, str]] = []
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if dask and todo:
        results = _run_dask(store, todo, batch, dask)
    elif jobs > 1 and len(todo) > batch:
        # the first batch a third of a worker's share; later ones shrink (`_batches`)
        results = _run_pool(store, todo, min(batch, -(-len(todo) // (3 * jobs))), jobs)
    else:
        if todo:
            _warm()
        results = _run_local(store, todo, batch)
    tqdm.monitor_interval = 0  # no monitor thread: linking forks after the bar (`forked`)
    with tqdm(
        total=len(todo), unit="doc", desc="extract", disable=not progress, leave=False
    ) as bar:
        for doc_id, payload in results:
            reason = payload.pop(FAILED, None)
            store.save_extraction(doc_id, version, payload)
            if reason:
                failed.append((doc_id, reason))
            extracted.append(doc_id)
            done += 1
            bar.update(1)
    result = Processed(extracted=done - len(failed), failed=_record_failures(store, failed))
    from corroborator.linking import state
    from corroborator.linking.build import relink

    if done or redo_all or state.behind(store):
        # a full rebuild after `--all`; otherwise only what the new extractions touch
        # (`relink` falls back to a full rebuild when the state does not cover the rest)
        prepared = ahead() if ahead else None
        links = relink(store, None if redo_all else extracted, jobs, prepared)
        result.link_mode, result.link_seconds = links.mode, links.seconds
    return result
