"""What a bundle holds and the exact bytes its JSON is written as (shared by the writer
and the checker, so they cannot drift apart)."""

from __future__ import annotations

import json
from typing import Any

from corroborator.ledger import canonical

FORMAT = "corroborator-bundle/1"
MANIFEST = "manifest.json"
MANIFEST_SIG = "manifest.sig"  # Ed25519 signature (hex) over manifest.json
INFO = "bundle.json"
README = "README.txt"
LEDGER = "ledger.jsonl"
SEALS = "seals.json"
PUBLIC_KEY = "public_key.pem"
INCIDENT = "records/incident.json"
DOCUMENTS = "records/documents.jsonl"
QUOTES = "records/quotes.jsonl"
ENTITIES = "records/entities.jsonl"


def original_name(relpath: str) -> str:
    return "originals/" + relpath.rsplit("/", 1)[-1]


def json_bytes(obj: Any) -> bytes:
    return (json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def jsonl_bytes(rows: list[dict[str, Any]]) -> bytes:
    return "".join(canonical(r) + "\n" for r in rows).encode("utf-8")


def manifest_bytes(files: dict[str, dict[str, Any]]) -> bytes:
    """The one form a manifest is written in, so the checker can tell any edited byte."""
    return json_bytes({"format": FORMAT, "files": files})
