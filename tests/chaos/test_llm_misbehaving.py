"""An LLM endpoint that times out, talks garbage or invents trains: answers stay 200, the rule
parser takes over, and no invented train reaches an itinerary.

The endpoint is scripted with pytest-httpx; the sandbox vendors sit on ASGI transports, which
it does not intercept, so ticket data stays live."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.settings import Settings
from tests.chaos.conftest import TODAY, running, sample
from tests.llm_wire import LLM_URL, completion, intent_json

pytestmark = [
    pytest.mark.chaos,
    # Scripted replies are reusable and optional: a fallback may stop asking early.
    pytest.mark.httpx_mock(assert_all_responses_were_requested=False),
]

TEXT = "后天从北京去上海"
LLM_SETTINGS = Settings(
    llm_api_key="test-key", llm_base_url="http://llm.test/v1", llm_timeout_s=2.0
)


def intent_reply(**fields: Any) -> str:
    """A model reply: a complete, valid 北京→上海 ticket query with `fields` set."""
    base = {"kind": "query_tickets", "origin": "北京", "destination": "上海"}
    return intent_json(**(base | {"date_start": "2026-12-03"} | fields))


def itinerary_trains(body: dict) -> set[str]:
    plans = [body.get("itinerary"), *(body.get("alternatives") or [])]
    return {leg["train_number"] for plan in plans if plan for leg in plan["legs"]}


def script_timeout(httpx_mock) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("model too slow"), url=LLM_URL, is_reusable=True)


def script_connect_error(httpx_mock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("refused"), url=LLM_URL, is_reusable=True)


def script_prose(httpx_mock) -> None:
    reply = completion("抱歉，我无法理解您的请求。As an AI language model I cannot do that.")
    httpx_mock.add_response(url=LLM_URL, json=reply, is_reusable=True)


def script_wrong_types(httpx_mock) -> None:
    reply = completion(intent_reply(origin=["北京"], passengers="很多", date_start=12))
    httpx_mock.add_response(url=LLM_URL, json=reply, is_reusable=True)


def script_null_content(httpx_mock) -> None:
    httpx_mock.add_response(url=LLM_URL, json=completion(None), is_reusable=True)


def script_no_choices(httpx_mock) -> None:
    httpx_mock.add_response(url=LLM_URL, json={**completion(""), "choices": []}, is_reusable=True)


def script_html_200(httpx_mock) -> None:
    """A proxy's login page with status 200: not JSON at all."""
    httpx_mock.add_response(
        url=LLM_URL,
        text="<html><body>Please sign in</body></html>",
        headers={"content-type": "text/html"},
        is_reusable=True,
    )


def script_truncated_json(httpx_mock) -> None:
    httpx_mock.add_response(
        url=LLM_URL,
        content=b'{"id": "chatcmpl-chaos", "choices": [{"message": {"con',
        headers={"content-type": "application/json"},
        is_reusable=True,
    )


def script_server_errors(httpx_mock) -> None:
    httpx_mock.add_response(
        url=LLM_URL, status_code=500, text="upstream exploded", is_reusable=True
    )


def script_rate_limited(httpx_mock) -> None:
    httpx_mock.add_response(
        url=LLM_URL,
        status_code=429,
        json={"error": {"message": "slow down", "type": "rate_limit"}},
        headers={"retry-after": "30"},
        is_reusable=True,
    )


def case(script, *marks):
    return pytest.param(script, id=script.__name__.removeprefix("script_"), marks=marks)


MISBEHAVIOURS = [
    case(script_timeout),
    case(script_connect_error),
    case(script_prose),
    case(script_wrong_types),
    case(script_null_content),
    case(script_no_choices),
    case(script_html_200),
    case(script_truncated_json),
    case(script_server_errors),
    case(script_rate_limited),
]


