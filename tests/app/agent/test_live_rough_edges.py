"""The agent, end to end through the real app, survives the live sites' rough edges (issue 23,
items 1, 2, 3, 5, 6 and 9), each set as the sandbox vendors learnt it: the real 12306 and Juhe
adapters against the in-process vendors, over httpx's ASGI transport. Requests are counted by
the vendors themselves, per path."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.services import Services
from tests.app.agent.harness import FAST_SOURCES, TODAY, metric, running_app

DAY = "2026-12-03"
ONE_TRANSFER = "12月3日从南京去张家界"  # no direct train; the official search joins them
NOTHING_OFFICIAL = "12月3日从莆田去大理"  # one change on the map, no plan in the official search


def requests_of(state: Services, vendor: str) -> Counter[str]:
    by_path = state.sandbox_faults[vendor].counters()["requests_by_path"]
    return Counter({p: n for p, n in by_path.items() if not p.endswith("station_name.js")})


def stages(reply: dict[str, Any]) -> list[str]:
    return [s["detail"] for s in reply["agent"]["trace"] if s["state"] == "FALLBACK"]


def rail(state: Services) -> Any:
    return next(s for s in state.sources if s.name == "sandbox-12306")


def failures(state: Services, source: str) -> float:
    return sum(
        metric(state, "railtrip_source_requests_total", source=source, outcome=outcome)
        for outcome in ("error", "timeout", "rate_limited", "circuit_open")
    )


async def plan(client: Any, text: str) -> dict[str, Any]:
    response = await client.post("/v1/plan", json={"text": text, "today": TODAY})
    assert response.status_code == 200
    return response.json()


async def test_nothing_found_by_the_official_search_leads_to_the_own_hub_search() -> None:
    """Item 1: lcquery's string `data` is zero plans, not a failure of 12306."""
    async with running_app() as (client, state):
        # Without the timetable the agent asks the official search first (with it, it knows
        # the search lists no plan near the best journey here and asks that journey's legs).
        state.agent.schedule = None
        reply = await plan(client, NOTHING_OFFICIAL)
        assert reply["itinerary"] is not None, reply["summary"]
        assert stages(reply)[:2] == ["transfer", "hubs"], "the agent went on to its own hubs"
        assert requests_of(state, "12306")["/lcquery/queryG"] == 1
        assert failures(state, "sandbox-12306") == 0, "no failure counted"
        assert rail(state).breaker_for("transfers").state == "closed"
        assert rail(state).breaker.state == "closed"
        before = requests_of(state, "12306")["/otn/leftTicket/queryG"]
        direct = await client.get(
            "/v1/tickets",
            params={"origin": "莆田", "destination": "大理", "date": DAY, "refresh": "true"},
        )
        report = {s["name"]: s for s in direct.json()["sources"]}["sandbox-12306"]
        assert report["status"] == "ok" and report["freshness"] == "realtime"
        assert requests_of(state, "12306")["/otn/leftTicket/queryG"] == before + 1


async def test_an_official_plans_halves_are_priced_from_its_own_answer() -> None:
    """Item 2: legs carry fares in yp_info, so no left-ticket query prices a half."""
    async with running_app() as (client, state):
        reply = await plan(client, ONE_TRANSFER)
        legs = reply["itinerary"]["legs"]
        assert len(legs) == 2 and all(leg["unit_price"] for leg in legs)
        assert requests_of(state, "12306") == Counter(
            {
                "/otn/leftTicket/init": 1,
                "/otn/leftTicket/queryG": 1,  # the direct query only
                "/otn/lcQuery/init": 1,
                "/lcquery/queryG": 1,
            }
        )
        assert requests_of(state, "juhe") == Counter({"/fapigw/train/query": 1})


async def test_a_drifted_transfer_path_is_found_again_within_the_plan() -> None:
    """Item 3: the old path answers as a moved one; lcQuery/init names the new one."""
    async with running_app() as (client, state):
        state.sandbox_faults["12306"].update(lc_path_moved_rate=1)
        reply = await plan(client, ONE_TRANSFER)
        assert reply["itinerary"] is not None and stages(reply) == ["transfer"]
        assert len(reply["itinerary"]["legs"]) == 2
        seen = requests_of(state, "12306")
        assert seen["/otn/lcQuery/init"] == 2 and seen["/lcquery/queryG"] == 1
        assert seen["/lcquery/queryU"] == 1, "retried once on the path the init page named"
        assert rail(state).source.lc_path == "/lcquery/queryU", "and remembered"
        assert failures(state, "sandbox-12306") == 0


async def test_a_stale_left_ticket_path_bouncing_to_the_error_page_is_not_a_block() -> None:
    """Item 5: the init page, read again, names the new path; the search succeeds at once."""
    async with running_app() as (client, state):
        state.sandbox_faults["12306"].update(path_bounce_rate=1)
        reply = await plan(client, "12月3日从北京去上海")
        assert reply["itinerary"] is not None
        report = {s["name"]: s for s in reply["sources"]}["sandbox-12306"]
        assert report["status"] == "ok"
        seen = requests_of(state, "12306")
        assert seen["/otn/leftTicket/init"] == 2 and seen["/otn/leftTicket/queryZ"] >= 1
        assert rail(state).breaker.state == "closed"


async def test_after_a_block_and_its_cool_down_a_new_session_is_served() -> None:
    """Item 6: the servlet sandbox keeps a blocked JSESSIONID blocked; only shedding the
    whole session (cookies and all) gets 12306 back."""
    quick = {name: {**conf, "block_cooldown_s": 0.001} for name, conf in FAST_SOURCES.items()}
    async with running_app(source_overrides=quick) as (client, state):
        state.sandbox_faults["12306"].update(rate_limit_rate=1)
        blocked = await plan(client, "12月3日从北京去上海")
        report = {s["name"]: s for s in blocked["sources"]}["sandbox-12306"]
        assert report["status"] == "rate_limited"
        assert blocked["itinerary"] is not None, "juhe answered meanwhile"
        state.sandbox_faults["12306"].update(rate_limit_rate=0)
        again = await client.get(
            "/v1/tickets",
            params={"origin": "北京", "destination": "上海", "date": DAY, "refresh": "true"},
        )
        report = {s["name"]: s for s in again.json()["sources"]}["sandbox-12306"]
        assert report["status"] == "ok", report
        assert requests_of(state, "12306")["/otn/leftTicket/init"] >= 2


async def test_juhe_off_format_trains_and_a_pair_without_trains_never_lose_the_plan() -> None:
    """Item 9: one odd train is skipped or kept partly; 281701 is no trains, not an error."""
    async with running_app(sources=["sandbox-juhe"]) as (client, state):
        state.sandbox_faults["juhe"].update(odd_train_rate=1)
        reply = await plan(client, "12月3日从北京去上海")
        assert reply["itinerary"] is not None
        assert {s["name"]: s for s in reply["sources"]}["sandbox-juhe"]["status"] == "ok"
        none = await plan(client, ONE_TRANSFER)  # no direct train: 281701, then hubs
        assert none["itinerary"] is not None
        assert failures(state, "sandbox-juhe") == 0
        sent = state.sandbox_faults["juhe"].counters()["requests_total"]
        assert sent >= 3
