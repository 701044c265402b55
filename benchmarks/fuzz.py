"""Reader fuzzing: every input reader fed hypothesis-generated files (valid-ish documents
mutated, random bytes, bad encodings, truncations, huge fields).

    python benchmarks/fuzz.py [--examples 100000] [--ingest-every 200] [--seed 7] [READER ...]

Per reader: inputs, accepted (at least one record), rejected, unhandled exceptions (goal
0), rejection messages that are not one line (goal 0), inputs/s. Every `--ingest-every`-th
input also goes through the real `ingest_paths` into a store that already holds a known
good document; at the end that document and `verify` must be intact.

A new reader is one line in READERS: its name, the file name ending that routes to it, and
a strategy of well-formed inputs (or `samples(path, ...)` of example files); the mutations
are shared.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test builders
from corroborator.errors import InputError
from corroborator.ingest.archive import Archive
from corroborator.ingest.readers import read_path
from corroborator.ingest.runner import ingest_paths
from corroborator.models import RawRecord, Rejection
from corroborator.storage.db import Store, archive_root_for, open_store
from corroborator.verify import verify
from pdf_report import build_pdf  # noqa: E402
from telegram_export import write_export  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from newsgen import report  # noqa: E402

# -- well-formed inputs --------------------------------------------------------------------
news = st.integers(0, 10**6).map(lambda i: report(i, random.Random(i)))
odd_text = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"])
    | st.sampled_from("\r\n\t\x00\x85\u2028\ufeff\u200b́"),
    max_size=200,
)
long_run = st.builds(
    lambda c, n: c * n,
    st.sampled_from(["x", "é", "\n", " ", "Ж", "<"]),
    st.sampled_from([1, 80, 5000, 60_000]),
)


@st.composite
def txt_docs(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 499)) == 0:  # now and then a huge one (2 MB on one line)
        return b"y" * 2_000_000
    text = draw(st.one_of(news.map(lambda r: r.text), odd_text, long_run))
    text += draw(odd_text)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    return (b"\xef\xbb\xbf" + data) if draw(st.booleans()) else data


@st.composite
def html_pages(draw: st.DrawFn) -> str:
    r = draw(news)
    paras = "".join(f"<p>{p}</p>" for p in r.text.split("\n\n"))
    depth = draw(st.sampled_from([0, 0, 0, 3, 50, 600]))
    body = "<div>" * depth + paras + "</div>" * draw(st.integers(0, depth))
    extra = draw(
        st.lists(
            st.sampled_from(
                [
                    "<script>alert(1)</script>",
                    "<!-- comment -->",
                    "&amp;&nbsp;&#x0;&#xD800;&bogus;",
                    "<img src=x onerror=alert(1)>",
                    "<![CDATA[ raw ]]>",
                    "<nav>Home | About | Contact</nav>",
                    "<footer>All rights reserved</footer>",
                    "</body></html><html>",
                    "<p>" + "Ѣ" * 5000 + "</p>",
                    "<table><tr><td>cell</td></tr></table>",
                ]
            ),
            max_size=4,
        )
    )
    date = draw(st.sampled_from([r.published, "2023-13-45", "yesterday", "", "0000-00-00"]))
    attr = draw(st.sampled_from(["", ' lang="uk"', ' lang="x"*20', ' lang="' + "e" * 3000 + '"']))
    return (
        f"<!doctype html><html{attr}><head><title>{r.title}</title>"
        f'<meta property="og:site_name" content="{r.outlet}">'
        f'<meta name="date" content="{date}"></head>'
        f"<body><article><h1>{r.title}</h1>{body}{''.join(extra)}</article></body></html>"
    )


def html_docs() -> st.SearchStrategy[bytes]:
    return st.one_of(html_pages(), odd_text.map(lambda t: f"<html><body>{t}</body></html>")).map(
        lambda s: s.encode("utf-8", "surrogatepass")
    )


json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    odd_text,
    st.sampled_from(["", "2023", "2023-05", "2023-05-06", "2023-5-6", "06/05/2023", "99999-01-01"]),
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(odd_text, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def json_objects(draw: st.DrawFn) -> Any:
    r = draw(news)
    obj: dict[str, Any] = {}
    for key, good in [
        ("id", r.key),
        ("text", r.text),
        ("title", r.title),
        ("outlet", r.outlet),
        ("published", r.published),
        ("url", f"https://example.org/{r.key}"),
        ("language", "en"),
    ]:
        choice = draw(st.integers(0, 9))
        if choice < 6:
            obj[key] = good
        elif choice < 8:
            obj[key] = draw(json_value)
    if draw(st.integers(0, 4)) == 0:
        obj["html"] = draw(html_pages())
    if draw(st.integers(0, 9)) == 0:
        return draw(json_value)
    return obj


def _dump(obj: Any, pretty: bool) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1 if pretty else None)


# raw JSON text no serialiser would write: what hostile or broken exporters produce
json_oddities = st.sampled_from(
    [
        "[" * 50_000 + "]" * 50_000,
        '{"text": ' * 5000 + '"x"' + "}" * 5000,
        '{"id": ' + "9" * 5000 + ', "text": "digits"}',
        '{"text": "lone \\ud800 surrogate"}',
        '{"id": "a\\nb", "text": "id with a newline"}',
        '{"id": "x\\u2028y", "published": "bad\\ndate", "text": "t"}',
        '{"text": NaN, "html": Infinity}',
        '{"text": "x", "text": "duplicate key"}',
        '{"published": {"y": 2023}, "text": "dict date"}',
        '{"id": [1, 2], "text": "list id"}',
        '{"html": "<html><body><p>\\u0000</p></body></html>"}',
    ]
)


@st.composite
def json_docs(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 5)) == 0:
        return draw(json_oddities).encode("utf-8")
    pretty = draw(st.booleans())
    if draw(st.booleans()):
        text = _dump(draw(st.lists(json_objects(), max_size=4)), pretty)
    else:
        text = _dump(draw(json_objects()), pretty)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def jsonl_docs(draw: st.DrawFn) -> bytes:
    lines = draw(
        st.lists(
            st.one_of(
                json_objects().map(lambda o: _dump(o, False)),
                json_oddities,
                odd_text,
                st.just(""),
            ),
            min_size=1,
            max_size=6,
        )
    )
    sep = draw(st.sampled_from(["\n", "\r\n", "\n\n"]))
    return sep.join(lines).encode("utf-8", "surrogatepass")


CTYPES = [
    "text/html; charset=utf-8",
    "text/html",
    "application/pdf",
    "TEXT/HTML",
    "",
    "text/html; charset=latin-1",
]


@st.composite
def warc_bytes(draw: st.DrawFn, compress: bool) -> bytes:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=compress)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(["response", "response", "response", "request", "warcinfo", "resource"])
        )
        payload = draw(html_docs()) if draw(st.integers(0, 3)) else draw(st.binary(max_size=300))
        uri = draw(
            st.sampled_from(
                ["https://example.org/a", "http://x/" + "p" * 3000, "urn:x", "not a uri"]
            )
        )
        date = draw(st.sampled_from(["2023-05-06T10:00:00Z", "garbage", ""]))
        http = None
        if kind in ("response", "request"):
            status = "200 OK" if kind == "response" else "GET / HTTP/1.1"
            ctype = draw(st.sampled_from(CTYPES))
            http = StatusAndHeaders(
                status,
                [("Content-Type", ctype)],
                protocol="HTTP/1.1",
                is_http_request=kind == "request",
            )
        # fixed id and date: warcio's own (uuid, now) would make generation irreproducible
        n = draw(st.integers(0, 10**6))
        headers = {"WARC-Record-ID": f"<urn:uuid:00000000-0000-0000-0000-{n:012d}>"}
        headers["WARC-Date"] = date or "2000-01-01T00:00:00Z"
        rec = writer.create_warc_record(
            uri, kind, payload=io.BytesIO(payload), http_headers=http, warc_headers_dict=headers
        )
        writer.write_record(rec)
    return buf.getvalue()


def samples(*paths: Path) -> st.SearchStrategy[bytes]:
    """Well-formed inputs for a reader from example files (read once)."""
    return st.sampled_from([p.read_bytes() for p in paths])


# -- mutations shared by every reader ------------------------------------------------------
@st.composite
def mutated(draw: st.DrawFn, valid: st.SearchStrategy[bytes]) -> bytes:
    data = bytearray(draw(valid))
    for _ in range(draw(st.integers(1, 4))):
        n = len(data)
        at = draw(st.integers(0, n))
        op = draw(
            st.sampled_from(["truncate", "flip", "insert", "delete", "repeat", "nul", "high"])
        )
        if op == "truncate":
            del data[at:]
        elif op == "flip" and n:
            data[min(at, n - 1)] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            data[at:at] = draw(st.binary(max_size=16))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif op == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 64))] * draw(st.integers(1, 50))
        elif op == "nul":
            data[at:at] = b"\x00"
        else:  # a lone high byte: invalid UTF-8 mid-stream
            data[at:at] = bytes([draw(st.integers(0x80, 0xFF))])
    return bytes(data)


@st.composite
def misencoded(draw: st.DrawFn, valid: st.SearchStrategy[bytes]) -> bytes:
    text = draw(valid).decode("utf-8", "replace")
    codec = draw(
        st.sampled_from(
            ["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1251", "utf-8-surrogates", "utf-7"]
        )
    )
    if codec == "utf-8-surrogates":
        return (text[: len(text) // 2] + "\ud800" + text[len(text) // 2 :]).encode(
            "utf-8", "surrogatepass"
        )
    return text.encode(codec, "replace")


def fuzzed(valid: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    return st.one_of(
        valid,
        mutated(valid),
        mutated(valid),
        misencoded(valid),
        st.binary(max_size=600),
        st.just(b""),
    )


def telegram_exports() -> st.SearchStrategy[bytes]:
    """result.json of the Telegram export the tests build (its media files stay behind)."""
    with tempfile.TemporaryDirectory() as tmp:
        write_export(Path(tmp))
        return st.sampled_from([p.read_bytes() for p in sorted(Path(tmp).rglob("result.json"))])


@dataclass(frozen=True)
class Reader:
    name: str
    suffix: str  # the file name ending that routes an input to this reader (or a whole name)
    valid: st.SearchStrategy[bytes]


READERS: list[Reader] = [
    Reader("txt", ".txt", txt_docs()),
    Reader("html", ".html", html_docs()),
    Reader("json", ".json", json_docs()),
    Reader("jsonl", ".jsonl", jsonl_docs()),
    Reader("warc", ".warc", warc_bytes(False)),
    Reader("warc.gz", ".warc.gz", warc_bytes(True)),
    Reader("telegram", "result.json", telegram_exports()),
    Reader("pdf", ".pdf", st.just(build_pdf())),
]


# -- running -------------------------------------------------------------------------------
@dataclass
class Tally:
    reader: str
    inputs: int = 0
    accepted: int = 0
    rejected: int = 0
    unhandled: int = 0
    multiline: int = 0
    ingested: int = 0
    ingest_unhandled: int = 0
    seconds: float = 0.0
    examples: dict[str, list[str]] = field(default_factory=dict)

    def note(self, kind: str, data: bytes, exc: BaseException | str) -> None:
        what = exc if isinstance(exc, str) else f"{type(exc).__name__}: {str(exc)[:160]}"
        seen = self.examples.setdefault(kind, [])
        if len(seen) < 3 and not any(x.startswith(what) for x in seen):
            seen.append(f"{what} on {data[:100]!r}")


def one_line(source: str, reason: str) -> bool:
    """The message `ingest` prints for a rejection (`rejected: SOURCE: REASON`) is one line."""
    return len(f"rejected: {source}: {reason}".splitlines()) == 1


def read_one(path: Path, data: bytes, t: Tally) -> None:
    t.inputs += 1
    try:
        items = list(read_path(path))
    except InputError as exc:
        t.rejected += 1
        if not one_line(exc.source, exc.reason):
            t.multiline += 1
            t.note("multi-line", data, repr(str(exc))[:200])
        return
    except Exception as exc:  # noqa: BLE001 - counting exactly these is the point
        t.unhandled += 1
        t.note("unhandled", data, exc)
        return
    for item in items:
        if isinstance(item, Rejection) and not one_line(item.source_file, item.reason):
            t.multiline += 1
            t.note("multi-line", data, repr(f"{item.source_file}: {item.reason}")[:200])
    if any(isinstance(i, RawRecord) for i in items):
        t.accepted += 1
    else:
        t.rejected += 1


GOOD = (
    "Rockets struck a residential street in Borova on 3 May, killing four civilians, the "
    "regional governor said. “We heard three explosions,” a neighbour told reporters.\n"
)


@dataclass
class Keeper:
    """The store every N-th input is ingested into, holding one known good document."""

    store: Store
    archive: Archive
    good: dict[str, Any]

    @classmethod
    def create(cls, folder: Path) -> Keeper:
        db = str(folder / "keep.db")
        store = open_store(db)
        archive = Archive(archive_root_for(db))
        good = folder / "good.txt"
        good.write_text(GOOD, encoding="utf-8")
        report_ = ingest_paths(store, archive, [str(good)])
        assert len(report_.stored) == 1
        return cls(store, archive, cls._row(store, report_.stored[0]))

    @staticmethod
    def _row(store: Store, doc_id: str) -> dict[str, Any]:
        found = store.documents([doc_id])
        return (
            {k: found[0][k] for k in ("document_id", "sha256", "text", "ledger_seq")}
            if found
            else {}
        )

    def ingest(self, path: Path, data: bytes, t: Tally) -> None:
        t.ingested += 1
        try:
            done = ingest_paths(self.store, self.archive, [str(path)])
        except Exception as exc:  # noqa: BLE001
            t.ingest_unhandled += 1
            t.note("ingest unhandled", data, exc)
            return
        for rej in done.rejected:
            if not one_line(rej.source_file, rej.reason):
                t.multiline += 1
                t.note("multi-line (ingest)", data, repr(f"{rej.source_file}: {rej.reason}")[:200])

    def intact(self) -> tuple[bool, list[str]]:
        same = self._row(self.store, self.good["document_id"]) == self.good
        return same, verify(self.store, self.archive).problems


def hypothesis_pool(strategy: st.SearchStrategy[bytes], n: int, rnd: int) -> list[bytes]:
    """`n` inputs drawn by hypothesis (structured, with its own mutations and edge cases)."""
    pool: list[bytes] = []

    @seed(rnd)
    @settings(
        max_examples=n,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(data: bytes) -> None:
        pool.append(data)

    collect()
    return pool


CODECS = ["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1251", "utf-7"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """The same mutations as `mutated`, drawn from `rng` (thousands per second)."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        n = len(b)
        at = rng.randint(0, n)
        op = rng.randrange(9)
        if op == 0:
            del b[at:]
        elif op == 1 and n:
            b[min(at, n - 1)] ^= 1 << rng.randrange(8)
        elif op == 2:
            b[at:at] = rng.randbytes(rng.randint(1, 16))
        elif op == 3:
            del b[at : at + rng.randint(1, 64)]
        elif op == 4:
            b[at:at] = b[at : at + rng.randint(1, 64)] * rng.randint(1, 50)
        elif op == 5:
            b[at:at] = b"\x00"
        elif op == 6:
            b[at:at] = bytes([rng.randint(0x80, 0xFF)])
        elif op == 7:
            text = bytes(b).decode("utf-8", "replace")
            b = bytearray(text.encode(rng.choice(CODECS), "replace"))
        else:
            b = bytearray(rng.randbytes(rng.randint(0, 600)))
    return bytes(b)


