"""One safe HTTP GET, with every request and response kept byte for byte for the WARC.

Safety is decided here, on each hop: the URL's scheme, then every address its host
resolves to, and the socket connects to the address that was checked (never resolving
again, so DNS rebinding cannot swap it); the Host header and TLS SNI/certificate check
still use the name. Redirects are followed here, each hop checked the same way.
"""

from __future__ import annotations

import datetime as dt
import http.client
import ipaddress
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

from corroborator import __version__
from corroborator.fetch.addresses import IPAddress, address_refusal, scheme_refusal
from corroborator.ingest.readers import DOCUMENT_MAX_BYTES

USER_AGENT = f"corroborator/{__version__} (+offline evidence capture)"
REDIRECTS = (301, 302, 303, 307, 308)
ACCEPT = "text/html,application/xhtml+xml,application/rss+xml,application/atom+xml,*/*;q=0.5"

AddressCheck = Callable[[IPAddress], str | None]


class FetchError(Exception):
    """A URL that was refused or could not be captured; `reason` is one line."""

    def __init__(self, url: str, reason: str, refused: bool = False) -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason
        self.refused = refused


@dataclass
class Exchange:
    """One request and its response exactly as they crossed the wire."""

    url: str
    ip: str
    date: str  # WARC-Date of the request (UTC, ISO 8601)
    request: bytes
    response: bytes
    status: int
    headers: http.client.HTTPMessage
    body: bytes


@dataclass
class Limits:
    connect_timeout: float = 10.0
    read_timeout: float = 20.0  # per socket read; the whole response gets 3x this
    max_bytes: int = DOCUMENT_MAX_BYTES
    max_redirects: int = 5
    rate: float = 1.0  # minimum seconds between two requests to one host


@dataclass
class Pacer:
    """Per-host minimum interval between requests (politeness, and no hammering)."""

    interval: float
    last: dict[str, float] = field(default_factory=dict)

    def wait(self, host: str) -> None:
        if host in self.last:
            delay = self.last[host] + self.interval - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        self.last[host] = time.monotonic()


def _utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class _Tee:
    """The socket's file, copying every byte the HTTP parser reads (headers, chunk framing)."""

    def __init__(self, fp: Any, sink: bytearray) -> None:
        self.fp = fp
        self.sink = sink

    def read(self, amt: int | None = None) -> bytes:
        data: bytes = self.fp.read(amt)
        self.sink += data
        return data

    def read1(self, amt: int = -1) -> bytes:
        data: bytes = self.fp.read1(amt)
        self.sink += data
        return data

    def readinto(self, b: Any) -> int:
        n: int = self.fp.readinto(b)
        self.sink += bytes(memoryview(b)[:n])
        return n

    def readline(self, limit: int = -1) -> bytes:
        line: bytes = self.fp.readline(limit)
        self.sink += line
        return line

    def close(self) -> None:
        self.fp.close()

    def flush(self) -> None:
        self.fp.flush()


def _connection(
    scheme: str, host: str, port: int, ip: str, limits: Limits, sent: bytearray, got: bytearray
) -> http.client.HTTPConnection:
    base = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection

    class Response(http.client.HTTPResponse):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.fp = _Tee(self.fp, got)  # type: ignore[assignment]

    class Pinned(base):  # type: ignore[valid-type,misc]
        response_class = Response

        def send(self, data: Any) -> None:
            sent.extend(data)
            super().send(data)

    def connect_checked(_addr: Any, _timeout: Any, _source: Any = None) -> socket.socket:
        sock = socket.create_connection((ip, port), limits.connect_timeout)
        sock.settimeout(limits.read_timeout)
        return sock

    conn = Pinned(host, port, timeout=limits.read_timeout)
    conn._create_connection = connect_checked
    return conn


