"""`POST /v1/chat`: multi-turn slot filling kept in Redis and in memory, losses told."""

from __future__ import annotations

import redis.asyncio as aioredis

from app.agent import texts
from app.sessions import SESSION_KEY, decode_record
from tests.app.agent.harness import TODAY, metric, running_app
from tests.redis_server import RedisServer


async def test_missing_origin_is_asked_then_the_next_turn_completes_the_plan(
    redis_url: str,
) -> None:
    async with running_app(redis_url=redis_url) as (client, _):
        first = (
            await client.post("/v1/chat", json={"text": "下周末，预算2000", "today": TODAY})
        ).json()
        assert first["itinerary"] is None
        assert first["clarify_question"] == "请问您从哪个城市出发，想去哪里？"
        session_id = first["session_id"]
        assert len(session_id) == 32 and int(session_id, 16) >= 0
        second = (
            await client.post(
                "/v1/chat", json={"session_id": session_id, "text": "北京到上海", "today": TODAY}
            )
        ).json()
    assert second["session_id"] == session_id
    assert second["clarify_question"] is None
    assert second["itinerary"] is not None
    assert second["intent"]["budget"] == 2000
    assert second["intent"]["date_start"] == first["intent"]["date_start"]
    assert second["summary"].startswith("已按「北京→上海 · ")
    assert "预算2000元" in second["summary"]


async def test_session_is_stored_as_intent_json_with_a_thirty_minute_ttl(redis_url: str) -> None:
    async with running_app(redis_url=redis_url) as (client, _):
        body = (
            await client.post("/v1/chat", json={"text": "12月4日北京到上海", "today": TODAY})
        ).json()
    session_id = body["session_id"]
    redis = aioredis.Redis.from_url(redis_url)
    try:
        key = SESSION_KEY.format(session_id=session_id)
        assert key == f"railtrip:session:v1:{session_id}"
        stored = await redis.get(key)
        ttl = await redis.ttl(key)
    finally:
        await redis.aclose()
    assert b'"destination":"\\u4e0a\\u6d77"' in stored or "上海".encode() in stored
    assert 1790 <= ttl <= 1800


async def test_a_later_turn_moves_the_dates_and_keeps_the_rest(redis_url: str) -> None:
    async with running_app(redis_url=redis_url) as (client, _):
        first = (
            await client.post(
                "/v1/chat", json={"text": "12月4日从北京去上海玩三天，预算2000", "today": TODAY}
            )
        ).json()
        sid = first["session_id"]
        second = (
            await client.post(
                "/v1/chat", json={"session_id": sid, "text": "换成12月8日", "today": TODAY}
            )
        ).json()
    assert first["intent"]["date_start"] == "2026-12-04"
    assert second["intent"]["date_start"] == "2026-12-08"
    assert second["intent"]["date_end"] == "2026-12-10", "the trip keeps its length"
    assert second["intent"]["budget"] == 2000
    assert second["itinerary"]["legs"][0]["depart_at"].startswith("2026-12-08")


async def test_another_stop_is_appended_to_the_trip(redis_url: str) -> None:
    async with running_app(redis_url=redis_url) as (client, _):
        first = (
            await client.post(
                "/v1/chat", json={"text": "12月4日从北京去南京玩两天", "today": TODAY}
            )
        ).json()
        second = (
            await client.post(
                "/v1/chat",
                json={"session_id": first["session_id"], "text": "再加一站杭州", "today": TODAY},
            )
        ).json()
    assert second["intent"]["via"][0]["city"] == "南京"
    assert second["intent"]["destination"] == "杭州"
    assert "已按「北京→南京→杭州 · 12月4日–6日」" in second["summary"]
    assert [leg["segment"] for leg in second["itinerary"]["legs"]][0] == 0


async def test_without_redis_the_embedded_default_remembers_turns_in_memory() -> None:
    async with running_app() as (client, state):
        first = (
            await client.post("/v1/chat", json={"text": "下周末，预算2000", "today": TODAY})
        ).json()
        second = (
            await client.post(
                "/v1/chat",
                json={"session_id": first["session_id"], "text": "北京到上海", "today": TODAY},
            )
        ).json()
    assert texts.SESSION_SINGLE_TURN not in first["warnings"] + second["warnings"]
    assert second["itinerary"] is not None
    assert second["intent"]["budget"] == 2000, "the first turn was remembered"
    assert metric(state, "railtrip_degradations_total", kind="session_single_turn") == 0


async def test_a_session_no_store_has_any_more_is_told_to_the_traveller() -> None:
    async with running_app() as (client, state):
        body = (
            await client.post(
                "/v1/chat",
                json={"session_id": "gone-1234", "text": "12月4日北京到上海", "today": TODAY},
            )
        ).json()
    assert body["warnings"][0] == texts.SESSION_EXPIRED
    assert body["warnings"][0].startswith("之前的对话已过期，请重新告诉我")
    assert body["itinerary"] is not None, "the turn is still answered on its own"
    assert metric(state, "railtrip_degradations_total", kind="session_lost") == 1


