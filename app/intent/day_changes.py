"""A chat turn that moves a ride's day or reshapes the stay: which old time wishes go with it.

Times said for a ride are said for the day it was on and against the other wishes of that ride.
When a later turn moves the ride or says a new hour for it, the latest word wins:

- **A window of the other kind**: "周五…上午到", then "还是周四下午走吧": the arrival said for
  Friday's ride is not Thursday's, and no ride leaves in the afternoon to arrive in the
  morning. A turn that says when a ride leaves (or arrives) drops the arrival (or departure)
  window said before when it moves that ride's day, or when the two cannot both be met on one
  ride (an evening departure and a morning arrival are a night train, and stay).
- **A day trip**: "不住了", "当天去当天回", "当天来回" after a stay make the trip one day, on the
  day said (or the trip's own): the nights and the old day home go, and with them the hours
  said for a day no longer travelled.

Pure functions over intents; the caller reads the turn's day (its week) beforehand.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from app.intent.model import WINDOW_FIELDS, TimeWindow, TravelIntent

# 不住了 / 不过夜了 after a stay; 当天去当天回 / 当天来回 / 一天往返 at any time.
_NO_STAY = re.compile(r"(?:不|不用|不在(?:那边?|那里|这边?)?)(?:住|过夜|住宿)了|不住宿|住不了")
_SAME_DAY_BOTH = re.compile(
    r"当[天日](?:去|走)(?:的)?当[天日](?:就)?回|当[天日](?:来回|往返|去回)|一天(?:来回|往返)"
)
# 不过夜 said of the stay ("不过夜了，当天回"): no night away, not a refusal of night trains.
_NIGHT_AWAY = re.compile(r"不过夜了|不过夜[，,\s]*当[天日]|不用过夜")

# A departure window starting this late with an arrival one ending by this hour is a night
# train (晚上走，早上到), which one ride can meet.
_EVENING = dt.time(17, 0)
_MORNING_END = dt.time(12, 0)


def said_day_trip(previous: TravelIntent, words: str) -> bool:
    """The turn makes the trip a day trip: 当天去当天回 / 当天来回, or 不住了 after a stay."""
    if previous.date_start is None or previous.origin is None or previous.destination is None:
        return False
    if _SAME_DAY_BOTH.search(words):
        return True
    return _NO_STAY.search(words) is not None and _stays(previous)


def _stays(intent: TravelIntent) -> bool:
    if intent.nights:
        return True
    return bool(
        intent.date_start is not None
        and intent.date_end is not None
        and intent.date_end > intent.date_start
    )


def day_trip(
    previous: TravelIntent,
    turn: TravelIntent,
    day: dt.date,
    words: str,
    *,
    moved_whole: bool = False,
) -> dict[str, Any]:
    """The trip's fields as a day trip on `day`: out and home that day, no nights; the hours
    said for a day it no longer travels on go, those the turn says are kept. `moved_whole`:
    the day trip itself moved to `day` (改成后天去 也是当天回), its hours with it."""
    update: dict[str, Any] = {
        "date_start": day,
        "date_end": day,
        "days": None,
        "nights": None,
        "return_trip": True,
        "flexible_until": None,
    }
    if day != previous.date_start:
        update["arrive_date"] = None
        if not moved_whole:
            update.update(depart_window=None, arrive_window=None)
    if day != previous.date_end and not moved_whole:
        update.update(return_window=None, return_arrive_window=None)
    for name in WINDOW_FIELDS:
        if getattr(turn, name) is not None:
            update[name] = getattr(turn, name)
    if _NIGHT_AWAY.search(words) and turn.no_overnight and not previous.no_overnight:
        update["no_overnight"] = None  # 不过夜了: no night away, the trains not in question
    return update


def stale_windows(
    previous: TravelIntent,
    leaves: TimeWindow | None,
    arrives: TimeWindow | None,
    *,
    moved: bool,
    homeward: bool = False,
) -> dict[str, Any]:
    """The old windows of one ride that give way to the turn's, said as `leaves` / `arrives`
    (an empty dict: none): the arrival said before goes when the turn says when the ride
    leaves and it moves the ride's day or the two cannot be met together, and the other way
    round. `homeward` reads the ride home's pair (`return_window`, `return_arrive_window`),
    the outbound's otherwise."""
    leave, reach = (
        ("return_window", "return_arrive_window")
        if homeward
        else ("depart_window", "arrive_window")
    )
    old_leave, old_reach = getattr(previous, leave), getattr(previous, reach)
    if (leaves is None) == (arrives is None):
        return {}  # neither said, or both: the turn's own pair is the ride's
    if leaves is not None and old_reach is not None:
        if moved or _apart(leaves, old_reach, previous, homeward):
            return {reach: None} if homeward else {reach: None, "arrive_date": None}
    if arrives is not None and old_leave is not None:
        if moved or _apart(old_leave, arrives, previous, homeward):
            return {leave: None}
    return {}


def _apart(leave: TimeWindow, reach: TimeWindow, trip: TravelIntent, homeward: bool) -> bool:
    """No one ride leaves within `leave` and arrives within `reach`: it would arrive before
    it left, unless leaving in the evening to arrive in the morning (a night train), or the
    outbound was said to arrive on a later day."""
    if leave.start < reach.end:
        return False
    if leave.start >= _EVENING and reach.end <= _MORNING_END:
        return False
    if homeward or trip.arrive_date is None or trip.date_start is None:
        return True
    return trip.arrive_date <= trip.date_start
