"""Incidents page render time on a database of synthetic incidents (goal: under 1 s).

Usage: python benchmarks/web.py [N]   (default 10,000 incidents)
Rows are inserted directly into `incidents` in contract shape, spread over a few stored
documents, so the page, filter and sort paths run on realistic record sizes.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from corroborator.models import INCIDENT_TYPES, STATUSES
from corroborator.storage.db import Store, open_store

PLACES = [
    ("Town A", 48.6, 38.0),
    ("Village B", 47.1, 37.5),
    ("City C", 50.4, 30.5),
    ("Hamlet D", 49.9, 36.3),
    ("Port E", 46.6, 32.6),
    (None, None, None),
]
GROUPS = ["Group North", "Unit 12", "Battalion East", "Militia West"]


def synthetic_incident(n: int, rng: random.Random, doc_ids: list[str]) -> dict[str, Any]:
    place, lat, lon = rng.choice(PLACES)
    day = f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    killed = rng.choice([None, 1, 3, 12, 40, 300])
    docs = rng.sample(doc_ids, k=min(len(doc_ids), rng.randint(1, 3)))
    return {
        "incident_id": f"i{n:012d}",
        "type": rng.choice(INCIDENT_TYPES),
        "summary": f"Synthetic incident {n} reported near {place or 'an unknown place'}.",
        "perpetrators": [{"name": rng.choice(GROUPS), "entity_id": None}],
        "victims": ["civilians"],
        "killed": {"low": killed, "high": killed, "approx": False},
        "wounded": {"low": None, "high": None, "approx": False},
        "location": {
            "name": place,
            "geonames_id": None,
            "lat": lat,
            "lon": lon,
            "admin1": None,
            "country": "Ukraine" if place else None,
            "precision": "settlement" if place else "unknown",
        },
        "date": {"start": day, "end": day, "precision": rng.choice(["day", "month"])},
        "evidence_types": ["journalism"],
        "status": rng.choice(STATUSES),
        "hedges": [],
        "corroboration": {
            "documents": len(docs),
            "independent_sources": len(docs),
            "score": round(rng.random(), 3),
        },
        "contradictions": []
        if rng.random() > 0.1
        else [
            {
                "field": "killed",
                "values": [
                    {"value": 3, "document_id": docs[0]},
                    {"value": 5, "document_id": docs[-1]},
                ],
            }
        ],
        "mentions": [
            {
                "document_id": d,
                "source_file": "synthetic.txt",
                "start": 0,
                "end": 10,
                "text": "x" * 10,
            }
            for d in docs
        ],
    }


def fill(store: Store, n: int, doc_ids: list[str], seed: int = 7) -> None:
    rng = random.Random(seed)
    rows = []
    for k in range(n):
        i = synthetic_incident(k, rng, doc_ids)
        c = i["corroboration"]
        rows.append(
            (
                i["incident_id"],
                i["type"],
                i["status"],
                c["score"],
                c["documents"],
                c["independent_sources"],
                1 if i["contradictions"] else 0,
                i["date"]["start"],
                i["location"]["name"],
                json.dumps(i),
            )
        )
    with store.transaction():
        store.executemany(
            "INSERT INTO incidents (incident_id, type, status, score, documents, independent_sources,"
            " has_contradiction, date_start, place, record) VALUES (?,?,?,?,?,?,?,?,?,?)",
            rows,
        )


def main() -> None:
    from fastapi.testclient import TestClient

    from corroborator.web.app import create_app

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        store = open_store(db)
        fill(store, n, ["d0000000000a", "d0000000000b", "d0000000000c"])
        store.close()
        client = TestClient(create_app(db, Path(tmp) / "bench.archive"))
        client.get("/")  # warm templates and connection
        for label, url in [
            ("incidents page", "/"),
            ("sorted by date", "/?sort=date"),
            ("filtered (type+text)", "/?type=killing_civilians&q=town"),
            ("filtered (perpetrator)", "/?perpetrator=unit"),
            ("page 100", "/?page=100"),
            ("api page", "/api/incidents"),
            ("map", "/map"),
            ("timeline", "/timeline"),
        ]:
            t0 = time.perf_counter()
            resp = client.get(url)
            ms = (time.perf_counter() - t0) * 1000
            assert resp.status_code == 200, resp.text[:200]
            print(f"{label:<24} {ms:8.1f} ms  ({len(resp.content) // 1024} KiB)")


if __name__ == "__main__":
    main()
