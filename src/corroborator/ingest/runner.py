"""Ingest: read each file, archive its bytes, store each record as a document with a ledger entry.

One transaction per document, archive bytes written (fsynced, renamed) before the row that
names them: a killed run leaves whole documents or nothing, and a rerun completes it.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from corroborator.errors import InputError
from corroborator.ingest import media as media_files
from corroborator.ingest.archive import Archive, sha256_bytes
from corroborator.ingest.dateline import stated_date
from corroborator.ingest.furniture import page
from corroborator.ingest.normalize import normalize
from corroborator.ingest.readers import CONTAINER_MAX_BYTES, kind_of, read_path, walk
from corroborator.models import MediaRef, RawRecord, Rejection
from corroborator.nlp.lang.detect import language_of
from corroborator.storage.db import Store, now


@dataclass
class IngestReport:
    stored: list[str] = field(default_factory=list)  # document ids
    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (source, existing id)
    rejected: list[Rejection] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # stored, but something is missing


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
        if not rec.text.strip() and rec.media:
            _keep_media_only(store, archive, path, rec, report)
            continue
        sha = sha256_bytes(rec.original)
        existing = store.document_by_sha(sha)
        if existing:
            report.duplicates.append((rec.source_file, existing["document_id"]))
            continue
        layout = page(rec.text)
        rec = _dated(rec, layout.header)
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
            files = _archive_media(archive, rec)
            with store.transaction():
                seq = _store_document(store, rec, layout.furniture, sha, arch_sha, a_start, a_end)
                _store_extras(store, path, rec, document_id_for(sha), seq, files)
        except InputError as exc:
            _reject(store, report, Rejection(exc.source, exc.reason), run_id)
            continue
        report.stored.append(document_id_for(sha))
        report.warnings.extend(rec.warnings)
        report.warnings.extend(
            _missing(rec, m, f.missing) for m, f in zip(rec.media, files, strict=True) if f.missing
        )


def _store_document(
    store: Store,
    rec: RawRecord,
    furniture: list[tuple[int, int]],
    sha: str,
    arch_sha: str,
    a_start: int | None,
    a_end: int | None,
) -> int:
    # Furniture leaves the working text; the archive keeps it and the map points past it.
    text, points = normalize(rec.text, drop=furniture)
    if not text.strip():
        raise InputError(rec.source_file, "no text after normalisation")
    return store.add_document(
        {
            "document_id": document_id_for(sha),
            "sha256": sha,
            "source_file": rec.source_file,
            "url": rec.url,
            "title": rec.title,
            "outlet": rec.outlet,
            "published": rec.published,
            "language": rec.language or language_of(text),
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


@dataclass
class _MediaFile:
    """A media file's archived bytes (sha256, relpath, size), or why it has none."""

    sha256: str | None = None
    relpath: str = ""
    size: int = 0
    phash: str | None = None
    missing: str | None = None


def _archive_media(archive: Archive, rec: RawRecord) -> list[_MediaFile]:
    """Write each media file to the archive (bytes first, rows later, as for documents)."""
    out = []
    for m in rec.media:
        if m.path is None:
            out.append(_MediaFile(missing=m.missing or "no file"))
            continue
        try:
            size = m.path.stat().st_size
            if size > CONTAINER_MAX_BYTES:
                out.append(_MediaFile(missing=f"too large ({size / 2**20:.0f} MB)"))
                continue
            data = m.path.read_bytes()
        except OSError as exc:
            out.append(_MediaFile(missing=f"cannot read: {exc.strerror or exc}"))
            continue
        suffix = re.sub(r"[^a-z0-9.]", "", Path(m.name).suffix.lower())[:10]
        digest, rel = archive.put(data, suffix)
        phash = media_files.perceptual_hash(data) if m.media_type.startswith("image/") else None
        out.append(_MediaFile(digest, rel, len(data), phash))
    return out


def _dated(rec: RawRecord, header: list[tuple[int, int, bool]]) -> RawRecord:
    """A record with no publication date takes the one its page states above the text,
    noting the words it came from (offsets into the decoded original: the line is
    furniture and leaves the working text)."""
    if rec.published is not None:
        return rec
    stated = stated_date(rec.text, header)
    if stated is None:
        return rec
    source = {
        "words": rec.text[stated.start : stated.end],
        "original_start": stated.start,
        "original_end": stated.end,
    }
    return replace(
        rec,
        published=stated.day.isoformat(),
        reader=rec.reader or "text",
        facts={**(rec.facts or {}), "published_from": source},
    )


def _store_extras(
    store: Store, path: Path, rec: RawRecord, doc_id: str, seq: int, files: list[_MediaFile]
) -> None:
    """Reader facts, forward origin and media rows of a document just stored (same transaction)."""
    if rec.reader and rec.facts is not None:
        store.add_document_facts(doc_id, rec.reader, rec.facts)
    if rec.forward is not None:
        fw = rec.forward
        store.add_document_origin(doc_id, fw.origin, fw.origin_id, fw.original_sha256)
    for idx, (m, f) in enumerate(zip(rec.media, files, strict=True)):
        if f.sha256:
            store.add_archive_file(
                f.sha256, f.relpath, f.size, f"{path} ({rec.source_file} {m.kind} {m.name})"
            )
        origin = _media_origin(store, m, f)
        store.add_document_media(
            doc_id,
            idx,
            {
                "kind": m.kind,
                "name": m.name,
                "role": m.role,
                "media_type": m.media_type,
                "sha256": f.sha256,
                "size_bytes": f.size if f.sha256 else None,
                "phash": f.phash,
                "media_origin": origin,
                "missing": f.missing,
            },
        )
        if f.phash and origin:
            store.add_media_keys(media_files.band_keys(f.phash), f.phash, origin, seq)


def _media_origin(store: Store, m: MediaRef, f: _MediaFile) -> str | None:
    """The picture or video this file is: the earliest stored image within MAX_DISTANCE bits
    of its pHash, else the file itself."""
    if not f.sha256 or not media_files.is_evidence(m.kind, m.role, m.media_type):
        return None
    if f.phash:
        near = [
            r
            for r in store.media_near(media_files.band_keys(f.phash))
            if media_files.distance(r["phash"], f.phash) <= media_files.MAX_DISTANCE
        ]
        if near:
            return str(min(near, key=lambda r: (r["seq"], r["media_origin"]))["media_origin"])
        return f"image:{f.sha256[:16]}"
    if m.media_type.startswith("image/"):
        return None  # undecodable or flat: no picture to recognise
    return f"file:{f.sha256[:16]}"


def _keep_media_only(
    store: Store, archive: Archive, path: Path, rec: RawRecord, report: IngestReport
) -> None:
    """A message with media but no text: its files are archived (and ledgered), not a document."""
    kept = 0
    for m, f in zip(rec.media, _archive_media(archive, rec), strict=True):
        if f.sha256:
            store.add_archive_file(
                f.sha256, f.relpath, f.size, f"{path} ({rec.source_file} {m.kind} {m.name})"
            )
            kept += 1
        else:
            report.warnings.append(_missing(rec, m, f.missing))
    report.warnings.append(
        f"{rec.source_file}: no text; {kept} media file(s) archived, not stored as a document"
    )


def _missing(rec: RawRecord, m: MediaRef, reason: str | None) -> str:
    named = "" if m.name.startswith("(") else f" {m.name}"
    return f"{rec.source_file}: {m.kind}{named} not archived: {reason}"
