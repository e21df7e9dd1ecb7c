"""Two replicas on one Redis behind a round-robin balancer: one stateless MCP session whose
requests alternate between them, the second replica answering from the first's fetch."""

from __future__ import annotations

from app.settings import Settings
from tests.app.apps import started, upstream_requests
from tests.app.mcp.harness import DATE, RoundRobin, mcp_session, output_schemas, sample, structured
from tests.clocks import FakeTime

ROUTE = {"origin": "北京", "destination": "上海", "date": DATE}


async def test_replicas_on_one_redis_answer_one_session_alternately(redis_url: str) -> None:
    time = FakeTime()
    settings = Settings(redis_url=redis_url)
    async with started(settings, time) as a, started(settings, time) as b:
        balancer = RoundRobin([a, b])
        async with mcp_session(balancer) as client:
            schemas = await output_schemas(client)
            calls = len(balancer.served)
            first = structured(
                await client.call_tool("search_tickets", ROUTE), schemas["search_tickets"]
            )
            time.advance(3)
            second = structured(
                await client.call_tool("search_tickets", ROUTE), schemas["search_tickets"]
            )
            served = balancer.served[calls:]
    # Each call went to a different replica, and both replicas took part in the session.
    assert len(served) == 2 and served[0] != served[1]
    assert set(balancer.served) == {0, 1}
    live, cached = (a, b) if served[0] == 0 else (b, a)
    assert first["freshness"] == "realtime"
    assert second["freshness"] == "cached" and second["age_s"] == 3
    assert second["as_of"] == first["as_of"]
    assert (
        sample(cached.state.services, "railtrip_cache_requests_total", tier="redis", result="hit")
        == 1
    )
    for source in ("sandbox-12306", "sandbox-juhe"):
        assert upstream_requests(cached.state.services, source) == 0
        assert upstream_requests(live.state.services, source) >= 1
