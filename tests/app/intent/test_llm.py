"""The LLM parser against a scripted OpenAI-compatible endpoint (real wire format)."""

from __future__ import annotations

import datetime as dt
import json
import logging

import httpx
import pytest

from app.intent.llm import LlmParseError, extract_json_object
from app.observability.logs import JsonFormatter
from tests.app.intent.conftest import LLM_URL, MODEL, TODAY, completion, intent_json, sample

CLEAN = intent_json(
    kind="plan_trip",
    origin="北京",
    destination="上海",
    date_start="2026-12-11",
    days=3,
    budget=2000,
)


async def test_clean_json_reply_becomes_a_validated_intent(llm, httpx_mock):
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(CLEAN))
    intent = await llm.parse("下周五从北京去上海玩三天，预算两千左右", TODAY)
    assert (intent.origin, intent.destination, intent.date_start) == (
        "北京",
        "上海",
        dt.date(2026, 12, 11),
    )
    assert intent.days == 3 and intent.budget == 2000


async def test_request_uses_json_mode_and_states_todays_date(llm, httpx_mock):
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(CLEAN))
    await llm.parse("下周五从北京去上海", TODAY)
    body = json.loads(httpx_mock.get_requests()[0].content)
    assert body["response_format"] == {"type": "json_object"}
    assert body["model"] == MODEL
    assert "2026-11-30" in body["messages"][0]["content"]
    assert body["messages"][-1] == {"role": "user", "content": "下周五从北京去上海"}
    # 3-5 few-shot pairs between the system prompt and the request.
    assert 3 <= (len(body["messages"]) - 2) // 2 <= 5


async def test_fenced_json_is_unwrapped(llm, httpx_mock):
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(f"```json\n{CLEAN}\n```"))
    intent = await llm.parse("北京去上海", TODAY)
    assert intent.destination == "上海"


async def test_json_inside_prose_is_found(llm, httpx_mock):
    reply = f"好的，以下是解析结果：{CLEAN} 希望对您有帮助 {{not json}}"
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    intent = await llm.parse("北京去上海", TODAY)
    assert intent.origin == "北京"


def test_first_complete_object_wins_over_later_ones():
    assert extract_json_object('x {"a": {"b": 1}} {"c": 2}') == {"a": {"b": 1}}


async def test_extra_invented_fields_are_dropped(llm, httpx_mock):
    reply = json.dumps({**json.loads(CLEAN), "hotel": "希尔顿", "mood": "happy"})
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    intent = await llm.parse("北京去上海", TODAY)
    assert "hotel" not in intent.model_dump()
    assert intent.destination == "上海"


async def test_null_budget_and_null_lists_are_accepted(llm, httpx_mock):
    reply = intent_json(budget=None, via=None, preferences=None, passengers=None)
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    intent = await llm.parse("北京去上海", TODAY)
    assert intent.budget is None and intent.via == [] and intent.passengers == 1


async def test_wrong_types_are_retried_with_the_error_fed_back(llm, httpx_mock, metrics):
    bad = intent_json(budget="两千左右", date_start="next friday")
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(bad))
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(CLEAN))
    result = await llm.parse_detailed("下周五北京去上海，预算两千左右", TODAY)
    assert result.attempts == 2 and result.intent.budget == 2000
    retry = json.loads(httpx_mock.get_requests()[1].content)["messages"]
    assert retry[-2] == {"role": "assistant", "content": bad}
    assert "budget" in retry[-1]["content"] and "date_start" in retry[-1]["content"]
    assert sample(metrics, "railtrip_llm_tokens_total", model=MODEL, kind="prompt") == 1800
    assert sample(metrics, "railtrip_llm_tokens_total", model=MODEL, kind="completion") == 160


async def test_invented_train_number_is_carried_not_trusted(llm, httpx_mock):
    reply = intent_json(destination="上海", train_numbers=["g9999"])
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    intent = await llm.parse("去上海", TODAY)
    # Carried for the rule engine to check against live results; the parser adds nothing.
    assert intent.train_numbers == ["G9999"]


async def test_model_that_never_produces_valid_json_raises_after_retries(llm, httpx_mock):
    httpx_mock.add_response(
        url=LLM_URL, method="POST", json=completion("当然！您想去哪里？"), is_reusable=True
    )
    with pytest.raises(LlmParseError) as caught:
        await llm.parse("北京去上海", TODAY)
    assert caught.value.reason == "invalid" and caught.value.attempts == 3
    assert len(httpx_mock.get_requests()) == 3


@pytest.mark.parametrize(
    ("status", "reason"), [(429, "rate_limited"), (500, "error"), (503, "error")]
)
async def test_api_errors_raise_at_once_without_retrying(llm, httpx_mock, metrics, status, reason):
    httpx_mock.add_response(url=LLM_URL, method="POST", status_code=status, json={"error": {}})
    with pytest.raises(LlmParseError) as caught:
        await llm.parse("北京去上海", TODAY)
    assert caught.value.reason == reason
    assert len(httpx_mock.get_requests()) == 1
    assert (
        sample(metrics, "railtrip_llm_request_duration_seconds_count", model=MODEL, outcome=reason)
        == 1
    )


async def test_timeout_is_bounded_and_reported(llm, httpx_mock):
    httpx_mock.add_exception(httpx.ReadTimeout("no answer"), url=LLM_URL, method="POST")
    with pytest.raises(LlmParseError) as caught:
        await llm.parse("北京去上海", TODAY)
    assert caught.value.reason == "timeout"


async def test_each_call_writes_one_json_audit_line_without_key_or_text(llm, httpx_mock, caplog):
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion("no json"))
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(CLEAN))
    text = "我的身份证号是110101199001011234，下周五北京去上海"
    with caplog.at_level(logging.INFO, logger="railtrip.llm"):
        await llm.parse(text, TODAY)
    records = [r for r in caplog.records if r.name == "railtrip.llm"]
    # As the JSON formatter writes them: every field a top-level key, none in a string.
    lines = [json.loads(JsonFormatter().format(r)) for r in records]
    assert [line["outcome"] for line in lines] == ["invalid", "ok"]
    first = lines[0]
    assert first["msg"] == "llm call" and first["event"] == "llm_call"
    assert first["model"] == MODEL and first["prompt_tokens"] == 900
    assert first["latency_ms"] == 250.0 and first["attempt"] == 1
    assert lines[1]["completion_tokens"] == 80
    for record in records:
        rendered = JsonFormatter().format(record)
        assert "test-key" not in rendered
        assert "110101199001011234" not in rendered


async def test_common_model_shorthands_are_accepted(llm, httpx_mock):
    reply = intent_json(depart_window="晚上", seat_class="二等座", train_types=["g", "d"])
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    intent = await llm.parse("晚上的高铁动车二等座", TODAY)
    assert intent.depart_window is not None and intent.depart_window.span() == "18:00-23:59"
    assert intent.seat_class == "second" and intent.train_types == ["G", "D"]
