"""The night default (no seat through the night) gives way before one more stated wish does."""

from __future__ import annotations

from rules import TripRequest
from rules.relax import minimal_relaxation, relaxed_between
from sources.models import SeatClass
from tests.rules.factory import BEIJING, DAY, NOW, SHANGHAI_STATION, book, offer, seat

SLOW_SEATS = (seat(SeatClass.HARD_SEAT, 150.0),)


def _only_a_slow_train_at_dawn() -> dict:
    return book(offer("K101", BEIJING, SHANGHAI_STATION, "04:30", "16:50", seats=SLOW_SEATS))


def test_a_wish_dropped_with_the_night_default_lifted_beats_no_plan_on_the_day() -> None:
    wished = TripRequest(
        origin="北京",
        destination="上海",
        depart_date=DAY,
        return_trip=False,
        train_types=frozenset({"G"}),
    )
    entries = _only_a_slow_train_at_dawn()
    # The G wish given up alone still leaves nothing but a seat at 04:30.
    assert minimal_relaxation(wished, entries, now=NOW) is None
    lifted = wished.model_copy(update={"allow_night": True, "night_lifted": True})
    found = minimal_relaxation(wished, entries, now=NOW, lifted=lifted)
    assert found is not None and found[1] == ("train_types",)
    # Only what was said is said as given up: the night default is nobody's word.
    assert set(relaxed_between(wished, found[0])) == {"train_kin", "train_types"}
