"""Cost of sealing and of checking seals as the ledger grows.

    python benchmarks/seal.py [ENTRIES]

Builds a chain of ENTRIES ledger entries in memory (default 100000, shaped like document
entries), then times what `seal` does before signing (walk the chain, check the old
seals), one signature, and what `verify` adds per seal (locate the first broken entry).
"""

from __future__ import annotations

import sys
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from corroborator.evidence.seals import chain_matches, make_seal, signature_problems
from corroborator.ledger import GENESIS, check_chain, make_entry


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    t0 = time.perf_counter()
    entries, prev = [], GENESIS
    for seq in range(1, n + 1):
        digest = f"{seq:064x}"
        e = make_entry(
            seq, prev, "document", digest[:16], digest, f"report_{seq}.txt",
            "2026-01-01T00:00:00Z", "0.1.0",
            {"archive_sha256": digest, "archive_start": None, "archive_end": None,
             "text_sha256": digest},
        )  # fmt: skip
        entries.append(e)
        prev = e.entry_hash
    print(f"{n} entries built in {time.perf_counter() - t0:.2f} s")

    key = Ed25519PrivateKey.generate()
    t0 = time.perf_counter()
    assert not check_chain(entries)
    walk = time.perf_counter() - t0
    t0 = time.perf_counter()
    seals = [make_seal(key, i + 1, entries[s - 1], "2026-01-02T00:00:00Z")
             for i, s in enumerate(range(n // 10, n + 1, n // 10))]  # fmt: skip
    sign = (time.perf_counter() - t0) / len(seals)
    t0 = time.perf_counter()
    assert not [p for s in seals for p in signature_problems(s)]
    check_sig = (time.perf_counter() - t0) / len(seals)
    t0 = time.perf_counter()
    assert not any(chain_matches(seals, entries).values())
    check_chain_seals = time.perf_counter() - t0
    print(f"walk the chain (check_chain): {walk:.2f} s ({n / walk:,.0f} entries/s)")
    print(f"sign one seal: {sign * 1000:.2f} ms; check one signature: {check_sig * 1000:.2f} ms")
    print(f"match {len(seals)} seals against the chain: {check_chain_seals:.2f} s")


if __name__ == "__main__":
    main()
