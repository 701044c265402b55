"""What a cluster of reports adds up to: sources, disagreements, status and one summary.

An investigator needs to know how many *independent* sources stand behind an incident, not
how many articles repeat it: copies count as their original, and reports that cite the same
origin (one video, one press release, one intercept) collapse to that origin. Merged fields
keep the most specific value the reports support, and every disagreement stays visible.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from corroborator.linking.copies import origin_key
from corroborator.linking.incidents import (
    IncidentItem,
    date_interval,
    is_person_name,
    place_relation,
    range_bounds,
    same_actor,
)
from corroborator.models import (
    EVIDENCE_TYPES,
    PLACE_PRECISIONS,
    VICTIM_GROUPS,
    DateRange,
    Location,
    Range,
)

Cluster = Sequence[IncidentItem]


@dataclass(frozen=True)
class Corroboration:
    documents: int
    independent_sources: int
    score: float


@dataclass
class MergedIncident:
    """One incident's fields merged across its reports (see `merge_fields`)."""

    type: str
    perpetrators: list[str] = field(default_factory=list)
    victims: list[str] = field(default_factory=list)
    killed: Range = field(default_factory=Range)
    wounded: Range = field(default_factory=Range)
    location: Location = field(default_factory=Location)
    date: DateRange = field(default_factory=DateRange)
    evidence_types: list[str] = field(default_factory=list)
    hedges: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- sources


def originals(cluster: Cluster) -> list[IncidentItem]:
    """One report per original text: a copy stands in only when its original is absent."""
    by_root: dict[str, IncidentItem] = {}
    for item in sorted(cluster, key=lambda it: (it.duplicate_of is not None, it.key)):
        by_root.setdefault(item.root, item)
    return sorted(by_root.values(), key=lambda it: it.key)


def source_keys(cluster: Cluster) -> list[str]:
    """Independent sources: cited origins, else the outlet, else the original document.

    A report citing origins counts as those origins (two outlets relaying one video are one
    source: names are compared by `copies.origin_key`, so "Security Service of Ukraine" and
    "Ukrainian Security Service" are one); a report citing none is its outlet's own
    reporting (one outlet once; a forward counts under the channel it repeats). Reports
    carrying the same photograph or video are one source (`_same_material`). Returns the
    names as cited, for people to read.
    """
    origins_by_root: dict[str, set[str]] = {}
    for item in cluster:
        origins_by_root.setdefault(item.root, set()).update(item.origins)
    labels: dict[str, str] = {}  # origin key -> the name as first cited
    for group in _same_material(originals(cluster), cluster, origins_by_root):
        cited = set().union(*(origins_by_root[item.root] for item in group))
        for name in sorted(cited):
            labels.setdefault(origin_key(name), name)
        if not cited:
            key = _outlet_key(group[0])
            labels.setdefault(key, key)
    return sorted(labels.values())


def _outlet_key(item: IncidentItem) -> str:
    outlet = item.source_outlet or item.outlet
    return f"outlet:{outlet.lower()}" if outlet else f"document:{item.root}"


