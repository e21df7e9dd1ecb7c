"""Real 12306 rows (three verbatim rows of 2025-12-20) decode into what 12306's page shows."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sources.models import SHANGHAI, Seat, SeatClass, SeatStatus, TrainOffer
from sources.rail12306 import parse_left_tickets, parse_row
from sources.stations import curated_directory

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rail12306"
DATE = dt.date(2025, 12, 20)
FETCHED_AT = dt.datetime(2025, 12, 19, 9, 0, tzinfo=SHANGHAI)
DIRECTORY = curated_directory()


def real_rows() -> list[str]:
    body = json.loads((FIXTURES / "real_rows_2025-12-20.json").read_text(encoding="utf-8"))
    rows: list[str] = body["data"]["result"]
    return rows


def offers() -> dict[str, TrainOffer]:
    body = json.loads((FIXTURES / "real_rows_2025-12-20.json").read_text(encoding="utf-8"))
    parsed = parse_left_tickets(body, DIRECTORY, FETCHED_AT, "rail12306", DATE)
    return {offer.train_number: offer for offer in parsed}


def page_cell(seat: Seat) -> str:
    """A seat as the 12306 page prints it: 商务座 1 ¥2337, 一等座 有 ¥1070, 无座 无 ¥669."""
    count = {
        SeatStatus.AVAILABLE: "有" if seat.available is None else str(seat.available),
        SeatStatus.SOLD_OUT: "无",
        SeatStatus.WAITLIST: "候补",
        SeatStatus.NOT_ON_SALE: "*",
    }[seat.status]
    price = "" if seat.price is None else f" ¥{seat.price:g}"
    return f"{seat.seat_class.label} {count}{price}"


def row_with(row: str, **changes: str) -> str:
    fields = row.split("|")
    for index, value in changes.items():
        fields[int(index.lstrip("f"))] = value
    return "|".join(fields)


def test_the_real_rows_have_58_fields_and_all_decode():
    assert [len(row.split("|")) for row in real_rows()] == [58, 58, 58]
    assert sorted(offers()) == ["G1", "G103", "G105"]


def test_g1_decodes_into_what_the_12306_page_shows():
    g1 = offers()["G1"]
    assert [page_cell(seat) for seat in g1.seats] == [
        "商务座 1 ¥2337",
        "优选一等座 4 ¥1471",
        "一等座 有 ¥1070",
        "二等座 有 ¥669",
        "无座 无 ¥669",
    ]
    assert (g1.origin_station.name, g1.destination_station.name) == ("北京南", "上海")
    assert g1.depart_at == dt.datetime(2025, 12, 20, 7, 0, tzinfo=SHANGHAI)
    assert g1.arrive_at == dt.datetime(2025, 12, 20, 11, 29, tzinfo=SHANGHAI)
    assert (g1.train_no, g1.duration_min, g1.can_web_buy) == ("24000000G10K", 269, True)
    assert g1.features == ("智能动车组", "复兴号", "静音车厢")
    assert g1.on_sale_at is None  # 预订: on sale
    premium_first = g1.seat(SeatClass.PREMIUM_FIRST)
    assert premium_first is not None and premium_first.available == 4


def test_g105_decodes_into_what_the_12306_page_shows_with_its_discounts():
    g105 = offers()["G105"]
    assert [page_cell(seat) for seat in g105.seats] == [
        "商务座 14 ¥1998",
        "一等座 有 ¥1006",
        "二等座 有 ¥662",
        "无座 无 ¥662",
    ]
    assert g105.destination_station.name == "上海虹桥"
    assert g105.features == ("复兴号",)
    discounts = {s.seat_class: s.discount for s in g105.seats}
    assert discounts[SeatClass.BUSINESS] == 0.87 and discounts[SeatClass.FIRST] == 0.95
    assert discounts[SeatClass.SECOND] is None


def test_g103_decodes_into_what_the_12306_page_shows_with_its_discounts():
    g103 = offers()["G103"]
    assert [page_cell(seat) for seat in g103.seats] == [
        "商务座 3 ¥1873",
        "一等座 有 ¥930",
        "二等座 有 ¥553",
        "无座 无 ¥553",
    ]
    assert g103.depart_at == dt.datetime(2025, 12, 20, 6, 20, tzinfo=SHANGHAI)
    assert g103.features == ("复兴号",)
    assert [s.discount for s in g103.seats] == [0.81, 0.88, 0.84, 0.84]  # W0084: 无座 too


def g1_row() -> str:
    return next(row for row in real_rows() if "|G1|" in row)


def test_waitlist_is_read_from_fields_37_and_38_never_from_the_cell():
    g1 = g1_row()
    # 二等座 and 无座 sold out; waitlisting open (37 = 1) except for 无座 (W listed in 38)
    row = row_with(g1, f30="无", f37="1", f38="W")
    seats = {s.seat_class: s.status for s in parse(row).seats}
    assert seats[SeatClass.SECOND] is SeatStatus.WAITLIST
    assert seats[SeatClass.NO_SEAT] is SeatStatus.SOLD_OUT
    assert seats[SeatClass.FIRST] is SeatStatus.AVAILABLE
    # the real row says 37 = 0: its sold-out 无座 cannot be waitlisted
    assert parse(g1).seat(SeatClass.NO_SEAT).status is SeatStatus.SOLD_OUT  # type: ignore[union-attr]


def test_a_row_not_yet_on_sale_carries_its_sale_time_not_sold_out():
    cells = {f"f{i}": "*" for i in (20, 30, 31, 32)}
    row = row_with(g1_row(), f1="12月06日12:45起售", f11="IS_TIME_NOT_BUY", **cells)
    offer = parse(row)
    assert offer.on_sale_at == dt.datetime(2025, 12, 6, 12, 45, tzinfo=SHANGHAI)
    assert offer.can_web_buy is False
    assert {s.status for s in offer.seats if s.seat_class is not SeatClass.NO_SEAT} == {
        SeatStatus.NOT_ON_SALE
    }
    # prices are known before the sale opens
    assert offer.seat(SeatClass.SECOND).price == 669.0  # type: ignore[union-attr]


@pytest.mark.parametrize("code", ["H", "Q", "Z"])
def test_an_unknown_seat_code_never_harms_its_neighbours(code):
    g1 = g1_row()
    prices = "9233700001M107000021" + f"{code}012340000" + "O066900021D147100004O066903000"
    seats = {s.seat_class: s.price for s in parse(row_with(g1, f39=prices)).seats}
    assert seats == {
        SeatClass.BUSINESS: 2337.0,
        SeatClass.PREMIUM_FIRST: 1471.0,
        SeatClass.FIRST: 1070.0,
        SeatClass.SECOND: 669.0,
        SeatClass.NO_SEAT: 669.0,
    }


def parse(row: str) -> TrainOffer:
    offer = parse_row(row, {"SHH": "上海"}, DIRECTORY, DATE, FETCHED_AT, "rail12306")
    assert offer is not None
    return offer