def fuzz_reader(
    reader: Reader,
    examples: int,
    base: int,
    folder: Path,
    keeper: Keeper | None,
    every: int,
    rnd: int,
) -> Tally:
    """`base` inputs from hypothesis, the rest seeded mutations of them."""
    t = Tally(reader.name)
    path = folder / (reader.suffix if reader.suffix[0] != "." else f"input{reader.suffix}")
    start = time.perf_counter()
    pool = hypothesis_pool(fuzzed(reader.valid), min(base, examples), rnd)
    rng = random.Random(rnd)
    for i in range(examples):
        data = pool[i] if i < len(pool) else mutate(rng.choice(pool), rng)
        path.write_bytes(data)
        read_one(path, data, t)
        if keeper and every and t.inputs % every == 0:
            keeper.ingest(path, data, t)
    t.seconds = time.perf_counter() - start
    return t


def fuzz(
    examples: int,
    base: int,
    every: int,
    rnd: int,
    names: list[str] | None = None,
    report_line: Callable[[Tally], None] | None = None,
) -> tuple[list[Tally], bool, list[str]]:
    logging.disable(logging.CRITICAL)  # trafilatura/warcio warn on every broken page
    chosen = [r for r in READERS if not names or r.name in names]
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        folder = Path(tmp)
        keeper = Keeper.create(folder)
        tallies = []
        for reader in chosen:
            t = fuzz_reader(reader, examples, base, folder, keeper, every, rnd)
            tallies.append(t)
            if report_line:
                report_line(t)
        same, problems = keeper.intact()
        keeper.store.close()
    return tallies, same, problems


