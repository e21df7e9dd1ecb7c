"""Failed authentication is throttled per address (600 wrong keys in 2.3 s met no back-off),
before any key is checked; two different keys in one request are refused, never one picked."""

from __future__ import annotations

import httpx

from app.access import hash_key
from app.access.quotas import AUTH_FAILURE_BURST
from app.gcra import gcra_key
from app.settings import Settings
from tests.app.apps import sample, started
from tests.clocks import FakeTime

KEY = "k-frontend-0123456789abcdef"
OTHER = "k-ops-fedcba9876543210"
KEYS = f"frontend:{hash_key(KEY)},ops:{hash_key(OTHER)}"
STATIONS = "/v1/stations?q=北京"


def client_from(app, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://railtrip")


async def test_wrong_keys_beyond_the_burst_are_throttled_per_address_before_any_check() -> None:
    time = FakeTime()
    async with started(Settings(api_keys=KEYS), time) as app:
        state = app.state.services
        async with (
            client_from(app, "203.0.113.7") as guesser,
            client_from(app, "198.51.100.2") as other,
        ):
            codes = [
                (await guesser.get(STATIONS, headers={"X-API-Key": f"guess-{n}"})).status_code
                for n in range(600)
            ]
            assert codes[:AUTH_FAILURE_BURST] == [401] * AUTH_FAILURE_BURST
            assert set(codes[AUTH_FAILURE_BURST:]) == {429}
            throttled = await guesser.get(STATIONS, headers={"X-API-Key": KEY})
            assert throttled.status_code == 429, "the right key is not even looked at meanwhile"
            assert throttled.json()["code"] == "auth_throttled"
            assert int(throttled.headers["retry-after"]) >= 1
            # Another address is untouched.
            assert (await other.get(STATIONS, headers={"X-API-Key": KEY})).status_code == 200
            time.advance(int(throttled.headers["retry-after"]))
            assert (await guesser.get(STATIONS, headers={"X-API-Key": KEY})).status_code == 200
        assert sample(state, "railtrip_rejections_total", reason="unauthorized") == 600 + 1


async def test_the_failure_budget_is_shared_by_replicas_on_one_redis(redis_server) -> None:
    settings = Settings(api_keys=KEYS, redis_url=redis_server.url)
    address = "203.0.113.99"
    async with started(settings) as first, started(settings) as second:
        await first.state.services.redis.delete(gcra_key("authfail:" + address))
        async with client_from(first, address) as a, client_from(second, address) as b:
            for n in range(AUTH_FAILURE_BURST):
                assert (await a.get(STATIONS, headers={"X-API-Key": f"g{n}"})).status_code == 401
            assert (await b.get(STATIONS, headers={"X-API-Key": "g-next"})).status_code == 429


async def test_two_different_keys_are_401_and_the_same_key_twice_is_fine() -> None:
    async with started(Settings(api_keys=KEYS)) as app:
        async with client_from(app, "192.0.2.1") as client:
            both = {"Authorization": f"Bearer {KEY}", "X-API-Key": "wrong"}
            refused = await client.get(STATIONS, headers=both)
            assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"
            two_valid = {"Authorization": f"Bearer {KEY}", "X-API-Key": OTHER}
            assert (await client.get(STATIONS, headers=two_valid)).status_code == 401
            same = {"Authorization": f"Bearer {KEY}", "X-API-Key": KEY}
            assert (await client.get(STATIONS, headers=same)).status_code == 200
