"""Seals: the investigator's signature over the ledger head (`corroborator seal`).

A seal signs the canonical JSON of (ledger_seq, entry_hash, sealed_at, key_fingerprint).
Because every entry hash covers the one before it, a seal on entry N vouches for entries
1..N: altering, reordering or dropping any of them changes the head, and nobody without
the private key can sign the new one. Entries appended later do not touch an old seal.

Seals live in their own table, not as ledger entries of kind "seal": a seal is a statement
*about* the chain, not an event in the custody of a document. As an entry it could only
sign the head before itself, so every seal would leave itself unsealed at the tail, and
bundles would carry seal entries among custody entries. Deleting seal rows cannot forge
anything (that needs the key), but only a copy kept elsewhere (a bundle, the printed seal)
shows that a seal is gone, just as for a truncated ledger tail.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from corroborator.errors import EvidenceError
from corroborator.evidence.keys import fingerprint, public_raw
from corroborator.ledger import GENESIS, LedgerEntry, canonical, check_chain, first_broken
from corroborator.storage.db import Store, now

FORMAT = "corroborator-seal/1"


@dataclass(frozen=True)
class Seal:
    seal_no: int
    ledger_seq: int
    entry_hash: str
    sealed_at: str
    key_fingerprint: str
    public_key: str  # 64 hex digits, the raw Ed25519 public key
    signature: str  # hex

    @property
    def name(self) -> str:
        return f"seal {self.seal_no} (ledger entry {self.ledger_seq})"


def statement(seal: Seal) -> bytes:
    """The exact bytes signed."""
    return canonical(
        {
            "format": FORMAT,
            "ledger_seq": seal.ledger_seq,
            "entry_hash": seal.entry_hash,
            "sealed_at": seal.sealed_at,
            "key_fingerprint": seal.key_fingerprint,
        }
    ).encode("utf-8")


def make_seal(key: Ed25519PrivateKey, seal_no: int, head: LedgerEntry, sealed_at: str) -> Seal:
    raw = public_raw(key.public_key())
    unsigned = Seal(seal_no, head.seq, head.entry_hash, sealed_at, fingerprint(raw), raw.hex(), "")
    return replace(unsigned, signature=key.sign(statement(unsigned)).hex())


def stored_seals(store: Store) -> list[Seal]:
    return [Seal(**r) for r in store.rows("SELECT * FROM seals ORDER BY seal_no")]


def seal_head(store: Store, key: Ed25519PrivateKey) -> Seal:
    """Sign the current head, refusing a chain that is broken or no longer matches a seal
    (a seal must never lend its weight to a tampered ledger)."""
    entries = store.ledger()
    if not entries:
        raise EvidenceError("nothing to seal: the ledger is empty (ingest something first)")
    problems = check_chain(entries) + check_seals(stored_seals(store), entries)
    if problems:
        raise EvidenceError(f"not sealing: {problems[0]} (`corroborator verify` lists all)")
    with store.transaction():
        row = store.one("SELECT MAX(seal_no) AS n FROM seals")
        seal = make_seal(key, int((row or {}).get("n") or 0) + 1, entries[-1], now())
        store.execute(
            "INSERT INTO seals (seal_no, ledger_seq, entry_hash, sealed_at, key_fingerprint,"
            " public_key, signature) VALUES (?,?,?,?,?,?,?)",
            (
                seal.seal_no,
                seal.ledger_seq,
                seal.entry_hash,
                seal.sealed_at,
                seal.key_fingerprint,
                seal.public_key,
                seal.signature,
            ),
        )
    return seal


def signature_problems(seal: Seal, given_key: bytes | None = None) -> list[str]:
    """The seal is signed by the key it names (or by `given_key`, when one is given)."""
    try:
        recorded = bytes.fromhex(seal.public_key)
        signature = bytes.fromhex(seal.signature)
        key = Ed25519PublicKey.from_public_bytes(recorded)
    except (TypeError, ValueError):
        return [f"{seal.name}: recorded public key or signature is not valid hex of an Ed25519 key"]
    if fingerprint(recorded) != seal.key_fingerprint:
        return [f"{seal.name}: recorded public key does not have the recorded fingerprint"]
    if given_key is not None and given_key != recorded:
        return [
            f"{seal.name}: signed by key {seal.key_fingerprint[:16]}…, not by the given key"
            f" {fingerprint(given_key)[:16]}…"
        ]
    try:
        key.verify(signature, statement(seal))
    except InvalidSignature:
        return [f"{seal.name}: signature does not verify (seal altered or forged)"]
    return []


def chain_matches(
    seals: list[Seal], entries: list[LedgerEntry], prev: str = GENESIS, first_seq: int = 1
) -> dict[Seal, str | None]:
    """Each seal -> why the chain no longer matches that seal (None when it does).

    `entries` may be a segment (from `first_seq`, linked to `prev`). The chain is walked
    once: a seal on entry N is broken by the first break at or before N, or by a ledger
    that ends before N. A chain rewritten with fresh hashes links everywhere, so only the
    head differs, and earlier seals that still match narrow down where.
    """
    broken = first_broken(entries, prev, first_seq)
    end = first_seq + len(entries)  # the first seq the entries do not hold
    found: dict[Seal, str | None] = {}
    vouched = first_seq - 1  # entries up to here are vouched for by a matching seal
    for seal in sorted(seals, key=lambda s: s.ledger_seq):
        bad = broken if broken is not None and broken <= seal.ledger_seq else None
        if bad is None and seal.ledger_seq >= end:
            bad = end
        if seal.ledger_seq < first_seq:
            found[seal] = f"{seal.name}: sealed entry is before the ledger segment"
        elif bad is not None:
            still = f" (entries up to {bad - 1} still do)" if bad > first_seq else ""
            found[seal] = (
                f"{seal.name}: ledger entry {bad} is the first that no longer matches the"
                f" seal{still}"
            )
        elif entries[seal.ledger_seq - first_seq].entry_hash != seal.entry_hash:
            found[seal] = (
                f"{seal.name}: the chain was rewritten with fresh hashes somewhere in ledger"
                f" entries {vouched + 1}-{seal.ledger_seq}; it no longer matches the seal"
            )
        else:
            found[seal] = None
            vouched = max(vouched, seal.ledger_seq)
    return found


def check_seals(
    seals: list[Seal],
    entries: list[LedgerEntry],
    given_key: bytes | None = None,
    prev: str = GENESIS,
    first_seq: int = 1,
) -> list[str]:
    problems = [p for s in seals for p in signature_problems(s, given_key)]
    matches = chain_matches(seals, entries, prev, first_seq)
    return problems + [p for p in matches.values() if p]
