"""`fetch`: real HTTP on 127.0.0.1, pages and feeds captured into a WARC, archived, ingested.

The server below is a real http.server in a thread; every request it sees is logged with
its arrival time and headers, so the tests can tell what the client really sent.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import ipaddress
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import pytest

from corroborator.fetch.addresses import address_refusal, scheme_refusal
from corroborator.fetch.client import Client, Limits
from corroborator.fetch.run import CaptureRun
from corroborator.storage.db import archive_root_for, open_store

ARTICLES = {
    "/a.html": (
        "Hospital in Kharkiv shelled overnight",
        "Northern Ledger",
        "2022-03-14",
        "Russian forces shelled the regional children's hospital in Kharkiv late on Sunday, "
        "killing four civilians and wounding eleven, the regional governor said on Monday. "
        "Doctors moved patients into the basement as the building burned. "
        '"We heard three explosions, one after another," said Iryna Bondar, a nurse who was '
        "on duty that night. The claims could not be independently verified.",
    ),
    "/b.html": (
        "Kharkiv children's hospital hit by artillery",
        "Eastern Courier",
        "2022-03-14",
        "Artillery fire struck a children's hospital in Kharkiv on Sunday night, local "
        "officials said, killing four civilians and wounding eleven. Governor Oleh Syniehubov "
        "blamed Russian troops for the attack. Staff carried children to shelters under the "
        "wards while fires spread through the upper floors.",
    ),
    "/c.html": (
        "Villagers describe detentions near Izium",
        "Northern Ledger",
        "2022-09-20",
        "Residents of a village near Izium told reporters that Russian soldiers detained "
        "at least twenty men in April and held them in a school basement for weeks. "
        '"They took my brother and we did not hear from him for a month," said one woman, '
        "who asked not to be named. Ukrainian prosecutors said they had opened an "
        "investigation into the detentions.",
    ),
}


def _page(title: str, outlet: str, published: str, body: str) -> bytes:
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{title}</title><meta property='og:site_name' content='{outlet}'>"
        f"<meta property='article:published_time' content='{published}'></head>"
        f"<body><nav>Home | World | Sport</nav><article><h1>{title}</h1><p>{body}</p>"
        "</article><footer>All rights reserved.</footer></body></html>"
    ).encode()


def _rss(base: str, paths: list[str]) -> bytes:
    items = "".join(
        f"<item><title>{p}</title><link>{base}{p}</link><guid>{base}{p}</guid>"
        f"<pubDate>{_rfc822(ARTICLES.get(p, ARTICLES['/c.html'])[2])}</pubDate></item>"
        for p in paths
    )
    return (
        "<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel>"
        f"<title>Test wire</title><link>{base}/</link><description>test</description>"
        f"{items}</channel></rss>"
    ).encode()


def _atom(paths: list[str]) -> bytes:
    entries = "".join(
        f"<entry><title>{ARTICLES[p][0]}</title><id>tag:test,2022:{p}</id>"
        f"<link rel='alternate' href='{p.lstrip('/')}'/><updated>{ARTICLES[p][2]}T08:00:00Z"
        "</updated></entry>"
        for p in paths
    )
    return (
        "<?xml version='1.0' encoding='utf-8'?><feed xmlns='http://www.w3.org/2005/Atom'>"
        "<title>Test atom</title><id>tag:test,2022:feed</id><updated>2022-09-20T08:00:00Z"
        f"</updated>{entries}</feed>"
    ).encode()


def _rfc822(day: str) -> str:
    return time.strftime("%a, %d %b %Y 08:00:00 +0000", time.strptime(day, "%Y-%m-%d"))


@dataclass
class Seen:
    path: str
    at: float
    headers: dict[str, str]


@dataclass
class Site:
    base: str
    port: int
    rss_paths: list[str] = field(default_factory=lambda: ["/a.html", "/b.html"])
    log: list[Seen] = field(default_factory=list)

    def paths(self) -> list[str]:
        return [s.path for s in self.log]


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

        def send(self, status: int, body: bytes, ctype: str, extra: dict[str, str]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in extra.items():
                self.send_header(k, v)
            self.end_headers()
            with contextlib.suppress(OSError):  # the client gave up (timeout, size limit)
                self.wfile.write(body)

        def redirect(self, status: int, location: str) -> None:
            self.send(status, b"<html>moved</html>", "text/html", {"Location": location})

        def feed(self, body: bytes, ctype: str) -> None:
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send(200, body, ctype, {"ETag": etag})

        def do_GET(self) -> None:  # noqa: C901 - one route table
            site.log.append(Seen(self.path, time.monotonic(), dict(self.headers.items())))
            p = self.path
            if p in ARTICLES:
                self.send(200, _page(*ARTICLES[p]), "text/html; charset=utf-8", {})
            elif p == "/feed.rss":
                self.feed(_rss(site.base, site.rss_paths), "application/rss+xml")
            elif p == "/feed.atom":
                self.feed(_atom(["/a.html", "/c.html"]), "application/atom+xml")
            elif p == "/r1":
                self.redirect(302, "/r2")
            elif p == "/r2":
                self.redirect(301, f"{site.base}/c.html")
            elif p == "/loop":
                self.redirect(302, "/loop")
            elif p == "/to-file":
                self.redirect(302, "file:///etc/passwd")
            elif unquote(p) == "/звіт 1.html":
                self.send(200, _page(*ARTICLES["/c.html"]), "text/html; charset=utf-8", {})
            elif p == "/to-loopback":
                self.redirect(302, f"http://127.0.0.1:{site.port}/a.html")
            elif p == "/big":
                self.send(200, b"<html>" + b"x" * 50_000 + b"</html>", "text/html", {})
            elif p == "/big-chunked":  # no Content-Length: the limit must stop the stream
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"y" * 4096
                try:
                    for _ in range(50):
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    pass
            elif p == "/slow":
                time.sleep(2.0)
                self.send(200, _page(*ARTICLES["/a.html"]), "text/html", {})
            elif p == "/doc.pdf":
                self.send(200, b"%PDF-1.4 not really", "application/pdf", {})
            else:
                self.send(404, b"<html><h1>Not found</h1></html>", "text/html", {})

    return Handler


@pytest.fixture
def site() -> Iterator[Site]:
    holder = Site("", 0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(holder))
    server.daemon_threads = True
    holder.port = server.server_address[1]
    holder.base = f"http://127.0.0.1:{holder.port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield holder
    server.shutdown()
    server.server_close()


def _documents(cli) -> list[dict]:
    out = cli("export", "--what", "documents", "--format", "jsonl").output
    return [json.loads(line) for line in out.splitlines()]


def _warc_records(data: bytes) -> list[tuple[str, str, str]]:
    from warcio.archiveiterator import ArchiveIterator

    recs = []
    for rec in ArchiveIterator(io.BytesIO(data)):
        status = rec.http_headers.get_statuscode() if rec.http_headers else ""
        uri = rec.rec_headers.get_header("WARC-Target-URI") or ""
        recs.append((rec.rec_type, uri, status or ""))
    return recs


# -- the address rules, decided on literals ---------------------------------------------


@pytest.mark.parametrize(
    "ip", ["8.8.8.8", "1.1.1.1", "151.101.1.69", "2606:4700:4700::1111", "::ffff:8.8.8.8"]
)
def test_public_addresses_are_allowed(ip: str) -> None:
    assert address_refusal(ipaddress.ip_address(ip)) is None


@pytest.mark.parametrize(
    ("ip", "word"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("10.0.0.7", "private"),
        ("172.20.1.1", "private"),
        ("192.168.0.1", "private"),
        ("169.254.169.254", "link-local"),  # cloud metadata
        ("100.64.3.4", "not globally routable"),  # carrier-grade NAT
        ("0.0.0.0", "unspecified"),
        ("224.0.0.251", "multicast"),
        ("240.1.2.3", "reserved"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1", "link-local"),
        ("fd12:3456::1", "private"),
        ("ff02::1", "multicast"),
        ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
        ("::ffff:192.168.1.1", "private"),
        ("64:ff9b::a00:1", "private"),  # NAT64 of 10.0.0.1
        ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
    ],
)
def test_non_public_addresses_are_refused(ip: str, word: str) -> None:
    reason = address_refusal(ipaddress.ip_address(ip))
    assert reason is not None and word in reason


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.org/x",
        "data:text/html,<b>x</b>",
        "gopher://example.org/",
        "javascript:alert(1)",
        "example.org/page",
    ],
)
def test_non_http_schemes_are_refused(url: str) -> None:
    assert "only http and https" in (scheme_refusal(url) or "")


# -- end to end through the CLI ----------------------------------------------------------


def test_pages_are_captured_archived_and_ingested(
    cli, db: Path, site: Site, tmp_path: Path
) -> None:
    out_warc = tmp_path / "capture.warc.gz"
    urls = [f"{site.base}/a.html", f"{site.base}/b.html", f"{site.base}/r1"]
    result = cli(
        "fetch", "--allow-private", "--rate", "0", "--quiet", "--warc-out", str(out_warc), *urls
    )
    assert result.exit_code == 0, result.output
    assert "captured 3 page(s), 5 response(s)" in result.output
    assert "3 new document(s) stored" in result.output

    docs = {d["url"]: d for d in _documents(cli)}
    # the redirect chain ends at c.html: the document is the final URL, not /r1
    assert set(docs) == {f"{site.base}/a.html", f"{site.base}/b.html", f"{site.base}/c.html"}
    a = docs[f"{site.base}/a.html"]
    assert a["title"].startswith("Hospital in Kharkiv shelled")
    assert a["published"] == "2022-03-14"  # the page's date, not the capture date
    assert "Home | World" not in a["text"] and "Iryna Bondar" in a["text"]
    assert a["source_file"] == f"capture.warc.gz:{site.base}/a.html"
    # extraction and linking ran: the two hospital reports are one story with an incident
    assert a["story_id"] and a["story_id"] == docs[f"{site.base}/b.html"]["story_id"]
    incidents = [json.loads(line) for line in cli("export").output.splitlines()]
    assert any(
        i["type"] == "attack_populated_area"
        and {m["document_id"] for m in i["mentions"]} >= {a["document_id"]}
        for i in incidents
    )

    store = open_store(str(db))
    warcs = [
        r
        for r in store.rows("SELECT relpath, source FROM archive_files")
        if r["relpath"].endswith(".warc.gz")
    ]
    assert len(warcs) == 1 and warcs[0]["source"] == "fetch capture.warc.gz"
    archived = (archive_root_for(str(db)) / warcs[0]["relpath"]).read_bytes()
    assert archived == out_warc.read_bytes()
    recs = _warc_records(archived)
    assert recs[0][0] == "warcinfo"
    assert b"software: corroborator/" in gzip.decompress(archived)
    responses = [(uri, status) for kind, uri, status in recs if kind == "response"]
    assert (f"{site.base}/r1", "302") in responses and (f"{site.base}/r2", "301") in responses
    assert sum(kind == "request" for kind, _, _ in recs) == 5

    seen = {s.path: s.headers for s in site.log}
    assert seen["/a.html"]["User-Agent"].startswith("corroborator/")
    assert "offline evidence capture" in seen["/a.html"]["User-Agent"]

    verify = cli("verify")
    assert verify.exit_code == 0 and verify.output.startswith("OK"), verify.output

    again = cli("fetch", "--allow-private", "--rate", "0", "--no-extract", f"{site.base}/a.html")
    assert again.exit_code == 0
    assert "0 new document(s) stored, 1 already stored" in again.output


def test_private_hosts_are_refused_without_the_flag(cli, db: Path, site: Site) -> None:
    urls = [f"{site.base}/a.html", f"http://localhost:{site.port}/b.html", "file:///etc/passwd"]
    result = cli("fetch", "--no-extract", *urls)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert (
        f"refused: {site.base}/a.html: loopback address 127.0.0.1 "
        "(use --allow-private to allow)" in lines
    )
    # decided on the resolved address, not on the name
    assert any(
        line.startswith(
            f"refused: http://localhost:{site.port}/b.html: localhost resolves to loopback"
        )
        for line in lines
    )
    assert (
        "refused: file:///etc/passwd: 'file:' URLs are refused; only http and https are fetched"
        in lines
    )
    assert site.log == []  # nothing was contacted
    assert open_store(str(db)).document_count() == 0


@pytest.mark.parametrize("host", ["2130706433", "0x7f.1", "127.1", "[::ffff:127.0.0.1]"])
def test_disguised_loopback_hosts_are_refused(site: Site, host: str) -> None:
    run = CaptureRun()
    assert not run.capture_page(Client(Limits(rate=0)), f"http://{host}:{site.port}/a.html")
    assert run.failures[0].refused and "loopback address" in run.failures[0].reason
    assert site.log == []


def test_connects_to_the_checked_address_with_the_host_name(cli, db: Path, site: Site) -> None:
    url = f"http://localhost:{site.port}/a.html"
    result = cli("fetch", "--allow-private", "--no-extract", url)
    if result.exit_code != 0 and "cannot connect" in result.output:
        pytest.skip("localhost resolves only to an address the test server does not bind")
    assert result.exit_code == 0, result.output
    assert site.log[0].headers["Host"] == f"localhost:{site.port}"
    assert _documents(cli)[0]["url"] == url


def test_redirect_from_an_allowed_host_to_loopback_is_refused(site: Site) -> None:
    calls: list[str] = []

    def first_host_public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
        """Stands in for a public site: the first hop is allowed, later hops face the rules."""
        calls.append(str(ip))
        return None if len(calls) == 1 else address_refusal(ip)

    run = CaptureRun()
    client = Client(Limits(rate=0), check=first_host_public)
    assert not run.capture_page(client, f"{site.base}/to-loopback")
    (fail,) = run.failures
    assert fail.refused and fail.url == f"{site.base}/to-loopback"
    assert fail.reason.startswith(f"redirect to http://127.0.0.1:{site.port}/a.html: loopback")
    assert site.paths() == ["/to-loopback"]  # the redirect target was never requested


def test_limits_give_one_line_reasons(cli, db: Path, site: Site) -> None:
    bad = ["/big", "/big-chunked", "/slow", "/missing", "/loop", "/doc.pdf"]
    urls = [f"{site.base}{p}" for p in bad] + [f"{site.base}/c.html"]
    result = cli(
        "fetch", "--allow-private", "--no-extract", "--rate", "0",
        "--max-bytes", "20000", "--timeout", "0.5", *urls,
    )  # fmt: skip
    assert result.exit_code == 1
    lines = result.output.splitlines()
    expect = {
        "/big": "response too large (50013 bytes > 20000 bytes)",
        "/big-chunked": "response too large (over 20000 bytes, aborted)",
        "/slow": "timed out",
        "/missing": "HTTP 404 Not Found",
        "/loop": "more than 5 redirects",
        "/doc.pdf": "not HTML (application/pdf)",
    }
    for path, words in expect.items():
        (line,) = [ln for ln in lines if ln.startswith(f"failed: {site.base}{path}: ")]
        assert words in line, line
    assert "1 new document(s) stored" in result.output
    (doc,) = _documents(cli)
    assert doc["url"] == f"{site.base}/c.html"  # the 404 page in the WARC is not a document


def test_feed_polls_are_incremental(cli, db: Path, site: Site) -> None:
    feed = f"{site.base}/feed.rss"
    first = cli("fetch", "--allow-private", "--no-extract", "--rate", "0", "--feed", feed)
    assert first.exit_code == 0, first.output
    assert f"feed {feed}: 2 new entries, 0 already captured" in first.output
    assert site.paths() == ["/feed.rss", "/a.html", "/b.html"]
    assert {d["url"] for d in _documents(cli)} == {f"{site.base}/a.html", f"{site.base}/b.html"}

    site.rss_paths.insert(0, "/c.html")
    site.log.clear()
    second = cli("fetch", "--allow-private", "--no-extract", "--rate", "0", "--feed", feed)
    assert second.exit_code == 0, second.output
    assert f"feed {feed}: 1 new entry, 2 already captured" in second.output
    assert site.paths() == ["/feed.rss", "/c.html"]
    assert site.log[0].headers.get("If-None-Match")  # the stored ETag was sent

    site.log.clear()
    third = cli("fetch", "--allow-private", "--no-extract", "--rate", "0", "--feed", feed)
    assert third.exit_code == 0, third.output
    assert "not modified since the last fetch (304), nothing fetched" in third.output
    assert site.paths() == ["/feed.rss"]
    store = open_store(str(db))
    assert store.document_count() == 3
    warcs = store.rows("SELECT relpath FROM archive_files WHERE relpath LIKE '%.warc.gz'")
    assert len(warcs) == 2  # the 304 poll wrote no WARC
    # the feed's own bytes are in the first WARC, beside the pages
    first_warc = min(
        store.rows("SELECT relpath, ledger_seq FROM archive_files WHERE relpath LIKE '%.warc.gz'"),
        key=lambda r: r["ledger_seq"],
    )
    recs = _warc_records((archive_root_for(str(db)) / first_warc["relpath"]).read_bytes())
    assert ("response", feed, "200") in recs


def test_failed_entry_is_retried_on_the_next_poll(cli, db: Path, site: Site) -> None:
    feed = f"{site.base}/feed.rss"
    site.rss_paths = ["/a.html", "/gone.html"]
    first = cli("fetch", "--allow-private", "--no-extract", "--rate", "0", "--feed", feed)
    assert first.exit_code == 1
    assert f"failed: {site.base}/gone.html: HTTP 404 Not Found" in first.output
    site.log.clear()
    second = cli("fetch", "--allow-private", "--no-extract", "--rate", "0", "--feed", feed)
    # the ETag was not kept, so the feed is read again and only the failed entry retried
    assert "If-None-Match" not in site.log[0].headers
    assert site.paths() == ["/feed.rss", "/gone.html"]
    assert f"feed {feed}: 1 new entry, 1 already captured" in second.output


def test_atom_feed_with_since(cli, db: Path, site: Site) -> None:
    feed = f"{site.base}/feed.atom"
    result = cli(
        "fetch", "--allow-private", "--no-extract", "--rate", "0",
        "--feed", feed, "--since", "2022-06-01",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"feed {feed}: 1 new entry, 0 already captured, 1 before --since" in result.output
    assert site.paths() == ["/feed.atom", "/c.html"]  # relative Atom link made absolute
    bad = cli("fetch", "--feed", feed, "--since", "June 2022")
    assert bad.exit_code == 2 and "--since" in bad.output


def test_not_a_feed_is_one_line(cli, db: Path, site: Site) -> None:
    result = cli("fetch", "--allow-private", "--no-extract", "--feed", f"{site.base}/a.html")
    assert result.exit_code == 1
    assert f"failed: {site.base}/a.html: not an RSS or Atom feed" in result.output


def test_rate_limit_spaces_requests_to_one_host(cli, db: Path, site: Site) -> None:
    urls = [f"{site.base}/a.html", f"{site.base}/b.html", f"{site.base}/c.html"]
    result = cli("fetch", "--allow-private", "--no-extract", "--rate", "0.4", *urls)
    assert result.exit_code == 0, result.output
    times = [s.at for s in site.log]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(gaps) == 2 and all(g >= 0.35 for g in gaps), gaps


def _self_signed(tmp: Path, names: list[str]) -> tuple[Path, Path]:
    """A throwaway certificate for `names` (DNS names or IP literals), and its key."""
    import datetime as dt

    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])])
    alt: list[x509.GeneralName] = []
    for n in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(n)))
        except ValueError:
            alt.append(x509.DNSName(n))
    start = dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + dt.timedelta(days=3))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.mark.parametrize(
    ("cert_names", "host", "ok"),
    [(["localhost", "127.0.0.1"], "localhost", True), (["other.test"], "127.0.0.1", False)],
)
def test_https_checks_the_certificate_against_the_name(
    cli, db: Path, site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    cert_names: list[str], host: str, ok: bool,
) -> None:  # fmt: skip
    """The socket goes to the checked IP, yet TLS (SNI and certificate) uses the host name."""
    import ssl

    cert, key = _self_signed(tmp_path, cert_names)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # trust only this certificate
    url = f"https://{host}:{server.server_address[1]}/a.html"
    try:
        result = cli("fetch", "--allow-private", "--no-extract", url)
    finally:
        server.shutdown()
        server.server_close()
    if ok:
        if "cannot connect" in result.output:
            pytest.skip("localhost does not resolve to 127.0.0.1 here")
        assert result.exit_code == 0, result.output
        assert _documents(cli)[0]["url"] == url
        assert site.log[0].headers["Host"] == f"{host}:{server.server_address[1]}"
    else:
        assert result.exit_code == 1
        (line,) = [ln for ln in result.output.splitlines() if ln.startswith("failed:")]
        assert line.startswith(f"failed: {url}: connection failed: ") and "certificate" in line
        assert site.log == []


def test_redirect_to_another_scheme_and_non_ascii_paths(cli, db: Path, site: Site) -> None:
    urls = [f"{site.base}/to-file", f"{site.base}/звіт 1.html"]
    result = cli("fetch", "--allow-private", "--no-extract", "--rate", "0", *urls)
    assert result.exit_code == 1
    assert (
        f"refused: {site.base}/to-file: redirect to file:///etc/passwd: 'file:' URLs are "
        "refused; only http and https are fetched"
    ) in result.output.splitlines()
    wire = "/%D0%B7%D0%B2%D1%96%D1%82%201.html"
    assert wire in site.paths()
    (doc,) = _documents(cli)
    assert doc["url"] == f"{site.base}{wire}"  # recorded as requested on the wire
