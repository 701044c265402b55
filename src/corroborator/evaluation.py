"""Score exported records against a gold file (`corroborator eval GOLD.jsonl`).

Pure functions over plain dicts shaped like the contract's exported records, so the
scorer can be tested without a database and re-used on any export. Definitions
(the contract fixes the outline, these fix the details):

- Scope: only documents whose `source_file` occurs somewhere in the gold file are
  scored; the gold is taken to annotate those documents completely.
- Incidents, over (incident, document) pairs: a gold pair is found when a system
  incident of the same type has a mention in that document whose words contain the
  words of one of the gold pair's mentions (case, quote marks, apostrophes,
  punctuation and spacing ignored). A system pair is correct when it finds a gold pair.
- Cross-document links: for each gold incident, each pair of its documents; found
  when one system incident holds a gold mention in both (type is not checked here:
  the incident figure already scores type). A system link is each pair of in-scope
  documents of one system incident, correct when some gold incident links the same
  two documents through mentions that system incident holds.
- Quotes: a gold quote is found by a system quote of the same document whose text
  overlaps at least half of its characters (quote marks dropped, spacing and case
  normalised). Matching is one-to-one (maximum bipartite matching), so one system
  quote that swallows several gold quotes finds only one of them. The with-speaker
  figure requires the speaker to match as well (see `speaker_matches`).
- same_story: every pair of files named in one gold `same_story` record; a system pair
  is two in-scope files whose documents share a `story_id`.
- Entities (B-cubed over gold aliases): for each gold entity the best system entity is
  the one holding most of its aliases (ties: fewest aliases of other gold entities).
  Recall = aliases held by the best entities / all gold aliases (splitting loses
  recall); precision = those aliases / all gold aliases (of any gold entity) held by
  the best entities (merging two gold entities into one loses precision). System
  aliases that are in no gold record are ignored: gold does not list every form.
- Fields, on each found gold incident, compared with the system incident that finds
  most of its pairs: killed low/high exact, location name equal to the gold name or an
  alias of the gold entity with that name (a gold list "Soledar and Bakhmut" accepts
  either place), date start equal at the gold precision, status equal. Nulls match
  nulls.
- Places (gold `place` records): Accuracy@161 km, exact GeoNames id, median error and
  mention recall, as defined in `eval_places`.
- A kind with no gold records is reported as not scored and left out of the overall
  mean; P = 1 when the system claims nothing, R = 1 when the gold holds nothing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import combinations
from pathlib import Path
from typing import Any

from corroborator import eval_places
from corroborator.isodates import first_day

GOLD_KINDS = ("incident", "quote", "same_story", "entity", eval_places.KIND)
_REQUIRED: dict[str, tuple[str, ...]] = {
    "incident": ("type", "mentions"),
    "quote": ("source_file", "text"),
    "same_story": ("source_files",),
    "entity": ("name",),
    eval_places.KIND: ("source_file", "text"),
}
_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u0060\u00b4\u2039\u203a"
_DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"
_QUOTE_FOLD = str.maketrans(
    {**dict.fromkeys(_SINGLE_QUOTES, "'"), **dict.fromkeys(_DOUBLE_QUOTES, '"')}
)
_ALL_QUOTES = re.compile(r"[\"']")
_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")
_PAREN = re.compile(r"\([^)]*\)")
_PLACE_LIST = re.compile(r",|\band\b|/")
_DETERMINERS = frozenset(
    [
        "a",
        "an",
        "the",
        "his",
        "her",
        "their",
        "its",
        "our",
        "my",
        "your",
        "this",
        "that",
        "these",
        "those",
    ]
)
_HEAD_BREAKS = frozenset(["of", "from", "who", "with", "in", "at", "for"])
_SCORED_KINDS = (
    ("incidents", "incident"),
    ("quotes_with_speaker", "quote"),
    ("same_story", "same_story"),
    ("entities", "entity"),
)

Record = Mapping[str, Any]


# ---------------------------------------------------------------- gold file


def load_gold(path: str | Path) -> list[dict[str, Any]]:
    """Read a gold JSON Lines file; any bad line raises ValueError naming its number."""
    records: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            records.append(_parse_gold_line(line, number))
    return records


_INCIDENT_OBJECTS = ("killed", "wounded", "location", "date")


def _parse_gold_line(line: str, number: int) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"gold line {number}: malformed JSON ({exc.msg})") from None
    if not isinstance(record, dict):
        raise ValueError(f"gold line {number}: expected a JSON object")
    kind = record.get("kind")
    if kind not in GOLD_KINDS:
        raise ValueError(f"gold line {number}: unknown kind {kind!r}")
    missing = [key for key in _REQUIRED[kind] if not record.get(key)]
    if missing:
        raise ValueError(f"gold line {number}: {kind} lacks {', '.join(missing)}")
    if kind == "incident" and not all(
        isinstance(m, dict) and m.get("source_file") and m.get("quote") for m in record["mentions"]
    ):
        raise ValueError(f"gold line {number}: incident mention needs source_file and quote")
    if kind == "incident":
        for key in _INCIDENT_OBJECTS:
            if record.get(key) is not None and not isinstance(record[key], dict):
                raise ValueError(
                    f"gold line {number}: incident {key} must be an object or null, "
                    f"not {type(record[key]).__name__} (see CONTRACT: gold files)"
                )
    if kind == "same_story" and len(set(record["source_files"])) < 2:
        raise ValueError(f"gold line {number}: same_story needs two or more source_files")
    if kind == eval_places.KIND:
        eval_places.check(record, number)
    return record


# ---------------------------------------------------------------- report


@dataclass
class Score:
    """Counts behind one P/R/F1: gold items found, system items correct."""

    found: int = 0
    gold: int = 0
    correct: int = 0
    system: int = 0
    scored: bool = True

    @property
    def precision(self) -> float:
        return self.correct / self.system if self.system else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "found": self.found,
            "gold": self.gold,
            "correct": self.correct,
            "system": self.system,
            "scored": self.scored,
        }


@dataclass
class Accuracy:
    """Share of found gold incidents whose field the system got right."""

    correct: int = 0
    total: int = 0

    @property
    def value(self) -> float | None:
        return self.correct / self.total if self.total else None

    def add(self, ok: bool) -> None:
        self.total += 1
        self.correct += int(ok)

    def to_dict(self) -> dict[str, Any]:
        return {"accuracy": self.value, "correct": self.correct, "total": self.total}


@dataclass
class EvalReport:
    """Every figure of one evaluation; `to_dict()` is what `eval --json` prints."""

    incidents: Score
    cross_document_links: Score
    quotes: Score
    quotes_with_speaker: Score
    same_story: Score
    entities: Score
    fields: dict[str, Accuracy]
    grounding: dict[str, Accuracy] = field(default_factory=dict)
    source_files: list[str] = field(default_factory=list)
    missing_source_files: list[str] = field(default_factory=list)
    quote_fields: dict[str, Accuracy] = field(default_factory=dict)  # see eval_quotes
    places: eval_places.PlaceScore | None = None  # with gold `place` records only

    def scores(self) -> dict[str, Score]:
        return {
            "incidents": self.incidents,
            "cross_document_links": self.cross_document_links,
            "quotes": self.quotes,
            "quotes_with_speaker": self.quotes_with_speaker,
            "same_story": self.same_story,
            "entities": self.entities,
        }

    @property
    def overall_f1(self) -> float:
        """Mean F1 of incidents, quotes with speaker, same_story and entities (scored kinds)."""
        figures = [s.f1 for name, s in self.scores().items() if name in _OVERALL and s.scored]
        return sum(figures) / len(figures) if figures else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            **{name: score.to_dict() for name, score in self.scores().items()},
            "fields": {name: acc.to_dict() for name, acc in self.fields.items()},
            "grounding": {name: acc.to_dict() for name, acc in self.grounding.items()},
            "quote_fields": {name: acc.to_dict() for name, acc in self.quote_fields.items()},
            "source_files": self.source_files,
            "missing_source_files": self.missing_source_files,
            "overall_f1": self.overall_f1,
            **({"places": self.places.to_dict()} if self.places else {}),
        }


_OVERALL = frozenset(name for name, _ in _SCORED_KINDS)


def format_report(report: EvalReport) -> str:
    """Plain-text tables; the last line is exactly `overall F1 X.XXX`."""
    lines = [f"{'kind':<22}{'P':>7}{'R':>7}{'F1':>7}{'found/gold':>14}{'correct/system':>16}"]
    for name, score in report.scores().items():
        if not score.scored:
            lines.append(f"{name:<22}{'not scored (no gold records)':>51}")
            continue
        lines.append(
            f"{name:<22}{score.precision:>7.3f}{score.recall:>7.3f}{score.f1:>7.3f}"
            f"{f'{score.found}/{score.gold}':>14}{f'{score.correct}/{score.system}':>16}"
        )
    lines += ["", f"{'field (found incidents)':<26}{'accuracy':>9}{'correct/total':>15}"]
    for name, acc in report.fields.items():
        value = "n/a" if acc.value is None else f"{acc.value:.3f}"
        lines.append(f"{name:<26}{value:>9}{f'{acc.correct}/{acc.total}':>15}")
    if report.grounding:
        lines += ["", f"{'grounding (see eval_grounding)':<32}{'share':>9}{'n/total':>12}"]
        for name, acc in report.grounding.items():
            value = "n/a" if acc.value is None else f"{acc.value:.3f}"
            lines.append(f"{name:<32}{value:>9}{f'{acc.correct}/{acc.total}':>12}")
    if report.quote_fields:
        lines += ["", f"{'field (found quotes)':<26}{'accuracy':>9}{'correct/total':>15}"]
        for name, acc in report.quote_fields.items():
            value = "n/a" if acc.value is None else f"{acc.value:.3f}"
            lines.append(f"{name:<26}{value:>9}{f'{acc.correct}/{acc.total}':>15}")
    if report.places:
        lines += ["", *eval_places.format_lines(report.places)]
    if report.missing_source_files:
        lines += ["", "gold files not in the database: " + ", ".join(report.missing_source_files)]
    lines += ["", f"overall F1 {report.overall_f1:.3f}"]
    return "\n".join(lines)


# ---------------------------------------------------------------- normalisation


def _fold(text: str) -> str:
    """Case, quote-mark and spacing fold used for names and speakers."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTE_FOLD)
    return _SPACE.sub(" ", text).strip().casefold()


