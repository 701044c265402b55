"""Token strings of a document as columns, each read once per document.

Stages ask for a token's lower-case form, lemma or tags hundreds of thousands of times a
batch, mostly of tokens that turn out to matter nothing; each `doc[i]` or iteration step
builds a `Token` and each string attribute decodes one from the vocabulary. A list
indexed by `token.i` answers the second question onwards at the price of a list lookup.
"""

from __future__ import annotations

from spacy.tokens import Doc

_ATTRS = ("text", "lower_", "lemma_", "pos_", "tag_", "dep_")
_KEYS = {attr: "corroborator_column_" + attr for attr in _ATTRS}


def column(doc: Doc, attr: str) -> list[str]:
    """Every token's `attr` (one of `_ATTRS`), in token order."""
    key = _KEYS[attr]
    cached = doc.user_data.get(key)
    if cached is None:
        cached = doc.user_data[key] = [getattr(t, attr) for t in doc]
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
