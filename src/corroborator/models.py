"""Typed records passed between stages, storage, linking and exports.

Every extracted record carries `start`/`end` character offsets into the document's
working text, so that `text[start:end] == record.text` always holds: an investigator
must be able to see the exact source words behind every field.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from corroborator.errors import one_line

ENTITY_KINDS = ("person", "armed_group", "organization", "place", "outlet")
SPEAKER_ROLES = ("perpetrator", "witness", "victim", "official", "accused", "journalist", "other")
STANCES = ("asserts", "denies")
VICTIM_GROUPS = (
    "civilians",
    "children",
    "women",
    "elderly",
    "prisoners_of_war",
    "wounded",
    "own_soldiers",
    "deserters",
    "detainees",
)
INCIDENT_TYPES = (
    "killing_civilians",
    "killing_captives",
    "no_quarter_order",
    "killing_own_forces",
    "torture_mistreatment",
    "attack_populated_area",
    "sexual_violence",
    "abduction_detention",
    "deportation_transfer",
    "coercion_of_troops",
    "other",
)
EVIDENCE_TYPES = (
    "confession",
    "pow_testimony",
    "witness_testimony",
    "intercepted_communication",
    "official_statement",
    "document",
    "video",
    "investigation",
    "journalism",
)
STATUSES = ("confessed", "alleged", "denied", "disputed", "corroborated", "confirmed")
PLACE_PRECISIONS = ("settlement", "admin2", "admin1", "country", "unknown")
DATE_PRECISIONS = ("day", "week", "month", "year", "unknown")


def to_dict(record: Any) -> dict[str, Any]:
    """Plain-JSON form of a record (dataclasses nest)."""
    return asdict(record)


@dataclass(frozen=True)
class Span:
    """Exact source words: `text == doc_text[start:end]`."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class ValueSpan(Span):
    """The words behind one value of a field: 'children' in victims, 'video' in evidence.

    `value` is empty for single-valued fields (killed, location, date, ...)."""

    value: str = ""


@dataclass(frozen=True)
class MediaRef:
    """A file a record points at (a Telegram photo, video, thumbnail), or why it is absent.

    `path` is the resolved file inside the export; `missing` says why there is none
    ("File not included...", not found, outside the export folder).
    """

    kind: str  # photo | file | thumbnail
    name: str  # as the input names it
    media_type: str  # MIME type
    path: Path | None = None
    missing: str | None = None
    role: str = ""  # what the input calls it: video_file, sticker, voice_message, ...


@dataclass(frozen=True)
class Forward:
    """Where a forwarded message came from; `original_sha256` names the original
    message's record when the same input holds it."""

    origin: str
    origin_id: str | None = None
    original_sha256: str | None = None


@dataclass(frozen=True)
class RawRecord:
    """One document as read from an input file, before normalisation and storage.

    `original` is the record's own bytes (the file, a JSON line, a WARC payload);
    `container` is the whole file it came from, archived as well.
    """

    source_file: str
    original: bytes
    text: str
    container_path: str
    url: str | None = None
    title: str | None = None
    outlet: str | None = None
    published: str | None = None
    language: str | None = None
    record_id: str | None = None
    media_type: str = "text/plain"
    reader: str | None = None  # telegram | pdf: `facts` are that reader's own fields
    facts: dict[str, Any] | None = None  # JSON; any offsets refer to `text`
    media: tuple[MediaRef, ...] = ()
    forward: Forward | None = None
    warnings: tuple[str, ...] = ()  # stored, but something is missing (a scanned page)


@dataclass(frozen=True)
class Rejection:
    """An input that could not be read, with the reason shown to the user."""

    source_file: str
    reason: str

    def __post_init__(self) -> None:  # every reader's reasons stay one line
        object.__setattr__(self, "source_file", one_line(self.source_file))
        object.__setattr__(self, "reason", one_line(self.reason, 1000))


