"""The investigator's Ed25519 signing key and the public key an outside party checks with.

The private key is a PKCS#8 PEM file, 0600, beside the database (`corroborator.db` ->
`corroborator.key`) unless CORROBORATOR_KEY or `--key` names another; it is not encrypted,
so it belongs on the investigator's machine only (and in their backups). The public key is
`<key>.pub` (SubjectPublicKeyInfo PEM); a public key may also be given as 64 hex digits.
A key is known by its fingerprint: the SHA-256 of its 32 raw public bytes.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from corroborator.atomic import write_atomic
from corroborator.errors import EvidenceError
from corroborator.storage.db import DEFAULT_DB

RAW = serialization.PublicFormat.Raw


@dataclass(frozen=True)
class KeyFiles:
    private: Path
    public: Path
    public_hex: str
    fingerprint: str


def fingerprint(public_raw: bytes) -> str:
    return hashlib.sha256(public_raw).hexdigest()


def public_raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, RAW)


def public_pem(public: bytes) -> bytes:
    return Ed25519PublicKey.from_public_bytes(public).public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def default_key_path(db_url: str | None) -> Path:
    env = os.environ.get("CORROBORATOR_KEY")
    if env:
        return Path(env)
    url = db_url or DEFAULT_DB
    if url.startswith(("postgresql://", "postgres://")):
        raise EvidenceError("CORROBORATOR_KEY or --key must name the signing key with PostgreSQL")
    p = Path(url)
    return p.with_suffix(".key") if p.suffix else p.with_name(p.name + ".key")


def public_path_for(key_path: Path) -> Path:
    return key_path.with_suffix(".pub")


def generate(key_path: Path, force: bool = False, export_public: Path | None = None) -> KeyFiles:
    """Write a new private key (never replacing one unless `force`) and its public key file."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        write_atomic(key_path, pem, mode=0o600, overwrite=force)
    except FileExistsError:
        raise EvidenceError(
            f"{key_path}: a signing key is already there; keep it (its seals are checked"
            " with its public key), or pass --force to replace it"
        ) from None
    except OSError as exc:
        raise EvidenceError(f"{key_path}: cannot write the key ({exc.strerror})") from None
    raw = public_raw(key.public_key())
    public = public_path_for(key_path)
    for target in [public] + ([export_public] if export_public else []):
        try:
            write_atomic(target, public_pem(raw))
        except OSError as exc:
            raise EvidenceError(f"{target}: cannot write the public key ({exc.strerror})") from None
    return KeyFiles(key_path, public, raw.hex(), fingerprint(raw))


def load_private(key_path: Path) -> Ed25519PrivateKey:
    try:
        info = key_path.stat()
        data = key_path.read_bytes()
    except FileNotFoundError:
        raise EvidenceError(
            f"{key_path}: no signing key there; `corroborator keygen` makes one"
        ) from None
    except OSError as exc:
        raise EvidenceError(f"{key_path}: cannot read the key ({exc.strerror})") from None
    if os.name == "posix" and info.st_mode & 0o077:
        raise EvidenceError(
            f"{key_path}: readable by others (mode {stat.S_IMODE(info.st_mode):o});"
            f" `chmod 600 {key_path}` first"
        )
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        key = None
    if not isinstance(key, Ed25519PrivateKey):
        raise EvidenceError(f"{key_path}: not an unencrypted Ed25519 private key (PEM)")
    return key


def parse_public(data: bytes) -> bytes | None:
    """Raw public key bytes from PEM or 64 hex digits, or None when it is neither."""
    text = data.strip()
    if text.startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(text)
        except (ValueError, UnsupportedAlgorithm):
            return None
        return public_raw(key) if isinstance(key, Ed25519PublicKey) else None
    try:
        raw = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    return raw if len(raw) == 32 else None


def load_public(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EvidenceError(f"{path}: cannot read the public key ({exc.strerror})") from None
    raw = parse_public(data)
    if raw is None:
        raise EvidenceError(f"{path}: not an Ed25519 public key (PEM, or 64 hex digits)")
    return raw
