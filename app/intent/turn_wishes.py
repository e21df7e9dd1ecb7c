"""Wishes a chat turn says against the trip and the plan shown (issue 22, conversation).

A turn's wish is often relative: 太贵了 and 便宜点 mean the cheapest the constraints allow;
太早了 leaves after the plan shown and 太晚了 before it; "改成两点以后" after an 18:55 train is
14:00, the reading of the bare hour nearest the plan; "也不要硬座" adds to the exclusions said
before; "俩人六百够吗" names a budget. Each function takes the turn as parsed and returns it
with the wish made absolute, before `app/intent/followup.py` merges it into the trip.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from app.intent.model import END_OF_DAY, TIME_WINDOWS, TimeWindow, TravelIntent
from app.intent.numerals import NUMBER, to_number
from app.intent.times import appointment_said, narrowed
from sources.models import TRAIN_TYPES, SeatClass

_BUDGET_ASKED = re.compile(
    r"(?<![A-Za-z])(?P<n>" + NUMBER + r")\s*(?:元|块)?钱?\s*"
    r"(?:够吗|够不够|够了吗|够用吗|够了吧|行吗|行不行|可以吗)"
)
_BUDGET_MOVED = re.compile(
    r"预算(?:再)?(?:提高|提|加|增加|放宽|降低|降|减少|改|调整|调)?(?:到|成|为)(?P<n>"
    + NUMBER
    + r")"
)
_LEAST_BUDGET = 20  # "两个够吗" asks about tickets, not money
_PART_OF_DAY = re.compile(
    r"凌晨|早上|早晨|清早|一早|上午|中午|下午|傍晚|晚上|夜里|夜间|半夜|深夜|今晚|明早|白天|天黑"
)
DAYBREAK = TIME_WINDOWS["早上"].start  # where the morning starts
_MORNING_LEFT = dt.time(8, 0)  # a train shown this late leaves morning trains before it
_LATER = ("太早", "晚一点", "晚一些", "再晚点", "再晚些", "晚些", "晚点")
_EARLIER = ("太晚", "早一点", "早一些", "再早点", "再早些", "早些", "早点")
CHEAPER = ("太贵", "便宜点", "便宜一点", "便宜些", "再便宜", "省点钱", "省钱点", "便宜的")
_FASTER = ("太慢", "快点的", "快一点", "快些")
_TYPE_TOO_DEAR = {"高铁": ("G",), "动车": ("D",), "城际": ("C",)}


def relative_wishes(turn: TravelIntent, words: str) -> TravelIntent:
    """Wishes said against the plan shown: cheaper, faster, or a train type too dear."""
    update: dict[str, Any] = {}
    for word, types in _TYPE_TOO_DEAR.items():
        if word + "太贵" in words:
            update["exclude_train_types"] = sorted({*turn.exclude_train_types, *types})
            update["train_types"] = [t for t in turn.train_types if t not in types]
    if turn.order is None and any(cue in words for cue in CHEAPER):
        update["order"] = "cheapest"
    elif turn.order is None and any(cue in words for cue in _FASTER):
        update["order"] = "fastest"
    return turn.model_copy(update=update) if update else turn


# 早一点的 / 晚点的 compares with the plan shown; 最早 / 首班 names the first train of the day.
_COMPARED = re.compile(r"[早晚](?:一)?[点些]")
_CLOCK_ORDER_SAID = re.compile(r"最[早晚迟]|首班|头班|末班|第一班|第一趟|头一班|最后一[班趟]")


def hour_compared(turn: TravelIntent, words: str) -> TravelIntent:
    """ "那早一点的呢 8点左右的有没有": a train earlier than the one shown, at the hour said;
    the comparison names no first train of the day (no order `earliest`), the hour is the wish."""
    if turn.order not in ("earliest", "latest") or turn.depart_window is None:
        return turn
    if not _COMPARED.search(words) or _CLOCK_ORDER_SAID.search(words):
        return turn
    return turn.model_copy(update={"order": None})


# A complaint (太贵了, 太慢了, 省点钱) said beside a class or a kind of train chosen instead is
# that choice's reason; an order said outright (最便宜的, 越快越好) is a wish of its own.
_COMPLAINTS = ("太贵", "贵了", "省点钱", "省钱点", "省点", "便宜点", "便宜一点", "便宜些", "太慢")
_ORDER_SAID = re.compile(
    r"最便宜|越便宜越好|最省钱|票价最低|最实惠|最划算|最快|越快越好|用时最短|时间最短|耗时最短"
)


def complaint_as_reason(turn: TravelIntent, words: str, *, class_chosen: bool) -> TravelIntent:
    """ "算了 太贵了 还是二等座吧", "不要绿皮 太慢了": the class or the kind of train said is
    the answer to the complaint, no order (the trip keeps the one it had); `class_chosen` is
    whether the class named is required, not only permitted (硬座也行)."""
    if turn.order not in ("cheapest", "fastest") or _ORDER_SAID.search(words):
        return turn
    if not any(cue in words for cue in _COMPLAINTS):
        return turn
    types = turn.train_types or any(t not in _too_dear(words) for t in turn.exclude_train_types)
    if not (class_chosen or types):
        return turn
    return turn.model_copy(update={"order": None})


def _too_dear(words: str) -> set[str]:
    """The train types a turn finds too dear (高铁太贵了): a refusal, not a choice made."""
    return {t for word, types in _TYPE_TOO_DEAR.items() if word + "太贵" in words for t in types}


def against_plan_shown(previous: TravelIntent, turn: TravelIntent, words: str) -> TravelIntent:
    """太早了 / 晚一点 with no time said: leave after the plan shown; 太晚了 / 早一点: before it."""
    shown = previous.shown
    windows = (
        turn.depart_window,
        turn.arrive_window,
        turn.return_window,
        turn.return_arrive_window,
    )
    if shown is None or any(window is not None for window in windows):
        return turn  # 回来别太晚 晚上7点之前能到: the hours said are the wish
    minute = dt.timedelta(minutes=1)
    at = dt.datetime.combine(dt.date.min, shown.depart_at)
    later = any(cue in words for cue in _LATER)
    if later and shown.depart_at < DAYBREAK:
        # 太早了 to a train in the small hours (01:39) is no wish for the next one at 01:49:
        # the day's first hours are what is refused.
        window = TimeWindow(start=DAYBREAK, end=END_OF_DAY, label=f"{DAYBREAK:%H:%M}以后")
    elif later and shown.depart_at < dt.time(23, 58):
        start = (at + minute).time()
        window = TimeWindow(start=start, end=END_OF_DAY, label=f"{shown.depart_at:%H:%M}以后")
    elif any(cue in words for cue in _EARLIER) and shown.depart_at > dt.time(0, 1):
        end = (at - minute).time()
        # 早点的 to an 08:21 train is no wish for the small hours: from daybreak, unless the
        # train shown leaves so early that only the night is earlier.
        start = DAYBREAK if shown.depart_at >= _MORNING_LEFT else dt.time(0, 0)
        window = TimeWindow(start=start, end=end, label=f"{shown.depart_at:%H:%M}以前")
    else:
        return turn
    update: dict[str, Any] = {"depart_window": window}
    if turn.order in ("earliest", "latest") and not _CLOCK_ORDER_SAID.search(words):
        update["order"] = None  # 早点的: earlier than the train shown, not the day's first
    return turn.model_copy(update=update)


def within_window_said(previous: TravelIntent, turn: TravelIntent) -> TravelIntent:
    """An hour said inside the part of the day said before narrows it: 太早了，九点以后的吧
    after 明天上午 leaves 09:00-12:00, not at any hour after nine; 十一点前 after 下午 would not
    be inside, and replaces it. Only for the same day (a day moved is the ride's new start)."""
    if turn.date_start is not None and turn.date_start != previous.date_start:
        return turn
    update: dict[str, Any] = {}
    for name in ("depart_window", "arrive_window"):
        window, before = getattr(turn, name), getattr(previous, name)
        if window is None or before is None:
            continue
        after = window.end >= END_OF_DAY and window.start != dt.time(0, 0)
        until = window.start in (dt.time(0, 0), DAYBREAK) and window.end < END_OF_DAY
        inside_after = after and before.start < window.start < before.end < END_OF_DAY
        inside_until = until and dt.time(0, 0) < before.start < window.end < before.end
        if inside_after or inside_until:
            update[name] = narrowed(before, window)
    return turn.model_copy(update=update) if update else turn


def budget_asked(turn: TravelIntent, words: str) -> TravelIntent:
    """An amount asked about ("俩人六百够吗", "一千块行不行") or a budget raised to it ("预算
    提高到一千") is the budget, the party's."""
    if turn.budget is not None or turn.budget_per_person is not None:
        return turn
    match = _BUDGET_ASKED.search(words) or _BUDGET_MOVED.search(words)
    amount = to_number(match.group("n")) if match else None
    if amount is None or amount < _LEAST_BUDGET:
        return turn
    return turn.model_copy(update={"budget": amount})


def exclusions_kept(previous: TravelIntent, turn: TravelIntent) -> TravelIntent:
    """Exclusions accumulate: "也不要硬座" after "不要无座" rules out both, less anything the
    turn now asks for. A turn naming both ends (another trip) keeps its own."""
    if turn.origin and turn.destination:
        return turn
    update: dict[str, Any] = {}
    if turn.exclude_seat_classes:
        wanted = {turn.seat_class, *turn.seat_classes}
        before = [c for c in previous.exclude_seat_classes if c not in wanted]
        update["exclude_seat_classes"] = [
            c for c in SeatClass if c in {*before, *turn.exclude_seat_classes}
        ]
    if turn.exclude_train_types:
        kinds = [t for t in previous.exclude_train_types if t not in turn.train_types]
        update["exclude_train_types"] = [
            t for t in TRAIN_TYPES if t in {*kinds, *turn.exclude_train_types}
        ]
    return turn.model_copy(update=update) if update else turn


_NOT_TOO_EARLY = re.compile(
    r"(?:别|不要|不用|不想|不能|不必)(?:太|那么|特别)早"
    # A morning one cannot get up for (年纪大了起不来，九点以后的车吧): the hour is the
    # morning's, whatever the plan shown.
    r"|起不来|起不了|起不早|起不那么早|睡懒觉|赖床"
)


def hours_near_plan(previous: TravelIntent, turn: TravelIntent, words: str) -> TravelIntent:
    """A bare hour said of the plan shown ("太晚了，改成两点以后" after an 18:55 train) is the
    reading of that hour nearest the plan (or the window said before it), on the side a
    太早/太晚 asks for: 14:00, not 02:00; "太早了，五点以后" after a 10:00 train is 17:00;
    "六点以后" after a 02:15 train is 06:00. A part of the day said wins."""
    if _PART_OF_DAY.search(words) or _NOT_TOO_EARLY.search(words):
        # 别太早，九点以后: a wish for the morning's later hours, no complaint about the plan
        # shown (an evening train): nine is 09:00, not 21:00.
        return turn
    if appointment_said(words):
        # 会9点开始: a meeting's hour, read as meetings are held (09:00), whatever the plan shown.
        return turn
    shown = previous.shown
    update: dict[str, Any] = {}
    for name in ("depart_window", "arrive_window"):
        window, before = getattr(turn, name), getattr(previous, name)
        at = getattr(shown, name.replace("window", "at")) if shown else before and before.start
        if window is None or at is None:
            continue
        after = window.end >= dt.time(23, 59) and window.start != dt.time(0, 0)
        until = window.start == dt.time(0, 0) and window.end < dt.time(23, 59)
        bound = window.start if after else window.end if until else None
        if bound is None or not 1 <= bound.hour <= 11:
            continue
        readings = (bound, bound.replace(hour=bound.hour + 12))
        # A reading the trip's other window rules out is no reading (七点以后 with 十点前到
        # is 07:00, whatever the plan shown).
        other = turn.arrive_window or previous.arrive_window
        if name == "depart_window" and after and other is not None and other.start == dt.time(0, 0):
            readings = tuple(t for t in readings if t < other.end) or readings
        if any(cue in words for cue in _LATER):  # 太早了，五点以后 after 10:00 is 17:00
            readings = tuple(t for t in readings if t > at) or readings
        elif any(cue in words for cue in (*_EARLIER, "早点", "早走")):
            # 想早点走，8点以前的 after a 19:02 train: 08:00.
            readings = tuple(t for t in readings if t < at) or readings
        else:
            # No complaint said: the bound asks for a change to the plan shown, so not the
            # reading it already meets (十点以前走的 after a 17:09 train is 10:00, not 22:00).
            unmet = tuple(t for t in readings if (at < t if after else t < at))
            readings = unmet or readings
        best = min(readings, key=lambda t: abs(_minutes(t) - _minutes(at)))
        if best != bound:
            label = f"{best:%H:%M}" + ("以后" if after else "以前")
            moved = (best, END_OF_DAY) if after else (dt.time(0, 0), best)
            update[name] = TimeWindow(start=moved[0], end=moved[1], label=label)
    return turn.model_copy(update=update) if update else turn


def _minutes(at: dt.time) -> int:
    return at.hour * 60 + at.minute
