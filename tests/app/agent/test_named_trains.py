"""A train named without stations is planned on its own route (issue 22 item 6), through the
real app and the sandbox's stop lists; a number that cannot exist is said, not planned."""

from __future__ import annotations

import datetime as dt

import pytest

from app.agent.named_train import TrainRoute, fill_route, missed_stops, needs_route, run_started
from app.errors import NotFound
from app.intent.model import TravelIntent
from app.tickets.stops import StopListResult
from tests.app.agent.harness import TODAY, running_app


async def _plan(text: str) -> dict[str, object]:
    async with running_app() as (client, _):
        response = await client.post("/v1/plan", json={"text": text, "today": TODAY})
    assert response.status_code == 200
    body: dict[str, object] = response.json()
    return body


@pytest.mark.parametrize(
    ("text", "train", "origin", "destination"),
    [
        ("G1 明天的", "G1", "北京南", "上海虹桥"),
        ("Z21 后天还有票吗", "Z21", "北京西", "拉萨"),
        ("明天坐C2003去天津", "C2003", "北京南", "天津"),
    ],
)
async def test_a_named_train_rides_its_own_route(
    text: str, train: str, origin: str, destination: str
) -> None:
    body = await _plan(text)
    itinerary = body["itinerary"]
    assert isinstance(itinerary, dict), body["summary"]
    leg = itinerary["legs"][0]
    assert leg["train_number"] == train
    assert leg["origin_station"]["name"] == origin
    assert leg["destination_station"]["name"].startswith(destination)
    assert f"{origin}→{destination}" in str(body["understood"])
    # The route line lists the stops with their times.
    note = next(w for w in body["warnings"] if "全程" in w)  # type: ignore[attr-defined]
    assert origin in note and ":" in note


async def test_an_impossible_train_number_alone_is_said_not_asked_about_stations() -> None:
    body = await _plan("G99999 明天还有票吗")
    assert body["itinerary"] is None
    assert "没有找到车次G99999" in str(body["summary"])


class _Stops:
    def __init__(self, result: StopListResult | None) -> None:
        self.result = result
        self.asked: list[tuple[str, dt.date]] = []

    async def stops(self, train_number: str, date: dt.date) -> StopListResult:
        self.asked.append((train_number, date))
        if self.result is None:
            raise NotFound("no such train")
        return self.result


async def test_a_number_no_source_knows_on_that_date_is_reported_unknown() -> None:
    intent = TravelIntent(kind="plan_trip", train_numbers=["G7"], date_start=dt.date(2026, 12, 2))
    assert needs_route(intent)
    stops = _Stops(None)
    route = await fill_route(stops, intent)
    assert route.unknown == "G7" and route.intent is intent
    assert stops.asked == [("G7", dt.date(2026, 12, 2))]


def test_a_named_station_is_kept_and_only_the_missing_end_is_asked() -> None:
    both = TravelIntent(
        kind="plan_trip",
        train_numbers=["G80"],
        origin="广州南",
        destination="武汉",
        date_start=dt.date(2026, 12, 2),
    )
    undated = TravelIntent(kind="plan_trip", train_numbers=["G80"])
    assert not needs_route(both) and not needs_route(undated)


async def _chat(*texts: str) -> dict[str, object]:
    async with running_app() as (client, _):
        body: dict[str, object] = {}
        for text in texts:
            payload: dict[str, object] = {"text": text, "today": TODAY}
            if body:
                payload["session_id"] = body["session_id"]
            response = await client.post("/v1/chat", json=payload)
            assert response.status_code == 200
            body = response.json()
    return body


async def test_the_ends_of_the_named_trains_ride_keep_the_train() -> None:
    # G79 runs 北京西 → 石家庄 → 武汉 → 长沙南 → 广州南 → 深圳北: 北京 to 广州 is its ride.
    body = await _chat("G79后天还有票吗", "我们一家三口从北京到广州，孩子7岁")
    itinerary = body["itinerary"]
    assert isinstance(itinerary, dict), body["summary"]
    assert [leg["train_number"] for leg in itinerary["legs"]] == ["G79"]
    assert itinerary["legs"][-1]["destination_station"]["name"].startswith("广州")


async def test_ends_the_named_train_does_not_call_at_are_a_trip_of_their_own() -> None:
    # G79 does not call at 上海: a trip of its own (nothing of the train's carries over, so
    # its day is asked), never G79 to a station it does not reach.
    body = await _chat("G79后天还有票吗", "从北京到上海")
    intent = body["intent"]
    assert isinstance(intent, dict)
    assert intent["train_numbers"] == [] and intent["destination"] == "上海"
    assert body["itinerary"] is None
    assert body["clarify_question"] == "请问您打算哪天出发？"
    assert "北京→上海" in str(body["understood"])


