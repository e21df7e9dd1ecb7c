"""Session ids are the server's: a client cannot pick one, and with API keys on an id only
works with the key that created it."""

from __future__ import annotations

from app.access import hash_key
from app.agent import texts
from tests.app.agent.harness import TODAY, running_app

KEY_A, KEY_B = "rt_alice_7d0c55e1a2", "rt_bob_93ab0f4c61"
KEYS = [f"alice:{hash_key(KEY_A)}", f"bob:{hash_key(KEY_B)}"]


async def chat(client, text: str, session_id: str | None = None, key: str | None = None) -> dict:  # type: ignore[no-untyped-def]
    body = {"text": text, "today": TODAY} | ({"session_id": session_id} if session_id else {})
    headers = {"X-API-Key": key} if key else {}
    r = await client.post("/v1/chat", json=body, headers=headers)
    assert r.status_code == 200, r.text[:300]
    return r.json()


async def test_a_client_chosen_id_is_replaced_by_a_server_generated_one(redis_url: str) -> None:
    async with running_app(redis_url=redis_url) as (client, state):
        reply = await chat(client, "12月4日北京到上海", session_id="my-own-id-123")
        assert reply["session_id"] != "my-own-id-123"
        assert len(reply["session_id"]) == 32 and int(reply["session_id"], 16) >= 0
        assert texts.SESSION_EXPIRED in reply["warnings"]
        assert await state.redis.exists("railtrip:session:v1:my-own-id-123") == 0


async def test_ids_are_unguessable_and_distinct(redis_url: str) -> None:
    async with running_app(redis_url=redis_url) as (client, _):
        ids = {(await chat(client, "下周末，预算2000"))["session_id"] for _ in range(5)}
    assert len(ids) == 5


async def test_with_keys_on_a_session_only_continues_under_the_key_that_made_it(
    redis_url: str,
) -> None:
    async with running_app(redis_url=redis_url, api_keys=KEYS) as (client, _):
        first = await chat(client, "下周末，预算2000", key=KEY_A)
        session_id = first["session_id"]
        assert first["clarify_question"]

        stolen = await chat(client, "北京到上海", session_id=session_id, key=KEY_B)
        assert stolen["session_id"] != session_id
        assert stolen["intent"]["budget"] is None  # Bob never sees Alice's slots

        own = await chat(client, "北京到上海", session_id=session_id, key=KEY_A)
        assert own["session_id"] == session_id
        assert own["intent"]["budget"] == 2000
