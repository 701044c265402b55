"""Content-addressed store of original bytes: a file's name is its SHA-256, never rewritten."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


INCOMING = ".incoming-"  # + writer pid + "-": bytes being written, renamed when whole


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


class Archive:
    def __init__(self, root: Path) -> None:
        self.root = root

    def sweep(self) -> int:
        """Remove partial files left by writers that were killed mid-write (their pid is
        gone); a live writer's are kept. Returns how many were removed."""
        removed = 0
        for tmp in self.root.glob(f"*/{INCOMING}*"):
            pid = tmp.name[len(INCOMING) :].split("-", 1)[0]
            if pid.isdigit() and not _alive(int(pid)):
                tmp.unlink(missing_ok=True)
                removed += 1
        return removed

    def relpath(self, digest: str, suffix: str) -> str:
        return f"{digest[:2]}/{digest}{suffix}"

    def path(self, relpath: str) -> Path:
        return self.root / relpath

    def put(self, data: bytes, suffix: str = "") -> tuple[str, str]:
        """Store bytes once (atomic rename, fsynced); returns (sha256, relative path)."""
        digest = sha256_bytes(data)
        rel = self.relpath(digest, suffix)
        target = self.root / rel
        if target.exists() and sha256_file(target) == digest:
            return digest, rel
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f"{INCOMING}{os.getpid()}-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return digest, rel

    def read(self, relpath: str, start: int | None = None, end: int | None = None) -> bytes:
        data = (self.root / relpath).read_bytes()
        return data if start is None else data[start:end]
