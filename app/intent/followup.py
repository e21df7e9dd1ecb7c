"""A chat turn read as a change to the trip under discussion (issue 22, conversation).

The parser reads a turn on its own; this module reads it against the trip so far, before the
slot merge (`app/intent/merge.py`):

- **A return**: "周一回来", "当天晚上六点以后回北京", "丽江回昆明，4号", "回程改成周四" add or move
  the return leg and keep the outbound: the turn's date becomes `date_end` (a bare weekday is
  the first one on or after the outbound day), its departure window the return's.
- **A correction of one end**: a place in the city of the trip's origin is a new boarding
  station ("那还是西安北吧"), one in the destination's city a new arrival; a negated place
  ("别从成都东上车", "不是X") is dropped. A new destination alone corrects the trip
  ("不对，是去蒙自"); only a new origin *and* destination start a new trip.
- **An answer**: a bare place when the trip lacks only its origin fills the origin ("哈尔滨"
  after "从哪个城市出发？").
- **A stop**: "中间在大理住一晚" inserts a via stop; "在大理住两晚，然后去丽江" from the trip's
  last stop continues the trip.
- **The party**: "再加一个人", "她妈也去", "我老公陪我" add to the party; a number replaces it.
- **Relative wishes**: 太贵了/便宜点 → the cheapest; 太慢了 → the fastest; "高铁太贵了" rules the
  trains out; a bare weekday in a date correction ("改成周日") is that day of the trip's week.
- **An out-of-scope question** that changes nothing ("高反怎么办", "能帮她叫个接站吗") is
  declined and the trip stays.

Pure functions over intents and text; the station directory comes in as `city` (a name →
its city, None when unknown).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.intent import texts
from app.intent.dates import date_from
from app.intent.merge import merge_intent, set_slots, starts_over
from app.intent.model import END_OF_DAY, TimeWindow, TravelIntent, ViaStop
from app.intent.numerals import to_int
from app.intent.offline import normalise_text

CityOf = Callable[[str], str | None]

# Said before parsing: a scope word the parser would take for a place ("去程太早了"), and
# 换到/挪到 + a day, which reads as 到 + a place ("换到周六").
_OUTBOUND_SCOPE = re.compile(r"^(?:那)?(?:去程|出发那天|去的时候)[，,\s]*")
_MOVE_TO = re.compile(
    r"(?:换到|挪到|调到|移到)(?=(?:下下|下|这|本)?(?:个)?(?:周|星期|礼拜|\d|[一二三四五六七八九十]+号|明天|后天))"
)

_OUTBOUND_WORD = re.compile(r"改|换|出发|去程|走")
_RETURN_SCOPE = re.compile(r"回程|返程|回来那天|回来的时候|回去那天")
_RETURN_WORD = re.compile(r"回来|回去|返回|回程|返程|回(?!家)")
_SAME_DAY = re.compile(r"当天|当晚|当日|看完")
_NEXT_DAY = re.compile(r"第二天|次日|隔天")
_BARE_WEEKDAY = re.compile(r"(?<![下这本个])(?:周|星期|礼拜)[一二三四五六日天1-7]")
_NEGATED = r"(?:别|不要|不|不是|不去|不在)(?:从|在|去|到)?"
_NAME_GOES_ON = r"(?![东西南北])"  # 不是西安北 rules out 西安北, not 西安
_SHIFT = re.compile(
    r"(?P<dir>提前|早|往前挪|推迟|延后|推后|往后推|往后挪|晚)(?P<n>[一两二三四五六七1-7])?天"
)
_LATER_SHIFT = ("推迟", "延后", "推后", "往后推", "往后挪", "晚")
_FEWER = re.compile(r"少(?P<n>[一两二三1-9])?个人?|(?:我|他|她)不去了")
_ALONE = re.compile(
    r"(?:就|只有|只)(?:我|她|他)(?:一个人|自己|一人)|(?:我|她|他)一个人(?:去|走|回)"
)
_YES = re.compile(r"^(?:对|是的|对的|嗯|没错|是|对呀|是啊|对啊|就是)[，,。!！\s]*$")
_ANOTHER_TRIP = re.compile(r"另外|另一|对了|算了|还有一?个|再帮|也帮|帮.{1,4}也")
_THEN = re.compile(r"然后|接着|再去|再到|之后去|之后到|住|待|呆")
_VIA_CUE = re.compile(r"中间|中途|途中|路上|路过|经过|途经")
_STAY_WORD = re.compile(r"住|待|呆")
_ADD_PERSON = re.compile(
    r"再加(?P<n>[一两二三四五六七八九1-9])?个|也去|也来|也要去|陪我|跟我一起|和我一起|带上"
)
_DIRECTION = re.compile(r"[去到往]")

_LATER = ("太早", "晚一点", "晚一些", "再晚点", "再晚些", "晚些")
_EARLIER = ("太晚", "早一点", "早一些", "再早点", "再早些", "早些")
_CHEAPER = ("太贵", "便宜点", "便宜一点", "便宜些", "再便宜", "省点钱", "省钱点")
_FASTER = ("太慢", "快点的", "快一点", "快些")
_TYPE_TOO_DEAR = {"高铁": ("G",), "动车": ("D",), "城际": ("C",)}

# Questions a chat turn asks beside the trip, by topic (the refusal texts' keys).
_SCOPE_QUESTIONS: dict[str, tuple[str, ...]] = {
    "weather": (
        "冷吗",
        "冷不冷",
        "热吗",
        "热不热",
        "天气",
        "下雪",
        "下雨",
        "穿什么",
        "带啥衣服",
        "带什么衣服",
        "穿啥",
        "气温",
    ),
    "hotel": ("酒店", "宾馆", "住宿", "民宿", "订房", "间房", "房间"),
    "refund": ("能退吗", "退票", "退款", "改签", "能退不"),
    "other": (
        "高反",
        "晕车",
        "怎么办",
        "接站",
        "接机",
        "打车",
        "叫车",
        "门票",
        "景点",
        "好玩",
        "攻略",
        "吃什么",
        "美食",
        "行李",
        "宠物",
        "餐车",
        "充电",
        "抽烟",
        "吸烟",
        "取票",
        "检票口",
        "候车室",
        "发票",
        "报销",
        "保险",
    ),
}


@dataclass(frozen=True, slots=True)
class TurnReading:
    """The trip after one chat turn, or the topic declined (the trip then stays as it was)."""

    intent: TravelIntent
    declined: str | None = None
    question: str | None = None  # said beside the plan ("那回程呢": which day back?)


def turn_text(text: str) -> str:
    """A follow-up's text as the parser should read it (scope words it would take for places)."""
    text = _OUTBOUND_SCOPE.sub("", normalise_text(text))
    text = _SHIFT.sub("", text)  # 提前一天 is no one-day trip, 往后推 no place
    return _MOVE_TO.sub("改成", text)


