"""The one place that speaks SQL.

`Store` wraps a DB-API connection; statements are written with `?` placeholders and
portable types, and translated for PostgreSQL (`%s`) by `_sql`, so a second backend is a
connection factory, not a rewrite. Writes happen in explicit transactions: a document,
its archive record and its ledger entry commit together or not at all.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from corroborator import __version__
from corroborator.errors import StorageError
from corroborator.ledger import GENESIS, LedgerEntry, make_entry
from corroborator.storage.schema import MIGRATIONS

DEFAULT_DB = "corroborator.db"


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def archive_root_for(url: str) -> Path:
    """`corroborator.db` -> `corroborator.archive/`, unless CORROBORATOR_ARCHIVE says otherwise."""
    env = os.environ.get("CORROBORATOR_ARCHIVE")
    if env:
        return Path(env).resolve()
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        raise StorageError(
            "CORROBORATOR_ARCHIVE must name the archive folder when using PostgreSQL"
        )
    p = Path(url)
    root = p.with_suffix(".archive") if p.suffix else p.with_name(p.name + ".archive")
    return root.resolve()


class Store:
    def __init__(self, conn: Any, dialect: str, url: str) -> None:
        self.conn = conn
        self.dialect = dialect
        self.url = url
        self._depth = 0

    # -- plumbing ------------------------------------------------------------------
    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.dialect == "postgresql" else sql

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        cur = self.conn.cursor()
        cur.execute(self._sql(sql), tuple(params))
        return cur

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self.conn.cursor().executemany(self._sql(sql), [tuple(r) for r in rows])

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cur = self.execute(sql, params)
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Nestable; only the outermost level commits (or rolls back on any error)."""
        if self._depth == 0 and self.dialect == "sqlite":
            self.conn.execute("BEGIN IMMEDIATE")
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            if self._depth == 0:
                self.conn.rollback()
            raise
        self._depth -= 1
        if self._depth == 0:
            self.conn.commit()

    def close(self) -> None:
        self.conn.close()

    def migrate(self) -> None:
        self.execute(
            "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        self.conn.commit()
        done = {r["name"] for r in self.rows("SELECT name FROM _migrations")}
        for name, statements in MIGRATIONS:
            if name in done:
                continue
            with self.transaction():
                for stmt in statements:
                    self.execute(stmt)
                self.execute(
                    "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, now())
                )

    # -- ledger --------------------------------------------------------------------
    def append_ledger(
        self, kind: str, subject: str, sha256: str, source: str, payload: dict[str, Any]
    ) -> LedgerEntry:
        """Append one chained entry; call inside a transaction (the write lock orders seqs)."""
        if self.dialect == "postgresql":
            self.execute("LOCK TABLE ledger IN EXCLUSIVE MODE")
        head = self.one("SELECT seq, entry_hash FROM ledger ORDER BY seq DESC LIMIT 1")
        seq = (head["seq"] + 1) if head else 1
        prev = head["entry_hash"] if head else GENESIS
        entry = make_entry(seq, prev, kind, subject, sha256, source, now(), __version__, payload)
        self.execute(
            "INSERT INTO ledger (seq, kind, subject, sha256, source, created_at, tool_version,"
            " payload, prev_hash, entry_hash) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                entry.seq,
                entry.kind,
                entry.subject,
                entry.sha256,
                entry.source,
                entry.created_at,
                entry.tool_version,
                entry.payload,
                entry.prev_hash,
                entry.entry_hash,
            ),
        )
        return entry

    def ledger(self) -> list[LedgerEntry]:
        return [LedgerEntry(**r) for r in self.rows("SELECT * FROM ledger ORDER BY seq")]

    # -- archive and documents -----------------------------------------------------
    def archive_file(self, sha256: str) -> dict[str, Any] | None:
        return self.one("SELECT * FROM archive_files WHERE sha256 = ?", (sha256,))

    def add_archive_file(self, sha256: str, relpath: str, size: int, source: str) -> None:
        with self.transaction():
            if self.archive_file(sha256):
                return
            entry = self.append_ledger(
                "archive", sha256, sha256, source, {"relpath": relpath, "size_bytes": size}
            )
            self.execute(
                "INSERT INTO archive_files (sha256, relpath, size_bytes, source, ledger_seq)"
                " VALUES (?,?,?,?,?)",
                (sha256, relpath, size, source, entry.seq),
            )

    def document_by_sha(self, sha256: str) -> dict[str, Any] | None:
        return self.one(
            "SELECT document_id, source_file FROM documents WHERE sha256 = ?", (sha256,)
        )

    def add_document(self, row: dict[str, Any]) -> int:
        """Insert a document and its ledger entry in one transaction; returns its ledger seq."""
        with self.transaction():
            entry = self.append_ledger(
                "document",
                row["document_id"],
                row["sha256"],
                row["source_file"],
                {
                    "archive_sha256": row["archive_sha256"],
                    "archive_start": row["archive_start"],
                    "archive_end": row["archive_end"],
                    "text_sha256": row.pop("text_sha256"),
                },
            )
            row = dict(row, ledger_seq=entry.seq)
            cols = ", ".join(row)
            marks = ", ".join("?" for _ in row)
            self.execute(f"INSERT INTO documents ({cols}) VALUES ({marks})", list(row.values()))
            return entry.seq

    def add_rejection(self, rejection_id: str, source_file: str, reason: str, run_id: str) -> None:
        with self.transaction():
            self.execute(
                "INSERT INTO rejections (rejection_id, source_file, reason, run_id, created_at)"
                " VALUES (?,?,?,?,?)",
                (rejection_id, source_file, reason, run_id, now()),
            )

    def rejections(self) -> list[dict[str, Any]]:
        return self.rows("SELECT * FROM rejections ORDER BY created_at, source_file")

    def documents(
        self, ids: Sequence[str] | None = None, with_text: bool = True
    ) -> list[dict[str, Any]]:
        cols = (
            "d.*"
            if with_text
            else (
                "d.document_id, d.sha256, d.source_file, d.url, d.title, d.outlet, d.published,"
                " d.language, d.ingested_at, d.duplicate_of, d.shared, d.story_id, d.ledger_seq,"
                " d.archive_sha256, d.archive_start, d.archive_end, d.media_type, d.extracted_version"
            )
        )
        sql = (
            f"SELECT {cols}, a.relpath AS archive_relpath FROM documents d"
            " JOIN archive_files a ON a.sha256 = d.archive_sha256"
        )
        if ids is not None:
            if not ids:
                return []
            sql += f" WHERE d.document_id IN ({', '.join('?' for _ in ids)})"
            return self.rows(sql + " ORDER BY d.ledger_seq", list(ids))
        return self.rows(sql + " ORDER BY d.ledger_seq")

    def document_count(self) -> int:
        row = self.one("SELECT COUNT(*) AS n FROM documents")
        return int(row["n"]) if row else 0

    # -- extraction ----------------------------------------------------------------
    def stale_documents(self, version: str) -> list[str]:
        found = self.rows(
            "SELECT document_id FROM documents WHERE extracted_version IS NULL"
            " OR extracted_version <> ? ORDER BY ledger_seq",
            (version,),
        )
        return [r["document_id"] for r in found]

    def save_extraction(self, document_id: str, version: str, payload: dict[str, Any]) -> None:
        """Keep every version's output (never overwrite); the document points at the current."""
        with self.transaction():
            exists = self.one(
                "SELECT 1 AS x FROM extractions WHERE document_id = ? AND version = ?",
                (document_id, version),
            )
            body = json.dumps(payload, ensure_ascii=False)
            if exists:
                self.execute(
                    "UPDATE extractions SET payload = ?, created_at = ? WHERE document_id = ? AND version = ?",
                    (body, now(), document_id, version),
                )
            else:
                self.execute(
                    "INSERT INTO extractions (document_id, version, payload, created_at) VALUES (?,?,?,?)",
                    (document_id, version, body, now()),
                )
            self.execute(
                "UPDATE documents SET extracted_version = ? WHERE document_id = ?",
                (version, document_id),
            )

    def extractions(self, ids: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
        sql = (
            "SELECT e.document_id, e.payload FROM extractions e JOIN documents d"
            " ON d.document_id = e.document_id AND d.extracted_version = e.version"
        )
        params: list[Any] = []
        if ids is not None:
            if not ids:
                return {}
            sql += f" WHERE e.document_id IN ({', '.join('?' for _ in ids)})"
            params = list(ids)
        return {r["document_id"]: json.loads(r["payload"]) for r in self.rows(sql, params)}

    # -- reader facts, forwards and media (migration 0004) ---------------------------
    def add_document_facts(self, document_id: str, reader: str, facts: dict[str, Any]) -> None:
        self.execute(
            "INSERT INTO document_facts (document_id, reader, payload) VALUES (?,?,?)",
            (document_id, reader, json.dumps(facts, ensure_ascii=False)),
        )

    def document_facts(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Reader facts by document ({"reader": ..., **facts}); documents without none."""
        if not ids:
            return {}
        found = self.rows(
            "SELECT document_id, reader, payload FROM document_facts"
            f" WHERE document_id IN ({', '.join('?' for _ in ids)})",
            list(ids),
        )
        return {r["document_id"]: dict(json.loads(r["payload"]), reader=r["reader"]) for r in found}

    def add_document_origin(
        self, document_id: str, origin: str, origin_id: str | None, original_sha256: str | None
    ) -> None:
        self.execute(
            "INSERT INTO document_origins (document_id, origin, origin_id, original_sha256)"
            " VALUES (?,?,?,?)",
            (document_id, origin, origin_id, original_sha256),
        )

    def document_origins(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Forward origins by document, with the stored original's id (`original_id`) if any."""
        if not ids:
            return {}
        found = self.rows(
            "SELECT o.document_id, o.origin, o.origin_id, d.document_id AS original_id"
            " FROM document_origins o LEFT JOIN documents d ON d.sha256 = o.original_sha256"
            f" WHERE o.document_id IN ({', '.join('?' for _ in ids)})",
            list(ids),
        )
        return {r["document_id"]: r for r in found}

    def add_document_media(self, document_id: str, idx: int, row: dict[str, Any]) -> None:
        row = dict(row, document_id=document_id, idx=idx)
        self.execute(
            f"INSERT INTO document_media ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
            list(row.values()),
        )

    def document_media(self, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        if not ids:
            return {}
        out: dict[str, list[dict[str, Any]]] = {}
        for r in self.rows(
            "SELECT m.*, a.relpath FROM document_media m"
            " LEFT JOIN archive_files a ON a.sha256 = m.sha256"
            f" WHERE m.document_id IN ({', '.join('?' for _ in ids)}) ORDER BY m.document_id, m.idx",
            list(ids),
        ):
            out.setdefault(r["document_id"], []).append(r)
        return out

    def add_media_keys(self, keys: Sequence[str], phash: str, origin: str, seq: int) -> None:
        self.executemany(
            "INSERT INTO media_keys (key, phash, media_origin, seq) VALUES (?,?,?,?)",
            [(k, phash, origin, seq) for k in keys],
        )

    def media_near(self, keys: Sequence[str]) -> list[dict[str, Any]]:
        """Stored images sharing a pHash band with the given keys (candidates only)."""
        if not keys:
            return []
        return self.rows(
            "SELECT DISTINCT phash, media_origin, seq FROM media_keys"
            f" WHERE key IN ({', '.join('?' for _ in keys)})",
            list(keys),
        )


def open_store(url: str | None = None) -> Store:
    """Open (and migrate) the database named by `url`, CORROBORATOR_DB, or ./corroborator.db."""
    url = url or os.environ.get("CORROBORATOR_DB") or DEFAULT_DB
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - psycopg is a dependency
            raise StorageError(f"PostgreSQL driver missing: {exc}") from None
        try:
            pconn = psycopg.connect(url)
        except psycopg.Error as exc:
            raise StorageError(f"cannot connect to {url}: {str(exc).splitlines()[0]}") from None
        store = Store(pconn, "postgresql", url)
    else:
        path = Path(url)
        if path.exists() and path.is_dir():
            raise StorageError(f"{url} is a directory, not a database file")
        try:
            conn = sqlite3.connect(path, isolation_level=None, timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"cannot open {url}: {exc}") from None
        # isolation_level=None: we issue BEGIN ourselves; commit/rollback still work.
        store = Store(conn, "sqlite", url)
    try:
        store.migrate()
    except Exception as exc:
        raise StorageError(f"cannot prepare database {url}: {exc}") from None
    return store
