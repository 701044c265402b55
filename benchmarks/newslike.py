"""A varied corpus of news-like articles for speed measurements.

Grammatical sentences (the parser and tagger slow down or speed up on word salad, so
pseudo-text would mismeasure them) assembled from many templates: leads, attributed and
multi-paragraph quotes, casualty figures in several forms, dates with and without a year,
hedges, denials, background and page furniture, with names, places and units drawn at
random. The project's own written texts (examples/, tests/fixtures/) are added first.
"""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GIVEN = ["Ivan", "Olena", "Taras", "Amina", "Yusuf", "Maria", "Aung", "Fatima", "Pedro", "Lina"]
FAMILY = ["Kovalenko", "Haddad", "Mensah", "Petrov", "Osman", "Tun", "Rahimi", "Silva", "Bondar"]
PLACES = [
    ("Kharkiv", "Ukraine"),
    ("Kherson", "Ukraine"),
    ("Izium", "Ukraine"),
    ("El Fasher", "Sudan"),
    ("Nyala", "Sudan"),
    ("Khan Younis", "Gaza"),
    ("Idlib", "Syria"),
    ("Aleppo", "Syria"),
    ("Sagaing", "Myanmar"),
    ("Goma", "Congo"),
    ("Mopti", "Mali"),
    ("Mekelle", "Ethiopia"),
    ("Taiz", "Yemen"),
]
FORCES = [
    "Russian troops",
    "the Rapid Support Forces",
    "government forces",
    "an armed group",
    "the military",
    "militia fighters",
    "soldiers of the 40th brigade",
]
VICTIMS = ["civilians", "children", "residents", "prisoners", "detainees", "farmers", "patients"]
ACTS = [
    ("shelled", "the central market"),
    ("struck", "a school used as a shelter"),
    ("raided", "the village"),
    ("fired on", "a column of cars"),
    ("bombed", "the hospital"),
    ("detained", "dozens of men"),
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September"]
OUTLETS = ["Daily Monitor", "The Ledger", "Frontline News", "Regional Post", "Wire Service"]
HEDGES = [
    "The claims could not be independently verified.",
    "It was not possible to confirm the figures.",
    "The account could not be checked independently.",
    "Reuters was unable to verify the footage.",
]
FURNITURE = [
    "Home | World | Politics | Support us",
    "Share this article",
    "Subscribe to our newsletter",
    "Read more: Aid convoy reaches the city",
]


def _count(rng: random.Random) -> str:
    low = rng.randint(3, 300)
    return rng.choice(
        [
            f"{low}",
            f"at least {low}",
            f"about {low}",
            f"between {low} and {low + rng.randint(5, 80)}",
            "dozens of",
            "more than a hundred",
            "two",
            "seven",
        ]
    )


def _name(rng: random.Random) -> str:
    return f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}"


def article(rng: random.Random) -> str:
    place, country = rng.choice(PLACES)
    force = rng.choice(FORCES)
    verb, target = rng.choice(ACTS)
    victims = rng.choice(VICTIMS)
    day, month = rng.randint(1, 28), rng.choice(MONTHS)
    year = rng.choice(["", f" {rng.randint(2015, 2025)}"])
    witness, official = _name(rng), _name(rng)
    paras = []
    if rng.random() < 0.3:
        paras.append(rng.choice(FURNITURE))
    paras.append(
        f"{place}, {country} - {force.capitalize()} {verb} {target} in {place} on {day} "
        f"{month}{year}, killing {_count(rng)} {victims} and wounding {_count(rng)} others, "
        f"local officials said on {rng.choice(['Monday', 'Tuesday', 'Friday'])}."
    )
    paras.append(
        f"“We heard the first explosion just after dawn, and then the second one,” said "
        f"{witness}, who lives two streets away. “People were running everywhere. My "
        f"neighbour’s children were under the rubble.”"
    )
    if rng.random() < 0.5:
        paras.append(
            f"{witness.split()[0]} said the {victims} had gathered to collect water when the "
            f"attack began. ‘They knew people were there,’ {witness.split()[1]} told the "
            f"{rng.choice(OUTLETS)}."
        )
    paras.append(
        f"{official}, the regional governor, said in a statement that {_count(rng)} people "
        f"remained missing and that rescue teams were still searching the site."
    )
    paras.append(rng.choice(HEDGES))
    if rng.random() < 0.6:
        paras.append(
            f"A spokesman for {force} denied targeting {victims}, saying the strike had hit "
            f"a military position. “These are lies,” he said."
        )
    if rng.random() < 0.5:
        paras.append(
            f"The attack was the latest in a series of strikes on {place} since "
            f"{rng.choice(MONTHS)}, when fighting in the area intensified. Aid groups have "
            f"warned that more than {rng.randint(2, 90)},000 people have fled the district."
        )
    if rng.random() < 0.3:
        paras.append(
            f"In a video published by investigators, a captured soldier said his commander "
            f"had ordered the unit to “take no prisoners”. He said he did not know "
            f"what had happened to {rng.choice(['two', 'five', 'eleven'])} men detained with him."
        )
    if rng.random() < 0.3:
        paras.append(rng.choice(FURNITURE))
    return "\n\n".join(paras) + "\n"


def project_texts() -> list[str]:
    """Articles the project wrote for its tests and examples (plain-text ones)."""
    folders = [ROOT / "examples", ROOT / "tests" / "fixtures"]
    return [
        p.read_text(encoding="utf-8")
        for folder in folders
        if folder.is_dir()
        for p in sorted(folder.rglob("*.txt"))
    ]


def corpus(n: int, seed: int = 11) -> list[str]:
    """`n` texts: the project's own first, then generated articles."""
    rng = random.Random(seed)
    texts = project_texts()[:n]
    while len(texts) < n:
        texts.append(article(rng))
    return texts
