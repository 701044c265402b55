"""`corroborator bundle`: one incident's evidence in a zip an outside party checks offline.

What proves that an original was in the sealed ledger: its entries' hashes chain forward
to a signed head. The bundle carries the contiguous ledger segment from the incident's
first entry up to the first seal that covers all its entries. That is enough (the first
entry's hash covers its `prev_hash`, so nothing before it is needed) and honest (changing
any entry in it changes the sealed head). Entries of other documents inside that segment
are carried whole, because an entry's hash covers all its fields; a redacted proof would
need a different hash layout (e.g. a Merkle tree of field hashes).

Extracted records are the tool's reading, not part of the ledger: each document's text is
tied to the ledger by its `text_sha256`, and every quote, mention and entity offset is
checked to hold its words in that text. The sealing key also signs manifest.json
(`manifest.sig`), so no byte of the bundle, records included, changes unnoticed. Entities
keep only their mentions in the bundled documents; `archive_path` names the original
inside the bundle.
"""

from __future__ import annotations

import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from corroborator import __version__
from corroborator.atomic import replacing
from corroborator.errors import EvidenceError
from corroborator.evidence.bundle_check import check_bundle
from corroborator.evidence.keys import public_pem, public_raw
from corroborator.evidence.layout import (
    DOCUMENTS,
    ENTITIES,
    FORMAT,
    INCIDENT,
    INFO,
    LEDGER,
    MANIFEST,
    MANIFEST_SIG,
    PUBLIC_KEY,
    QUOTES,
    README,
    SEALS,
    json_bytes,
    jsonl_bytes,
    manifest_bytes,
    original_name,
)
from corroborator.evidence.seals import check_seals, stored_seals
from corroborator.exports import records
from corroborator.ingest.archive import sha256_bytes, sha256_file
from corroborator.ledger import check_chain
from corroborator.storage.db import Store, now
from corroborator.storage.queries import get_incident

README_TEXT = """\
Evidence bundle for incident {incident_id}, written by corroborator {version} at {created_at}.

Check it (no database needed), with the public key the investigator published:
    corroborator verify --bundle THIS.zip --public-key THEIR_KEY.pub
Without --public-key the bundled public_key.pem is used; then only its fingerprint
({fingerprint}) ties the seals to the investigator.

manifest.json       SHA-256 and size of every other file
manifest.sig        Ed25519 signature over manifest.json's bytes, by the sealing key
bundle.json         incident id, ledger range, when and by what the bundle was written
originals/          the archived original bytes, named by their SHA-256
ledger.jsonl        ledger entries {first}-{head}: each entry's entry_hash is the SHA-256 of
                    its other fields as canonical JSON (sorted keys, no spaces), and its
                    prev_hash is the entry_hash before it
seals.json          Ed25519 signatures over canonical JSON of {{format, ledger_seq,
                    entry_hash, sealed_at, key_fingerprint}}
public_key.pem      the signing key (key_fingerprint is the SHA-256 of its 32 raw bytes)
records/            the incident, its documents (with the text every offset refers to),
                    their quotes and entities, as `corroborator export` writes them
"""


@dataclass(frozen=True)
class BundleSummary:
    path: Path
    incident_id: str
    documents: int
    originals: int
    first: int
    head: int
    seals: int
    key_fingerprint: str


def _entities(store: Store, ids: set[str]) -> list[dict[str, Any]]:
    out = []
    for e in records.entities(store):
        mentions = [m for m in e["mentions"] if m["document_id"] in ids]
        if mentions:
            doc_ids = [d for d in e["document_ids"] if d in ids]
            out.append(dict(e, mentions=mentions, document_ids=doc_ids))
    return out


