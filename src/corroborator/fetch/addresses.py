"""Which URLs and resolved addresses a capture may contact.

Decided on the address the socket will connect to (after DNS), never on the name: a
public-looking name can resolve to 127.0.0.1 or to a cloud metadata address.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

NAT64 = ipaddress.IPv6Network(
    "64:ff9b::/96"
)  # well-known prefix: the gateway connects to the IPv4 inside

SCHEMES = ("http", "https")


def scheme_refusal(url: str) -> str | None:
    """Why this URL may not be fetched at all (scheme, missing host), or None."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        shown = f"'{scheme}:'" if scheme else "no scheme"
        return f"{shown} URLs are refused; only http and https are fetched"
    if not parts.hostname:
        return "no host in the URL"
    if parts.username or parts.password:
        return "credentials in the URL are refused"
    return None


def address_refusal(ip: IPAddress) -> str | None:
    """Why a capture may not connect to `ip` without --allow-private, or None if it may.

    Only globally routable unicast addresses pass. IPv4-mapped, NAT64 and 6to4/Teredo
    IPv6 addresses are judged by the IPv4 address they carry.
    """
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is None and ip in NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None:
            reason = address_refusal(inner)
            return f"{reason} (carried in {ip})" if reason else None
    checks = (
        (ip.is_unspecified, "unspecified"),
        (ip.is_loopback, "loopback"),
        (ip.is_link_local, "link-local"),
        (ip.is_multicast, "multicast"),
        (ip.is_reserved, "reserved"),
        (ip.is_private, "private"),
        (not ip.is_global, "not globally routable"),
    )
    for hit, name in checks:
        if hit:
            return f"{name} address {ip}"
    return None
