"""A day whose tickets are not on sale yet (the presale opens per train, at its own time).

12306 sells a date from `SALE_WINDOW_DAYS` days before it, each train from its own
on-sale time of day: at midnight the window's last day lists every train as "*" (not on
sale). Such a day is no day without trains: the traveller is told it is not on sale yet and
when it opens, never moved to another day they did not ask for.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sources.models import SeatStatus, TrainOffer


def not_on_sale_yet(offers: Sequence[TrainOffer]) -> bool:
    """True when the day lists trains and none of them sells any seat yet."""
    return bool(offers) and all(
        offer.seats and all(seat.status is SeatStatus.NOT_ON_SALE for seat in offer.seats)
        for offer in offers
    )


def first_opening(offers: Sequence[TrainOffer], now: dt.datetime) -> dt.datetime | None:
    """When the first of these trains goes on sale, where the sources say and it is to come."""
    times = [o.on_sale_at for o in offers if o.on_sale_at is not None and o.on_sale_at > now]
    return min(times) if times else None
