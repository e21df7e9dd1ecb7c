"""Who the client is: the peer address, or what a trusted proxy says it forwarded.

`X-Forwarded-For` and `Forwarded` are any client's to write, so they are believed only when
the peer (the socket's other end) is one of `RAILTRIP_TRUSTED_PROXIES` (addresses or CIDR
networks; none by default). The chain is then read from the right: each hop a trusted proxy
appended is skipped, and the first hop that is not a trusted proxy is the client. A hop that
is not a well-formed IP address (a name, `unknown`, a string meant to be a quota identity)
ends the walk: the last trusted hop before it is the client, so a forged value can never
become an identity of its own. uvicorn's own proxy-header handling (which takes any string)
is turned off by `serve` (app/serving.py); this middleware is the only reader.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*("?)([^";,]*)\1', re.IGNORECASE)
MAX_HOPS = 32  # a longer chain is read only as far as this from the right


def parse_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """`10.0.0.1`, `10.0.0.0/8`, `::1` … → networks; a malformed entry raises ValueError."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError as exc:
            raise ValueError(
                f"trusted proxy {entry!r} is not an IP address or CIDR network"
            ) from exc
    return tuple(networks)


def parse_hop(value: str) -> Address | None:
    """One hop (`1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `::1`) → its address, else None."""
    text = value.strip().strip('"')
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def forwarded_hops(headers: Sequence[tuple[bytes, bytes]]) -> list[str]:
    """The hops a proxy chain recorded, left (client) to right (nearest proxy): `Forwarded`
    (RFC 7239 `for=`) when present, else `X-Forwarded-For`."""
    forwarded = [v.decode("latin-1") for k, v in headers if k == b"forwarded"]
    if forwarded:
        hops = []
        for element in ",".join(forwarded).split(","):
            match = _FOR.search(element)
            hops.append(match.group(2) if match else "")
        return hops
    xff = [v.decode("latin-1") for k, v in headers if k == b"x-forwarded-for"]
    return ",".join(xff).split(",") if xff else []


def client_address(
    peer: str, headers: Sequence[tuple[bytes, bytes]], trusted: Sequence[Network]
) -> str:
    """The client's address as this process should believe it (module doc)."""

    current = parse_hop(peer)
    if not is_trusted(current, trusted):
        return peer
    believed = str(current)
    for hop in reversed(forwarded_hops(headers)[-MAX_HOPS:]):
        address = parse_hop(hop)
        if address is None:
            break  # a malformed hop: the proxy that passed it on is the client we know
        believed = str(address)
        if not is_trusted(address, trusted):
            break
    return believed


def is_trusted(address: Address | None, trusted: Sequence[Network]) -> bool:
    """True when `address` lies in one of the trusted proxies' networks."""
    return address is not None and any(address in network for network in trusted)


class ForwardedClient:
    """Sets `scope["client"]` (and the scheme from `X-Forwarded-Proto`) from a trusted proxy's
    headers; from anyone else they are ignored."""

    def __init__(self, app: ASGIApp, trusted: Sequence[Network]) -> None:
        self.app = app
        self.trusted = tuple(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if self.trusted and scope["type"] in ("http", "websocket") and client:
            headers = scope["headers"]
            address = client_address(str(client[0]), headers, self.trusted)
            if address != client[0]:
                scope["client"] = (address, 0)
            if is_trusted(parse_hop(str(client[0])), self.trusted):
                proto = next((v for k, v in headers if k == b"x-forwarded-proto"), b"")
                if proto.strip() in (b"http", b"https") and scope["type"] == "http":
                    scope["scheme"] = proto.strip().decode()
        await self.app(scope, receive, send)
