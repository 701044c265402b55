"""Scale check for linking: copies, entity resolution and stories at 1k/10k/100k documents.

Documents are generated from templates with varied names, places, numbers and wording:
each event gets a wire report, an edited copy, an independent paraphrase and a follow-up,
and look-alike events share type, region or people. Each size runs in a fresh process so
peak memory (ru_maxrss) is that size's own. Linking must grow near-linearly (blocked,
never all-pairs).

    python benchmarks/link_scale.py [1000 10000 100000]
"""

from __future__ import annotations

import datetime as dt
import json
import random
import resource
import subprocess
import sys
import time

from corroborator.linking import copies, names, stories

CONS, VOWS = "bdfgklmnprstvz", "aeiou"
SUFFIX = ["enko", "chuk", "ov", "sky", "in", "yk"]
GIVEN = ["Ivan", "Petro", "Olena", "Mariya", "Taras", "Andriy", "Yevgeny", "Oleksandr"]
VARIANT = {"Yevgeny": "Evgeniy", "Oleksandr": "Aleksandr", "Mariya": "Maria", "Andriy": "Andrei"}
TYPES = [
    ("shelling", "shells hit", "artillery strike on"),
    ("air strike", "a missile struck", "bombing of"),
    ("detention", "soldiers detained", "abduction of"),
    ("execution", "troops executed", "killing of"),
]
TARGETS = ["the market", "a school", "the hospital", "a bus stop", "apartment blocks", "a shelter"]
GENERAL = [
    "officials",
    "said",
    "residents",
    "night",
    "town",
    "streets",
    "claims",
    "verified",
    "civilians",
    "front",
    "line",
    "attack",
    "reported",
    "according",
    "local",
    "authorities",
    "war",
    "forces",
    "region",
    "damage",
    "houses",
    "people",
    "morning",
    "evening",
    "killed",
]


def sentence(rng: random.Random, topic: list[str], vocab: list[str]) -> str:
    """A pseudo-sentence: general news words, the event's own topic words, long-tailed vocabulary."""
    words = [
        rng.choice(topic)
        if r < 0.25
        else rng.choice(GENERAL)
        if r < 0.55
        else vocab[min(len(vocab) - 1, int(rng.expovariate(1 / 3000)))]
        for r in (rng.random() for _ in range(rng.randint(12, 22)))
    ]
    return " ".join(words).capitalize() + "."


def word(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(CONS) + rng.choice(VOWS) for _ in range(n)).capitalize()


