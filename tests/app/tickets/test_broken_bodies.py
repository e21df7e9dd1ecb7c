"""A broken body is a parse failure, not a block: a gateway's cut-off or data-less 12306
answer is retried per policy and counts against the breaker with its normal cool-down; it
never takes the site off this replica for the block cool-down (300 s)."""

from __future__ import annotations

from app.settings import Settings
from tests.app.apps import running, sample
from tests.clocks import FakeTime

TICKETS = {"origin": "北京", "destination": "上海", "date": "2026-12-04", "refresh": "true"}
FAST = {"sandbox-12306": {"rate_per_s": 1000}, "sandbox-juhe": {"rate_per_s": 1000}}


def source_of(body: dict, name: str) -> dict:
    return next(s for s in body["sources"] if s["name"] == name)


async def test_broken_12306_bodies_are_retried_and_the_site_is_back_a_second_later() -> None:
    time = FakeTime()
    async with running(Settings(source_overrides=FAST), time) as (client, state):
        assert (await client.post("/sandbox/12306/faults", json={"malformed_rate": 1})).is_success
        broken = (await client.get("/v1/tickets", params=TICKETS)).json()
        assert source_of(broken, "sandbox-12306")["status"] == "error"
        attempts = sample(
            state, "railtrip_source_requests_total", source="sandbox-12306", outcome="error"
        )
        assert attempts >= 2, "a broken body is retried (transient), not given up as a block"
        assert (
            sample(
                state,
                "railtrip_source_requests_total",
                source="sandbox-12306",
                outcome="rate_limited",
            )
            == 0
        )

        assert (await client.post("/sandbox/12306/faults", json={"malformed_rate": 0})).is_success
        time.advance(1.0)
        again = (await client.get("/v1/tickets", params=TICKETS)).json()
        assert source_of(again, "sandbox-12306")["status"] == "ok"
        assert (
            sample(
                state,
                "railtrip_source_requests_total",
                source="sandbox-12306",
                outcome="circuit_open",
            )
            == 0
        )
