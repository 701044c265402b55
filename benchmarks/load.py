"""Web load: concurrent clients on loopback against a real `corroborator serve` process.

    python benchmarks/load.py [--clients 50] [--seconds 30] [--docs 40] [--writes 0.1]
                              [--pg postgresql://...] [--no-sqlite]

A small generated corpus is ingested (with extraction) through the CLI, then every page
and API route is read by `--clients` threads for `--seconds`, a `--writes` share of the
requests being review writes through the API (confirm/reject/correct, with the CSRF
token). Per backend: requests/s, p50/p99 latency, errors (goal 0), and review records
written vs acknowledged (goal equal: counted in the database afterwards), then `verify`.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

import corroborator
from corroborator.ingest.archive import Archive
from corroborator.storage.db import archive_root_for, open_store
from corroborator.verify import verify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash import free_port, wait_up  # noqa: E402
from newsgen import write_corpus  # noqa: E402

SRC = str(Path(corroborator.__file__).resolve().parents[1])
REVIEWER = "load bench"


@dataclass
class Backend:
    name: str
    env: dict[str, str]

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "corroborator", *args],
            env=self.env,
            capture_output=True,
            text=True,
        )


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    acknowledged: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def routes(client: httpx.Client) -> list[str]:
    """Every page and GET API route, with ids and filters taken from the served data."""
    incidents = [
        i["incident_id"] for i in client.get("/api/incidents?per_page=500").json()["items"]
    ]
    docs = [d["document_id"] for d in client.get("/api/documents?per_page=500").json()["items"]]
    if not incidents or not docs:
        raise SystemExit("the load corpus produced no incidents or documents")
    out = [
        "/",
        "/?sort=-date&type=killing_civilians",
        "/?q=shelling&min_sources=1",
        "/entities",
        "/entities?kind=place",
        "/map",
        "/timeline",
        "/openapi.json",
        "/api/incidents",
        "/api/incidents?status=alleged&sort=date&per_page=10&page=2",
        "/api/incidents?place=a&date_from=2022&date_to=2024-12-31",
        "/api/documents",
        "/api/documents?q=witness&outlet=Sahel%20Wire",
        "/api/quotes",
        "/api/quotes?role=witness",
        "/api/entities",
        "/api/entities?kind=person&q=o",
        "/api/reviews",
        "/api/csrf",
    ]
    out += [f"/incidents/{i}" for i in incidents[:20]] + [
        f"/api/incidents/{i}" for i in incidents[:20]
    ]
    out += [f"/documents/{d}" for d in docs[:20]] + [f"/api/documents/{d}" for d in docs[:20]]
    return out


def review_body(rng: random.Random, incidents: list[str]) -> dict[str, object]:
    action = rng.choice(["confirm", "reject", "correct"])
    body: dict[str, object] = {
        "action": action,
        "target": rng.choice(incidents),
        "reviewer": REVIEWER,
        "reason": "" if action == "confirm" else f"load check {uuid.uuid4().hex[:6]}",
    }
    if action == "correct":
        body["payload"] = {"field": "killed", "value": {"low": rng.randint(0, 9), "high": 10}}
    return body


def client_loop(
    base: str,
    paths: list[str],
    incidents: list[str],
    until: float,
    writes: float,
    seed: int,
    res: Result,
) -> None:
    rng = random.Random(seed)
    lat: list[float] = []
    errors: Counter[str] = Counter()
    acked: list[str] = []
    with httpx.Client(base_url=base, timeout=60) as client:
        token = client.get("/api/csrf").json()["csrf"]
        while time.perf_counter() < until:
            write = rng.random() < writes
            t0 = time.perf_counter()
            try:
                if write:
                    r = client.post(
                        "/api/reviews",
                        json=review_body(rng, incidents),
                        headers={"X-CSRF-Token": token},
                    )
                else:
                    path = rng.choice(paths)
                    r = client.get(path)
            except httpx.HTTPError as exc:
                errors[type(exc).__name__] += 1
                continue
            lat.append(time.perf_counter() - t0)
            if write and r.status_code == 201:
                acked.append(r.json()["review_id"])
            elif r.status_code >= 400 or (write and r.status_code != 201):
                errors[f"{r.status_code} {r.request.method} {r.url.path}: {r.text[:120]}"] += 1
    with res.lock:
        res.latencies += lat
        res.errors.update(errors)
        res.acknowledged += acked


def run_backend(b: Backend, corpus: Path, clients: int, seconds: float, writes: float) -> None:
    t0 = time.perf_counter()
    done = b.cli("ingest", "--quiet", str(corpus))
    if done.returncode != 0:
        raise SystemExit(f"{b.name}: ingest failed: {done.stderr.strip()[-300:]}")
    setup = time.perf_counter() - t0
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "corroborator", "serve", "--port", str(port)],
        env=b.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_up(base, server)
        with httpx.Client(base_url=base, timeout=60) as c:
            paths = routes(c)
            incidents = [
                i["incident_id"] for i in c.get("/api/incidents?per_page=500").json()["items"]
            ]
        res = Result()
        start = time.perf_counter()
        until = start + seconds
        threads = [
            threading.Thread(
                target=client_loop, args=(base, paths, incidents, until, writes, n, res)
            )
            for n in range(clients)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            _, err = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
    store = open_store(b.env["CORROBORATOR_DB"])
    rows = store.rows("SELECT review_id FROM reviews WHERE reviewer = ?", (REVIEWER,))
    written = {r["review_id"] for r in rows}
    ledgered = store.one("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'review'")
    root = b.env.get("CORROBORATOR_ARCHIVE")
    report = verify(store, Archive(Path(root) if root else archive_root_for(store.url)))
    store.close()
    lat = sorted(res.latencies)
    n = len(lat)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(n - 1, int(n * 0.99))] * 1000 if lat else 0.0
    errors = sum(res.errors.values())
    missing = sum(1 for r in res.acknowledged if r not in written)
    print(
        f"{b.name:<10} {clients} clients {elapsed:5.1f} s: {n} requests, {n / elapsed:6.1f}"
        f" req/s, p50 {p50:6.1f} ms, p99 {p99:7.1f} ms, errors {errors}"
        f"  (ingest of the corpus {setup:.0f} s, {len(paths)} routes)"
    )
    print(
        f"{'':<10} reviews acknowledged {len(res.acknowledged)}, written {len(written)}"
        f" (ledger review entries {ledgered['n'] if ledgered else 0}), acknowledged but"
        f" missing {missing}; verify {'OK' if report.ok else report.problems[:3]}"
    )
    for what, count in res.errors.most_common(5):
        print(f"{'':<10} error x{count}: {what}")
    tail = [ln for ln in err.decode(errors="replace").splitlines() if ln.strip()]
    for line in tail[-5:]:
        print(f"{'':<10} server stderr: {line[:200]}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--docs", type=int, default=40)
    ap.add_argument("--writes", type=float, default=0.1, help="share of requests that write")
    ap.add_argument("--pg", help="a PostgreSQL server URL: the same load on a fresh database there")
    ap.add_argument("--no-sqlite", action="store_true")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    base_env = {**os.environ, "PYTHONPATH": SRC}
    base_env.pop("CORROBORATOR_ARCHIVE", None)
    with tempfile.TemporaryDirectory(prefix="load-") as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        write_corpus(corpus, args.docs, args.seed)
        backends = []
        if not args.no_sqlite:
            backends.append(
                Backend("sqlite", {**base_env, "CORROBORATOR_DB": str(work / "load.db")})
            )
        if args.pg:
            env = {**base_env, "CORROBORATOR_DB": fresh_database(args.pg)}
            env["CORROBORATOR_ARCHIVE"] = str(work / "pg.archive")
            backends.append(Backend("postgresql", env))
        try:
            for b in backends:
                run_backend(b, corpus, args.clients, args.seconds, args.writes)
        finally:
            if args.pg:
                drop_database(args.pg, backends[-1].env["CORROBORATOR_DB"])


def fresh_database(server_url: str) -> str:
    """A new empty database on the server `server_url` points at; returns its URL."""
    import psycopg

    name = "load_" + uuid.uuid4().hex[:10]
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + "/" + name


def drop_database(server_url: str, url: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {url.rsplit('/', 1)[1]} WITH (FORCE)")


if __name__ == "__main__":
    main()