def _words(text: str) -> str:
    """Words only, space-joined and padded, so containment respects word edges."""
    return " " + " ".join(_WORD.findall(_fold(text).replace("'", ""))) + " "


def _quote_chars(text: str) -> str:
    """Quote text with quote marks dropped and spacing collapsed, for overlap."""
    return _SPACE.sub(" ", _ALL_QUOTES.sub("", _fold(text))).strip(" ,")


def _overlap(gold: str, system: str) -> int:
    matcher = SequenceMatcher(None, gold, system, autojunk=False)
    return matcher.find_longest_match(0, len(gold), 0, len(system)).size


# ---------------------------------------------------------------- evaluation


@dataclass
class _GoldIncident:
    record: Record
    mentions: dict[str, list[str]]  # source_file -> word strings of its mentions


@dataclass
class _SysIncident:
    record: Record
    mentions: dict[str, list[str]]  # in-scope source_file -> word strings of its mentions


def evaluate(
    gold: Sequence[Record],
    documents: Sequence[Record],
    incidents: Sequence[Record],
    quotes: Sequence[Record],
    entities: Sequence[Record],
    places: Mapping[str, Sequence[Record]] | None = None,
) -> EvalReport:
    """Score exported system records against gold records (see module docstring);
    `places` (document_id -> PlaceRef dicts) is scored on gold `place` records."""
    from corroborator.eval_quotes import score_quote_fields

    by_kind: dict[str, list[Record]] = {kind: [] for kind in GOLD_KINDS}
    for record in gold:
        by_kind[record["kind"]].append(record)
    scope = _gold_source_files(gold)
    docs = [d for d in documents if d.get("source_file") in scope]
    file_of = {d["document_id"]: d["source_file"] for d in documents if d.get("document_id")}
    aliases = _alias_table(by_kind["entity"])

    gold_incidents = [
        _GoldIncident(r, _group_words((m["source_file"], m["quote"]) for m in r["mentions"]))
        for r in by_kind["incident"]
    ]
    texts = {d["document_id"]: d.get("text") or "" for d in docs if d.get("document_id")}
    sys_incidents = [_system_incident(r, scope, file_of, texts) for r in incidents]
    sys_incidents = [s for s in sys_incidents if s.mentions]

    incident_score, best = _score_incidents(gold_incidents, sys_incidents)
    incident_score.scored = bool(gold_incidents)
    links = _score_links(gold_incidents, sys_incidents)
    links.scored = bool(gold_incidents)
    quote_scores = _score_quotes(by_kind["quote"], quotes, scope, file_of, aliases)
    story = _score_stories(by_kind["same_story"], docs)
    entity = _score_entities(by_kind["entity"], entities)
    return EvalReport(
        incidents=incident_score,
        cross_document_links=links,
        quotes=quote_scores[0],
        quotes_with_speaker=quote_scores[1],
        same_story=story,
        entities=entity,
        fields=_score_fields(best, aliases),
        grounding=_grounding([s.record for s in sys_incidents], best),
        source_files=sorted(scope),
        missing_source_files=sorted(scope - {d["source_file"] for d in docs}),
        quote_fields=score_quote_fields(by_kind["quote"], quotes, scope, file_of, aliases),
        places=eval_places.score_places(gold, docs, places or {}) if by_kind["place"] else None,
    )


