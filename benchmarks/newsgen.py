"""Varied synthetic news reports for the fault benchmarks (crash, fuzz, load).

Written for these benchmarks, not taken from any seed: wire-style reports of shelling,
detentions and killings in invented places, with quotes, numbers, dates, accented and
Cyrillic names, curly quotes, CRLF or BOM now and then, so readers and normalisation see
the mixture real collections hold. Every document is distinct (unique bytes).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path

PLACES = [
    "Novoselivka",
    "Kamianka",
    "Bérénice-sur-Oise",
    "Stara Zhuravka",
    "Tal al-Hamra",
    "Marivka",
    "Ust-Ilimsk",
    "Piedra Negra",
    "Zelenyi Hai",
    "Дубове",
    "Al-Qasr",
    "Borova",
]
GROUPS = [
    "the 64th Motor Rifle Brigade",
    "a volunteer battalion",
    "militia fighters",
    "government troops",
    "the Storm-Z unit",
    "unidentified gunmen",
    "border guards",
    "a private military company",
]
OUTLETS = [
    "Kyiv Ledger",
    "Sahel Wire",
    "Northern Dispatch",
    "Radio Free Valley",
    "The Morning Courier",
    "Agence Lumière",
]
PEOPLE = [
    "Olena Marchenko",
    "Ahmed Salih",
    "Jean-Luc Ferrand",
    "Iryna Kovalchuk",
    "Тарас Бондар",
    "María José Ortega",
    "Dmytro Hnatiuk",
    "Fatoumata Diallo",
]
ROLES = ["a local official", "a nurse", "a former detainee", "a regional governor", "a witness"]
EVENTS = [
    "{group} shelled residential streets in {place}, killing {n} civilians and wounding {m}.",
    "At least {n} men were detained by {group} near {place} and have not been seen since.",
    "Rockets hit a school and a hospital in {place} on {date}, local authorities said.",
    "Witnesses said {group} executed {n} prisoners of war outside {place}.",
    "Between {n} and {m} people were killed when an air strike hit the market in {place}.",
    "Residents of {place} said {group} forced about {n} families from their homes.",
    "The bodies of {n} civilians with their hands tied were found in a cellar in {place}.",
    "{group} denied any involvement in the killings in {place}.",
]
DETAILS = [
    "The claims could not be independently verified.",
    "Officials said the toll was likely to rise as rubble was cleared.",
    "A spokesperson for {group} called the reports fabricated.",
    "Human rights investigators said they had collected {n} testimonies.",
    "Satellite images reviewed by {outlet} showed burned buildings along the main road.",
    "The regional prosecutor opened a war-crimes investigation on {date}.",
    "Aid groups said {m} people were still missing.",
]
QUOTES = [
    "“They took my brother at the checkpoint and we never heard from him again,” said {person}, {role}.",
    '"We counted {n} bodies in the square," {person}, {role}, told {outlet}.',
    "‘Nobody warned us before the shelling started,’ said {person}.",
    '"There were no military targets here," said {person}, {role}.',
]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


@dataclass(frozen=True)
class Report:
    key: str  # file name (txt) or record id (JSONL)
    title: str
    outlet: str
    published: str
    text: str


def _fill(template: str, rng: random.Random) -> str:
    n = rng.choice([2, 3, 5, 7, 12, 19, 24, 40, 85, 130, 300])
    return template.format(
        group=rng.choice(GROUPS),
        place=rng.choice(PLACES),
        n=n,
        m=n + rng.choice([1, 4, 10, 55]),
        date=f"{rng.randint(1, 28)} {rng.choice(MONTHS)}",
        outlet=rng.choice(OUTLETS),
        person=rng.choice(PEOPLE),
        role=rng.choice(ROLES),
    )


def report(i: int, rng: random.Random) -> Report:
    """One report; `i` makes the dateline (and so the bytes) unique."""
    place = rng.choice(PLACES)
    year, month, day = rng.choice([2022, 2023, 2024]), rng.randint(1, 12), rng.randint(1, 28)
    outlet = rng.choice(OUTLETS)
    paragraphs = [
        f"{place.upper()}, {day} {MONTHS[month - 1]} (report {i}) — "
        + _fill(rng.choice(EVENTS), rng)
    ]
    for _ in range(rng.randint(2, 9)):
        pool = rng.choice([EVENTS, DETAILS, QUOTES, DETAILS])
        sentences = [_fill(rng.choice(pool), rng) for _ in range(rng.randint(1, 3))]
        paragraphs.append(" ".join(sentences))
    title = _fill(rng.choice(EVENTS), rng).split(",")[0].rstrip(".")
    return Report(
        key=f"report_{i:05d}",
        title=title,
        outlet=outlet,
        published=f"{year}-{month:02d}-{day:02d}",
        text="\n\n".join(paragraphs),
    )


def txt_bytes(r: Report, rng: random.Random) -> bytes:
    body = f"{r.title}\n\n{r.text}\n"
    if rng.random() < 0.1:
        body = body.replace("\n", "\r\n")
    data = body.encode("utf-8")
    return (b"\xef\xbb\xbf" + data) if rng.random() < 0.05 else data


def jsonl_line(r: Report) -> bytes:
    obj = {"id": r.key, "title": r.title, "outlet": r.outlet, "published": r.published}
    obj["text"] = r.text
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def write_corpus(folder: Path, n: int, seed: int = 7, jsonl_share: float = 0.3) -> dict[str, str]:
    """`n` reports as .txt files plus one `wire.jsonl`; returns source_file -> SHA-256 of the
    bytes that document's record is hashed from (the file, or its JSONL line)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    expected: dict[str, str] = {}
    lines: list[bytes] = []
    for i in range(n):
        r = report(i, rng)
        if rng.random() < jsonl_share:
            line = jsonl_line(r)
            lines.append(line)
            expected[r.key] = hashlib.sha256(line).hexdigest()
        else:
            name = f"{r.key}.txt"
            data = txt_bytes(r, rng)
            (folder / name).write_bytes(data)
            expected[name] = hashlib.sha256(data).hexdigest()
    if lines:
        (folder / "wire.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    return expected
