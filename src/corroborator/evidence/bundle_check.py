"""`corroborator verify --bundle`: check an evidence bundle with nothing but the zip (and,
ideally, the investigator's published public key).

Every check reads the members themselves, not only the manifest, so a forger who rewrites
the manifest to match an edited file is caught by its signature (manifest.sig) and, for
the evidence itself, again by the ledger, the seal or the offsets. Each problem is one line that starts with the member it is about.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, get_type_hints

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from corroborator.errors import EvidenceError
from corroborator.evidence.keys import fingerprint, parse_public
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
    SEALS,
    manifest_bytes,
    original_name,
)
from corroborator.evidence.seals import Seal, chain_matches, signature_problems
from corroborator.ingest.archive import sha256_bytes
from corroborator.ledger import LedgerEntry, check_chain


@dataclass
class BundleReport:
    incident_id: str = ""
    documents: int = 0
    entries: int = 0
    first: int = 0
    head: int = 0
    seals: int = 0
    key_fingerprint: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _typed(cls: type, obj: Any) -> Any:
    """A dataclass from a JSON object whose keys and value types match exactly, or None."""
    types = get_type_hints(cls)
    if not isinstance(obj, dict) or set(obj) != {f.name for f in fields(cls)}:
        return None
    for name, value in obj.items():
        if not isinstance(value, types[name]) or isinstance(value, bool):
            return None
    return cls(**obj)


class _Check:
    def __init__(self, members: dict[str, bytes], report: BundleReport) -> None:
        self.members = members
        self.report = report
        self.key_given = False

    def fail(self, name: str, reason: str) -> None:
        self.report.problems.append(f"{name}: {reason}")

    def json(self, name: str) -> Any:
        data = self.members.get(name)
        if data is None:
            self.fail(name, "missing from the bundle")
            return None
        try:
            return json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            self.fail(name, f"not valid JSON ({exc})")
            return None

    def jsonl(self, name: str) -> list[Any] | None:
        data = self.members.get(name)
        if data is None:
            self.fail(name, "missing from the bundle")
            return None
        out = []
        for n, line in enumerate(data.split(b"\n"), 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line.decode("utf-8")))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                self.fail(name, f"line {n}: not valid JSON ({exc})")
                return None
        return out

    # -- the checks, in the order an outside party would reason ----------------------
    def manifest(self) -> None:
        raw = self.members.get(MANIFEST)
        if raw is None:
            self.fail(MANIFEST, "missing: nothing lists the bundle's files and their hashes")
            return
        manifest = self.json(MANIFEST)
        files = manifest.get("files") if isinstance(manifest, dict) else None
        if (
            not isinstance(manifest, dict)
            or manifest.get("format") != FORMAT
            or set(manifest) != {"format", "files"}
            or not isinstance(files, dict)
            or not all(isinstance(m, dict) and set(m) == {"sha256", "size"} for m in files.values())
        ):
            if manifest is not None:
                self.fail(MANIFEST, f"not a {FORMAT} manifest")
            return
        if manifest_bytes(files) != raw:
            self.fail(MANIFEST, "not in the exact form bundles are written in (edited)")
        for name, meta in sorted(files.items()):
            data = self.members.get(name)
            if data is None:
                self.fail(name, f"listed in {MANIFEST} but missing from the bundle")
            elif sha256_bytes(data) != meta["sha256"]:
                self.fail(name, f"SHA-256 differs from {MANIFEST}")
            elif len(data) != meta["size"]:
                self.fail(name, f"size differs from {MANIFEST}")
        for name in sorted(set(self.members) - set(files) - {MANIFEST, MANIFEST_SIG}):
            self.fail(name, f"not listed in {MANIFEST}")

    def key(self, given: bytes | None) -> bytes | None:
        data = self.members.get(PUBLIC_KEY)
        bundled = parse_public(data) if data is not None else None
        if data is None:
            self.fail(PUBLIC_KEY, "missing from the bundle")
        elif bundled is None:
            self.fail(PUBLIC_KEY, "not an Ed25519 public key")
        elif given is not None and given != bundled:
            self.fail(
                PUBLIC_KEY,
                f"bundled key {fingerprint(bundled)[:16]}… is not the given key"
                f" {fingerprint(given)[:16]}…",
            )
        key = given if given is not None else bundled
        self.key_given = given is not None
        self.report.key_fingerprint = fingerprint(key) if key else ""
        return key

    def manifest_signature(self, key: bytes | None) -> None:
        sig, manifest = self.members.get(MANIFEST_SIG), self.members.get(MANIFEST)
        if key is None or manifest is None:
            return  # already reported
        if sig is None:
            self.fail(MANIFEST_SIG, "missing: nothing signed vouches for manifest.json")
            return
        try:
            Ed25519PublicKey.from_public_bytes(key).verify(
                bytes.fromhex(sig.decode("ascii").strip()), manifest
            )
        except (UnicodeDecodeError, ValueError, InvalidSignature):
            self.fail(
                MANIFEST_SIG,
                f"not a signature over {MANIFEST} by key {fingerprint(key)[:16]}…"
                " (the bundle was changed after it was written, or signed by another key)",
            )

    def ledger(self) -> list[LedgerEntry] | None:
        rows = self.jsonl(LEDGER)
        if rows is None:
            return None
        entries = [_typed(LedgerEntry, r) for r in rows]
        for n, e in enumerate(entries, 1):
            if e is None:
                self.fail(LEDGER, f"line {n}: not a ledger entry")
                return None
        if not entries:
            self.fail(LEDGER, "no entries")
            return None
        for problem in check_chain(entries, entries[0].prev_hash, entries[0].seq):
            self.fail(LEDGER, problem)
        self.report.entries = len(entries)
        self.report.first, self.report.head = entries[0].seq, entries[-1].seq
        return entries

    def seals(self, entries: list[LedgerEntry], key: bytes | None) -> int:
        """Check every seal; returns the last entry a valid, matching seal vouches for."""
        rows = self.json(SEALS)
        seals = [_typed(Seal, r) for r in rows] if isinstance(rows, list) else None
        if seals is None or None in seals:
            if rows is not None:
                self.fail(SEALS, "not a list of seal records")
            return 0
        if not seals:
            self.fail(SEALS, f"no seals: nothing signed vouches for {LEDGER}")
        prev, first = entries[0].prev_hash, entries[0].seq
        matches = chain_matches(seals, entries, prev, first)
        good = 0
        for seal in seals:
            if not self.key_given and key and seal.public_key != key.hex():
                self.fail(PUBLIC_KEY, f"not the key that made {seal.name}")
            signed = signature_problems(seal, key)
            for problem in signed:
                self.fail(SEALS, problem)
            if matches[seal]:
                self.fail(LEDGER, str(matches[seal]))
            elif not signed:
                good = max(good, seal.ledger_seq)
                self.report.seals += 1
        return good

    def documents(self, entries: list[LedgerEntry] | None, sealed_upto: int) -> dict[str, str]:
        """Each document against its ledger entries and original (when the ledger could be
        read); returns id -> text."""
        texts: dict[str, str] = {}
        by_subject = {(e.kind, e.subject): e for e in entries or []}
        for d in self.jsonl(DOCUMENTS) or []:
            doc_id, text = (
                (d.get("document_id"), d.get("text")) if isinstance(d, dict) else ("", "")
            )
            if not isinstance(doc_id, str) or not isinstance(text, str) or not doc_id:
                self.fail(DOCUMENTS, "a record without document_id or text")
                continue
            texts[doc_id] = text
            if entries is None:
                continue
            label = f"document {doc_id}"
            entry = by_subject.get(("document", doc_id))
            if entry is None:
                self.fail(DOCUMENTS, f"{label}: no ledger entry for it in {LEDGER}")
                continue
            self._sealed(entry, label, sealed_upto)
            facts = self._payload(entry)
            if d.get("ledger_seq") != entry.seq:
                self.fail(DOCUMENTS, f"{label}: ledger_seq is not its ledger entry {entry.seq}")
            if d.get("sha256") != entry.sha256:
                self.fail(DOCUMENTS, f"{label}: SHA-256 differs from ledger entry {entry.seq}")
            if facts.get("text_sha256") != sha256_bytes(text.encode("utf-8")):
                self.fail(
                    DOCUMENTS, f"{label}: text differs from what ledger entry {entry.seq} recorded"
                )
            archived = by_subject.get(("archive", str(facts.get("archive_sha256"))))
            if archived is None:
                self.fail(LEDGER, f"no archive entry for the original of {label}")
                continue
            self._sealed(archived, f"original of {label}", sealed_upto)
            name = original_name(str(self._payload(archived).get("relpath", "")))
            if d.get("archive_path") != name:
                self.fail(DOCUMENTS, f"{label}: archive_path does not name {name}")
            data = self.members.get(name)
            start, end = facts.get("archive_start"), facts.get("archive_end")
            if data is None:
                self.fail(name, f"missing from the bundle (the original of {label})")
            elif not all(v is None or type(v) is int for v in (start, end)):
                self.fail(LEDGER, f"ledger entry {entry.seq}: archive offsets are not numbers")
            elif sha256_bytes(data) != archived.sha256:
                self.fail(name, f"SHA-256 differs from ledger entry {archived.seq}")
            elif sha256_bytes(data[start:end]) != entry.sha256:
                self.fail(name, f"bytes {start}-{end} do not hash to ledger entry {entry.seq}")
        self.report.documents = len(texts)
        return texts

    def _sealed(self, entry: LedgerEntry, label: str, sealed_upto: int) -> None:
        if entry.seq > sealed_upto:
            self.fail(
                LEDGER,
                f"ledger entry {entry.seq} ({label}) is not covered by a valid seal;"
                " nothing signed vouches for it",
            )

    def _payload(self, entry: LedgerEntry) -> dict[str, Any]:
        try:
            facts = json.loads(entry.payload)
        except json.JSONDecodeError:
            facts = None
        if not isinstance(facts, dict):
            self.fail(LEDGER, f"ledger entry {entry.seq}: payload is not a JSON object")
            return {}
        return facts

    def records(self, texts: dict[str, str]) -> None:
        incident = self.json(INCIDENT)
        info = self.json(INFO)
        if isinstance(incident, dict):
            self.report.incident_id = str(incident.get("incident_id", ""))
            mentions = incident.get("mentions")
            if not isinstance(mentions, list) or not mentions:
                self.fail(INCIDENT, "no mentions: nothing ties the incident to a document")
                mentions = []
            for n, m in enumerate(mentions, 1):
                self._span(INCIDENT, f"mention {n}", m, texts)
        elif incident is not None:
            self.fail(INCIDENT, "not an incident record")
        if isinstance(info, dict):
            if info.get("incident_id") != self.report.incident_id:
                self.fail(INFO, f"incident_id differs from {INCIDENT}")
            if (info.get("ledger_first"), info.get("ledger_head")) != (
                self.report.first,
                self.report.head,
            ):
                self.fail(INFO, f"ledger range differs from {LEDGER}")
        for q in self.jsonl(QUOTES) or []:
            quote_id = q.get("quote_id") if isinstance(q, dict) else None
            self._span(QUOTES, f"quote {quote_id}", q, texts)
        for e in self.jsonl(ENTITIES) or []:
            entity_id = e.get("entity_id") if isinstance(e, dict) else None
            mentions = e.get("mentions") if isinstance(e, dict) else None
            if not isinstance(mentions, list):
                self.fail(ENTITIES, f"entity {entity_id}: no list of mentions")
                continue
            for n, m in enumerate(mentions, 1):
                self._span(ENTITIES, f"entity {entity_id} mention {n}", m, texts)

    def _span(self, name: str, label: str, rec: Any, texts: dict[str, str]) -> None:
        if not isinstance(rec, dict):
            self.fail(name, f"{label}: not a record")
            return
        doc_id, start, end = rec.get("document_id"), rec.get("start"), rec.get("end")
        text = texts.get(doc_id) if isinstance(doc_id, str) else None
        if text is None:
            self.fail(name, f"{label}: document {doc_id} is not in {DOCUMENTS}")
        elif not (
            isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(text)
        ):
            self.fail(name, f"{label}: offsets {start}-{end} fall outside document {doc_id}")
        elif text[start:end] != rec.get("text"):
            self.fail(
                name, f"{label}: offsets {start}-{end} do not hold its text in document {doc_id}"
            )


def _members(path: Path, report: BundleReport) -> dict[str, bytes]:
    try:
        zf = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise EvidenceError(f"{path}: no such bundle") from None
    except (OSError, zipfile.BadZipFile) as exc:
        raise EvidenceError(f"{path}: not a readable zip archive ({exc})") from None
    members: dict[str, bytes] = {}
    with zf:
        for info in zf.infolist():
            if info.is_dir():
                continue
            if info.filename in members:
                report.problems.append(f"{info.filename}: appears twice in the zip")
                continue
            try:
                members[info.filename] = zf.read(info)
            except (zipfile.BadZipFile, zlib.error, OSError, NotImplementedError) as exc:
                report.problems.append(f"{info.filename}: cannot be read ({exc})")
    return members


def check_bundle(path: Path, public_key: bytes | None = None) -> BundleReport:
    """Every problem with the bundle at `path`; `public_key` is the key its seals must be
    signed by (without it, the bundled key is trusted and only its fingerprint reported)."""
    report = BundleReport()
    check = _Check(_members(path, report), report)
    check.manifest()
    key = check.key(public_key)
    check.manifest_signature(key)
    entries = check.ledger()
    sealed_upto = check.seals(entries, key) if entries else 0
    check.records(check.documents(entries, sealed_upto))
    return report