def _gold_source_files(gold: Iterable[Record]) -> set[str]:
    files: set[str] = set()
    for record in gold:
        if record["kind"] == "incident":
            files.update(m["source_file"] for m in record["mentions"])
        elif record["kind"] == "quote":
            files.add(record["source_file"])
        elif record["kind"] == "same_story":
            files.update(record["source_files"])
        elif record["kind"] == eval_places.KIND:
            files.add(record["source_file"])
    return files


def _group_words(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for source_file, text in pairs:
        grouped.setdefault(source_file, []).append(_words(text))
    return grouped


def _system_incident(
    record: Record, scope: set[str], file_of: Mapping[str, str], texts: Mapping[str, str]
) -> _SysIncident:
    pairs = []
    for mention in record.get("mentions") or []:
        source_file = mention.get("source_file") or file_of.get(mention.get("document_id", ""))
        if source_file not in scope:
            continue
        text = mention.get("text")
        if text is None and mention.get("start") is not None:
            text = texts.get(mention.get("document_id", ""), "")[mention["start"] : mention["end"]]
        pairs.append((source_file, text or ""))
    return _SysIncident(record, _group_words(pairs))


def _holds(system: _SysIncident, gold: _GoldIncident, source_file: str) -> bool:
    """Whether a system mention in this file contains one of the gold mentions' words."""
    return any(
        g in s for s in system.mentions.get(source_file, []) for g in gold.mentions[source_file]
    )


def _score_incidents(
    gold: Sequence[_GoldIncident], system: Sequence[_SysIncident]
) -> tuple[Score, list[tuple[_GoldIncident, _SysIncident]]]:
    score = Score(gold=sum(len(g.mentions) for g in gold))
    score.system = sum(len(s.mentions) for s in system)
    correct: set[tuple[int, str]] = set()
    best: list[tuple[_GoldIncident, _SysIncident]] = []
    in_file: dict[str, list[int]] = {}
    for i, s in enumerate(system):
        for source_file in s.mentions:
            in_file.setdefault(source_file, []).append(i)
    for g in gold:
        hits: dict[int, int] = {}
        for source_file in g.mentions:
            finders = [
                i
                for i in in_file.get(source_file, [])
                if system[i].record.get("type") == g.record["type"]
                and _holds(system[i], g, source_file)
            ]
            score.found += bool(finders)
            for i in finders:
                correct.add((i, source_file))
                hits[i] = hits.get(i, 0) + 1
        if hits:
            # The field scores compare the system incident that is most purely this one:
            # most files found, then fewest mentions of other things, then a fixed order.
            top = max(
                hits,
                key=lambda i: (hits[i], -_other_mentions(system[i], g), -i),
            )
            best.append((g, system[top]))
    score.correct = len(correct)
    return score, best


def _other_mentions(system: _SysIncident, gold: _GoldIncident) -> int:
    """How many of the system incident's mentions hold none of the gold mentions' words."""
    return sum(
        not any(g in m for g in gold.mentions.get(source_file, []))
        for source_file, ms in system.mentions.items()
        for m in ms
    )


def _score_links(gold: Sequence[_GoldIncident], system: Sequence[_SysIncident]) -> Score:
    score = Score()
    gold_links = [(g, a, b) for g in gold for a, b in combinations(sorted(g.mentions), 2)]
    score.gold = len(gold_links)
    score.found = sum(
        any(_holds(s, g, a) and _holds(s, g, b) for s in system) for g, a, b in gold_links
    )
    for s in system:
        for a, b in combinations(sorted(s.mentions), 2):
            score.system += 1
            score.correct += any(
                a in g.mentions and b in g.mentions and _holds(s, g, a) and _holds(s, g, b)
                for g in gold
            )
    return score


def _score_quotes(
    gold: Sequence[Record],
    system: Sequence[Record],
    scope: set[str],
    file_of: Mapping[str, str],
    aliases: Mapping[str, frozenset[str]],
) -> tuple[Score, Score]:
    plain, spoken = (
        Score(gold=len(gold), scored=bool(gold)),
        Score(gold=len(gold), scored=bool(gold)),
    )
    by_file: dict[str, list[tuple[int, str, Record]]] = {}
    for q in system:
        source_file = q.get("source_file") or file_of.get(q.get("document_id", ""))
        if source_file in scope:
            entry = (plain.system, _quote_chars(q.get("text") or ""), q)
            by_file.setdefault(source_file, []).append(entry)
            plain.system += 1
    spoken.system = plain.system
    edges: dict[int, list[int]] = {}
    speaker_edges: dict[int, list[int]] = {}
    for gi, g in enumerate(gold):
        g_text = _quote_chars(g["text"])
        for si, q_text, q in by_file.get(g["source_file"], []):
            if 2 * _overlap(g_text, q_text) < len(g_text):
                continue
            edges.setdefault(gi, []).append(si)
            if speaker_matches(q.get("speaker"), g.get("speaker"), aliases):
                speaker_edges.setdefault(gi, []).append(si)
    plain.found = plain.correct = _max_matching(edges)
    spoken.found = spoken.correct = _max_matching(speaker_edges)
    return plain, spoken


def _max_matching(edges: Mapping[int, list[int]]) -> int:
    """Size of a maximum one-to-one matching (Kuhn's augmenting paths; inputs are small)."""
    owner: dict[int, int] = {}

    def augment(g: int, seen: set[int]) -> bool:
        for s in edges[g]:
            if s in seen:
                continue
            seen.add(s)
            if s not in owner or augment(owner[s], seen):
                owner[s] = g
                return True
        return False

    return sum(augment(g, set()) for g in edges)


def _alias_table(entities: Sequence[Record]) -> dict[str, frozenset[str]]:
    """Folded name or alias -> every folded form of its gold entity."""
    table: dict[str, frozenset[str]] = {}
    for entity in entities:
        forms = frozenset(_fold(a) for a in [entity["name"], *(entity.get("aliases") or [])])
        for form in forms:
            table.setdefault(form, forms)
    return table


def speaker_matches(
    system: str | None, gold: str | None, aliases: Mapping[str, frozenset[str]]
) -> bool:
    """Whether a system speaker names the gold speaker.

    Names: equal to the gold name or an alias of its gold entity, or ending in its
    surname (last word; also the first word of three-word names, for Russian name
    order), so "Wagner boss Prigozhin" names Yevgeny Prigozhin.
    Descriptions ("captured Russian soldier (Kharkiv)"): same head noun outside the
    gold's parenthesis, and either the system's words all in the gold's (parenthesis
    included: it is the annotator's disambiguation) or at least half the gold's
    modifiers present ("20-year-old air assault trooper" ~ "Russian air assault trooper").
    """
    if not system or not gold:
        return False
    sys_form, gold_form = _fold(system), _fold(gold)
    forms = aliases.get(gold_form, frozenset({gold_form}))
    if sys_form in forms:
        return True
    if _is_name(gold):
        sys_keys = (
            _surname_keys(sys_form) if _is_name(system) else set(_WORD.findall(sys_form)[-1:])
        )
        return any(sys_keys & _surname_keys(form) for form in forms)
    return _description_matches(sys_form, gold_form)


def _is_name(text: str) -> bool:
    words = text.split()
    return bool(words) and "(" not in text and all(w[:1].isupper() for w in words)


def _surname_keys(form: str) -> set[str]:
    words = _WORD.findall(form)
    if not words:
        return set()
    return {words[-1], words[0]} if len(words) >= 3 else {words[-1]}


def _description_matches(system: str, gold: str) -> bool:
    sys_words = _content_words(system)
    core, full = _content_words(_PAREN.sub(" ", gold)), _content_words(gold)
    if not sys_words or not core or _head(sys_words) != _head(core):
        return False
    if set(sys_words) <= set(full):
        return True
    head = {_head(core)}
    modifiers = set(core) - head
    return 2 * len(modifiers & set(sys_words)) >= len(modifiers)


def _content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text) if w not in _DETERMINERS]