def read_turn(
    previous: TravelIntent,
    turn: TravelIntent,
    text: str,
    *,
    today: dt.date,
    city: CityOf,
    suggest: CityOf | None = None,
) -> TurnReading:
    """The trip after `turn` (parsed from `text`), given the trip so far; `suggest` is the
    place the reply offered for a name it did not know ("您是指哈尔滨吗？")."""
    words = normalise_text(text)
    if turn.kind == "out_of_scope":
        said = [t for t in turn.out_of_scope_topics if t != "other"]
        return TurnReading(previous, declined=_topic(words) or next(iter(said), "other"))
    if not _has_trip(previous) or previous.kind == "out_of_scope":
        return TurnReading(merge_intent(previous, turn, city=city))
    topic = _scope_question(previous, turn, words, city)
    if topic is not None:
        return TurnReading(previous, declined=topic)
    if suggest is not None and _YES.match(words) and previous.destination_text:
        offered = suggest(previous.destination_text)
        if offered is not None and not previous.destination:
            # "对" to "您是指哈尔滨吗？": the place offered, the rest kept.
            turn = turn.model_copy(update={"destination": offered})
    turn = _relative_wishes(turn, words)
    turn = _against_plan_shown(previous, turn, words)
    turn = _without_negated(turn, words)
    if turn.origin and turn.destination and _ANOTHER_TRIP.search(words):
        # "另外下周三我从广州去南宁": another trip, even from where this one ends.
        return TurnReading(merge_intent(previous, turn, city=city))
    turn = _round_from_last_stop(previous, turn, city)
    shift = _SHIFT.search(words)
    if shift is not None and previous.date_start is not None:
        return TurnReading(_shifted(previous, turn, words, shift))
    if _returning(previous, turn, words, city) or _answers_return_day(previous, turn, words):
        intent = _with_return(previous, turn, words, today)
        open_return = intent.date_end is None and intent.nights is None and intent.days is None
        if _RETURN_SCOPE.search(words) and _RIDE_WISHES & set(set_slots(turn)):
            # One class and one train type for both rides: a wish for the ride home alone
            # ("回程换成卧铺") is said as not applied rather than imposed on the outbound.
            kept = [p for p in turn.preferences if p != "卧铺"]
            turn = turn.model_copy(update={**_EMPTY, "preferences": kept})
            intent = _with_return(previous, turn, words, today)
            return TurnReading(intent, question=texts.RETURN_ONLY_WISH)
        return TurnReading(intent, question=texts.ASK_RETURN_DATE if open_return else None)
    turn = _places_by_end(previous, turn, words, city)
    fewer = _fewer(previous, turn, words)
    turn = _party(previous, turn, words)
    turn = _date_in_trip_week(previous, turn, words, today)
    if _THEN.search(words) and _continues(previous, turn, city):
        return TurnReading(_with_party(_continued(previous, turn), fewer))
    if _VIA_CUE.search(words) and turn.destination and turn.origin is None and previous.destination:
        return TurnReading(_with_party(_with_stop(previous, turn), fewer))
    merged = merge_intent(previous, turn, city=city)
    if not (turn.action == "create" and starts_over(previous, turn, city)):
        merged = _with_party(merged, fewer)  # a new trip's party is its own
    return TurnReading(merged)