def make_corpus(
    n_docs: int, seed: int = 7
) -> tuple[list[dict[str, object]], list[tuple[str, str, str]]]:
    """Docs (id, text, published) and entity mentions (doc, surface, kind)."""
    rng = random.Random(seed)
    n_events = max(1, n_docs // 5)
    people = [
        (rng.choice(GIVEN), word(rng, 3) + rng.choice(SUFFIX)) for _ in range(n_events // 2 + 1)
    ]
    towns = [
        word(rng, 3) + rng.choice(["ivka", "ske", "ove", "yn"]) for _ in range(n_events // 3 + 1)
    ]
    regions = [word(rng, 3) + "ia" for _ in range(200)]
    start = dt.date(2022, 2, 24)
    vocab = [word(rng, rng.randint(2, 4)).lower() for _ in range(20000)]
    docs: list[dict[str, object]] = []
    mentions: list[tuple[str, str, str]] = []
    for e in range(n_events):
        kind, verb, noun = rng.choice(TYPES)
        town, region = rng.choice(towns), rng.choice(regions)
        given, sur = rng.choice(people)
        killed, target = rng.randint(2, 60), rng.choice(TARGETS)
        day = start + dt.timedelta(days=rng.randint(0, 900))
        lead = (
            f"{verb.capitalize()} {target} in {town} in the {region} region on "
            f"{day:%B %d}, killing {killed} people, governor {given} {sur} said."
        )
        topic = [word(rng, rng.randint(3, 5)).lower() for _ in range(8)] + [town, sur]
        body = " ".join(sentence(rng, topic, vocab) for _ in range(6))
        quote = f'"This was a deliberate {kind} of civilians," {sur} told reporters.'
        edited = " ".join(w if rng.random() > 0.03 else rng.choice(GENERAL) for w in body.split())
        other_topic = [word(rng, rng.randint(3, 5)).lower() for _ in range(8)]

        def fresh(n: int, words: list[str] = topic) -> str:
            return " ".join(sentence(rng, words, vocab) for _ in range(n))

        variants = [
            (lead + " " + quote + " " + body, day),
            (lead.replace("said", "told local media") + " " + quote + " " + edited, day),
            (
                f"At least {killed} civilians died after the {noun} {target} of {town}, "
                f"{region} governor {VARIANT.get(given, given)} {sur} reported. " + fresh(5),
                day,
            ),
            (
                f"The death toll from the {kind} in {town} rose to {killed + rng.randint(1, 9)}, "
                f"{sur} said on {day + dt.timedelta(days=1):%A}. " + fresh(4),
                day + dt.timedelta(days=1),
            ),
            (  # look-alike: same region and type, different town and weeks later
                f"{verb.capitalize()} {rng.choice(TARGETS)} in {rng.choice(towns)} in the {region} "
                f"region, killing {rng.randint(1, 9)} people, officials said. "
                + fresh(5, other_topic),
                day + dt.timedelta(days=rng.randint(20, 60)),
            ),
        ]
        for v, (text, when) in enumerate(variants):
            doc_id = f"e{e}v{v}"
            docs.append({"id": doc_id, "text": text, "published": when.isoformat()})
            surname_form = (
                sur if v == 3 else f"{VARIANT.get(given, given) if v == 2 else given} {sur}"
            )
            if v < 4:
                mentions.append((doc_id, surname_form, "person"))
                mentions.append((doc_id, town, "place"))
            mentions.append((doc_id, region, "place"))
    return docs[:n_docs], [m for m in mentions if int(m[0][1:].split("v")[0]) * 5 < n_docs]


def run(n_docs: int) -> dict[str, float]:
    docs, mentions = make_corpus(n_docs)
    out: dict[str, float] = {"docs": len(docs), "mentions": len(mentions)}

    t = time.perf_counter()
    index = copies.CopyIndex()
    texts: dict[str, str] = {}
    dup: dict[str, str] = {}
    for d in docs:
        doc_id, text = str(d["id"]), str(d["text"])
        sig = copies.signature(text)
        hit = copies.find_original(doc_id, text, sig, index, texts)
        if hit:
            dup[doc_id] = hit[0]
        texts[doc_id] = text
        index.add(doc_id, sig, text)
    out["copies_s"] = time.perf_counter() - t
    out["copies_found"] = len(dup)

    t = time.perf_counter()
    clusters = names.resolve(mentions)
    out["names_s"] = time.perf_counter() - t
    out["entities"] = len(clusters)

    t = time.perf_counter()
    keys: dict[str, dict[str, set[str]]] = {}
    for c in clusters:
        for m in c.members:
            keys.setdefault(mentions[m][0], {}).setdefault(c.kind, set()).add(c.name)
    sdocs = [
        stories.StoryDoc(
            str(d["id"]),
            str(d["text"]),
            str(d["published"]),
            tuple(keys.get(str(d["id"]), {}).get("person", ())),
            tuple(keys.get(str(d["id"]), {}).get("place", ())),
            dup.get(str(d["id"])),
        )
        for d in docs
    ]
    assigned = stories.assign_stories(sdocs)
    out["stories_s"] = time.perf_counter() - t
    gold = {
        str(d["id"]): str(d["id"]).split("v")[0] + ("L" if str(d["id"]).endswith("v4") else "")
        for d in docs
    }
    p, r, f1 = stories.pairwise_prf(assigned, gold)
    out.update(story_p=p, story_r=r, story_f1=f1, stories=len(set(assigned.values())))
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main(sizes: list[int]) -> None:
    rows = []
    for n in sizes:
        res = subprocess.run(
            [sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True
        )
        rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
    print(
        f"{'docs':>7} {'copies s':>9} {'names s':>8} {'stories s':>9} {'total s':>8} "
        f"{'peak MB':>8} {'story F1':>8} {'x/10x':>6}"
    )
    prev = None
    for row in rows:
        total = row["copies_s"] + row["names_s"] + row["stories_s"]
        growth = f"{total / prev:6.1f}" if prev else "     -"
        print(
            f"{row['docs']:>7.0f} {row['copies_s']:>9.1f} {row['names_s']:>8.1f} "
            f"{row['stories_s']:>9.1f} {total:>8.1f} {row['peak_rss_mb']:>8.0f} "
            f"{row['story_f1']:>8.3f} {growth}"
        )
        prev = total
    print(json.dumps(rows))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(run(int(sys.argv[2]))))
    else:
        main([int(a) for a in sys.argv[1:]] or [1000, 10000, 100000])