def _head(words: list[str]) -> str:
    for i, word in enumerate(words):
        if word in _HEAD_BREAKS and i:
            return words[i - 1]
    return words[-1]


def _score_stories(gold: Sequence[Record], docs: Sequence[Record]) -> Score:
    gold_pairs = {
        frozenset(pair)
        for record in gold
        for pair in combinations(sorted(set(record["source_files"])), 2)
    }
    stories: dict[str, set[str]] = {}
    for d in docs:
        if d.get("story_id") is not None:
            stories.setdefault(d["source_file"], set()).add(str(d["story_id"]))
    system_pairs = {
        frozenset((a, b)) for a, b in combinations(sorted(stories), 2) if stories[a] & stories[b]
    }
    return Score(
        found=len(gold_pairs & system_pairs),
        gold=len(gold_pairs),
        correct=len(gold_pairs & system_pairs),
        system=len(system_pairs),
        scored=bool(gold),
    )


def _score_entities(gold: Sequence[Record], system: Sequence[Record]) -> Score:
    owner: dict[str, int] = {}
    gold_sets: list[set[str]] = []
    for gi, entity in enumerate(gold):
        forms = {_fold(a) for a in [*(entity.get("aliases") or []), entity["name"]]}
        forms = {f for f in forms if owner.setdefault(f, gi) == gi}
        gold_sets.append(forms)
    system_sets = [
        {_fold(a) for a in [e.get("name") or "", *(e.get("aliases") or [])]} & owner.keys()
        for e in system
    ]
    score = Score(gold=sum(len(s) for s in gold_sets), scored=bool(gold))
    for forms in gold_sets:
        candidates = [s for s in system_sets if s & forms]
        if not candidates:
            continue
        top = max(candidates, key=lambda s: (len(s & forms), -len(s - forms)))
        score.found += len(top & forms)
        score.system += len(top)
    score.correct = score.found
    return score


