"""Errors users see as one line.

CorroboratorError
├── InputError        a file or record that cannot be ingested (named in the message)
├── StorageError      the database or archive cannot be opened or written
├── GoldError         a gold file that cannot be scored
└── EvidenceError     a signing key, seal or evidence bundle that cannot be made or read
"""


class CorroboratorError(Exception):
    """Base of every error the CLI turns into a one-line message and a non-zero exit."""


class InputError(CorroboratorError):
    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class StorageError(CorroboratorError):
    pass


class GoldError(CorroboratorError):
    pass


class EvidenceError(CorroboratorError):
    pass