@pytest.mark.parametrize("script", MISBEHAVIOURS)
async def test_intent_parse_falls_back_to_rules_when_the_llm_misbehaves(httpx_mock, script):
    script(httpx_mock)
    async with running(LLM_SETTINGS) as (app, client):
        response = await client.post(
            "/v1/intent/parse", json={"text": TEXT, "today": TODAY.isoformat()}
        )
        assert response.status_code == 200, response.text[:300]
        body = response.json()
        assert body["parser"] == "rules"
        assert (body["intent"]["origin"], body["intent"]["destination"]) == ("北京", "上海")
        assert body["intent"]["date_start"] == "2026-12-03"
        assert sample(app, "railtrip_intent_parse_total", parser="llm", outcome="fallback") == 1
        assert sample(app, "railtrip_degradations_total", kind="llm_fallback") == 1
    assert httpx_mock.get_requests(url=LLM_URL), "the LLM should have been asked first"


@pytest.mark.parametrize(
    "script",
    [
        case(script_timeout),
        case(script_prose),
        case(script_server_errors),
        case(script_html_200),
        case(script_truncated_json),
    ],
)
async def test_plan_is_built_by_the_rules_when_the_llm_misbehaves(httpx_mock, script):
    script(httpx_mock)
    async with running(LLM_SETTINGS) as (app, client):
        response = await client.post("/v1/plan", json={"text": TEXT, "today": TODAY.isoformat()})
        assert response.status_code == 200, response.text[:300]
        body = response.json()
        assert body["itinerary"] is not None, body["summary"]
        assert body["itinerary"]["legs"][0]["depart_at"].startswith("2026-12-03")
        assert body["freshness"] in {"realtime", "cached"}
        assert sample(app, "railtrip_intent_parse_total", parser="llm", outcome="fallback") >= 1


async def test_trains_invented_by_the_llm_never_reach_an_itinerary(httpx_mock):
    """The model adds trains the traveller never named and no source runs."""
    invented = ["G9999", "K8888"]
    reply = completion(intent_reply(train_numbers=invented))
    httpx_mock.add_response(url=LLM_URL, json=reply, is_reusable=True)
    async with running(LLM_SETTINGS) as (app, client):
        parsed = await client.post(
            "/v1/intent/parse", json={"text": TEXT, "today": TODAY.isoformat()}
        )
        assert parsed.status_code == 200
        response = await client.post("/v1/plan", json={"text": TEXT, "today": TODAY.isoformat()})
        assert response.status_code == 200, response.text[:300]
        body = response.json()
        assert body["itinerary"] is not None, body["summary"]
        assert not set(invented) & itinerary_trains(body)
        rejected = sum(
            sample(app, "railtrip_invented_train_rejections_total", origin=origin)
            for origin in ("user", "llm", "cache")
        )
        assert rejected >= 1

        tickets = await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": "2026-12-03"}
        )
        real = {offer["train_number"] for offer in tickets.json()["offers"]}
        assert itinerary_trains(body) <= real


async def test_trains_the_llm_added_to_the_intent_are_counted_as_llm_inventions(httpx_mock):
    reply = completion(intent_reply(train_numbers=["G9999"]))
    httpx_mock.add_response(url=LLM_URL, json=reply, is_reusable=True)
    async with running(LLM_SETTINGS) as (app, client):
        response = await client.post("/v1/plan", json={"text": TEXT, "today": TODAY.isoformat()})
        assert response.status_code == 200
        assert sample(app, "railtrip_invented_train_rejections_total", origin="llm") >= 1
        assert sample(app, "railtrip_invented_train_rejections_total", origin="user") == 0


async def test_llm_closing_words_naming_an_invented_train_are_discarded(httpx_mock):
    """Whatever the model says, the summary only names trains this request's sources returned."""
    httpx_mock.add_response(url=LLM_URL, json=completion(intent_reply()), is_reusable=True)
    async with running(LLM_SETTINGS) as (_, client):
        response = await client.post("/v1/plan", json={"text": TEXT, "today": TODAY.isoformat()})
        assert response.status_code == 200
        body = response.json()
        assert "G9999" not in body["summary"]
        assert body["agent"]["mode"] == "state_machine"
