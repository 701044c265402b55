"""A capture run's exchanges as one gzipped WARC: warcinfo, then request/response pairs."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

from corroborator import __version__
from corroborator.fetch.client import USER_AGENT, Exchange


def write_warc(path: Path, exchanges: Iterable[Exchange]) -> int:
    """Write every exchange as captured (raw bytes, so digests match the wire); returns pairs."""
    from warcio.warcwriter import WARCWriter

    n = 0
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        info = {
            "software": f"corroborator/{__version__}",
            "format": "WARC File Format 1.0",
            "http-header-user-agent": USER_AGENT,
            "description": "user-initiated capture: each named URL, its redirects, feeds",
        }
        writer.write_record(writer.create_warcinfo_record(path.name, info))
        for ex in exchanges:
            meta = {"WARC-Date": ex.date, "WARC-IP-Address": ex.ip}
            response = writer.create_warc_record(
                ex.url,
                "response",
                payload=io.BytesIO(ex.response),
                length=len(ex.response),
                warc_headers_dict=dict(meta),
            )
            request = writer.create_warc_record(
                ex.url,
                "request",
                payload=io.BytesIO(ex.request),
                length=len(ex.request),
                warc_headers_dict=dict(meta),
            )
            writer.write_request_response_pair(request, response)
            n += 1
        fh.flush()
    return n
