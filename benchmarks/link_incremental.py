"""Full relink versus linking one new document into a database of N documents.

Documents come from the generator in `link.py` and are stored through the Store API with
synthetic extraction payloads shaped like `models.Extraction` (entity mentions, places,
one incident per event report, a quote), so no NLP runs. For each size, in a fresh
process: build the database, time the full relink (which also writes the link state),
then add one new event report and then its edited copy, timing each incremental relink.

    python benchmarks/link_incremental.py [1000 10000 100000]

Synthetic places carry no country, so incident blocks are per town; with one country for
every report the full relink's incident step grows with the square of a (type, country,
year) block, which this benchmark does not measure.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from link import make_corpus  # noqa: E402

from corroborator.linking.build import relink  # noqa: E402
from corroborator.storage.db import Store, now, open_store  # noqa: E402

VERSION = "synthetic"
TYPE_OF = {
    "shelling": "attack_populated_area",
    "air strike": "attack_populated_area",
    "detention": "abduction_detention",
    "execution": "killing_civilians",
}
_KILLED = re.compile(r"killing (\d+) people|At least (\d+) civilians")


def _span(text: str, words: str) -> dict[str, Any] | None:
    at = text.find(words)
    return {"start": at, "end": at + len(words), "text": words} if at >= 0 else None


def payload(doc: dict[str, Any], mentions: list[tuple[str, str, str]]) -> dict[str, Any]:
    """An Extraction-shaped record for one synthetic document (exact offsets)."""
    text = str(doc["text"])
    entities, places = [], []
    for _, surface, kind in mentions:
        span = _span(text, surface)
        if span is None:
            continue
        entities.append({**span, "kind": kind, "label": "", "canonical": ""})
        if kind == "place":
            is_region = surface.endswith("ia")
            geo = int(hashlib.sha1(surface.encode()).hexdigest()[:7], 16) if is_region else None
            places.append(
                {
                    **span,
                    "name": surface,
                    "geonames_id": geo,
                    "lat": 48.0 if geo else None,
                    "lon": 37.0 if geo else None,
                    "admin1": surface if is_region else None,
                    "country": None,
                    "precision": "admin1" if is_region else "settlement",
                }
            )
    lead = text.split(". ")[0] + "."
    incidents, quotes = [], []
    killed = _KILLED.search(lead)
    town = next((p for p in places if p["precision"] == "settlement"), None)
    if killed and town:
        n = int(killed.group(1) or killed.group(2))
        kind = next((k for k in TYPE_OF if k in text[:400]), "shelling")
        day = str(doc["published"])
        incidents.append(
            {
                "type": TYPE_OF[kind],
                "mentions": [{"start": 0, "end": len(lead), "text": lead}],
                "perpetrators": [],
                "victims": ["civilians"],
                "killed": {"low": n, "high": n, "approx": False},
                "wounded": {"low": None, "high": None, "approx": False},
                "location": {
                    "name": town["name"],
                    "geonames_id": None,
                    "lat": None,
                    "lon": None,
                    "admin1": None,
                    "country": None,
                    "precision": "settlement",
                },
                "date": {"start": day, "end": day, "precision": "day"},
                "evidence_types": ["official_statement"],
                "status": "alleged",
                "hedges": [],
                "summary": "",
                "sources": {},
            }
        )
    q = re.search(r'"(This was a deliberate [^"]+)," (\w+) told', text)
    if q:
        quotes.append(
            {
                "start": q.start(1),
                "end": q.end(1),
                "text": q.group(1),
                "speaker": q.group(2),
                "speaker_role": "official",
                "stance": "asserts",
            }
        )
    return {"entities": entities, "places": places, "incidents": incidents, "quotes": quotes}


def add(store: Store, doc: dict[str, Any], mentions: list[tuple[str, str, str]]) -> str:
    text = str(doc["text"])
    sha = hashlib.sha256(text.encode()).hexdigest()
    doc_id = sha[:16]
    store.add_document(
        {
            "document_id": doc_id,
            "sha256": sha,
            "source_file": f"{doc['id']}.txt",
            "url": None,
            "title": None,
            "outlet": f"outlet{int(sha[:2], 16) % 40}",
            "published": doc["published"],
            "language": "en",
            "ingested_at": now(),
            "archive_sha256": ARCHIVE_SHA,
            "archive_start": None,
            "archive_end": None,
            "media_type": "text/plain",
            "text": text,
            "offset_map": "[]",
            "text_sha256": sha,
        }
    )
    store.save_extraction(doc_id, VERSION, payload(doc, mentions))
    return doc_id


ARCHIVE_SHA = "0" * 64


def run(n_docs: int) -> dict[str, float]:
    docs, mentions = make_corpus(n_docs + 5)  # one more event
    by_doc: dict[str, list[tuple[str, str, str]]] = {}
    for m in mentions:
        by_doc.setdefault(m[0], []).append(m)
    out: dict[str, float] = {"docs": n_docs}
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(str(Path(tmp) / "bench.db"))
        store.add_archive_file(ARCHIVE_SHA, "synthetic.bin", 0, "synthetic")
        t = time.perf_counter()
        for i in range(0, n_docs, 1000):
            with store.transaction():
                for d in docs[i : min(i + 1000, n_docs)]:
                    add(store, d, by_doc.get(str(d["id"]), []))
        out["build_s"] = time.perf_counter() - t
        full = relink(store)
        out["full_s"] = full.seconds
        out["incidents"] = len(full.incidents)
        for name, d in (("new", docs[n_docs]), ("copy", docs[n_docs + 1])):
            doc_id = add(store, d, by_doc.get(str(d["id"]), []))
            links = relink(store, [doc_id])
            assert links.mode == "incremental", links.mode
            out[f"{name}_s"] = links.seconds
            out[f"{name}_is_copy"] = float(doc_id in links.duplicate_of)
        store.close()
    return out


def main(sizes: list[int]) -> None:
    print(
        f"{'docs':>7} {'build s':>8} {'full s':>8} {'+1 new s':>9} {'+1 copy s':>9} "
        f"{'full/new':>9}  copy found",
        flush=True,
    )
    rows = []
    for n in sizes:
        res = subprocess.run(
            [sys.executable, __file__, "--one", str(n)], capture_output=True, text=True
        )
        if res.returncode != 0:
            print(f"{n:>7} failed: {res.stderr.strip().splitlines()[-1:]}", flush=True)
            continue
        row = json.loads(res.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(
            f"{row['docs']:>7.0f} {row['build_s']:>8.1f} {row['full_s']:>8.2f} "
            f"{row['new_s']:>9.3f} {row['copy_s']:>9.3f} {row['full_s'] / row['new_s']:>9.0f}  "
            f"{'yes' if row['copy_is_copy'] else 'no'}",
            flush=True,
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(run(int(sys.argv[2]))))
    else:
        main([int(a) for a in sys.argv[1:]] or [1000, 10000, 100000])
