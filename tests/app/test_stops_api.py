"""GET /v1/trains/{train_number}/stops: through the guarded 12306 source, cached, tagged."""

from __future__ import annotations

from app.settings import Settings
from tests.app.apps import running, sample, upstream_requests
from tests.clocks import FakeTime

DATE = "2026-12-04"  # the apps' clock says 2026-12-01
STOPS = "/v1/trains/G1/stops"


async def test_a_stop_list_is_live_first_then_cached_and_counted() -> None:
    async with running() as (client, state):
        first = await client.get("/v1/trains/G1/stops", params={"date": DATE})
        assert first.status_code == 200
        body = first.json()
        assert body["freshness"] == "realtime" and body["train_number"] == "G1"
        assert [s["name"] for s in body["stops"]][:2] and body["train_no"]
        assert body["stops"][0]["arrive_at"] is None and body["stops"][-1]["depart_at"] is None
        assert [s["name"] for s in body["sources"]] == ["sandbox-12306"]  # juhe has no stops
        again = await client.get("/v1/trains/g1/stops", params={"date": DATE})
        assert again.json()["freshness"] == "cached"
        # The train search, the session (leftTicket/init: the stop list wants its cookies)
        # and the stop list.
        assert upstream_requests(state, "sandbox-12306") == 3
        endpoint = "/v1/trains/{train_number}/stops"
        assert sample(state, "railtrip_responses_total", endpoint=endpoint, freshness="cached") == 1


async def test_the_segment_between_origin_and_destination() -> None:
    async with running() as (client, _):
        whole = (await client.get("/v1/trains/G1/stops", params={"date": DATE})).json()["stops"]
        names = [s["name"] for s in whole]
        params = {"date": DATE, "origin": names[1], "destination": names[-2]}
        part = (await client.get("/v1/trains/G1/stops", params=params)).json()["stops"]
        assert [s["name"] for s in part] == names[1:-1]
        wrong = await client.get(
            "/v1/trains/G1/stops",
            params={"date": DATE, "origin": names[-1], "destination": names[0]},
        )
        assert wrong.status_code == 422 and wrong.json()["field"] == "destination"
        off_route = await client.get(
            "/v1/trains/G1/stops", params={"date": DATE, "origin": "乌鲁木齐"}
        )
        assert off_route.status_code == 422 and off_route.json()["field"] == "origin"


async def test_a_train_renumbered_en_route_answers_under_its_second_number() -> None:
    # G1952 becomes G1953 at 太原南: /v1/tickets sells G1953 太原南→平遥古城, and its stop
    # list under that number was a 404 (the train search matched first numbers only).
    async with running() as (client, _):
        answer = await client.get("/v1/trains/G1953/stops", params={"date": DATE})
        assert answer.status_code == 200, answer.text
        names = [s["name"] for s in answer.json()["stops"]]
        assert names.index("太原南") < names.index("平遥古城")


async def test_an_unknown_train_is_404_and_bad_input_is_422_naming_the_field() -> None:
    async with running() as (client, state):
        missing = await client.get("/v1/trains/G9999/stops", params={"date": DATE})
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        bad = await client.get("/v1/trains/XYZ/stops", params={"date": DATE})
        assert bad.status_code == 422 and bad.json()["field"] == "train_number"
        late = await client.get("/v1/trains/G1/stops", params={"date": "2026-12-16"})
        assert late.status_code == 422 and late.json()["field"] == "date"
        assert upstream_requests(state, "sandbox-12306") == 1  # only the search for G9999


async def test_a_source_down_without_a_copy_is_unavailable_not_an_error() -> None:
    async with running() as (client, state):
        # The init page the stop list needs for its session answers 500 (never retried at
        # once): the stop list has no live answer and no copy.
        state.sandbox_faults["12306"].update(page_error_rate=1)
        answer = await client.get("/v1/trains/G1/stops", params={"date": DATE})
        assert answer.status_code == 200
        body = answer.json()
        assert body["freshness"] == "unavailable" and body["stops"] == []
        assert body["sources"][0]["status"] == "error" and body["warnings"]
        assert "/otn/leftTicket/init answered HTTP 500" in body["sources"][0]["error"]


async def test_a_blocked_left_ticket_query_does_not_refuse_the_stop_list() -> None:
    async with running() as (client, state):
        # A block opens the breaker of direct searches only; the stop list has its own, and
        # starts a new session (the block shed the old one, cookies and all).
        await client.post("/sandbox/12306/faults", json={"rate_limit_rate": 1})
        tickets = await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": DATE}
        )
        statuses = {s["name"]: s["status"] for s in tickets.json()["sources"]}
        assert statuses["sandbox-12306"] == "rate_limited"
        await client.post("/sandbox/12306/faults", json={"rate_limit_rate": 0})
        answer = (await client.get("/v1/trains/G1/stops", params={"date": DATE})).json()
        assert answer["freshness"] == "realtime" and answer["stops"]


async def test_with_redis_a_second_replica_answers_from_the_first_ones_copy(
    redis_url: str,
) -> None:
    time = FakeTime()
    settings = Settings(redis_url=redis_url)
    async with running(settings, time) as (first, _):
        assert (await first.get(STOPS, params={"date": DATE})).json()["freshness"] == "realtime"
    time.advance(30)
    async with running(settings, time) as (second, state):  # its own, empty memory
        body = (await second.get(STOPS, params={"date": DATE})).json()
        assert body["freshness"] == "cached" and body["age_s"] == 30 and body["stops"]
        assert upstream_requests(state, "sandbox-12306") == 0
        assert sample(state, "railtrip_cache_requests_total", tier="redis", result="hit") == 1
