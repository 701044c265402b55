"""Sealed ledger heads and offline-checkable evidence bundles.

keys.py          Ed25519 signing key: make, store (0600, atomic), load; public key files
seals.py         sign the ledger head; check seals against a chain (database or bundle)
layout.py        file names and JSON forms of a bundle
bundle.py        one incident's originals, ledger segment, records and seals in one zip
bundle_check.py  check a bundle with no database: manifest, originals, chain, seals, offsets
"""
