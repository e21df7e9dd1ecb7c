"""What a traveller says only as the context of the ride: where they work, where they sleep."""

from __future__ import annotations

import pytest

from app.intent.followup import TurnReading
from app.intent.offline import parse_offline
from sources.stations import StationDirectory
from tests.app.intent.conftest import TODAY  # Monday 2026-11-30


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        # Where one works, in the city set off from, is no stop; going home is one way.
        ("明晚下了班从深圳回广州，单位在福田", "深圳", "广州"),
        # Said with no origin, it is where the ride starts (as 人在北京 is).
        ("公司就在福田，周五晚上回广州", "福田", "广州"),
    ],
)
def test_where_one_works_is_where_one_is(
    text: str, origin: str, destination: str, directory: StationDirectory
) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert (intent.origin, intent.destination, intent.via) == (origin, destination, [])
    assert intent.return_trip is not True and intent.date_end is None


@pytest.mark.parametrize(
    "text",
    ["住两晚再回上海虹桥，我订的民宿离那边不远", "玩两晚回杭州东，离我们住的客栈比较近"],
)
def test_lodging_said_as_why_a_station_is_no_room_asked_for(
    text: str, directory: StationDirectory
) -> None:
    intent = parse_offline(text, TODAY, directory)
    assert intent.kind != "out_of_scope" and "hotel" not in intent.out_of_scope_topics


def test_a_station_chosen_for_the_hostel_near_it_is_the_ride_home(chat) -> None:
    reading: TurnReading = chat("下周五从上海去杭州", "住两晚 回上海虹桥 离我住的青旅近")
    assert reading.declined is None
    intent = reading.intent
    assert (intent.origin, intent.destination) == ("上海", "杭州")
    assert intent.return_trip is True and intent.nights == 2


def test_the_toilets_as_why_an_aisle_seat_is_wished_keep_the_trip(chat) -> None:
    reading: TurnReading = chat(
        "周五从天津去北京，给我妈买", "帮她挑个靠过道的位子吧，方便她去洗手间"
    )
    assert reading.declined is None
    assert reading.intent.seat_positions == ["aisle"]
    assert (reading.intent.origin, reading.intent.destination) == ("天津", "北京")


def test_the_toilets_asked_about_alone_are_still_no_train_question(
    directory: StationDirectory,
) -> None:
    assert parse_offline("车上卫生间在几号车厢", TODAY, directory).kind == "out_of_scope"