async def test_a_ride_between_two_middle_stops_keeps_the_train_and_its_day() -> None:
    # Neither 武汉 nor 广州 is one of G79's ends (北京西, 深圳北): a ride inside its route.
    body = await _chat("G79后天还有票吗", "我们俩从武汉坐到广州")
    itinerary = body["itinerary"]
    assert isinstance(itinerary, dict), body["summary"]
    (leg,) = itinerary["legs"]
    assert leg["train_number"] == "G79"
    assert leg["origin_station"]["name"] == "武汉"
    assert leg["destination_station"]["name"] == "广州南"
    assert leg["depart_at"].startswith("2026-12-03")


async def test_two_stops_of_the_train_in_the_wrong_order_are_a_trip_of_their_own() -> None:
    body = await _chat("G79后天还有票吗", "从广州到武汉")
    intent = body["intent"]
    assert isinstance(intent, dict)
    assert intent["train_numbers"] == [] and body["itinerary"] is None
    assert body["clarify_question"] == "请问您打算哪天出发？"


async def test_boarding_at_a_stop_reached_overnight_keeps_the_day_said_and_names_the_run() -> None:
    # 后天 is the 3rd: the traveller boards at 兰州 on the 3rd, as a ticket is dated, on the Z21
    # that left 北京西 on the 2nd (said, so the run is no surprise).
    body = await _chat("Z21后天还有票吗", "我们从兰州坐到拉萨")
    itinerary = body["itinerary"]
    assert isinstance(itinerary, dict), body["summary"]
    (leg,) = itinerary["legs"]
    assert leg["train_number"] == "Z21" and leg["origin_station"]["name"] == "兰州"
    assert leg["depart_at"].startswith("2026-12-03")
    assert any("兰州" in w and "12月2日" in w and "北京" in w for w in body["warnings"])


def test_the_run_boarded_at_a_later_stop_is_named_only_when_the_turn_says_no_day() -> None:
    route = TrainRoute(("北京", "石家庄", "兰州", "西宁", "拉萨"), (0, 0, 1, 1, 2))
    cities = {"北京西": "北京", "石家庄北": "石家庄"}
    day = dt.date(2026, 12, 3)
    previous = TravelIntent(
        origin="北京西", destination="拉萨", train_numbers=["Z21"], date_start=day
    )
    turn = TravelIntent(origin="西宁", destination="拉萨")
    after = previous.model_copy(update={"origin": "西宁"})
    city = lambda n: cities.get(n, n)  # noqa: E731
    assert run_started(previous, turn, after, route, city) == dt.date(2026, 12, 2)
    # A stop the train leaves on its first day: the run is the one of the day said.
    assert (
        run_started(previous, turn, after.model_copy(update={"origin": "石家庄北"}), route, city)
        is None
    )
    said = turn.model_copy(update={"date_start": day})
    assert run_started(previous, said, after, route, city) is None
    other = after.model_copy(update={"train_numbers": []})
    assert run_started(previous, turn, other, route, city) is None


@pytest.mark.parametrize("text", ["K1512 明天的 硬卧", "K1512 明天 从杭州到聊城 硬卧"])
async def test_a_train_renumbered_en_route_is_found_by_the_number_said(text: str) -> None:
    # K1512 leaves 金华 and 杭州南 as K1509 (one run, 12306's train_no 6i000K150940): the live
    # results list K1509 there, and the ride is planned on it, said, not relaxed away.
    body = await _plan(text)
    itinerary = body["itinerary"]
    assert isinstance(itinerary, dict), body["summary"]
    assert [leg["train_number"] for leg in itinerary["legs"]] == ["K1509"]
    assert body["relaxed"] == []
    assert any("以K1509车次发售" in w for w in body["warnings"])  # type: ignore[attr-defined]


async def test_a_named_train_that_does_not_call_at_a_station_asked_says_so() -> None:
    body = await _plan("明天想从北京南坐G1去徐州东，有票吗")
    said = " ".join(str(w) for w in body["warnings"])  # type: ignore[attr-defined]
    assert "G1次列车不经停徐州东" in said and "济南西" in said  # from its own stop list
    relaxed = body["relaxed"]
    assert isinstance(relaxed, list) and relaxed[0]["reason"] == "车次G1不经停徐州东"
    assert "不在" not in said  # it runs: not said as absent from the results


async def test_a_named_train_between_its_own_stops_is_no_missed_stop() -> None:
    body = await _plan("明天G1 济南西到上海虹桥")
    itinerary = body["itinerary"]
    assert isinstance(itinerary, dict) and itinerary["legs"][0]["train_number"] == "G1"
    assert "不经停" not in " ".join(str(w) for w in body["warnings"])  # type: ignore[attr-defined]


async def test_missed_stops_without_a_stop_list_claims_nothing() -> None:
    missed = await missed_stops(
        _Stops(None), "G1", dt.date(2026, 12, 2), ("北京南", "徐州东"), lambda _: None
    )
    assert missed is None
