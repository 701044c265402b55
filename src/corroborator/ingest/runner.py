"""Ingest: read each file, archive its bytes, store each record as a document with a ledger entry.

One transaction per document, archive bytes written (fsynced, renamed) before the row that
names them: a killed run leaves whole documents or nothing, and a rerun completes it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from corroborator.errors import InputError
from corroborator.ingest.archive import Archive, sha256_bytes
from corroborator.ingest.normalize import normalize
from corroborator.ingest.readers import kind_of, read_path, walk
from corroborator.models import RawRecord, Rejection
from corroborator.storage.db import Store, now


@dataclass
class IngestReport:
    stored: list[str] = field(default_factory=list)  # document ids
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (source, existing id)
    rejected: list[Rejection] = field(default_factory=list)


def document_id_for(sha256: str) -> str:
    return sha256[:16]


def ingest_paths(
    store: Store,
    archive: Archive,
    paths: Iterable[str],
    on_file: Callable[[str], None] | None = None,
) -> IngestReport:
    report = IngestReport()
    run_id = uuid.uuid4().hex
    archive.sweep()  # what a killed run was writing when it died
    for item in walk(list(paths)):
        if isinstance(item, Rejection):
            _reject(store, report, item, run_id)
            continue
        if on_file:
            on_file(str(item))
        try:
            _ingest_file(store, archive, item, report, run_id)
        except InputError as exc:
            _reject(store, report, Rejection(exc.source, exc.reason), run_id)
    return report


def _reject(store: Store, report: IngestReport, rej: Rejection, run_id: str) -> None:
    report.rejected.append(rej)
    store.add_rejection(uuid.uuid4().hex, rej.source_file, rej.reason, run_id)


def _ingest_file(
    store: Store, archive: Archive, path: Path, report: IngestReport, run_id: str
) -> None:
    records = read_path(path)
    container: bytes | None = None
    container_sha = ""
    cursor = 0
    suffix = kind_of(path) or ""
    for rec in records:
        if isinstance(rec, Rejection):
            _reject(store, report, rec, run_id)
            continue
        sha = sha256_bytes(rec.original)
        existing = store.document_by_sha(sha)
        if existing:
            report.duplicates.append((rec.source_file, existing["document_id"]))
            continue
        if container is None:
            container = path.read_bytes()
            container_sha, rel = archive.put(container, suffix)
            store.add_archive_file(container_sha, rel, len(container), str(path))
        start = container.find(rec.original, cursor) if rec.original != container else 0
        if rec.original == container:
            arch_sha, a_start, a_end = container_sha, None, None
        elif start >= 0:
            arch_sha, a_start, a_end = container_sha, start, start + len(rec.original)
            cursor = a_end
        else:  # not a byte slice of the file (a WARC payload, a re-serialised JSON item)
            arch_sha, rel = archive.put(rec.original, ".record")
            store.add_archive_file(arch_sha, rel, len(rec.original), f"{path} ({rec.source_file})")
            a_start = a_end = None
        try:
            _store_document(store, rec, sha, arch_sha, a_start, a_end)
        except InputError as exc:
            _reject(store, report, Rejection(exc.source, exc.reason), run_id)
            continue
        report.stored.append(document_id_for(sha))


def _store_document(
    store: Store, rec: RawRecord, sha: str, arch_sha: str, a_start: int | None, a_end: int | None
) -> None:
    text, points = normalize(rec.text)
    if not text.strip():
        raise InputError(rec.source_file, "no text after normalisation")
    store.add_document(
        {
            "document_id": document_id_for(sha),
            "sha256": sha,
            "source_file": rec.source_file,
            "url": rec.url,
            "title": rec.title,
            "outlet": rec.outlet,
            "published": rec.published,
            "language": rec.language,
            "ingested_at": now(),
            "archive_sha256": arch_sha,
            "archive_start": a_start,
            "archive_end": a_end,
            "media_type": rec.media_type,
            "text": text,
            "offset_map": json.dumps(points),
            "text_sha256": sha256_bytes(text.encode("utf-8")),
        }
    )
