"""Errors users see as one line.

CorroboratorError
├── InputError        a file or record that cannot be ingested (named in the message)
├── StorageError      the database or archive cannot be opened or written
├── GoldError         a gold file that cannot be scored
└── EvidenceError     a signing key, seal or evidence bundle that cannot be made or read
"""


def one_line(text: str, limit: int = 300) -> str:
    """`text` fit for a one-line message: line breaks and control characters escaped (a
    hostile record id or URL may hold any), overlong names cut."""
    flat = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class CorroboratorError(Exception):
    """Base of every error the CLI turns into a one-line message and a non-zero exit."""


class InputError(CorroboratorError):
    def __init__(self, source: str, reason: str) -> None:
        source, reason = one_line(source), one_line(reason, 1000)
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class StorageError(CorroboratorError):
    pass


class GoldError(CorroboratorError):
    pass


class EvidenceError(CorroboratorError):
    pass