def print_line(t: Tally) -> None:
    print(
        f"{t.reader:<8} {t.inputs:>8} {t.accepted:>8} {t.rejected:>8} {t.unhandled:>9}"
        f" {t.multiline:>9} {t.ingested:>8} {t.ingest_unhandled:>9} {t.inputs / t.seconds:>9.0f}",
        flush=True,
    )
    for kind, found in t.examples.items():
        for e in found:
            print(f"         {kind}: {e}", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=100_000, help="inputs per reader")
    ap.add_argument("--base", type=int, default=1000, help="of which drawn by hypothesis")
    ap.add_argument("--ingest-every", type=int, default=200, help="full ingest of every N-th input")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("readers", nargs="*", help=f"some of: {', '.join(r.name for r in READERS)}")
    args = ap.parse_args(argv)
    print(
        f"{'reader':<8} {'inputs':>8} {'accepted':>8} {'rejected':>8} {'unhandled':>9}"
        f" {'multiline':>9} {'ingested':>8} {'ing.unhd':>9} {'inputs/s':>9}"
    )
    tallies, same, problems = fuzz(
        args.examples, args.base, args.ingest_every, args.seed, args.readers, print_line
    )
    total = sum(t.inputs for t in tallies)
    bad = sum(t.unhandled + t.multiline + t.ingest_unhandled for t in tallies)
    print(
        f"total {total} inputs, {bad} unhandled or multi-line; known good document intact:"
        f" {'yes' if same else 'NO'}; verify problems after {sum(t.ingested for t in tallies)}"
        f" fuzzed ingests: {len(problems)}"
    )
    for p in problems[:5]:
        print(f"  {p}")


if __name__ == "__main__":
    main()