def _same_material(
    docs: list[IncidentItem], cluster: Cluster, origins_by_root: dict[str, set[str]]
) -> list[list[IncidentItem]]:
    """Original reports grouped when they carry one picture or video, or (citing nothing)
    come from one outlet: each group is one source. Without media every report is its own
    group, so counting is exactly as before media were known."""
    media_by_root: dict[str, set[str]] = {}
    for item in cluster:
        media_by_root.setdefault(item.root, set()).update(item.media)
    parent = list(range(len(docs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, item in enumerate(docs):
        keys = {f"media:{m}" for m in media_by_root.get(item.root, ())}
        if not origins_by_root[item.root]:
            keys.add(_outlet_key(item))
        for key in sorted(keys):
            if key in first:
                parent[find(i)] = find(first[key])
            else:
                first[key] = i
    groups: dict[int, list[IncidentItem]] = {}
    for i, item in enumerate(docs):
        groups.setdefault(find(i), []).append(item)
    return list(groups.values())


def corroboration(cluster: Cluster) -> Corroboration:
    """`score = (0.6 * (1 - 0.5**n) + 0.4 * (1 - 0.6**k)) * (1 - 0.3 * h)`.

    n = independent sources, k = distinct evidence types across the reports (confession,
    document, intercept, ...), h = share of original reports that carry a hedge ("could not
    independently verify"). One source with one kind of evidence scores 0.46; three sources
    with three kinds 0.84; the score stays in [0, 1).
    """
    docs = originals(cluster)
    n = len(source_keys(cluster))
    k = len({e for item in cluster for e in item.incident.evidence_types})
    h = sum(1 for item in docs if item.incident.hedges) / len(docs) if docs else 0.0
    score = (0.6 * (1 - 0.5**n) + 0.4 * (1 - 0.6**k)) * (1 - 0.3 * h) if docs else 0.0
    return Corroboration(documents=len(docs), independent_sources=n, score=round(score, 3))


# ---------------------------------------------------------------- contradictions


def _range_value(r: Range) -> dict[str, Any]:
    return {"low": r.low, "high": r.high, "approx": r.approx}


def _ranges_disagree(a: Range, b: Range) -> bool:
    """Disjoint even with a 10% margin (20% for approximate figures): "about 40" and
    "dozens" agree, 2 and 1 disagree. Looser than linking, so merged reports that still
    differ are shown."""
    ba, bb = range_bounds(a, 0.1), range_bounds(b, 0.1)
    return ba is not None and bb is not None and (ba[1] < bb[0] or bb[1] < ba[0])


def _dates_disagree(a: DateRange, b: DateRange) -> bool:
    ia, ib = date_interval(a), date_interval(b)
    return ia is not None and ib is not None and (ia[1] < ib[0] or ib[1] < ia[0])


def contradictions(cluster: Cluster) -> list[dict[str, Any]]:
    """Fields where two original reports state incompatible values.

    A contradiction is listed when at least one pair of reports disagrees (disjoint figures,
    disjoint dates, places neither of which contains the other, perpetrator lists with no
    name in common); its `values` then list every report's value so the reviewer sees all.
    Compatible but different precision ("hundreds" vs 300-400, February vs 18 February,
    Bakhmut vs Donetsk Oblast) is not a contradiction.
    """
    docs = originals(cluster)
    out: list[dict[str, Any]] = []

    def check(name: str, known: list[tuple[Any, IncidentItem]], disagree: Any, show: Any) -> None:
        if any(disagree(a, b) for i, (a, _) in enumerate(known) for b, _ in known[i + 1 :]):
            values = [{"value": show(v), "document_id": it.document_id} for v, it in known]
            out.append({"field": name, "values": values})

    for name in ("killed", "wounded"):
        known = [(getattr(it.incident, name), it) for it in docs]
        known = [(r, it) for r, it in known if r.low is not None or r.high is not None]
        check(name, known, _ranges_disagree, _range_value)
    dates = [(it.incident.date, it) for it in docs if date_interval(it.incident.date)]
    check(
        "date",
        dates,
        _dates_disagree,
        lambda d: {"start": d.start, "end": d.end, "precision": d.precision},
    )
    places = [
        (it.incident.location, it) for it in docs if it.incident.location.precision != "unknown"
    ]
    check(
        "location",
        places,
        lambda a, b: place_relation(a, b) in ("incompatible", "near"),
        lambda loc: loc.name,
    )
    perps = [(it.incident.perpetrators, it) for it in docs if it.incident.perpetrators]
    check(
        "perpetrators",
        perps,
        lambda a, b: not any(same_actor(x, y) for x in a for y in b),
        list,
    )
    return out


# ---------------------------------------------------------------- status


def _denies(item: IncidentItem) -> bool:
    return item.incident.status in ("denied", "disputed")


def _asserts(item: IncidentItem) -> bool:
    return item.incident.status != "denied"


def status(cluster: Cluster) -> str:
    """confessed > confirmed > denied (only denials) > disputed > corroborated > alleged.

    A perpetrator's admission outweighs the accused organisation's denial; `confirmed` needs
    an outlet saying it verified the incident itself, never mere repetition.
    """
    states = {it.incident.status for it in cluster}
    if "confessed" in states:
        return "confessed"
    if "confirmed" in states:
        return "confirmed"
    if cluster and not any(_asserts(it) for it in cluster):
        return "denied"
    if any(_denies(it) for it in cluster):
        return "disputed"
    if len(source_keys(cluster)) >= 2:
        return "corroborated"
    return "alleged"


def _names(items: Sequence[IncidentItem]) -> str:
    names = sorted({it.outlet or it.source_file or it.document_id for it in items})
    return ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def explain_status(cluster: Cluster) -> str:
    """One or two sober sentences: who claims it, who denies it, how many sources, hedges."""
    st = status(cluster)
    docs = originals(cluster)
    sources = source_keys(cluster)
    accused = ", ".join(merge_perpetrators(cluster)) or "the accused"
    asserting = [it for it in docs if _asserts(it)]
    denying = [it for it in docs if _denies(it)]
    if st == "confessed":
        n = sum(1 for it in docs if it.incident.status == "confessed")
        first = f"Confessed: a perpetrator's admission is reported in {n} of {_plural(len(docs), 'report')}"
    elif st == "confirmed":
        who = _names([it for it in docs if it.incident.status == "confirmed"])
        first = f"Confirmed: {who} state that they verified it"
    elif st == "denied":
        first = f"Denied: the reports carry only denials by {accused} ({_names(denying)})"
    elif st == "disputed":
        first = (
            f"Disputed: alleged by {_names(asserting)} and denied by {accused} ({_names(denying)})"
        )
    elif st == "corroborated":
        first = (
            f"Corroborated: reported by {_names(asserting)} from {len(sources)} independent sources"
        )
    else:
        first = f"Alleged by {_names(asserting or docs)}; not independently corroborated"
    if st in ("confessed", "confirmed") and denying:
        first += f", although {accused} deny it ({_names(denying)})"
    second = (
        f"{_plural(len(sources), 'independent source')} ({', '.join(sources[:4])}) "
        f"across {_plural(len(docs), 'original report')}"
    )
    hedges = merge_hedges(cluster)
    if hedges:
        second += "; hedged: " + "; ".join(f"'{h}'" for h in hedges[:3])
    return f"{first}. {second[0].upper()}{second[1:]}."


# ---------------------------------------------------------------- merged fields


def _width(r: Range) -> float:
    if r.low is None or r.high is None:
        return float("inf")
    return (r.high - r.low) / max(r.low, 1) + (0.2 if r.approx else 0.0)


def merge_range(cluster: Cluster, name: str) -> Range:
    """The figure of the most independent (original, most evidence), most specific report."""
    known = [
        it
        for it in cluster
        if getattr(it.incident, name).low is not None or getattr(it.incident, name).high is not None
    ]
    if not known:
        return Range()
    best = min(
        known,
        key=lambda it: (
            it.duplicate_of is not None,
            round(_width(getattr(it.incident, name)), 2),
            -len(set(it.incident.evidence_types)),
            it.key,
        ),
    )
    found: Range = getattr(best.incident, name)
    return found


def merge_location(cluster: Cluster) -> Location:
    """The most precise place compatible with the most reports."""
    locs = [it.incident.location for it in cluster if it.incident.location.precision != "unknown"]
    if not locs:
        return Location()

    def support(loc: Location) -> int:
        return sum(1 for o in locs if place_relation(loc, o) not in ("incompatible", "near"))

    return min(
        locs, key=lambda loc: (-support(loc), PLACE_PRECISIONS.index(loc.precision), loc.name or "")
    )


def merge_date(cluster: Cluster) -> DateRange:
    """The narrowest date compatible with the most reports."""
    dates = [it.incident.date for it in cluster if date_interval(it.incident.date)]
    if not dates:
        return DateRange()

    def width(d: DateRange) -> int:
        iv = date_interval(d)
        return (iv[1] - iv[0]).days if iv else 10**6

    return min(
        dates,
        key=lambda d: (
            -sum(1 for o in dates if not _dates_disagree(d, o)),
            width(d),
            d.start or "",
        ),
    )


def merge_perpetrators(cluster: Cluster) -> list[str]:
    """Union of names with spelling variants folded: the fullest, most frequent form wins."""
    counts = Counter(p.strip() for it in cluster for p in it.incident.perpetrators if p.strip())
    groups: list[list[str]] = []
    for name in sorted(counts, key=lambda n: (-len(n.split()), -counts[n], n)):
        for group in groups:
            if same_actor(group[0], name):
                group.append(name)
                break
        else:
            groups.append([name])
    reps = [max(g, key=lambda n: (len(n.split()) >= 2, counts[n], len(n), n)) for g in groups]
    order = {name: i for i, name in enumerate(counts)}
    return sorted(reps, key=lambda n: (is_person_name(n), order[n]))


def merge_hedges(cluster: Cluster) -> list[str]:
    seen: dict[str, str] = {}
    for it in cluster:
        for h in it.incident.hedges:
            seen.setdefault(h.text.lower().strip(), h.text.strip())
    return list(seen.values())


def merge_fields(cluster: Cluster) -> MergedIncident:
    types = Counter(it.incident.type for it in cluster)
    return MergedIncident(
        type=min(types, key=lambda t: (-types[t], t)) if types else "other",
        perpetrators=merge_perpetrators(cluster),
        victims=[v for v in VICTIM_GROUPS if any(v in it.incident.victims for it in cluster)],
        killed=merge_range(cluster, "killed"),
        wounded=merge_range(cluster, "wounded"),
        location=merge_location(cluster),
        date=merge_date(cluster),
        evidence_types=[
            e for e in EVIDENCE_TYPES if any(e in it.incident.evidence_types for it in cluster)
        ],
        hedges=merge_hedges(cluster),
    )


# ---------------------------------------------------------------- summary sentence

_NOUNS = {
    "civilians": ("civilian", "civilians"),
    "children": ("child", "children"),
    "women": ("woman", "women"),
    "elderly": ("elderly person", "elderly people"),
    "prisoners_of_war": ("prisoner of war", "prisoners of war"),
    "wounded": ("wounded person", "wounded people"),
    "own_soldiers": ("soldier", "its own soldiers"),  # "1 soldier ... by their own side"
    "deserters": ("deserter", "deserters"),
    "detainees": ("detainee", "detainees"),
}
# Which victim group heads the phrase, by incident type (the rest follow "including").
_HEADS = {
    "killing_captives": ("prisoners_of_war", "detainees", "wounded", "civilians"),
    "killing_own_forces": ("own_soldiers", "deserters", "civilians"),
    "coercion_of_troops": ("own_soldiers", "deserters"),
}
_GENERAL_HEADS = ("civilians", "prisoners_of_war", "detainees", "own_soldiers", "deserters")
_SPECIFIC_FIRST = ("children", "women", "elderly", "prisoners_of_war", "detainees", "deserters")
# type -> (active verb phrase, passive verb phrase)
_VERBS = {
    "killing_civilians": ("killed", "killed"),
    "killing_captives": ("killed", "killed"),
    "no_quarter_order": ("ordered the killing of", "ordered killed"),
    "killing_own_forces": ("killed", "killed by their own side"),
    "torture_mistreatment": ("tortured or mistreated", "tortured or mistreated"),
    "attack_populated_area": ("attacked a populated area", "attacked"),
    "sexual_violence": ("committed sexual violence against", "subjected to sexual violence"),
    "abduction_detention": ("abducted or unlawfully detained", "abducted or unlawfully detained"),
    "deportation_transfer": (
        "deported or forcibly transferred",
        "deported or forcibly transferred",
    ),
    "coercion_of_troops": ("coerced", "coerced to fight"),
    "other": ("committed an alleged violation against", "subjected to an alleged violation"),
}
_DEFAULT_OBJECT = {
    "killing_captives": "captives",
    "killing_own_forces": "its own soldiers",
    "coercion_of_troops": "its own troops to fight",
    "no_quarter_order": "everyone in their way",
}


def _count(r: Range) -> str:
    if r.low is not None and r.high is not None:
        if r.low == r.high:
            return f"about {r.low}" if r.approx else str(r.low)
        return f"{r.low}-{r.high}"
    if r.low is not None:
        return f"at least {r.low}"
    if r.high is not None:
        return f"up to {r.high}"
    return ""


def _victims_phrase(victims: list[str], killed: Range, typ: str) -> tuple[str, bool]:
    """("300-400 civilians, including children", plural?) for the incident's victims."""
    number = _count(killed) if typ.startswith("killing") or typ == "attack_populated_area" else ""
    one = bool(number) and killed.low == 1 and killed.high == 1
    if one:
        head = next((v for v in _SPECIFIC_FIRST + VICTIM_GROUPS if v in victims), None)
        noun = _NOUNS[head][0] if head else {"killing_captives": "captive"}.get(typ, "person")
        return f"1 {noun}", False
    order = _HEADS.get(typ, ()) + _GENERAL_HEADS + ("wounded",)
    mains = [v for v in dict.fromkeys(order) if v in victims]
    subs = [_NOUNS[v][1] for v in ("children", "women", "elderly") if v in victims]
    if not mains and not subs:
        noun = _DEFAULT_OBJECT.get(typ, "people")
        return f"{number} {noun}".strip(), True
    if not mains:
        return f"{number} {_and(subs)}".strip(), True
    nouns = [_NOUNS[v][1] for v in mains]
    if len(mains) == 1:
        own = mains[0] == "own_soldiers" and number
        phrase = f"{number} {'of its own soldiers' if own else nouns[0]}".strip()
    else:
        phrase = f"{number} people, among them {_and(nouns)}" if number else _and(nouns)
    if subs:
        phrase += ", including " + _and(subs)
    return phrase, True


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _place(loc: Location) -> str:
    if loc.precision == "unknown" or not loc.name:
        return ""
    parts = [loc.name]
    if loc.admin1 and not loc.admin1.isdigit() and loc.admin1.lower() not in loc.name.lower():
        parts.append(loc.admin1)
    return "in " + ", ".join(parts)


def _when(d: DateRange) -> str:
    iv = date_interval(d)
    if iv is None:
        return ""
    start, end = iv

    def day(x: dt.date, year: bool = True) -> str:
        return f"{x.day} {x:%B}" + (f" {x.year}" if year else "")

    if d.precision == "year":
        return f"in {start.year}" if start.year == end.year else f"in {start.year}-{end.year}"
    if d.precision == "month" and (start.year, start.month) == (end.year, end.month):
        return f"in {start:%B} {start.year}"
    if start == end:
        return f"on {day(start)}"
    if d.precision == "week":
        return f"in the week of {day(start)}"
    return f"between {day(start, start.year != end.year)} and {day(end)}"


def summarize(merged: MergedIncident, status_: str = "alleged") -> str:
    """ "Wagner Group allegedly killed 300-400 civilians, including children, in Bakhmut,
    Donetsk, in February 2023." Every status but `confirmed` keeps "allegedly"; the word
    'confirmed' appears only when an outlet says it verified the incident."""
    active, passive = _VERBS.get(merged.type, _VERBS["other"])
    adverb = "" if status_ == "confirmed" else "allegedly "
    victims, plural = _victims_phrase(merged.victims, merged.killed, merged.type)
    tail = [t for t in (_place(merged.location), _when(merged.date)) if t]
    attack = merged.type == "attack_populated_area"
    if merged.perpetrators:
        core = f"{_and(merged.perpetrators[:3])} {adverb}{active}"
        if attack:
            core += f", killing {victims}" if _count(merged.killed) else ""
        elif merged.type == "no_quarter_order" and not merged.victims:
            core += " " + _DEFAULT_OBJECT["no_quarter_order"]
        else:
            core += f" {victims}"
    elif attack:
        core = f"A populated area was {adverb}attacked"
        core += f", killing {victims}" if _count(merged.killed) else ""
    else:
        core = f"{victims[0].upper()}{victims[1:]} {'were' if plural else 'was'} {adverb}{passive}"
    text = core
    for part in tail:
        text += (", " if "," in text else " ") + part
    if status_ == "confessed":
        text += "; a perpetrator has admitted it"
    elif status_ in ("denied", "disputed"):
        text += "; the accused deny it"
    elif status_ == "confirmed":
        text += ", confirmed by an outlet that verified it"
    return text + "."


def _supports(name: str, value: str, inc: Any, merged: MergedIncident) -> bool:
    """Whether one report's words for a field back the merged value (not a rival figure)."""
    if name in ("victims", "evidence_types"):
        return value in getattr(merged, name)
    if name == "type":
        return bool(inc.type == merged.type)
    if name in ("killed", "wounded", "location", "date"):
        return bool(getattr(inc, name) == getattr(merged, name))
    return True  # perpetrators (canonical names differ by spelling), status, hedges


def field_spans(cluster: Cluster, merged: MergedIncident) -> dict[str, list[dict[str, Any]]]:
    """Field -> the source words behind its merged value, from every report that gives it.

    Where no report gives the merged value itself (a range widened across reports), every
    report's words for the field are shown, so no extracted value is left without words."""
    strict: dict[str, list[dict[str, Any]]] = {}
    loose: dict[str, list[dict[str, Any]]] = {}
    for it in sorted(cluster, key=lambda it: it.key):
        for name, spans in it.incident.sources.items():
            for sp in spans:
                value = getattr(sp, "value", "")
                row = {
                    "document_id": it.document_id,
                    "source_file": it.source_file,
                    "start": sp.start,
                    "end": sp.end,
                    "text": sp.text,
                    "value": value,
                }
                loose.setdefault(name, []).append(row)
                if _supports(name, value, it.incident, merged):
                    strict.setdefault(name, []).append(row)
    return {name: strict.get(name) or rows for name, rows in loose.items()}


def incident_record(cluster: Cluster, incident_id: str) -> dict[str, Any]:
    """The contract's incident record for one cluster (entity ids are the caller's to add)."""
    from dataclasses import asdict

    merged = merge_fields(cluster)
    st = status(cluster)
    return {
        "incident_id": incident_id,
        "type": merged.type,
        "summary": summarize(merged, st),
        "perpetrators": [{"name": p, "entity_id": None} for p in merged.perpetrators],
        "victims": merged.victims,
        "killed": asdict(merged.killed),
        "wounded": asdict(merged.wounded),
        "location": asdict(merged.location),
        "date": asdict(merged.date),
        "evidence_types": merged.evidence_types,
        "status": st,
        "status_explanation": explain_status(cluster),
        "hedges": merged.hedges,
        "corroboration": asdict(corroboration(cluster)),
        "contradictions": contradictions(cluster),
        "field_spans": field_spans(cluster, merged),
        "mentions": [
            {
                "document_id": it.document_id,
                "source_file": it.source_file,
                "start": m.start,
                "end": m.end,
                "text": m.text,
            }
            for it in sorted(cluster, key=lambda it: it.key)
            for m in it.incident.mentions
        ],
    }
