"""Fetch + archive + ingest throughput on loopback (pages/s), without NLP, then with it.

    python benchmarks/fetch.py [N ...]

A real http.server on 127.0.0.1 serves N distinct HTML articles; one `fetch` run
captures them all into one WARC (rate limit off), archives it and ingests it. The
extraction figure runs the full pipeline on the smallest N; the capture figure is
the HTTP side alone (safety checks, raw recording, WARC writing).
"""

from __future__ import annotations

import random
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from click.testing import CliRunner
from ingest import WORDS  # the benchmark vocabulary beside this script

from corroborator.cli import cli
from corroborator.fetch.client import Client, Limits
from corroborator.fetch.run import CaptureRun
from corroborator.fetch.warcfile import write_warc


def article(i: int) -> bytes:
    rng = random.Random(i)
    paras = "".join(
        "<p>" + " ".join(rng.choice(WORDS) for _ in range(80)) + ".</p>" for _ in range(5)
    )
    return (
        f"<html><head><title>Report {i}</title>"
        "<meta property='article:published_time' content='2023-04-02'></head>"
        f"<body><nav>Home | World</nav><article><h1>Report {i}</h1>{paras}</article>"
        "</body></html>"
    ).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        body = article(int(self.path.strip("/").split(".")[0]))
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def run(base: str, n: int, extract: bool, offset: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        urls = [f"{base}/{offset + i}.html" for i in range(n)]
        args = ["--db", db, "fetch", "--allow-private", "--rate", "0", "--quiet", *urls]
        if not extract:
            args.insert(-n, "--no-extract")
        t0 = time.perf_counter()
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        elapsed = time.perf_counter() - t0
        if result.exit_code != 0 or f"{n} new document(s) stored" not in result.output:
            raise SystemExit(f"fetch failed: {result.output}")
    return elapsed


def capture_only(base: str, n: int) -> float:
    """HTTP GETs under the safety rules plus writing the WARC, no archive or ingest."""
    run = CaptureRun()
    client = Client(Limits(rate=0), allow_private=True)
    t0 = time.perf_counter()
    for i in range(n):
        run.capture_page(client, f"{base}/{i}.html")
    with tempfile.TemporaryDirectory() as tmp:
        write_warc(Path(tmp) / "x.warc.gz", run.exchanges)
    if len(run.pages) != n:
        raise SystemExit(f"capture failed: {run.failures[:3]}")
    return time.perf_counter() - t0


def main(sizes: list[int]) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        for n in sizes:
            s = capture_only(base, n)
            print(f"capture (HTTP + WARC) N={n:>5}: {s:6.2f} s  {n / s:7.1f} pages/s")
            s = run(base, n, extract=False, offset=0)
            print(f"fetch+archive+ingest  N={n:>5}: {s:6.2f} s  {n / s:7.1f} pages/s")
        n = min(sizes)
        s = run(base, n, extract=True, offset=100_000)
        print(
            f"fetch+ingest+extract  N={n:>5}: {s:6.2f} s  {n / s:7.1f} pages/s (incl. model load)"
        )
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 1000])
