"""Transfers ask the sources' own transfer search first (one page), then the own hub search.

The real app on the embedded default: the 12306 adapter against the sandbox vendor, which
computes the official transfer search over the network, through httpx's ASGI transport.
Requests are counted by the sandbox vendors themselves, per path.
"""

from __future__ import annotations

from collections import Counter

from app.services import Services
from app.tools import call_tool
from app.tools.context import ToolContext
from tests.app.agent.harness import TODAY, running_app

ONE_TRANSFER = "12月3日从南京去张家界"  # no direct train on the network; one change joins them
DATE = "2026-12-03"


def requests_of(state: Services, vendor: str) -> Counter[str]:
    by_path = state.sandbox_faults[vendor].counters()["requests_by_path"]
    return Counter({p: n for p, n in by_path.items() if not p.endswith("station_name.js")})


async def test_a_cold_one_transfer_plan_costs_four_requests_at_12306_and_one_at_juhe() -> None:
    async with running_app() as (client, state):
        response = await client.post("/v1/plan", json={"text": ONE_TRANSFER, "today": TODAY})
        reply = response.json()
        itinerary = reply["itinerary"]
        assert itinerary is not None, reply["summary"]
        assert len(itinerary["legs"]) == 2
        assert itinerary["legs"][0]["origin_station"]["city"] == "南京"
        assert itinerary["legs"][1]["destination_station"]["city"] == "张家界"
        assert {leg["freshness"] for leg in itinerary["legs"]} == {"realtime"}
        assert [s["detail"] for s in reply["agent"]["trace"] if s["state"] == "FALLBACK"] == [
            "transfer"
        ]
        # The session init and the direct query; the lcQuery init and one page of plans.
        assert requests_of(state, "12306") == Counter(
            {
                "/otn/leftTicket/init": 1,
                "/otn/leftTicket/queryG": 1,
                "/otn/lcQuery/init": 1,
                "/lcquery/queryG": 1,
            }
        )
        assert requests_of(state, "juhe") == Counter({"/fapigw/train/query": 1})
        direct = await client.get(
            "/v1/tickets", params={"origin": "南京", "destination": "张家界", "date": DATE}
        )
        assert direct.json()["offers"] == []
        assert reply["summary"].startswith("没有直达车次"), "said only because none was found"


async def test_without_a_transfer_source_the_own_hub_search_plans_it() -> None:
    async with running_app(sources=["sandbox-juhe"]) as (client, state):
        response = await client.post("/v1/plan", json={"text": ONE_TRANSFER, "today": TODAY})
        reply = response.json()
        assert reply["itinerary"] is not None, reply["summary"]
        assert len(reply["itinerary"]["legs"]) == 2
        assert [s["detail"] for s in reply["agent"]["trace"] if s["state"] == "FALLBACK"] == [
            "transfer"
        ]
        # The direct query and both halves via the network's best hub.
        assert requests_of(state, "juhe") == Counter({"/fapigw/train/query": 3})


async def test_find_transfers_takes_the_agents_path_not_a_fixed_hub_list() -> None:
    async with running_app() as (_, state):
        args = {"origin": "南京", "destination": "张家界", "date": DATE}
        answer = await call_tool(ToolContext.for_services(state), "mcp", "find_transfers", args)
        options = answer.model_dump()["options"]
        assert options and all(len(o["legs"]) == 2 for o in options)
        assert answer.model_dump()["freshness"] == "realtime"
        assert requests_of(state, "12306")["/lcquery/queryG"] == 1
        assert requests_of(state, "12306")["/otn/leftTicket/queryG"] == 1, "no hub legs asked"
    async with running_app(sources=["sandbox-juhe"]) as (_, state):
        answer = await call_tool(ToolContext.for_services(state), "mcp", "find_transfers", args)
        assert answer.model_dump()["options"], "the network's derived hub joins the ends"
        assert requests_of(state, "juhe") == Counter({"/fapigw/train/query": 3})


ASKED_BY_LEGS = "12月3日从厦门去桂林"  # the best change (D2303 + G320) is not on the search's page


async def test_a_journeys_legs_are_asked_of_one_source_a_one_change_plan_in_four_and_one() -> None:
    async with running_app() as (client, state):
        response = await client.post("/v1/plan", json={"text": ASKED_BY_LEGS, "today": TODAY})
        reply = response.json()
        itinerary = reply["itinerary"]
        assert itinerary is not None, reply["summary"]
        assert [leg["train_number"] for leg in itinerary["legs"]] == ["D2303", "G320"]
        assert {leg["freshness"] for leg in itinerary["legs"]} == {"realtime"}
        # The session init, the direct query and the journey's two legs; juhe only the
        # direct query (it was asked every leg too, 3 requests, before the legs went to one).
        assert requests_of(state, "12306") == Counter(
            {"/otn/leftTicket/init": 1, "/otn/leftTicket/queryG": 3}
        )
        assert requests_of(state, "juhe") == Counter({"/fapigw/train/query": 1})


async def test_with_12306_failing_the_journeys_legs_are_asked_of_juhe() -> None:
    async with running_app() as (client, state):
        state.sandbox_faults["12306"].update(error_rate=1)
        response = await client.post("/v1/plan", json={"text": ASKED_BY_LEGS, "today": TODAY})
        reply = response.json()
        itinerary = reply["itinerary"]
        assert itinerary is not None, reply["summary"]
        assert [leg["train_number"] for leg in itinerary["legs"]] == ["D2303", "G320"]
        assert requests_of(state, "juhe") == Counter({"/fapigw/train/query": 3})
        assert {s["name"]: s["status"] for s in reply["sources"]}["sandbox-12306"] != "ok"
