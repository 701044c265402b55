"""Re-hash every archived original and walk the ledger chain (`corroborator verify`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from corroborator.evidence.seals import check_seals, stored_seals
from corroborator.ingest.archive import Archive, sha256_bytes, sha256_file
from corroborator.ledger import check_chain
from corroborator.storage.db import Store


@dataclass
class VerifyReport:
    entries: int = 0
    archive_files: int = 0
    documents: int = 0
    head: str = ""
    seals: int = 0
    seal_keys: list[str] = field(default_factory=list)  # fingerprints, in seal order
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(store: Store, archive: Archive, public_key: bytes | None = None) -> VerifyReport:
    """`public_key`, when given, is the key every seal must be signed by."""
    entries = store.ledger()
    report = VerifyReport(entries=len(entries), head=entries[-1].entry_hash if entries else "")
    report.problems.extend(check_chain(entries))
    seals = stored_seals(store)
    report.seals = len(seals)
    report.seal_keys = list(dict.fromkeys(s.key_fingerprint for s in seals))
    report.problems.extend(check_seals(seals, entries, public_key))
    if public_key is not None and not seals:
        report.problems.append("no seals: nothing is signed by the given key (`corroborator seal`)")
    by_seq = {e.seq: e for e in entries}

    for af in store.rows("SELECT * FROM archive_files ORDER BY ledger_seq"):
        report.archive_files += 1
        entry = by_seq.get(af["ledger_seq"])
        if entry is None or entry.kind != "archive" or entry.sha256 != af["sha256"]:
            report.problems.append(f"archive file {af['relpath']}: no matching ledger entry")
        path = archive.path(af["relpath"])
        if not path.exists():
            report.problems.append(f"archive file {af['relpath']}: missing")
        elif sha256_file(path) != af["sha256"]:
            report.problems.append(
                f"archive file {af['relpath']}: bytes changed (SHA-256 mismatch)"
            )

    for doc in store.documents():
        report.documents += 1
        name = f"document {doc['document_id']} ({doc['source_file']})"
        entry = by_seq.get(doc["ledger_seq"])
        if entry is None or entry.kind != "document" or entry.subject != doc["document_id"]:
            report.problems.append(f"{name}: no matching ledger entry")
            continue
        if entry.sha256 != doc["sha256"]:
            report.problems.append(f"{name}: recorded hash differs from the ledger")
        facts = json.loads(entry.payload)
        if facts.get("text_sha256") != sha256_bytes(doc["text"].encode("utf-8")):
            report.problems.append(f"{name}: working text differs from what was ledgered")
        path = archive.path(doc["archive_relpath"])
        if not path.exists():
            continue  # already reported with the archive files
        original = archive.read(doc["archive_relpath"], doc["archive_start"], doc["archive_end"])
        if sha256_bytes(original) != doc["sha256"]:
            report.problems.append(f"{name}: archived original changed (SHA-256 mismatch)")
    return report