def write_bundle(
    store: Store, archive_root: Path, incident_id: str, out: Path, key: Ed25519PrivateKey
) -> BundleSummary:
    """`key` signs the manifest; it must be the key that made the seal the bundle carries."""
    incident = get_incident(store, incident_id)
    if incident is None:
        raise EvidenceError(f"no incident {incident_id!r}; `corroborator incidents` lists them")
    rows = store.documents(sorted({m["document_id"] for m in incident["mentions"]}))
    ids = {d["document_id"] for d in rows}
    entries = store.ledger()
    broken = check_chain(entries)
    if broken:
        raise EvidenceError(f"not bundling: {broken[0]} (`corroborator verify` lists all)")
    archives = sorted({d["archive_sha256"] for d in rows})
    archive_seqs = store.rows(
        "SELECT ledger_seq FROM archive_files"
        f" WHERE sha256 IN ({', '.join('?' for _ in archives)})",
        archives,
    )
    wanted = [d["ledger_seq"] for d in rows] + [r["ledger_seq"] for r in archive_seqs]
    first, last = min(wanted), max(wanted)
    seals = stored_seals(store)
    covering = [s for s in seals if s.ledger_seq >= last]
    if not covering:
        raise EvidenceError(
            f"incident {incident_id}: its ledger entries (up to {last}) are not sealed yet;"
            " `corroborator seal` first"
        )
    head = min(covering, key=lambda s: s.ledger_seq)
    chosen = [
        s
        for s in seals
        if first <= s.ledger_seq <= head.ledger_seq and s.public_key == head.public_key
    ]
    if public_raw(key.public_key()).hex() != head.public_key:
        raise EvidenceError(
            f"seal {head.seal_no} was made by key {head.key_fingerprint[:16]}…; bundle with"
            " that key (--key), so one key vouches for the whole bundle"
        )
    problems = check_seals(chosen, entries)
    if problems:
        raise EvidenceError(f"not bundling: {problems[0]} (`corroborator verify` lists all)")
    segment = entries[first - 1 : head.ledger_seq]

    documents = []
    originals: dict[str, Path] = {}
    for d in rows:
        name = original_name(d["archive_relpath"])
        originals[name] = archive_root / d["archive_relpath"]
        documents.append(dict(records.document_record(d, archive_root), archive_path=name))
    created_at = now()
    info = {
        "format": FORMAT,
        "incident_id": incident_id,
        "created_at": created_at,
        "tool_version": __version__,
        "ledger_first": first,
        "ledger_head": head.ledger_seq,
        "key_fingerprint": head.key_fingerprint,
    }
    members = {
        README: README_TEXT.format(
            incident_id=incident_id,
            version=__version__,
            created_at=created_at,
            fingerprint=head.key_fingerprint,
            first=first,
            head=head.ledger_seq,
        ).encode("utf-8"),
        INFO: json_bytes(info),
        LEDGER: jsonl_bytes([asdict(e) for e in segment]),
        SEALS: json_bytes([asdict(s) for s in chosen]),
        PUBLIC_KEY: public_pem(bytes.fromhex(head.public_key)),
        INCIDENT: json_bytes(incident),
        DOCUMENTS: jsonl_bytes(documents),
        QUOTES: jsonl_bytes([q for q in records.quotes(store) if q["document_id"] in ids]),
        ENTITIES: jsonl_bytes(_entities(store, ids)),
    }
    _write_zip(out, members, originals, key)
    return BundleSummary(
        out,
        incident_id,
        len(documents),
        len(originals),
        first,
        head.ledger_seq,
        len(chosen),
        head.key_fingerprint,
    )


def _write_zip(
    out: Path, members: dict[str, bytes], originals: dict[str, Path], key: Ed25519PrivateKey
) -> None:
    """Write beside `out`, check the result as an outside party would, then rename."""
    files: dict[str, dict[str, Any]] = {}
    try:
        with replacing(out) as tmp:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
                for name, data in members.items():
                    zf.writestr(name, data)
                    files[name] = {"sha256": sha256_bytes(data), "size": len(data)}
                for name, path in originals.items():
                    if not path.exists():
                        raise EvidenceError(f"{path}: archived original missing; not bundling")
                    zf.write(path, name)
                    files[name] = {"sha256": sha256_file(path), "size": path.stat().st_size}
                manifest = manifest_bytes(files)
                zf.writestr(MANIFEST, manifest)
                zf.writestr(MANIFEST_SIG, key.sign(manifest).hex() + "\n")
            problems = check_bundle(tmp).problems
            if problems:
                raise EvidenceError(
                    f"{out}: not written, the bundle fails its own check: {problems[0]}"
                    " (`corroborator verify` checks the archive)"
                )
    except OSError as exc:
        raise EvidenceError(f"{out}: cannot write the bundle ({exc.strerror or exc})") from None
