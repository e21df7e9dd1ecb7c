"""The service parser: LLM first, rules as fallback, one shared post-validation."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from pydantic import ValidationError

from app.intent import texts as templates
from app.intent.model import StrictIntentIn
from app.intent.parser import IntentParser
from sources.stations import default_directory
from tests.app.intent.conftest import LLM_URL, TODAY, completion, intent_json, sample

TEXT = "下周五从北京去上海玩三天，预算两千左右"


def parse_total(metrics, parser: str, outcome: str) -> float:
    return sample(metrics, "railtrip_intent_parse_total", parser=parser, outcome=outcome)


@pytest.fixture
def rules(directory, metrics) -> IntentParser:
    return IntentParser(directory=directory, metrics=metrics, llm=None)


@pytest.fixture
def with_llm(directory, metrics, llm) -> IntentParser:
    return IntentParser(directory=directory, metrics=metrics, llm=llm)


async def test_without_llm_the_rules_answer_and_are_counted(rules, metrics):
    outcome = await rules.parse(TEXT, TODAY)
    assert outcome.parser == "rules" and not outcome.needs_clarification
    assert outcome.intent.date_start == dt.date(2026, 12, 11)
    assert parse_total(metrics, "rules", "ok") == 1


async def test_broken_llm_every_time_still_answers_from_rules_and_counts_fallback(
    with_llm, metrics, httpx_mock
):
    httpx_mock.add_response(
        url=LLM_URL, method="POST", json=completion("```json\n{oops"), is_reusable=True
    )
    outcome = await with_llm.parse(TEXT, TODAY)
    assert outcome.parser == "rules"
    assert (outcome.intent.origin, outcome.intent.destination) == ("北京", "上海")
    assert parse_total(metrics, "llm", "fallback") == 1
    assert parse_total(metrics, "rules", "ok") == 1
    assert sample(metrics, "railtrip_degradations_total", kind="llm_fallback") == 1


@pytest.mark.parametrize("status", [429, 500])
async def test_llm_api_error_falls_back_to_rules(with_llm, metrics, httpx_mock, status):
    httpx_mock.add_response(url=LLM_URL, method="POST", status_code=status, json={})
    outcome = await with_llm.parse(TEXT, TODAY)
    assert outcome.parser == "rules" and outcome.intent.days == 3
    assert parse_total(metrics, "llm", "fallback") == 1


async def test_llm_timeout_falls_back_to_rules(with_llm, metrics, httpx_mock):
    httpx_mock.add_exception(httpx.ReadTimeout("slow"), url=LLM_URL, method="POST")
    outcome = await with_llm.parse(TEXT, TODAY)
    assert outcome.parser == "rules"
    assert parse_total(metrics, "llm", "fallback") == 1


async def test_llm_answer_is_tagged_llm_and_counted_ok(with_llm, metrics, httpx_mock):
    reply = intent_json(origin="Beijing", destination="上海虹桥站", date_start="2026-12-11")
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    outcome = await with_llm.parse("下周五北京到虹桥", TODAY)
    assert outcome.parser == "llm"
    # Names come back as the directory spells them.
    assert (outcome.intent.origin, outcome.intent.destination) == ("北京", "上海虹桥")
    assert parse_total(metrics, "llm", "ok") == 1


async def test_llm_success_after_a_retry_is_counted_retried(with_llm, metrics, httpx_mock):
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion("sorry"))
    httpx_mock.add_response(
        url=LLM_URL, method="POST", json=completion(intent_json(destination="上海"))
    )
    outcome = await with_llm.parse("去上海", TODAY)
    assert outcome.parser == "llm"
    assert parse_total(metrics, "llm", "retried") == 1


async def test_city_invented_by_llm_becomes_a_clarification_not_a_guess(with_llm, httpx_mock):
    reply = intent_json(origin="北京", destination="亚特兰蒂斯", date_start="2026-12-11")
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    outcome = await with_llm.parse("下周五从北京出发", TODAY)
    assert outcome.intent.destination is None
    assert outcome.intent.missing == ["destination"]
    assert outcome.needs_clarification
    assert "亚特兰蒂斯" in outcome.clarify_question


async def test_train_number_named_by_traveller_is_carried_with_an_unverified_warning(rules):
    outcome = await rules.parse("明天G1从北京南到上海虹桥还有票吗", TODAY)
    assert outcome.intent.train_numbers == ["G1"]
    assert any("G1" in w and "实时" in w for w in outcome.warnings)


async def test_llm_junk_train_numbers_are_dropped(with_llm, httpx_mock):
    reply = intent_json(destination="上海", train_numbers=["G1", "最快的那班"])
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    outcome = await with_llm.parse("去上海", TODAY)
    assert outcome.intent.train_numbers == ["G1"]


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("下周五去上海", templates.ASK_ORIGIN),
        ("明天从北京出发", templates.ASK_DESTINATION),
        ("北京到上海", templates.ASK_DATE),
        ("我想去成都玩", "请问您从哪个城市出发，打算哪天出发？"),
    ],
)
async def test_missing_fields_give_a_question_naming_exactly_them(rules, text, question):
    outcome = await rules.parse(text, TODAY)
    assert outcome.needs_clarification
    assert outcome.clarify_question == question


async def test_non_station_destination_asks_for_a_station_and_suggests_a_gateway(rules):
    outcome = await rules.parse("下周去九寨沟玩四天，从北京出发", TODAY)
    assert outcome.intent.destination is None
    assert outcome.intent.destination_text == "九寨沟"
    # A directory without its nearest stations: asked for one.
    assert outcome.clarify_question.startswith("抱歉，九寨沟不在我们可以查询的火车站里")
    official = IntentParser(directory=default_directory(), metrics=rules._metrics, llm=None)
    outcome = await official.parse("想去九寨沟玩四天，从北京出发", TODAY)
    # No day yet: the nearest served stations are named, the first offered (好 plans it).
    assert outcome.clarify_question.startswith("九寨沟没有火车站，最近的火车站是黄龙九寨")
    assert outcome.intent.suggested_places["destination"] == "黄龙九寨"


async def test_a_place_without_a_station_is_planned_at_the_nearest_when_the_trip_is_known(rules):
    official = IntentParser(directory=default_directory(), metrics=rules._metrics, llm=None)
    outcome = await official.parse("下周六我们仨打算从合肥坐高铁去西递逛逛", TODAY)
    # Origin and day known: planned at the nearest (黟县东, nearer than 黄山北), said openly
    # with the other one near it; nothing asked.
    assert outcome.intent.destination == "黟县东"
    assert not outcome.needs_clarification
    assert any(
        w.startswith("西递没有火车站，已按最近的火车站黟县东") and "黄山北" in w
        for w in outcome.warnings
    )


async def test_a_place_far_from_any_railway_is_said_so(rules):
    outcome = await rules.parse("稻城亚丁想坐火车过去 成都出发 下周", TODAY)
    assert outcome.intent.origin == "成都" and outcome.intent.destination is None
    assert "稻城亚丁附近没有火车站" in outcome.clarify_question
    assert outcome.intent.suggested_places == {}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("帮我订一下北京的酒店", "预订酒店"),
        ("帮我订一下成都的青年旅舍，要六人间", "预订酒店"),
        ("丽江有便宜的客栈吗", "预订酒店"),
        ("我想退票", "退票"),
        ("帮我写一篇去西安的游记", "游记"),
        ("明天上海天气怎么样", "天气"),
    ],
)
async def test_out_of_scope_requests_get_a_polite_refusal(rules, text, words):
    outcome = await rules.parse(text, TODAY)
    assert outcome.intent.kind == "out_of_scope"
    assert not outcome.needs_clarification and outcome.clarify_question is None
    assert outcome.message.startswith("抱歉") and words in outcome.message


async def test_llm_out_of_scope_verdict_gets_the_template_refusal(with_llm, httpx_mock):
    reply = intent_json(kind="out_of_scope")
    httpx_mock.add_response(url=LLM_URL, method="POST", json=completion(reply))
    outcome = await with_llm.parse("帮我订个酒店", TODAY)
    assert outcome.message == templates.refusal("hotel")


async def test_hotel_next_to_a_real_trip_is_refused_in_part_only(rules):
    outcome = await rules.parse("下周五北京到上海玩三天，顺便帮我订个酒店", TODAY)
    assert outcome.intent.kind == "plan_trip"
    assert any("预订酒店" in w for w in outcome.warnings)


async def test_a_hostel_next_to_a_real_trip_is_refused_in_part_only(rules):
    outcome = await rules.parse("周六从成都去重庆 顺便订个青旅", TODAY)
    assert outcome.intent.kind == "query_tickets"
    assert outcome.intent.destination == "重庆"
    assert any("预订酒店" in w for w in outcome.warnings)


async def test_default_today_is_shanghai_today(rules):
    outcome = await rules.parse("明天北京到上海")
    assert outcome.intent.date_start is not None


def test_http_side_is_strict_about_today_and_unknown_fields():
    assert (
        StrictIntentIn.model_validate({"text": "北京到上海", "today": "2026-11-30"}).today == TODAY
    )
    for bad in (
        {"text": "北京到上海", "today": "next friday"},
        {"text": "北京到上海", "today": 20261130},
        {"text": "北京到上海", "extra": 1},
        {"text": "   "},
    ):
        with pytest.raises(ValidationError):
            StrictIntentIn.model_validate(bad)


@pytest.mark.parametrize(
    ("text", "slot", "other"),
    [
        ("后天北京去河口", "destination", ("origin", "北京")),
        ("后天成都到河口", "destination", ("origin", "成都")),
        ("后天从河口回西宁", "origin", ("destination", "西宁")),
    ],
)
async def test_a_town_of_several_places_is_asked_about_and_the_other_end_kept(
    metrics, text, slot, other
):
    # 河口 is 河口北 (蒙自) or 河口南 (兰州): the question names both, the agent may settle
    # it by the trains of the other end, which stays the other end (北京去河口 is no trip to
    # 北京).
    rules = IntentParser(directory=default_directory(), metrics=metrics, llm=None)
    outcome = await rules.parse(text, TODAY)
    assert outcome.clarify_question is not None
    assert outcome.clarify_question.startswith(templates.which_of("河口", ["河口南", "河口北"]))
    which = outcome.which_station[slot]
    assert which.typed == "河口" and which.stations == ("河口南", "河口北")
    assert getattr(outcome.intent, other[0]) == other[1]
    assert getattr(outcome.intent, slot) is None
    assert "which_station" not in outcome.model_dump()  # not part of the parse API


async def test_a_city_named_like_another_citys_district_station_is_asked_about(metrics):
    from sources.models import Station
    from sources.stations import StationDirectory

    def station(code: str, name: str, city: str, pinyin: str) -> Station:
        return Station(telecode=code, name=name, city=city, pinyin=pinyin, initials=pinyin[:2])

    # 青山 is a city (its station 内蒙青山) and 武汉's district (the station 武汉青山).
    directory = StationDirectory(
        [
            station("HZH", "杭州", "杭州", "hangzhou"),
            station("WHN", "武汉", "武汉", "wuhan"),
            station("QSW", "武汉青山", "武汉", "wuhanqingshan"),
            station("QSN", "内蒙青山", "青山", "neimengqingshan"),
        ]
    )
    parser = IntentParser(directory=directory, metrics=metrics, llm=None)
    outcome = await parser.parse("下周二从杭州去青山", TODAY)
    assert outcome.intent.destination is None
    assert outcome.clarify_question == templates.which_of("青山", ["内蒙青山", "武汉青山"])
    plain = await parser.parse("下周二从杭州去武汉", TODAY)
    assert plain.intent.destination == "武汉" and not plain.needs_clarification
    # Said with the qualifier of one of them, that one is meant.
    qualified = await parser.parse("下周二去内蒙那个青山，杭州出发", TODAY)
    assert qualified.intent.destination == "内蒙青山" and not qualified.needs_clarification


async def test_a_namesake_in_the_other_ends_own_city_is_ruled_out(metrics):
    from sources.models import Station
    from sources.stations import StationDirectory

    def station(code: str, name: str, city: str, pinyin: str) -> Station:
        return Station(telecode=code, name=name, city=city, pinyin=pinyin, initials=pinyin[:2])

    directory = StationDirectory(
        [
            station("HZH", "杭州", "杭州", "hangzhou"),
            station("WHN", "武汉", "武汉", "wuhan"),
            station("WCN", "武昌", "武汉", "wuchang"),
            station("QSW", "武汉青山", "武汉", "wuhanqingshan"),
            station("QSN", "内蒙青山", "青山", "neimengqingshan"),
        ]
    )
    parser = IntentParser(directory=directory, metrics=metrics, llm=None)
    # 武汉青山 is 武汉 itself: a ride between 青山 and 武汉 (or its 武昌) is from the other one.
    for text, slot in (("后天从武昌去青山", "destination"), ("下周五青山到武汉", "origin")):
        outcome = await parser.parse(text, TODAY)
        assert getattr(outcome.intent, slot) == "内蒙青山", text
        assert not outcome.needs_clarification
        assert outcome.warnings[0] == templates.namesake_by_other_end(
            "青山", ["内蒙青山", "武汉青山"], "内蒙青山"
        )
    # From a third city either may be meant: still asked.
    asked = await parser.parse("下周二从杭州去青山", TODAY)
    assert asked.intent.destination is None and asked.needs_clarification


async def test_a_city_typed_in_pinyin_that_two_cities_spell_is_asked(metrics):
    from sources.stations import default_directory

    parser = IntentParser(directory=default_directory(), metrics=metrics, llm=None)
    # From 上海, 泰州 (170 km) and 台州 (290 km) are both a plausible ride: asked.
    outcome = await parser.parse("周四从上海去taizhou见客户", TODAY)
    assert outcome.needs_clarification and outcome.intent.destination is None
    assert "台州" in outcome.clarify_question and "泰州" in outcome.clarify_question
    # A provincial capital spelt like a smaller city is the capital (fuzhou: 福州).
    outcome = await parser.parse("周四从上海去fuzhou", TODAY)
    assert outcome.intent.destination == "福州"


async def test_a_pinyin_namesake_next_to_the_other_end_is_that_one_said_openly(metrics):
    from sources.stations import default_directory

    parser = IntentParser(directory=default_directory(), metrics=metrics, llm=None)
    # 苏州 is 85 km from 上海, 宿州 420: the neighbour is meant, and the far one named.
    outcome = await parser.parse("from Shanghai to Suzhou tomorrow morning, 2 adults", TODAY)
    assert not outcome.needs_clarification and outcome.intent.destination == "苏州"
    assert any("宿州" in warning and "苏州" in warning for warning in outcome.warnings)
    outcome = await parser.parse("mingtian shanghai dao suzhou 早上7点走", TODAY)
    assert outcome.intent.destination == "苏州"
    assert outcome.intent.date_start == TODAY + dt.timedelta(days=1), "mingtian beside words"
    # From 北京 both are far: asked.
    outcome = await parser.parse("from Beijing to Suzhou tomorrow", TODAY)
    assert outcome.needs_clarification and outcome.intent.destination is None


async def test_the_nearest_station_asked_for_is_planned_not_asked_back(metrics):
    from sources.stations import default_directory

    parser = IntentParser(directory=default_directory(), metrics=metrics, llm=None)
    outcome = await parser.parse("下周去九寨沟，从北京出发，坐火车到哪个站下最近", TODAY)
    assert not outcome.needs_clarification
    assert outcome.intent.destination == "黄龙九寨"


async def test_a_date_said_with_a_weekday_it_does_not_fall_on_is_asked(rules):
    # 2027-01-08 is a Friday, not a Saturday: which day is meant is asked, never guessed
    outcome = await rules.parse("1月8号星期六从成都去重庆", dt.date(2026, 12, 28))
    assert outcome.needs_clarification and outcome.intent.date_start is None
    assert outcome.clarify_question == templates.which_day(dt.date(2027, 1, 8), dt.date(2027, 1, 9))
    agreeing = await rules.parse("1月9号（周六）从成都去重庆", dt.date(2026, 12, 28))
    assert agreeing.intent.date_start == dt.date(2027, 1, 9)
    assert not agreeing.needs_clarification
