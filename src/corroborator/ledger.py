"""Hash-chained ledger entries (the chain of custody).

Each entry's hash covers its fields and the previous entry's hash, as in Certificate
Transparency's append-only log: editing, deleting or reordering any entry breaks every
hash after it, which `verify` detects. The head hash can be written down elsewhere to
detect a truncated tail.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64


@dataclass(frozen=True)
class LedgerEntry:
    seq: int
    kind: str  # "archive" | "document" | "review" | "extraction"
    subject: str  # document_id, archive sha, review id ...
    sha256: str  # hash of the thing recorded
    source: str  # where it came from (path, reviewer ...)
    created_at: str
    tool_version: str
    payload: str  # canonical JSON of extra facts
    prev_hash: str
    entry_hash: str


def canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def entry_hash(fields: dict[str, Any]) -> str:
    body = {k: v for k, v in fields.items() if k != "entry_hash"}
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()


def make_entry(
    seq: int,
    prev_hash: str,
    kind: str,
    subject: str,
    sha256: str,
    source: str,
    created_at: str,
    tool_version: str,
    payload: dict[str, Any],
) -> LedgerEntry:
    fields: dict[str, Any] = dict(
        seq=seq,
        kind=kind,
        subject=subject,
        sha256=sha256,
        source=source,
        created_at=created_at,
        tool_version=tool_version,
        payload=canonical(payload),
        prev_hash=prev_hash,
    )
    return LedgerEntry(**fields, entry_hash=entry_hash(fields))


def _link_problems(e: LedgerEntry, prev: str, expected_seq: int) -> list[str]:
    problems = []
    if e.seq != expected_seq:
        problems.append(f"ledger entry {e.seq}: out of sequence (expected {expected_seq})")
    if e.prev_hash != prev:
        problems.append(f"ledger entry {e.seq}: previous-hash link broken")
    if entry_hash(vars(e)) != e.entry_hash:  # vars: asdict's deep copy costs 2.5x
        problems.append(f"ledger entry {e.seq}: contents altered (hash mismatch)")
    return problems


def check_chain(entries: list[LedgerEntry], prev: str = GENESIS, first_seq: int = 1) -> list[str]:
    """Problems in the chain, one line each (empty when intact).

    `prev` and `first_seq` let a segment (an evidence bundle's) be walked from its first
    entry: that entry's hash covers its `prev_hash`, so the segment still links to a seal.
    """
    problems: list[str] = []
    expected_seq = first_seq
    for e in entries:
        problems.extend(_link_problems(e, prev, expected_seq))
        expected_seq = e.seq + 1
        prev = e.entry_hash
    return problems


def first_broken(entries: list[LedgerEntry], prev: str = GENESIS, first_seq: int = 1) -> int | None:
    """Seq of the first position where the chain stops linking (an altered, reordered or
    missing entry), or None when every entry links; the entries before it still match."""
    expected_seq = first_seq
    for e in entries:
        if _link_problems(e, prev, expected_seq):
            return expected_seq
        prev = e.entry_hash
        expected_seq += 1
    return None