@dataclass
class Document:
    document_id: str
    sha256: str
    source_file: str
    text: str
    url: str | None = None
    title: str | None = None
    outlet: str | None = None
    published: str | None = None
    language: str | None = None
    ingested_at: str | None = None
    duplicate_of: str | None = None
    story_id: str | None = None
    ledger_seq: int | None = None
    archive_path: str | None = None
    offset_map: list[tuple[int, int]] = field(default_factory=list)
    media_type: str = "text/plain"

    def export(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("offset_map")
        d.pop("media_type")
        return d


@dataclass(frozen=True)
class EntityMention:
    start: int
    end: int
    text: str
    kind: str  # one of ENTITY_KINDS
    label: str = ""  # spaCy label it came from (GPE, PERSON, ...)
    canonical: str = ""  # within-document canonical name


@dataclass(frozen=True)
class PlaceRef:
    start: int
    end: int
    text: str
    name: str
    geonames_id: int | None
    lat: float | None
    lon: float | None
    admin1: str | None
    country: str | None
    precision: str  # one of PLACE_PRECISIONS


@dataclass(frozen=True)
class DateRef:
    start: int
    end: int
    text: str
    date_start: str | None  # ISO date
    date_end: str | None
    precision: str  # one of DATE_PRECISIONS


@dataclass(frozen=True)
class Count:
    """A casualty figure: "between 300 and 400 people" -> 300/400."""

    start: int
    end: int
    text: str
    low: int | None
    high: int | None
    approx: bool = False
    outcome: str | None = None  # "killed" | "wounded" | None
    counted: str | None = None  # a VICTIM_GROUPS value, or None


@dataclass(frozen=True)
class TextSpan:
    """Words of the text, with their offsets."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Quote:
    start: int
    end: int
    text: str
    speaker: str | None
    speaker_start: int | None = None
    speaker_end: int | None = None
    speaker_role: str = "other"
    stance: str = "asserts"
    cue: str | None = None
    # the words that point at the speaker by this quote ("he", "the tank driver", a
    # transcript label) and the name they resolve to, where the text names the speaker
    speaker_mention: TextSpan | None = None
    speaker_name_span: TextSpan | None = None


@dataclass(frozen=True)
class Hedge:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Range:
    low: int | None = None
    high: int | None = None
    approx: bool = False


@dataclass(frozen=True)
class Location:
    name: str | None = None
    geonames_id: int | None = None
    lat: float | None = None
    lon: float | None = None
    admin1: str | None = None
    country: str | None = None
    precision: str = "unknown"


@dataclass(frozen=True)
class DateRange:
    start: str | None = None
    end: str | None = None
    precision: str = "unknown"


@dataclass
class DocIncident:
    """One alleged violation as reported by one document (linking merges across documents).

    `sources` keeps the words each non-empty field was read from, keyed by field name (for
    list fields one span per value at least), so every value traces to source words.
    """

    type: str
    mentions: list[Span]
    perpetrators: list[str] = field(default_factory=list)
    victims: list[str] = field(default_factory=list)
    killed: Range = field(default_factory=Range)
    wounded: Range = field(default_factory=Range)
    location: Location = field(default_factory=Location)
    date: DateRange = field(default_factory=DateRange)
    evidence_types: list[str] = field(default_factory=list)
    status: str = "alleged"
    hedges: list[Span] = field(default_factory=list)
    summary: str = ""
    sources: dict[str, list[ValueSpan]] = field(default_factory=dict)


@dataclass(frozen=True)
class LangRange:
    """A run of paragraphs in one language (ISO 639-1), so stages can tell which applies."""

    start: int
    end: int
    language: str


@dataclass
class Extraction:
    """Everything the stages found in one document."""

    entities: list[EntityMention] = field(default_factory=list)
    places: list[PlaceRef] = field(default_factory=list)
    dates: list[DateRef] = field(default_factory=list)
    counts: list[Count] = field(default_factory=list)
    quotes: list[Quote] = field(default_factory=list)
    hedges: list[Hedge] = field(default_factory=list)
    evidence: list[tuple[str, Span]] = field(default_factory=list)
    incidents: list[DocIncident] = field(default_factory=list)
    languages: list[LangRange] = field(default_factory=list)


def _span(d: dict[str, Any]) -> Span:
    return Span(d["start"], d["end"], d["text"])


def _value_span(d: dict[str, Any]) -> ValueSpan:
    return ValueSpan(d["start"], d["end"], d["text"], d.get("value", ""))


def incident_from_dict(d: dict[str, Any]) -> DocIncident:
    """Rebuild a stored (JSON) DocIncident."""
    return DocIncident(
        type=d["type"],
        mentions=[_span(m) for m in d.get("mentions", [])],
        perpetrators=list(d.get("perpetrators", [])),
        victims=list(d.get("victims", [])),
        killed=Range(**d.get("killed", {})),
        wounded=Range(**d.get("wounded", {})),
        location=Location(**d.get("location", {})),
        date=DateRange(**d.get("date", {})),
        evidence_types=list(d.get("evidence_types", [])),
        status=d.get("status", "alleged"),
        hedges=[_span(h) for h in d.get("hedges", [])],
        summary=d.get("summary", ""),
        sources={k: [_value_span(s) for s in v] for k, v in d.get("sources", {}).items()},
    )