# -- what the turn is about -------------------------------------------------------------------


def _has_trip(intent: TravelIntent) -> bool:
    return bool(intent.origin or intent.destination or intent.destination_text)


def _same(city: CityOf, a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    return a == b or (city(a) is not None and city(a) == city(b))


def _topic(words: str) -> str | None:
    for topic, cues in _SCOPE_QUESTIONS.items():
        if any(cue in words for cue in cues):
            return topic
    return None


def _scope_question(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> str | None:
    """The topic of a turn that asks something else and changes nothing in the trip."""
    topic = _topic(words)
    if topic is None:
        return None
    slots = set_slots(turn)
    slots.pop("out_of_scope_topics", None)
    for name in ("origin", "destination"):
        # Naming the trip's own places ("西安那边冷吗") is no change.
        if name in slots and any(
            _same(city, slots[name], end) for end in (previous.origin, previous.destination)
        ):
            slots.pop(name)
    cues = _SCOPE_QUESTIONS[topic]
    for name in ("origin", "destination", "destination_text"):
        # A "place" made of the question's own words (订三间房 → 三间房) is no trip.
        if name in slots and any(cue in str(slots[name]) for cue in cues):
            slots.pop(name)
    if topic == "refund":
        slots.pop("order", None)  # 末班车 in "赶不上末班车能退吗" asks for no train
    return topic if not slots else None


def _relative_wishes(turn: TravelIntent, words: str) -> TravelIntent:
    """Wishes said against the plan shown: cheaper, faster, or a train type too dear."""
    update: dict[str, Any] = {}
    for word, types in _TYPE_TOO_DEAR.items():
        if word + "太贵" in words:
            update["exclude_train_types"] = sorted({*turn.exclude_train_types, *types})
            update["train_types"] = [t for t in turn.train_types if t not in types]
    if turn.order is None and any(cue in words for cue in _CHEAPER):
        update["order"] = "cheapest"
    elif turn.order is None and any(cue in words for cue in _FASTER):
        update["order"] = "fastest"
    return turn.model_copy(update=update) if update else turn


def _against_plan_shown(previous: TravelIntent, turn: TravelIntent, words: str) -> TravelIntent:
    """太早了 / 晚一点 with no time said: leave after the plan shown; 太晚了 / 早一点: before it."""
    shown = previous.shown
    if shown is None or turn.depart_window is not None or turn.arrive_window is not None:
        return turn
    minute = dt.timedelta(minutes=1)
    at = dt.datetime.combine(dt.date.min, shown.depart_at)
    if any(cue in words for cue in _LATER) and shown.depart_at < dt.time(23, 58):
        start = (at + minute).time()
        window = TimeWindow(start=start, end=END_OF_DAY, label=f"{shown.depart_at:%H:%M}以后")
    elif any(cue in words for cue in _EARLIER) and shown.depart_at > dt.time(0, 1):
        end = (at - minute).time()
        window = TimeWindow(start=dt.time(0, 0), end=end, label=f"{shown.depart_at:%H:%M}以前")
    else:
        return turn
    return turn.model_copy(update={"depart_window": window})


def _without_negated(turn: TravelIntent, words: str) -> TravelIntent:
    """Drop a place the turn names only to rule it out ("别从成都东上车，她就认成都站")."""
    negated = [
        name
        for name in ("origin", "destination")
        if getattr(turn, name)
        and re.search(_NEGATED + re.escape(getattr(turn, name)) + _NAME_GOES_ON, words)
    ]
    via = [
        v for v in turn.via if not re.search(_NEGATED + re.escape(v.city) + _NAME_GOES_ON, words)
    ]
    if not negated:
        return turn if len(via) == len(turn.via) else turn.model_copy(update={"via": via})
    update: dict[str, Any] = {**dict.fromkeys(negated), "via": via}
    if negated == ["origin"] and turn.destination:
        # The place left is the one wanted instead, in the ruled-out one's role.
        update.update(origin=turn.destination, destination=None)
    return turn.model_copy(update=update)


# -- a return ---------------------------------------------------------------------------------


def _returning(previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf) -> bool:
    """The turn adds or changes the ride home, keeping the outbound."""
    if previous.origin is None or previous.destination is None or previous.date_start is None:
        return False
    if turn.origin is not None and not _same(city, turn.origin, previous.destination):
        return False
    if turn.destination is not None and not _same(city, turn.destination, previous.origin):
        return False
    if turn.destination_text is not None:
        return False
    if _RETURN_SCOPE.search(words):
        return True
    return bool(_RETURN_WORD.search(words) or turn.return_trip)


def _answers_return_day(previous: TravelIntent, turn: TravelIntent, words: str) -> bool:
    """A bare day after "那回程呢" was answered with the question of which day."""
    open_return = previous.return_trip is True and previous.date_end is None
    open_return = open_return and previous.nights is None and previous.days is None
    places = turn.origin or turn.destination or turn.destination_text
    moves_outbound = _OUTBOUND_WORD.search(words)
    return open_return and turn.date_start is not None and not places and not moves_outbound


def _with_return(
    previous: TravelIntent, turn: TravelIntent, words: str, today: dt.date
) -> TravelIntent:
    assert previous.date_start is not None
    outbound = previous.date_start
    update: dict[str, Any] = {"return_trip": True}
    day = turn.date_start
    if day is not None and _BARE_WEEKDAY.search(words):
        day = date_from(words, outbound, today) or day
    if day is None and _SAME_DAY.search(words):
        day = outbound
    elif day is None and _NEXT_DAY.search(words):
        day = outbound + dt.timedelta(days=1)
    if day is not None and day >= outbound:
        update.update(date_end=day, days=None, nights=None)
    elif turn.days is not None or turn.nights is not None:
        nights = turn.nights
        if nights is None and turn.days is not None and _STAY_WORD.search(words):
            nights = turn.days  # 住一个礼拜: seven nights away
        if nights is not None:
            update.update(date_end=outbound + dt.timedelta(days=nights), days=None, nights=nights)
        else:
            update.update(date_end=None, days=turn.days, nights=None)
    window = turn.return_window or turn.depart_window
    if window is not None:
        update["return_window"] = window
    arrive = turn.return_arrive_window or turn.arrive_window
    if arrive is not None:  # 周一回来，晚上九点前能到广州就行: the ride home's deadline
        update["return_arrive_window"] = arrive
    for name, value in set_slots(turn).items():
        if name in _RETURN_KEEPS:
            update.setdefault(name, value)
    merged = previous.model_copy(update=update)
    return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))


