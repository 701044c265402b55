"""Files that appear whole or not at all: written beside the target, fsynced, then renamed."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(target: Path, mode: int = 0o644, overwrite: bool = True) -> Iterator[Path]:
    """A temporary path beside `target` to write; on success it is fsynced and renamed onto
    `target` (hard-linked when `overwrite` is False, so an existing file is never replaced:
    FileExistsError); on failure it is removed. The file is created 0600 and only then given
    `mode`, so a secret is never readable by others, even for a moment."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, mode)
        with tmp.open("rb+") as fh:
            os.fsync(fh.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            os.link(tmp, target)
        _fsync_dir(target.parent)
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(target: Path, data: bytes, mode: int = 0o644, overwrite: bool = True) -> None:
    with replacing(target, mode, overwrite) as tmp:
        tmp.write_bytes(data)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
