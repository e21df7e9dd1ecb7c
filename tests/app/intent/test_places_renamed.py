"""Cities called by a former name (襄樊, 大庸, 思茅): planned as the city they are now, and
said back, since the traveller may not know the station is filed under the new name."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.llm import LlmIntentParser
from app.intent.offline import parse_offline
from app.intent.parser import IntentParser
from sources.stations import StationDirectory, default_directory
from tests.app.intent.conftest import LLM_URL, MODEL, FakeClock, completion, intent_json

TODAY = dt.date(2026, 12, 9)


@pytest.fixture(scope="module")
def official() -> StationDirectory:
    return default_directory()


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("周五大庸到长沙，两个人", "张家界", "长沙"),
        ("下周三从昆明回思茅", "昆明", "普洱"),
        ("后天从屯溪去杭州", "黄山", "杭州"),
        ("明天崇安出发去福州", "武夷山", "福州"),
        ("周六从武汉去襄樊看我妈", "武汉", "襄阳"),
    ],
)
def test_a_former_city_name_is_the_city_now(official, text, origin, destination) -> None:
    intent = parse_offline(text, TODAY, official)
    assert (intent.origin, intent.destination) == (origin, destination)


async def test_a_former_name_is_said_back_with_the_name_it_was_planned_as(official, metrics):
    parser = IntentParser(directory=official, metrics=metrics, llm=None)
    outcome = await parser.parse("周六从武汉去襄樊看我妈", TODAY)
    assert outcome.intent.destination == "襄阳" and not outcome.needs_clarification
    assert any("襄樊" in w and "襄阳" in w for w in outcome.warnings)
    # A nickname everyone knows (蓉城) is read without a word about it.
    outcome = await parser.parse("周六从蓉城去重庆", TODAY)
    assert outcome.intent.origin == "成都" and outcome.warnings == []


async def test_a_model_handing_back_the_old_name_is_read_as_the_city(
    official, metrics, llm_client, httpx_mock
):
    llm = LlmIntentParser(llm_client, MODEL, metrics=metrics, directory=official, clock=FakeClock())
    parser = IntentParser(directory=official, metrics=metrics, llm=llm)
    reply = intent_json(origin="大庸", destination="长沙", date_start="2026-12-11")
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    outcome = await parser.parse("周五大庸到长沙", TODAY)
    assert (outcome.intent.origin, outcome.intent.destination) == ("张家界", "长沙")
    assert not outcome.needs_clarification
