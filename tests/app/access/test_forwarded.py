"""Proxy headers are believed only from trusted proxies, and only well-formed addresses: from
anyone else (loopback included) the peer address is the client, so a forged X-Forwarded-For
never buys a fresh quota."""

from __future__ import annotations

import httpx
import pytest

from app.http.forwarded import client_address, parse_networks
from app.serving import server_config
from app.settings import Settings
from tests.app.apps import started

STATIONS = "/v1/stations?q=北京"
PROXY = parse_networks(["10.0.0.0/8"])


def xff(value: str) -> list[tuple[bytes, bytes]]:
    return [(b"x-forwarded-for", value.encode())]


@pytest.mark.parametrize(
    ("peer", "headers", "client"),
    [
        ("203.0.113.9", xff("1.2.3.4"), "203.0.113.9"),  # not a proxy: headers ignored
        ("127.0.0.1", xff("1.2.3.4"), "127.0.0.1"),  # loopback is not trusted by default
        ("10.0.0.5", xff("1.2.3.4"), "1.2.3.4"),
        ("10.0.0.5", xff("1.2.3.4, 10.0.0.7"), "1.2.3.4"),  # trusted hops are skipped
        ("10.0.0.5", xff("6.6.6.6, 1.2.3.4"), "1.2.3.4"),  # a client's forgery is left of it
        ("10.0.0.5", xff("1.2.3.4:5555"), "1.2.3.4"),
        ("10.0.0.5", xff("[2001:db8::1]:443"), "2001:db8::1"),
        ("10.0.0.5", xff("alice"), "10.0.0.5"),  # malformed: the proxy is the client
        ("10.0.0.5", xff("1.2.3.4, key:admin"), "10.0.0.5"),
        ("10.0.0.5", xff("‮evil, 1.2.3.4"), "1.2.3.4"),
        ("10.0.0.5", [(b"forwarded", b'for="[2001:db8::2]:80";proto=https')], "2001:db8::2"),
        ("10.0.0.5", [(b"forwarded", b"for=1.2.3.4, for=10.0.0.9")], "1.2.3.4"),
        ("10.0.0.5", [(b"forwarded", b"for=unknown")], "10.0.0.5"),
        ("10.0.0.5", [], "10.0.0.5"),
    ],
)
def test_the_client_is_the_first_well_formed_untrusted_hop_from_the_right(
    peer: str, headers: list[tuple[bytes, bytes]], client: str
) -> None:
    assert client_address(peer, headers, PROXY) == client


def test_without_trusted_proxies_every_header_is_ignored() -> None:
    assert client_address("127.0.0.1", xff("1.2.3.4"), ()) == "127.0.0.1"


@pytest.mark.parametrize("entry", ["proxy.internal", "10.0.0.0/33", "*", "1.2.3"])
def test_a_malformed_trusted_proxy_refuses_to_start(entry: str) -> None:
    with pytest.raises(ValueError, match="RAILTRIP_TRUSTED_PROXIES"):
        Settings(trusted_proxies=entry)


def test_serve_turns_uvicorns_own_proxy_headers_off() -> None:
    config = server_config("127.0.0.1", 0, Settings(trusted_proxies="10.0.0.1,10.1.0.0/16"))
    assert config.proxy_headers is False
    assert config.forwarded_allow_ips == "10.0.0.1,10.1.0.0/16"


async def allowed(settings: Settings, peer: str, forged: list[str]) -> int:
    """How many of the requests (one per forged X-Forwarded-For) pass a burst-5 quota."""
    async with started(settings) as app:
        transport = httpx.ASGITransport(app=app, client=(peer, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            codes = [
                (await client.get(STATIONS, headers={"X-Forwarded-For": value})).status_code
                for value in forged
            ]
    return codes.count(200)


QUOTA = {"client_rate_per_s": 0.001, "client_burst": 5}


async def test_forged_forwarded_for_from_loopback_shares_the_peers_quota() -> None:
    forged = [f"198.51.100.{n}" for n in range(30)]
    assert await allowed(Settings(**QUOTA), "127.0.0.1", forged) == 5


async def test_a_trusted_proxy_gives_each_forwarded_client_its_own_quota() -> None:
    forwarded = [f"198.51.100.{n}" for n in range(30)]
    settings = Settings(**QUOTA, trusted_proxies="127.0.0.1")
    assert await allowed(settings, "127.0.0.1", forwarded) == 30
    # Strings that are not addresses collapse onto the proxy: one quota among them all.
    assert await allowed(settings, "127.0.0.1", [f"client-{n}" for n in range(30)]) == 5
