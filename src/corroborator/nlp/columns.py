"""Token strings of a document as columns, each read once per document.

Stages ask for a token's lower-case form, lemma or tags hundreds of thousands of times a
batch, mostly of tokens that turn out to matter nothing; each `doc[i]` or iteration step
builds a `Token` and each string attribute decodes one from the vocabulary. A list
indexed by `token.i` answers the second question onwards at the price of a list lookup.
"""

from __future__ import annotations

from spacy.attrs import DEP, LEMMA, LOWER, ORTH, POS, TAG
from spacy.strings import StringStore
from spacy.tokens import Doc

_ATTRS = {"text": ORTH, "lower_": LOWER, "lemma_": LEMMA, "pos_": POS, "tag_": TAG, "dep_": DEP}
_KEYS = {attr: "corroborator_column_" + attr for attr in _ATTRS}


class _Names(dict[int, str]):
    """String of each hash (or part-of-speech symbol) met so far: one dict lookup per
    token instead of a `Token` built and its string decoded."""

    def __init__(self, strings: StringStore) -> None:
        super().__init__()
        self.strings = strings

    def __missing__(self, key: int) -> str:
        name = self[key] = self.strings[key]
        return name


_NAMES: list[_Names] = []


def column(doc: Doc, attr: str) -> list[str]:
    """Every token's `attr` (one of `_ATTRS`), in token order."""
    key = _KEYS[attr]
    cached = doc.user_data.get(key)
    if cached is None:
        if not _NAMES or _NAMES[0].strings is not doc.vocab.strings:
            _NAMES[:] = [_Names(doc.vocab.strings)]
        ids = doc.to_array(_ATTRS[attr]).tolist() if len(doc) else []
        cached = doc.user_data[key] = list(map(_NAMES[0].__getitem__, ids))
    return cached


def lows(doc: Doc) -> list[str]:
    """Every token's lemma in lower case (what the lexicons are keyed by)."""
    cached = doc.user_data.get("corroborator_column_low")
    if cached is None:
        cached = doc.user_data["corroborator_column_low"] = [
            w.lower() for w in column(doc, "lemma_")
        ]
    return cached


def lower_at(doc: Doc, i: int) -> str:
    """Token i's lower-case form; "" outside the document (grammars look either side)."""
    lowers = column(doc, "lower_")
    return lowers[i] if 0 <= i < len(lowers) else ""