# Slots a return turn may also change for the whole trip (the engine has one party and one
# class for both rides); places, dates and windows are the return's own, handled above.
_RIDE_WISHES = frozenset(
    {"seat_class", "seat_classes", "exclude_seat_classes", "train_types", "exclude_train_types"}
)
_EMPTY: dict[str, Any] = {
    "seat_class": None,
    "seat_classes": [],
    "exclude_seat_classes": [],
    "train_types": [],
    "exclude_train_types": [],
}

_RETURN_KEEPS = frozenset(
    {
        "passengers",
        "budget",
        "budget_per_person",
        "seat_class",
        "seat_classes",
        "exclude_seat_classes",
        "train_types",
        "exclude_train_types",
        "order",
        "preferences",
        "students",
        "children",
        "no_overnight",
        "berth",
    }
)


# -- places -----------------------------------------------------------------------------------


def _places_by_end(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent:
    """Each place the turn names, put at the end of the trip whose city it is in."""
    named = [p for p in (turn.origin, turn.destination) if p]
    if len(named) == 1 and not turn.via:
        (place,) = named
        if _same(city, place, previous.origin) and not _same(city, place, previous.destination):
            return turn.model_copy(update={"origin": place, "destination": None})
        if _same(city, place, previous.destination) and not _same(city, place, previous.origin):
            return turn.model_copy(update={"origin": None, "destination": place})
        answers_origin = (
            turn.destination == place
            and previous.origin is None
            and previous.destination is not None
            and not _DIRECTION.search(words)
        )
        if answers_origin:
            return turn.model_copy(update={"origin": place, "destination": None})
    if len(named) == 2 and _same(city, turn.origin, turn.destination):
        # Both in one city: the trip's end in that city, corrected to the station wanted last.
        for name in ("origin", "destination"):
            if _same(city, turn.destination, getattr(previous, name)):
                other = "destination" if name == "origin" else "origin"
                return turn.model_copy(update={name: turn.destination, other: None})
    return turn


def _round_from_last_stop(previous: TravelIntent, turn: TravelIntent, city: CityOf) -> TravelIntent:
    """ "从大理去丽江，然后回昆明" from the trip's last stop: on to 丽江, then home."""
    home = _same(city, turn.destination, previous.origin)
    if not (turn.via and home and _same(city, turn.origin, previous.destination)):
        return turn
    *through, last = turn.via
    update = {"destination": last.city, "via": through, "return_trip": True}
    if last.nights is not None:
        update["nights"] = last.nights
    return turn.model_copy(update=update)


def _continues(previous: TravelIntent, turn: TravelIntent, city: CityOf) -> bool:
    """The turn goes on from the trip's last stop to a new place ("在大理住两晚，然后去丽江")."""
    return (
        turn.origin is not None
        and turn.destination is not None
        and _same(city, turn.origin, previous.destination)
        and not _same(city, turn.destination, previous.origin)
        and not _same(city, turn.destination, previous.destination)
    )


def _continued(previous: TravelIntent, turn: TravelIntent) -> TravelIntent:
    assert previous.destination is not None and turn.destination is not None
    stay = next((v.nights for v in turn.via if v.city == turn.origin), None)
    if stay is None:
        stay = turn.nights if turn.nights is not None else previous.nights
    if stay is None and turn.date_start is not None and previous.date_start is not None:
        # "3号从大理去丽江": the stay lasts until the day the trip goes on.
        before = sum(v.nights or 0 for v in previous.via)
        stay = max(0, (turn.date_start - previous.date_start).days - before)
    via = [*previous.via, ViaStop(city=previous.destination, nights=stay)]
    own = {"origin", "destination", "via", "nights", "days", "date_start", "date_end"}
    rest = {k: v for k, v in set_slots(turn).items() if k not in own}
    merged = previous.model_copy(
        update={
            **rest,
            "via": via,
            "destination": turn.destination,
            "destination_text": None,
            "nights": None,
        }
    )
    return merge_intent(merged, TravelIntent(action="append", confidence=turn.confidence))


def _with_stop(previous: TravelIntent, turn: TravelIntent) -> TravelIntent:
    assert turn.destination is not None
    stop = ViaStop(city=turn.destination, nights=turn.nights if turn.nights is not None else 1)
    merged = previous.model_copy(update={"via": [*previous.via, stop]})
    return merge_intent(merged, TravelIntent(action="append", confidence=turn.confidence))


# -- the party and the dates ------------------------------------------------------------------


def _fewer(previous: TravelIntent, turn: TravelIntent, words: str) -> int | None:
    """The party after "少一个人" / "我不去了" / "就她一个人" (None when the turn says no such
    thing); a party of one is the default a merge cannot tell from silence, so it is set after."""
    if "passengers" in set_slots(turn):
        return None
    if _ALONE.search(words):
        return 1
    fewer = _FEWER.search(words)
    if fewer is None:
        return None
    return max(1, previous.passengers - (to_int(fewer.group("n") or "一") or 1))


def _with_party(intent: TravelIntent, passengers: int | None) -> TravelIntent:
    if passengers is None or passengers == intent.passengers:
        return intent
    update: dict[str, Any] = {"passengers": passengers}
    if intent.budget_per_person is not None:
        update["budget"] = intent.budget_per_person * passengers
    return intent.model_copy(update=update)


def _party(previous: TravelIntent, turn: TravelIntent, words: str) -> TravelIntent:
    """Companions added on top of those already going ("再加个同学", "她妈也去"); a larger
    number said outright ("再加个同学，俩人") is the whole party."""
    match = _ADD_PERSON.search(words)
    count = (match.group("n") or "") if match else ""
    if match is None or (turn.passengers > previous.passengers and not count):
        return turn
    added = to_int(count) or 1
    update: dict[str, Any] = {"passengers": previous.passengers + added}
    for name in ("children", "students"):
        before, now = getattr(previous, name, None), getattr(turn, name, None)
        if isinstance(before, list) and isinstance(now, list) and now:
            update[name] = [*before, *now]
        elif isinstance(before, int) and isinstance(now, int) and now:
            update[name] = before + now
    return turn.model_copy(update=update)


def _shifted(
    previous: TravelIntent, turn: TravelIntent, words: str, shift: re.Match[str]
) -> TravelIntent:
    """提前一天 / 推迟两天: the trip (or, said of the return, the return) moved by days."""
    assert previous.date_start is not None
    days = to_int(shift.group("n") or "一") or 1
    delta = dt.timedelta(days=days if shift.group("dir") in _LATER_SHIFT else -days)
    rest = {k: v for k, v in set_slots(turn).items() if k in _RETURN_KEEPS}
    if _RETURN_SCOPE.search(words) or (_RETURN_WORD.search(words) and previous.date_end):
        if previous.date_end is None:
            return previous
        update: dict[str, Any] = {"date_end": previous.date_end + delta, "days": None}
    else:
        update = {"date_start": previous.date_start + delta}
        if previous.date_end is not None:
            update["date_end"] = previous.date_end + delta
    merged = previous.model_copy(update={**rest, **update})
    return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))


def _date_in_trip_week(
    previous: TravelIntent, turn: TravelIntent, words: str, today: dt.date
) -> TravelIntent:
    """A bare weekday correcting the date is that day of the trip's own week (改成周日)."""
    if turn.date_start is None or previous.date_start is None or turn.origin or turn.destination:
        return turn
    if not _BARE_WEEKDAY.search(words):
        return turn
    monday = previous.date_start - dt.timedelta(days=previous.date_start.weekday())
    day = date_from(words, monday, today)
    if day is None or day < today or day == turn.date_start:
        return turn
    update: dict[str, Any] = {"date_start": day}
    if turn.date_end is not None:
        update["date_end"] = turn.date_end + (day - turn.date_start)
    return turn.model_copy(update=update)