def _score_fields(
    best: Sequence[tuple[_GoldIncident, _SysIncident]], aliases: Mapping[str, frozenset[str]]
) -> dict[str, Accuracy]:
    fields = {
        name: Accuracy() for name in ("killed_low", "killed_high", "location", "date", "status")
    }
    for g_incident, s_incident in best:
        g, s = g_incident.record, s_incident.record
        g_killed, s_killed = g.get("killed") or {}, s.get("killed") or {}
        fields["killed_low"].add(g_killed.get("low") == s_killed.get("low"))
        fields["killed_high"].add(g_killed.get("high") == s_killed.get("high"))
        fields["location"].add(_location_matches(g.get("location"), s.get("location"), aliases))
        fields["date"].add(_date_matches(g.get("date"), s.get("date")))
        fields["status"].add(g.get("status") == s.get("status"))
    return fields


def _grounding(
    incidents: Sequence[Record], best: Sequence[tuple[_GoldIncident, _SysIncident]]
) -> dict[str, Accuracy]:
    """Field-span share and hedge attachment (see eval_grounding)."""
    from corroborator import eval_grounding

    spans, hedges = Accuracy(), Accuracy()
    for ok in eval_grounding.field_span_checks(incidents):
        spans.add(ok)
    pairs = [(g.record, s.record) for g, s in best]
    for ok in eval_grounding.hedge_checks(pairs, _words):
        hedges.add(ok)
    return {"field_spans": spans, "hedges_attached": hedges}


def _location_matches(
    gold: Mapping[str, Any] | None,
    system: Mapping[str, Any] | None,
    aliases: Mapping[str, frozenset[str]],
) -> bool:
    gold_name, sys_name = (gold or {}).get("name"), (system or {}).get("name")
    if not gold_name or not sys_name:
        return not gold_name and not sys_name
    sys_form, gold_form = _fold(sys_name), _fold(gold_name)
    parts = {gold_form, *(p.strip() for p in _PLACE_LIST.split(gold_form) if p.strip())}
    return any(sys_form in aliases.get(part, frozenset({part})) for part in parts)


def _date_matches(gold: Mapping[str, Any] | None, system: Mapping[str, Any] | None) -> bool:
    gold_start, sys_start = (
        first_day((gold or {}).get("start")),
        first_day((system or {}).get("start")),
    )
    if gold_start is None or sys_start is None:
        return gold_start is None and sys_start is None
    precision = (gold or {}).get("precision")
    if precision == "year":
        return sys_start.year == gold_start.year
    if precision == "month":
        return (sys_start.year, sys_start.month) == (gold_start.year, gold_start.month)
    if precision == "week":
        return sys_start.isocalendar()[:2] == gold_start.isocalendar()[:2]
    return sys_start == gold_start
