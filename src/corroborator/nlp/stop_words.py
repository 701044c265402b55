"""spaCy's function-word lists, read from their files without importing spaCy.

Importing `spacy.lang.xx` loads spaCy itself (~0.6 s) and, for most languages, compiles
tokenizer exceptions (seconds). The archiving child of an ingest needs only the lists, and
it starts while the parent is still importing spaCy, so it reads them as plain data.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path


@cache
def stop_words(language: str) -> frozenset[str]:
    """The language's stop words as spaCy lists them; empty for a language it lacks."""
    spec = importlib.util.find_spec("spacy")
    if spec is None or spec.origin is None:
        return frozenset()
    path = Path(spec.origin).parent / "lang" / language / "stop_words.py"
    loader_spec = importlib.util.spec_from_file_location(f"_stop_words_{language}", path)
    if loader_spec is None or loader_spec.loader is None or not path.is_file():
        return frozenset()
    module = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(module)
    return frozenset(module.STOP_WORDS)
