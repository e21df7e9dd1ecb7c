"""A wish for where to sleep or sit is read back and said as not guaranteed, in the words of
the ride it is for: berths side by side on a sleeper, seats together on a seated train."""

from __future__ import annotations

import datetime as dt

from app.agent import texts
from app.agent.party_notes import berth_note, wish_words
from app.intent.model import TravelIntent
from sources.models import SeatClass


def _trip(**fields: object) -> TravelIntent:
    return TravelIntent(
        origin="北京", destination="哈尔滨", date_start=dt.date(2026, 12, 4), passengers=2, **fields
    )


def test_berths_side_by_side_on_a_sleeper_are_said_as_berths_not_promised() -> None:
    sleeper = _trip(seat_class=SeatClass.HARD_SLEEPER, seat_positions=["together"])
    note = berth_note(sleeper)
    assert note == texts.TOGETHER_BERTH_NOTE and "铺" in note and "不保证" in note
    assert texts.TOGETHER_BERTH_WISH in wish_words(sleeper)


def test_seats_together_on_a_seated_train_are_said_as_seats() -> None:
    seated = _trip(seat_class=SeatClass.SECOND, seat_positions=["together"])
    assert texts.TOGETHER_NOTE in berth_note(seated)
    assert texts.TOGETHER_BERTH_NOTE not in berth_note(seated)