async def test_a_session_lost_to_a_redis_restart_is_told_on_another_replica(
    own_redis: RedisServer,
) -> None:
    async with running_app(redis_url=own_redis.url) as (client, _):
        first = await client.post("/v1/chat", json={"text": "下周末，预算2000", "today": TODAY})
        sid = first.json()["session_id"]
    own_redis.stop()
    own_redis.start()  # no persistence: every session is gone
    async with running_app(redis_url=own_redis.url) as (client, state):
        second = await client.post(
            "/v1/chat", json={"session_id": sid, "text": "北京到上海", "today": TODAY}
        )
    body = second.json()
    assert second.status_code == 200
    assert body["warnings"][0] == texts.SESSION_EXPIRED
    assert body["intent"]["budget"] is None
    assert metric(state, "railtrip_degradations_total", kind="session_lost") == 1


async def test_a_replica_that_still_holds_a_session_puts_it_back_after_a_redis_restart(
    own_redis: RedisServer,
) -> None:
    async with running_app(redis_url=own_redis.url) as (client, _):
        first = await client.post("/v1/chat", json={"text": "下周末，预算2000", "today": TODAY})
        sid = first.json()["session_id"]
        own_redis.stop()
        own_redis.start()
        second = await client.post(
            "/v1/chat", json={"session_id": sid, "text": "北京到上海", "today": TODAY}
        )
    assert second.json()["intent"]["budget"] == 2000
    assert texts.SESSION_EXPIRED not in second.json()["warnings"]
    redis = aioredis.Redis.from_url(own_redis.url)
    try:
        assert await redis.exists(SESSION_KEY.format(session_id=sid)) == 1
    finally:
        await redis.aclose()


async def test_a_change_made_while_redis_is_down_is_kept_and_written_back(
    own_redis: RedisServer,
) -> None:
    async with running_app(redis_url=own_redis.url) as (client, state):
        first = await client.post("/v1/chat", json={"text": "下周末，预算2000", "today": TODAY})
        sid = first.json()["session_id"]
        assert texts.SESSION_SINGLE_TURN not in first.json()["warnings"]
        own_redis.stop()
        second = await client.post(
            "/v1/chat", json={"session_id": sid, "text": "北京到上海", "today": TODAY}
        )
        assert second.status_code == 200
        assert second.json()["intent"]["budget"] == 2000, "read from this replica's memory"
        assert state.sessions.pending_write_back == 1
        assert metric(state, "railtrip_degradations_total", kind="session_memory_only") == 1
        assert texts.SESSION_NOT_SAVED in second.json()["warnings"], "the traveller is told"
        # ... and that the turn rests on this replica's copy, which another may have passed.
        assert texts.SESSION_FROM_COPY in second.json()["warnings"]
        assert metric(state, "railtrip_degradations_total", kind="session_from_copy") == 1
        own_redis.start()
        await state.sessions.write_back()  # what the shared health runs when Redis returns
        assert state.sessions.pending_write_back == 0
    redis = aioredis.Redis.from_url(own_redis.url)
    try:
        stored = await redis.get(SESSION_KEY.format(session_id=sid))
    finally:
        await redis.aclose()
    assert stored is not None
    decoded = decode_record(stored)
    assert decoded is not None
    version, written = decoded
    assert (written.destination, written.budget) == ("上海", 2000), "the change made while down"
    assert version == 2  # the second turn, over the first


async def test_redis_down_for_a_session_this_replica_never_saw_is_single_turn(
    own_redis: RedisServer,
) -> None:
    async with running_app(redis_url=own_redis.url) as (client, _):
        first = await client.post("/v1/chat", json={"text": "下周末，预算2000", "today": TODAY})
        sid = first.json()["session_id"]
    async with running_app(redis_url=own_redis.url) as (client, state):
        own_redis.stop()
        second = await client.post(
            "/v1/chat", json={"session_id": sid, "text": "12月4日北京到上海", "today": TODAY}
        )
    assert second.status_code == 200
    body = second.json()
    assert body["warnings"][0] == texts.SESSION_SINGLE_TURN
    assert body["itinerary"] is not None, "the turn is still answered on its own"
    assert body["intent"]["budget"] is None, "the earlier turn could not be read"
    assert metric(state, "railtrip_degradations_total", kind="session_single_turn") == 1


async def test_out_of_scope_turn_is_refused_and_leaves_the_session_as_it_was(
    redis_url: str,
) -> None:
    async with running_app(redis_url=redis_url) as (client, _):
        first = (
            await client.post("/v1/chat", json={"text": "下周末，预算2000", "today": TODAY})
        ).json()
        sid = first["session_id"]
        refusal = (
            await client.post(
                "/v1/chat", json={"session_id": sid, "text": "帮我订个酒店", "today": TODAY}
            )
        ).json()
        third = (
            await client.post(
                "/v1/chat", json={"session_id": sid, "text": "北京到上海", "today": TODAY}
            )
        ).json()
    assert refusal["itinerary"] is None and "无法帮您预订酒店" in refusal["summary"]
    assert third["itinerary"] is not None and third["intent"]["budget"] == 2000


async def test_invalid_session_id_is_422_naming_session_id() -> None:
    async with running_app() as (client, _):
        for bad in ("short", "has space inside", "x" * 65, "../../etc"):
            response = await client.post("/v1/chat", json={"session_id": bad, "text": "北京到上海"})
            assert response.status_code == 422
            assert response.json()["field"] == "session_id"
        empty = await client.post("/v1/chat", json={"text": ""})
        assert empty.status_code == 422 and empty.json()["field"] == "text"