def wire_url(url: str) -> str:
    """The URL as sent and recorded: spaces and non-ASCII in path and query %-escaped
    (existing escapes kept), fragment dropped, since a server never sees it."""
    parts = urlsplit(url.strip())
    safe = "/?&=%:@!$'()*+,;~[]"
    return urlunsplit(
        (
            parts.scheme,
            parts.netloc,
            quote(parts.path, safe=safe),
            quote(parts.query, safe=safe),
            "",
        )
    )


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address `host` resolves to (a literal resolves to itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(host, f"cannot resolve host {host}: {exc}") from None
    found: list[IPAddress] = []
    for info in infos:
        ip = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if ip not in found:
            found.append(ip)
    return found


class Client:
    """Fetches URLs under the safety rules; one instance per capture run (it paces hosts)."""

    def __init__(
        self,
        limits: Limits | None = None,
        allow_private: bool = False,
        check: AddressCheck = address_refusal,
    ) -> None:
        self.limits = limits or Limits()
        self.check: AddressCheck = (lambda _ip: None) if allow_private else check
        self.pacer = Pacer(self.limits.rate)

    def get(self, url: str, headers: dict[str, str] | None = None) -> list[Exchange]:
        """GET `url`, following redirects; returns every hop, the final response last."""
        hops: list[Exchange] = []
        current = url = wire_url(url)
        for _ in range(self.limits.max_redirects + 1):
            try:
                hop = self._one(current, headers or {})
            except FetchError as exc:
                if current == url:
                    raise
                raise FetchError(url, f"redirect to {current}: {exc.reason}", exc.refused) from None
            hops.append(hop)
            location = hop.headers.get("Location")
            if hop.status not in REDIRECTS or not location:
                return hops
            current = wire_url(urljoin(current, location.strip()))
        raise FetchError(url, f"more than {self.limits.max_redirects} redirects")

    def _one(self, url: str, extra: dict[str, str]) -> Exchange:
        refusal = scheme_refusal(url)
        if refusal:
            raise FetchError(url, refusal, refused=True)
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        try:
            port = parts.port or (443 if scheme == "https" else 80)
        except ValueError:
            raise FetchError(url, "invalid port in the URL", refused=True) from None
        try:
            host = (parts.hostname or "").encode("idna").decode("ascii")
        except UnicodeError:
            raise FetchError(url, "invalid host name", refused=True) from None
        addresses = resolve(host, port)
        for ip in addresses:
            reason = self.check(ip)
            if reason:
                where = f"{host} resolves to {reason}" if str(ip) != host else reason
                raise FetchError(url, f"{where} (use --allow-private to allow)", refused=True)
        self.pacer.wait(host)
        return self._exchange(url, scheme, host, port, addresses, extra)

    def _exchange(
        self,
        url: str,
        scheme: str,
        host: str,
        port: int,
        addresses: list[IPAddress],
        extra: dict[str, str],
    ) -> Exchange:
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = {
            "User-Agent": USER_AGENT,
            "Accept": ACCEPT,
            "Accept-Encoding": "identity",
            "Connection": "close",
            **extra,
        }
        last_error: Exception | None = None
        for ip in addresses:  # every one was checked; try them in resolver order
            sent, got = bytearray(), bytearray()
            conn = _connection(scheme, host, port, str(ip), self.limits, sent, got)
            date = _utc_now()
            try:
                conn.request("GET", target, headers=headers)
                resp = conn.getresponse()
                body = self._read_body(url, resp)
                return Exchange(
                    url, str(ip), date, bytes(sent), bytes(got), resp.status, resp.msg, body
                )
            except FetchError:
                raise
            except TimeoutError:
                lim = self.limits
                raise FetchError(
                    url,
                    f"timed out (limits: connect {lim.connect_timeout:g} s, read {lim.read_timeout:g} s)",
                ) from None
            except ConnectionRefusedError as exc:
                last_error = exc
            except (OSError, http.client.HTTPException) as exc:
                raise FetchError(url, f"connection failed: {_one_line(exc)}") from None
            finally:
                conn.close()
        raise FetchError(url, f"cannot connect: {_one_line(last_error)}")

    def _read_body(self, url: str, resp: http.client.HTTPResponse) -> bytes:
        limit = self.limits.max_bytes
        declared = resp.getheader("Content-Length")
        if declared and declared.strip().isdigit() and int(declared) > limit:
            raise FetchError(url, f"response too large ({int(declared)} bytes > {limit} bytes)")
        deadline = time.monotonic() + 3 * self.limits.read_timeout
        body = bytearray()
        while chunk := resp.read(65536):
            body += chunk
            if len(body) > limit:
                raise FetchError(url, f"response too large (over {limit} bytes, aborted)")
            if time.monotonic() > deadline:
                raise FetchError(
                    url, f"timed out (response took over {3 * self.limits.read_timeout:g} s)"
                )
        return bytes(body)


def _one_line(exc: BaseException | None) -> str:
    text = str(exc).strip().splitlines()[0] if exc and str(exc).strip() else ""
    return text or (type(exc).__name__ if exc else "unknown error")
