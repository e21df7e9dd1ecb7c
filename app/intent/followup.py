"""A chat turn read as a change to the trip under discussion (issue 22, conversation).

The parser reads a turn on its own; this module reads it against the trip so far, before the
slot merge (`app/intent/merge.py`):

- **A return**: "周一回来", "当天晚上六点以后回北京", "丽江回昆明，4号", "回程改成周四" add or move
  the return leg and keep the outbound: the turn's date becomes `date_end` (a bare weekday is
  the first one on or after the outbound day), its departure window the return's; hours with
  no day and no stay said before ("晚上回广州") come back the same day. A class said of the
  ride home alone ("回程换成卧铺") is `return_seat_classes`, the outbound's untouched; hours
  said before the ride home is named are the outbound's, "同样的时间" the outbound's hours, a
  train named for it ("周五坐Z2回北京西") is ridden home; a weekday before the ride out is the
  one after it; a ride home from another place ("回程从丽江回昆明") goes on there first; a day
  home no trip reaches is said as not on sale; "回程也订" with no day asks it first.
- **A correction of one end**: a place in the city of the trip's origin is a new boarding
  station ("那还是西安北吧"), one in the destination's city a new arrival; a negated place
  ("别从成都东上车", "不是X") is dropped; a city said as its station ("是西安站", "就到张家界站")
  is that station alone. A new destination alone corrects the trip
  ("不对，是去蒙自"); only a new origin *and* destination start a new trip.
- **An answer**: a bare place when the trip lacks only its origin fills the origin ("哈尔滨"
  after "从哪个城市出发？").
- **A stop**: "中间在大理住一晚" inserts a via stop; "在大理住两晚，然后去丽江" from the trip's
  last stop continues the trip.
- **The party** (`app/intent/party_change.py`): who joins and as what (孩子奶奶也去 an adult,
  也是学生 a student, 孩子的表弟，5岁 a child), a child's age (孩子14了), the party said again
  (我们三个人，都是学生); fewer people ("少一个人", "就她一个人") here.
- **Relative wishes**: 太贵了/便宜点 → the cheapest (a named train found too dear gives way to
  any train between its cities); 太慢了 → the fastest; "高铁太贵了" rules the trains out; a bare
  weekday in a date correction ("改成周日") is that day of the trip's week; a bare hour is
  read nearest the plan shown ("太晚了，改成两点以后" after 18:55 is 14:00); exclusions
  accumulate ("也不要硬座"); an amount asked about ("俩人六百够吗") is the budget.
- **An out-of-scope question** that changes nothing ("高反怎么办", "能帮她叫个接站吗", "凭祥
  那边有什么好玩的", "学生票买了以后能退吗") is declined and the trip stays.

Pure functions over intents and text; the station directory comes in as `city` (a name →
its city, None when unknown).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.intent import lexicon, texts
from app.intent.constraints import SCOPE_WORDS, without_context
from app.intent.corrections import DAY_SAID
from app.intent.dates import WEEKDAY_NUMBERS, date_from, days_said, extract_dates
from app.intent.day_changes import day_trip, said_day_trip, stale_windows
from app.intent.merge import merge_intent, set_slots, starts_over
from app.intent.model import SLEEPER_SET, TIME_WINDOWS, TravelIntent, ViaStop, with_end_said
from app.intent.numerals import to_int
from app.intent.offline import DROPPED_RETURN, normalise_text, refused_trains
from app.intent.party import CHILD_WORDS, GRANDCHILD_WORDS, KIN_CHILD_WORDS
from app.intent.party import count_word as party_count_word
from app.intent.party_change import REPORTED, Party, party_after, students_said, total_said
from app.intent.places import city_km
from app.intent.return_scope import night_refused_homeward, ride_wishes, split_at_return
from app.intent.turn_wishes import (
    CHEAPER,
    against_plan_shown,
    budget_asked,
    complaint_as_reason,
    exclusions_kept,
    hour_compared,
    hours_near_plan,
    relative_wishes,
    within_window_said,
)
from rules.limits import MAX_TRIP_DAYS
from rules.relax import RELAX_ORDER
from sources.models import TRAIN_TYPES

CityOf = Callable[[str], str | None]

# Said before parsing: a scope word the parser would take for a place ("去程太早了"), and
# 换到/挪到 + a day, which reads as 到 + a place ("换到周六").
_OUTBOUND_SCOPE = re.compile(r"^(?:那)?(?:去程|出发那天|去的时候)[，,\s]*")
_MOVE_TO = re.compile(
    r"(?:换到|挪到|调到|移到|提前到|推迟到|推到|延到|延后到|改到)"
    r"(?=(?:下下|下|这|本)?(?:个)?(?:周|星期|礼拜|\d|[一二三四五六七八九十]+号|明天|大?后天))"
)

_OUTBOUND_WORD = re.compile(r"改|换|出发|去程|走")
_RETURN_SCOPE = re.compile(
    r"回程|返程|回来那天|回来的时候|回去那天|回来(?:那趟|那班|的车|的票|坐|要|买|也|不|别)"
    # 从上海回北京最晚那班: the ride named from the destination home is the turn's one ride.
    r"|从[^，,。\s]{1,8}?回[^来去，,。\s]"
    # 回郑州那趟要最快的: the ride home named by where it goes.
    r"|回[^来去，,。\s]{1,6}?的?(?:那趟|那班|那段|那程)"
)
_RETURN_WORD = re.compile(r"回来|回去|返回|回程|返程|回(?!家)")
_RETURN_NAMED = re.compile(r"回来|回去|返回|回程|返程")
_SAME_DAY = re.compile(r"当天|当晚|当日|同一天|同一日|同天|看完")
_SAME_DAY_WORD = re.compile(r"当天|当晚|当日|同一天|同一日|同天")
_NEXT_DAY = re.compile(r"第二天|次日|隔天")
_BUSY_NEXT_DAY = re.compile(
    r"(?:因为|毕竟)?(?:第二天|次日|隔天)(?:一早|早上|上午)?(?:还|就|都)?(?:要|得)?(?:还)?"
    r"(?:上班|上课|上学|开会|有事|有课|工作|考试|出差|早起|值班)"
)
_NEXT_DAY_PERIOD = re.compile(
    r"(?:回程|返程)?(?:就)?(?:第二天|次日|隔天)(?:再|就)?(?:回来|回去|回)?(?P<period>早上|上午|中午|下午|晚上)"
    # 第二天中午前回到, 次日晚上九点前: a bound on the clock (the turn's own window), not the
    # part of the day.
    r"(?![^，,。；;？?]{0,8}?[前后])"
)
_ONE_WAY = re.compile(
    r"不回来了|不回了|不用回|不要返程|不要回程|回程不用|只要去程|单程就行|单程就好"
    # 回程不要 said alone (回程不要无座 and 返程不要太晚 are wishes for it).
    r"|(?:回程|返程)不要(?:了|啦)?(?=$|[，,。!！~\s])"
    r"|买单程|" + DROPPED_RETURN
)
_DAYS_LATER = re.compile(r"(?P<n>[一两二三四五六七八九十1-9])天(?:以)?后(?:再)?回")
_DAYS_AFTER = re.compile(r"大后天|后天|明天")
_STAY_SHIFT = re.compile(
    r"(?P<dir>多|少)(?:住|待|呆|玩)(?P<n>[一两二三四五六七1-7])?(?:个)?(?:晚上?|天|夜)"
)
_REFUSED_HOURS = re.compile(
    r"太早|太晚|太累|起不来|起得来|谁起|来不及|赶不上|有课|有事|没空|上班|不行|不方便|不要|算了"
    r"|太赶|赶不及|太紧|太仓促|太急"
    r"|走不开|走不了|去不了|脱不开身|加班|值班"
    # 上午还想逛逛古城: hours spent there on something else, beside the hours asked for.
    r"|逛|转转|转一转|玩玩|玩一玩|游览|参观"
)
_HOURS = re.compile(
    r"\d+\s*[点:：]|[一二两三四五六七八九十]+点|凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|白天|夜里"
    r"|一早|清早"
)
_DAY = re.compile(
    r"[今明后]天|周[一二三四五六日天]|星期|礼拜|\d+号|\d+日|[一二三四五六七八九十]+号"
)
# 同样的时间, 一样的点, 也是这个时间: the hours of the ride out said again for the ride home.
_SAME_HOURS = re.compile(
    r"(?:同样|一样|相同|同一)(?:的|个)?(?:时间|时段|点|钟点|时候)|(?:也是|还是)(?:这个|那个)(?:时间|点)"
)
_DAYS_AFTER_OFFSET = {"明天": 1, "后天": 2, "大后天": 3}
_BARE_WEEKDAY = re.compile(r"(?<![下这本个])(?:周|星期|礼拜)[一二三四五六日天1-7]")
_WEEKDAY_SAID = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天1-7]")
_NEGATED = r"(?:别|不要|不|不是|不去|不在)(?:从|在|去|到)?"
_NAME_GOES_ON = r"(?![东西南北])"  # 不是西安北 rules out 西安北, not 西安
# 格尔木不去了, 大理就不去了: the place named, then ruled out.
_INSTEAD = re.compile(r"改去|改成去|改到|换去|换成|改成|不去了|不想去了|算了|还是去")
_DROPPED_AFTER = r"(?:站)?(?:就|也|先)?(?:不去了|不去|不要了|不用去了|去不了|不玩了)"
_SHIFT = re.compile(
    r"(?P<dir>提前|早|往前挪|推迟|延后|推后|往后推|往后挪|晚)(?P<n>[一两二三四五六七1-7])?天"
)
_LATER_SHIFT = ("推迟", "延后", "推后", "往后推", "往后挪", "晚")
_FEWER = re.compile(
    r"少(?P<n>[一两二三1-9])?个人?|(?:我|他|她)不去了"
    # 有一个不去了, 其中两个人去不了, 有一个厂里不放人 走不了: that many fewer.
    r"|(?:有|其中)(?P<m>[一两二三1-9])(?:个|位)(?:人|同学|朋友|同事|老乡)?"
    r"[^，,。？?]{0,8}?(?:不去了|去不了|来不了|走不了|不走了)"
    # 娃儿不去了, 孩子去不了了: a child of the party stays behind.
    r"|(?P<child>娃儿?|孩子|小孩|宝宝|儿子|女儿|闺女|小朋友)(?:就|也|还是)?"
    r"(?:不去了|不去|去不了|不走了|不来了|来不了|留家里|留在家)"
    # 小叔子临时有事不去了, 我老公去不了了: a grown-up of the party stays behind.
    r"|(?:我|俺)?(?P<kin>"
    + "|".join(
        sorted(
            {p for p, n in lexicon.COMPANIONS if n == 1}
            - {*CHILD_WORDS, *KIN_CHILD_WORDS, *GRANDCHILD_WORDS}
            | {"小叔子", "小姑子", "大伯子", "大姑姐", "妯娌", "连襟", "老丈人", "丈母娘"},
            key=len,
            reverse=True,
        )
    )
    + r")(?:临时|突然|那天)?(?:有事|加班|要上班)?(?:了)?[，,\s]?(?:就|也|还是)?"
    r"(?:不去了|去不了|来不了|不来了|不走了)"
)
# 走不了 六个, 就我们两口子: the party as it now stands, said with the one dropping out.
_LEFT = re.compile(
    r"(?:剩|还剩|就剩|只剩)?(?:下)?(?P<n>[两二三四五六七八九十1-9]|俩|仨)\s*(?:个|位)(?:人)?(?:了)?"
    r"\s*[。！!～~]*$"
)
_ALONE = re.compile(
    r"(?:就|只有|只)(?:我|她|他)[^，,。\s]{0,3}?(?:一个人|自己|一人|一个(?=$|[，,。！!]))(?!的)"
    r"|(?:我|她|他)一个人(?:去|走|回)"
)
_YES = re.compile(r"^(?:对|是的|对的|嗯|没错|是|对呀|是啊|对啊|就是)[，,。!！\s]*$")
_ANOTHER_TRIP = re.compile(r"另外|另一|对了|算了|还有一?个|再帮|也帮|帮.{1,4}也")
# "ok different trip: Dec 22 urumqi to yining", 换个行程: said to be a trip of its own, it is
# one, whichever end it shares with this one; nothing of this trip carries over.
_NEW_TRIP = re.compile(
    r"\b(?:different|another|new|separate|other)\s+(?:trip|journey|one)\b"
    r"|(?:换|新|另)(?:一|外一)?个?(?:行程|旅程)|新的(?:行程|旅程)"
    r"|重新(?:规划|安排|订|计划)(?:一|个)+(?:行程|旅程)",
    re.IGNORECASE,
)
# 我老伴要从上饶回南昌，也帮他看看: someone else's ride, whatever its ends, is no ride home of
# the trip shown.
_SOMEONE_ELSE = re.compile(
    r"帮(?:他|她)|(?:他|她)(?:们)?(?:也|还)?(?:要|得|想|自己|一个人)(?:从|去|到|回)"
    r"|(?:"
    + "|".join(sorted((name for name, _ in lexicon.COMPANIONS), key=len, reverse=True))
    + r")(?:也|还)?(?:要|得|想|自己|一个人)"
)
# 也是周四: the weekday of the trip shown, not the coming one.
_SAME_WEEKDAY = re.compile(
    r"(?:也是|也在|同样是?|一样是?)(?:下下|下|这|本)?(?:周|星期|礼拜)[一二三四五六日天1-7]"
)
_THEN = re.compile(r"然后|接着|再去|再到|再从|再坐|之后去|之后到|之后从|住|待|呆")
# 那…呢, …怎么样: a ride asked about, not a stop added to the trip shown.
_ASKS_ABOUT = re.compile(r"^那.*呢|呢[？?]?$|怎么样|如何")
_VIA_CUE = re.compile(r"中间|中途|途中|路上|路过|经过|途经|顺路(?:去|在|停)")
# 再加一站 汉中: a stop added; on the way when the place lies between the trip's ends (西安→
# 成都 by 汉中), else the trip goes on to it (北京→南京, 再加一站杭州: 杭州 after 南京).
_ADD_STOP = re.compile(r"(?:再|多)?加(?:一|个|一个)站")
ON_THE_WAY_DETOUR = 1.3
"""How much longer the ride may be through a stop for it to count as on the way."""


def _on_the_way(previous: TravelIntent, place: str, city: CityOf) -> bool:
    ends = [city(previous.origin or "") or previous.origin, city(previous.destination or "")]
    stop = city(place) or place
    if ends[0] is None or ends[1] is None:
        return False
    direct = city_km(ends[0], ends[1])
    there, on = city_km(ends[0], stop), city_km(stop, ends[1])
    if direct is None or there is None or on is None:
        return False
    return there + on <= ON_THE_WAY_DETOUR * direct


_STAY_WORD = re.compile(r"住|待|呆")
_DIRECTION = re.compile(r"[去到往]")
_NIGHT_ACCEPTED = re.compile(
    r"(?<![不别])(?:坐|就)夜车|夜车也行|夜车也可以|过夜也行|过夜也可以|(?<![不别])过夜就过夜"
)
_PERMITTED = r"(?:的?(?:车|票)?)(?:也行|也可以|也没事|也无所谓|没关系)"
_NOT_A_PLACE = re.compile(
    r"[了就也都还的吧呢吗啊]|车站|站台|\d|[一二两三四五六七八九十]+[百千万块元]|[一二两三四五六七八九十百千万]+$"
)
_ARRIVAL_BEFORE = re.compile(r"(?:前|后|点|半|分|多久|时候|以前|之前|提高|增加|放宽|调|提)$")
_TRAVEL_VERB = re.compile(r"[去到往回]|从|改|换|出发|上车|下车")


# Questions a chat turn asks beside the trip, by topic (the refusal texts' keys): the words a
# sentence is refused by (`SCOPE_WORDS`), and a few only a turn after a trip asks with.
_TURN_QUESTIONS: dict[str, tuple[str, ...]] = {
    "weather": ("带啥衣服", "带什么衣服"),
    "hotel": ("间房", "房间"),
    "refund": ("能退吗", "能退不"),
    "other": (
        "高反",
        "晕车",
        "怎么办",
        "景点",
        "好玩",
        "攻略",
        "吃什么",
        "餐车",
        "抽烟",
        "吸烟",
        "取票",
        "检票",
        "身份证",
        "证件",
        "安检",
        "进站",
        "住哪",
        "提前多久",
        "住在哪",
    ),
}
_SCOPE_QUESTIONS: dict[str, tuple[str, ...]] = {
    topic: (*_TURN_QUESTIONS.get(topic, ()), *SCOPE_WORDS.get(topic, ()))
    for topic in ("weather", "hotel", "refund", "change", "other")
}


@dataclass(frozen=True, slots=True)
class TurnReading:
    """The trip after one chat turn, or the topic declined (the trip then stays as it was)."""

    intent: TravelIntent
    declined: str | None = None
    question: str | None = None  # said beside the plan, or asked first (`ask_first`)
    ask_first: bool = False  # "回程也订" with no day: which day back, before planning again


# 别晚上才到: an arrival refused in a part of the day, as the parser reads 不要晚上到.
_LATE_ARRIVAL_REFUSED = re.compile(
    r"(?P<no>别|不要|不想|不能)(?P<part>凌晨|半夜|深夜|夜里|晚上|天黑)(?:了)?才(?=到|抵达)"
)


def turn_text(text: str) -> str:
    """A follow-up's text as the parser should read it (scope words it would take for places,
    and the hours a turn turns down beside those it asks for)."""
    text = _OUTBOUND_SCOPE.sub("", normalise_text(text))
    text = _LATE_ARRIVAL_REFUSED.sub(r"\g<no>\g<part>", text)
    text = _SHIFT.sub("", text)  # 提前一天 is no one-day trip, 往后推 no place
    text = REPORTED.sub("", text)  # 我妈说还要把小侄子带上: who said it is no one added
    # 会改到下午两点了: the meeting moved, read as the meeting at its new hour (a deadline).
    text = _MEETING_MOVED.sub(r"\g<at>开会", text)
    text = _DONE_THEN_ON.sub(r"在\g<place>\g<stay>\g<night> 然后去\g<next>", text)
    text = _PLACE_DONE_THEN.sub(r"在\g<place>然后去", text)
    return _without_hours_refused(_MOVE_TO.sub("改成", text))


_MEETING_MOVED = re.compile(
    r"(?:会|会议|面试|活动)(?:时间)?(?:改|推|挪|延|调)(?:到|成|为|迟到)"
    r"(?P<at>(?:早上|上午|中午|下午|晚上)?[0-9一二两三四五六七八九十]{1,3}点(?:半)?)(?:了)?"
)


# 兰州完了再去西宁 兰州住一晚: on from the stop when done there, its stay said apart; read as
# 在兰州住一晚 然后去西宁, as a stop with its nights is said.
_PLACE_DONE = (
    r"(?P<place>[\u4e00-\u9fff]{2,4}?)(?:玩|逛|看|待|呆)?完了?(?:以后|之后)?[，,\s]*"
    r"(?:再|就)?(?:去|到)"
)
_DONE_THEN_ON = re.compile(
    _PLACE_DONE + r"(?P<next>[\u4e00-\u9fff]{2,4}?)[，,\s]+(?P=place)(?P<stay>住|待|呆)"
    r"(?P<night>[一两二三1-3]\s*(?:晚|夜|天))"
)
_PLACE_DONE_THEN = re.compile(_PLACE_DONE)


# 九点前要回到上海直接去上班: a deadline said with what follows the ride, a wish, no refusal.
_DEADLINE = re.compile(r"(?:前|之前|以前)(?:就|要|得|必须|能|可以)?(?:赶|回)?到")


def _refused(clause: str) -> bool:
    if _DEADLINE.search(clause):
        return False
    return bool(_REFUSED_HOURS.search(clause) and (_HOURS.search(clause) or _DAY.search(clause)))


_RIDE_DAY_NAMED = re.compile(r"(?:回来|回去|回程|返程|走|出发|去)(?:的)?那天")


def without_reasons(text: str) -> str:
    """ "改成后天吧，明天走不开", "周五晚上去太累了 改成周六一早走", "周一还要上班 周日回来": a
    day turned down, or one taken by something else, beside a clause that says the day of the
    ride, is only the reason; the clause goes (its day is no day of the trip)."""
    # 晚上8点前到 第二天上班: what the next day holds is why, not a day of the trip.
    text = _BUSY_NEXT_DAY.sub("", text).strip("，,。；; ")
    parts = re.split(r"([，,。；;！!？?\s]+)", text)
    clauses = parts[::2]
    refused = [i for i, clause in enumerate(clauses) if _refused(clause)]
    if not any(_DAY.search(clauses[i]) for i in refused):
        return text
    if not any(_DAY.search(c) for i, c in enumerate(clauses) if i not in refused) and not any(
        _RIDE_DAY_NAMED.search(c) for i, c in enumerate(clauses) if i not in refused
    ):
        # (回来那天别太晚…周一还上班: the day of the ride named as such, the busy one is why.)
        return text
    for i in refused:
        parts[2 * i] = ""
    return "".join(parts).strip("，,。；; ")


def _without_hours_refused(text: str) -> str:
    """ "7点前太早了 起不来 9点以后吧", "上午还有课 下午三点以后的吧", "晚上的车不要 要白天走的":
    the hours turned down are no window; the clause that asks for others is the wish. Of a
    refused clause with a day in it only the day stays (明天上午不行，下午吧: 明天 … 下午)."""
    text = without_reasons(text)
    parts = re.split(r"([，,。；;！!？?\s]+)", text)
    clauses = parts[::2]
    refused = [
        i
        for i, clause in enumerate(clauses)
        if _REFUSED_HOURS.search(clause) and _HOURS.search(clause) and not _DEADLINE.search(clause)
    ]
    asked = [i for i, clause in enumerate(clauses) if i not in refused and _HOURS.search(clause)]
    if not refused or not asked:
        return text
    for i in refused:
        parts[2 * i] = "".join(match.group() for match in _DAY.finditer(clauses[i]))
    return "".join(parts).strip("，,。；; ")


def read_turn(
    previous: TravelIntent,
    turn: TravelIntent,
    text: str,
    *,
    today: dt.date,
    city: CityOf,
    suggest: CityOf | None = None,
    route: Sequence[str] | None = None,
) -> TurnReading:
    """The trip after `turn` (parsed from `text`), given the trip so far; `suggest` is the
    place the reply offered for a name it did not know ("您是指哈尔滨吗？"); `route` is the
    trip's named train's stops as cities, when known (its ride is no new trip)."""
    words = normalise_text(text)
    refused = set(refused_trains(words))
    if refused & set(turn.train_numbers):  # a model reading 不坐G82 as G82 wished for
        turn = turn.model_copy(
            update={"train_numbers": [n for n in turn.train_numbers if n not in refused]}
        )
    reading = _read(previous, turn, text, today=today, city=city, suggest=suggest, route=route)
    if reading.declined is not None:
        return reading
    if refused & set(reading.intent.train_numbers):
        # "算了不坐G82了，下午两点前到北京就行": the train is dropped, the trip and its new
        # wishes kept, between the cities its route gave.
        kept = [n for n in reading.intent.train_numbers if n not in refused]
        intent = _other_trains(reading.intent, city) if not kept else reading.intent
        reading = replace(reading, intent=intent.model_copy(update={"train_numbers": kept}))
    elif previous.train_numbers and not turn.train_numbers:
        if _train_outside_hours(previous, reading.intent):
            # "太早了 有没有9点以后的" after G7331 at 06:15: another train at the hours said,
            # between the stations said.
            reading = replace(
                reading, intent=reading.intent.model_copy(update={"train_numbers": []})
            )
        dearer_class = turn.seat_class or turn.seat_classes
        if any(cue in words for cue in CHEAPER) and reading.intent.train_numbers:
            if not dearer_class:
                # "商务座太贵了，换一等座吧" names the class that will do: the train stays.
                reading = replace(reading, intent=_other_trains(reading.intent, city))
    return replace(reading, intent=_with_stated_order(previous, turn, reading.intent))


def _train_outside_hours(previous: TravelIntent, intent: TravelIntent) -> bool:
    """The trip's named train, as shown, leaves or arrives outside the hours now asked for."""
    shown = previous.shown
    if shown is None or not intent.train_numbers:
        return False
    return any(
        window is not None
        and window != getattr(previous, name)
        and not window.start <= at <= window.end
        for name, window, at in (
            ("depart_window", intent.depart_window, shown.depart_at),
            ("arrive_window", intent.arrive_window, shown.arrive_at),
        )
    )


# Each wish the relaxation may give up (`rules.relax`), by the intent fields saying it; the
# places are the trip itself and keep the engine's order.
_CONSTRAINTS: dict[str, tuple[str, ...]] = {
    **{
        name: (name,)
        for name in (
            "depart_window",
            "arrive_window",
            "arrive_date",
            "return_window",
            "return_arrive_window",
            "seat_class",
            "seat_classes",
            "return_seat_classes",
            "return_train_types",
            "no_overnight",
            "return_no_overnight",
            "train_types",
            "exclude_train_types",
            "exclude_seat_classes",
        )
    },
    "budget": ("budget", "budget_per_person"),
    "stay": ("stay_hours",),
}


# A budget said in the first sentence keeps the engine's order (its last resort).
_UNDATED = frozenset({"budget"})


def _with_stated_order(
    previous: TravelIntent, turn: TravelIntent, intent: TravelIntent
) -> TravelIntent:
    """The constraints in the order last said, this turn's (changed, or said again) the
    latest: when not all can be met, the one said longest ago gives way first."""
    again = set_slots(turn)
    said = [
        name
        for name, fields in _CONSTRAINTS.items()
        if any(getattr(intent, f) not in (None, [], False) for f in fields)
        and any(getattr(intent, f) != getattr(previous, f) or f in again for f in fields)
    ]
    # Said in the first sentence, before any turn dated them: the oldest, in the engine's
    # order ("周五…要硬卧", then "还是上午走吧": the berth gives way, not the morning).
    first = [
        name
        for name, _, _ in RELAX_ORDER
        if name in _CONSTRAINTS
        and name not in _UNDATED
        and name not in previous.stated_order
        and any(getattr(previous, f) not in (None, [], False) for f in _CONSTRAINTS[name])
    ]
    kept = [
        name
        for name in (*first, *previous.stated_order)
        if name not in said
        and any(getattr(intent, f) not in (None, [], False) for f in _CONSTRAINTS.get(name, ()))
    ]
    order = [*kept, *said]
    return (
        intent
        if order == intent.stated_order
        else intent.model_copy(update={"stated_order": order})
    )


def _other_trains(intent: TravelIntent, city: CityOf) -> TravelIntent:
    """A named train found too dear ("1月15号的G1" … "太贵了"): any train will do now, between
    the cities its route gave (北京南 was the train's station, not the traveller's)."""
    ends = {
        name: city(place) or place
        for name in ("origin", "destination")
        if (place := getattr(intent, name)) is not None
    }
    return intent.model_copy(update={"train_numbers": [], **ends})


def _read(
    previous: TravelIntent,
    turn: TravelIntent,
    text: str,
    *,
    today: dt.date,
    city: CityOf,
    suggest: CityOf | None,
    route: Sequence[str] | None = None,
) -> TurnReading:
    words = without_reasons(normalise_text(text))
    if turn.kind == "out_of_scope":
        said = [t for t in turn.out_of_scope_topics if t != "other"]
        return TurnReading(previous, declined=_topic(words) or next(iter(said), "other"))
    if not _has_trip(previous) or previous.kind == "out_of_scope":
        merged = merge_intent(previous, turn, city=city, route=route)
        if (
            merged.date_start is not None
            and merged.date_end is None
            and said_day_trip(merged, words)
        ):
            # "就从北京出发去天津吧，当天来回" after the day was said alone: out and home that day.
            update = day_trip(merged, turn, merged.date_start, words)
            merged = merge_intent(merged.model_copy(update=update), TravelIntent(action="update"))
        return TurnReading(merged)
    turn = _no_place_said(turn, words)
    topic = _scope_question(previous, turn, words, city)
    if topic is not None:
        return TurnReading(previous, declined=topic)
    if suggest is not None and _YES.match(words) and previous.destination_text:
        offered = suggest(previous.destination_text)
        if offered is not None and not previous.destination:
            # "对" to "您是指哈尔滨吗？": the place offered, the rest kept.
            turn = turn.model_copy(update={"destination": offered})
    as_typed = turn  # the places as said, before the readings below move them
    turn = hour_compared(relative_wishes(turn, words), words)
    chosen = bool(turn.seat_class or turn.seat_classes) and not _class_permitted(turn, words)
    turn = complaint_as_reason(turn, words, class_chosen=chosen)
    turn = budget_asked(turn, words)
    turn = exclusions_kept(previous, turn)
    turn = hours_near_plan(previous, turn, words)
    turn = within_window_said(previous, against_plan_shown(previous, turn, words))
    turn = _without_negated(_destination_given_up(previous, turn, words, city), words)
    turn = _end_put_right(previous, turn, words, city)
    turn = _one_place_twice(previous, turn, words, city)
    turn = _first_leg_named(previous, turn, words, city)
    turn = _stay_then_home(previous, turn, words, city)
    # 去的路上想在苏州停一晚 / 算了汉中不住了: a stop on the way added or given up (before
    # 算了 is read as another trip).
    changed = (
        _stop_nights_changed(previous, as_typed, words, city)
        or _stay_on_the_way(previous, turn, words, city)
        or _stop_dropped(previous, turn, words, city)
    )
    if changed is not None:
        return TurnReading(_with_party(changed, _party(previous, turn, words)))
    if turn.origin and turn.destination and _NEW_TRIP.search(words):
        return TurnReading(merge_intent(TravelIntent(), turn, city=city))
    if turn.origin and turn.destination and _ANOTHER_TRIP.search(words):
        if not _ride_back(previous, turn, words, city) or _SOMEONE_ELSE.search(words):
            # "另外下周三我从广州去南宁": another trip, even from where this one ends; its
            # weekday said as the trip's ("另外 教练从成都去贵阳 也是周四") is that day.
            if _SAME_WEEKDAY.search(words):
                turn = _in_trip_week(previous, turn, words, today)
            else:
                turn = _weekday_after_trip(previous, turn, words, today)
            merged = merge_intent(previous, turn, city=city)
            if not _SOMEONE_ELSE.search(words) and not _PARTY_SAID.search(words):
                # "另外礼拜一想由桂林去南宁" with the family: the same party, unless said again.
                merged = _with_party(merged, _party(previous, turn, words) or Party.of(previous))
            return TurnReading(merged)
    turn = _round_from_last_stop(previous, turn, city)
    as_said = turn
    party = _party(previous, turn, words)
    turn = turn.model_copy(update=_NO_PARTY)  # the party so far changes by `party` alone
    moved_day = _named_day_moved(previous, words, turn)
    if moved_day is not None:
        return TurnReading(_with_party(moved_day, party))
    if _ONE_WAY.search(words) and previous.return_trip is not False:
        # "不回来了": the ride home dropped, the rest of the trip kept.
        one_way = previous.model_copy(
            update={"return_trip": False, "date_end": None, "days": None, "nights": None}
        )
        one_way = one_way.model_copy(update={"return_window": None, "return_arrive_window": None})
        turn = turn.model_copy(update={"return_trip": False, "date_end": None, "days": None})
        return TurnReading(_with_party(merge_intent(one_way, turn, city=city, route=route), party))
    if said_day_trip(previous, words):
        # "算了，不住了，周五当天去当天回": one day, out and home, on the day said.
        return TurnReading(_with_party(_as_day_trip(previous, turn, words, today), party))
    if _day_trip_moved(previous, turn, words):
        # "改成后天去 也是当天回": the day trip moved whole, its hours and classes kept.
        whole = _as_day_trip(previous, turn, words, today, moved_whole=True)
        return TurnReading(_with_party(whole, party))
    stay = _STAY_SHIFT.search(words)
    if stay is not None and previous.date_start is not None:
        return TurnReading(_with_party(_stay_shifted(previous, turn, stay, words), party))
    if _EVE_ARRIVAL.search(words) and previous.date_start is not None:
        return TurnReading(_with_party(_eve_before(previous, turn, words), party))
    shift = _SHIFT.search(words)
    if shift is not None and previous.date_start is not None:
        return TurnReading(_with_party(_shifted(previous, turn, words, shift), party))
    if _home_from_elsewhere(previous, turn, words, city):
        # "回程从丽江回昆明 周四" after 昆明→大理: on from 大理 to 丽江, and home from there.
        assert previous.destination is not None and turn.origin is not None
        stop = ViaStop(city=previous.destination, nights=previous.nights)
        farther = previous.model_copy(
            update={"via": [*previous.via, stop], "destination": turn.origin, "nights": None}
        )
        return _read_return(farther, turn.model_copy(update={"origin": None}), words, today, party)
    if _route_reversed(previous, turn, words, city):
        # "不对不对 是成都回重庆" after 重庆→成都: the ride is the other way round, no ride back.
        update = {"origin": turn.origin, "destination": turn.destination}
        return TurnReading(_with_party(previous.model_copy(update=update), party))
    if _returning(previous, turn, words, city) or _answers_return_day(previous, turn, words):
        return _read_return(previous, turn, words, today, party)
    turn = _places_by_end(previous, turn, words, city)
    turn = _stations_said(turn, words, city)
    turn = _date_in_trip_week(previous, turn, words, today)
    if _THEN.search(words) and _continues(previous, turn, city):
        if _ASKS_ABOUT.search(words) and turn.date_start is not None:
            # "那从丽江再去大理呢，下周二": a ride of its own asked about, on its own day, from
            # where the trip ends; the party and fares carry on, the old ride's wishes do not.
            return TurnReading(_with_party(_onward_ride(previous, turn), party))
        if turn.date_start and previous.date_start and _BARE_WEEKDAY.search(words):
            # "周二再从深圳去厦门": the Tuesday after the leg before, as a return's weekday.
            onward = date_from(words, previous.date_start, today) or turn.date_start
            turn = turn.model_copy(update={"date_start": onward})
        return TurnReading(_with_party(_continued(previous, turn, words), party))
    if _VIA_CUE.search(words) and turn.destination and turn.origin is None and previous.destination:
        return TurnReading(_with_party(_with_stop(previous, turn), party))
    if (
        _ADD_STOP.search(words)
        and turn.destination
        and turn.origin is None
        and previous.destination
        and _on_the_way(previous, turn.destination, city)
    ):
        return TurnReading(_with_party(_with_stop(previous, turn), party))
    if as_said.action == "create" and starts_over(previous, as_said, city, route):
        return TurnReading(
            merge_intent(previous, as_said, city=city, route=route)
        )  # a new trip, its own party
    permitted = _class_permitted(turn, words)
    if permitted:
        turn = turn.model_copy(update={"seat_class": None, "seat_classes": []})
    if _sleepers_given_up(previous, turn):
        # 不要卧铺啦，改坐高铁: the night train goes, its berths and its hours with it.
        previous = previous.model_copy(update=_night_ride_dropped(previous))
    moved = turn.date_start is not None and turn.date_start != previous.date_start
    # "还是周四下午走吧" after "周五…上午到": the arrival said for Friday's ride goes.
    stale = stale_windows(previous, turn.depart_window, turn.arrive_window, moved=moved)
    previous = previous.model_copy(update=stale)
    merged = _with_party(merge_intent(previous, turn, city=city, route=route), party)
    if _day_home_kept(previous, turn):
        # "改成周六一早走" after "周五走 周日回来": leaving later, home the day said.
        merged = merged.model_copy(update={"date_end": previous.date_end, "days": None})
    if permitted:
        # "硬座也行": that class will do too; no class is required any more.
        merged = merged.model_copy(update={"seat_class": None, "seat_classes": []})
    if (merged.no_overnight or merged.return_no_overnight) and _NIGHT_ACCEPTED.search(words):
        # "那就坐夜车吧"
        merged = merged.model_copy(update={"no_overnight": None, "return_no_overnight": None})
    if merged.via and merged.destination and _same(city, merged.via[-1].city, merged.destination):
        # 算了西宁不去了 就到兰州 after 兰州 was a stop on the way: the stop is the end now.
        merged = merged.model_copy(update={"via": merged.via[:-1]})
    return TurnReading(merged)


_PUT_RIGHT = re.compile(r"不对|不是|错了|反了|搞反|说反|弄反|写反")


def _route_reversed(previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf) -> bool:
    """True when a correction names the trip's two ends the other way round (不对 是成都回重庆
    after 重庆到成都, one way): the ride out reversed, not a ride home added."""
    if previous.return_trip or previous.via or not _PUT_RIGHT.search(words):
        return False
    if not (turn.origin and turn.destination and previous.origin and previous.destination):
        return False
    return _same(city, turn.origin, previous.destination) and _same(
        city, turn.destination, previous.origin
    )


def _sleepers_given_up(previous: TravelIntent, turn: TravelIntent) -> bool:
    """True when the turn refuses the berths the trip asked for (要卧铺 … 不要卧铺啦)."""
    asked = {previous.seat_class, *previous.seat_classes} - {None}
    wanted = {turn.seat_class, *turn.seat_classes} & set(SLEEPER_SET)
    # (硬卧就行，软卧太贵了: one berth refused, another wished: still a night on a berth.)
    refused = set(SLEEPER_SET) & set(turn.exclude_seat_classes)
    return bool(asked) and asked <= refused and not wanted


def _night_ride_dropped(previous: TravelIntent) -> dict[str, Any]:
    """The slots of a night ride asked for (夜车, 卧铺, 下铺) cleared."""
    night = [
        name
        for name in ("depart_window", "arrive_window")
        if (window := getattr(previous, name)) is not None and "夜车" in window.label
    ]
    return {
        "seat_class": None,
        "seat_classes": [],
        "berth": None,
        "preferences": [p for p in previous.preferences if p != "卧铺"],
        **dict.fromkeys(night),
        **({"arrive_date": None} if night else {}),
    }


def _read_return(
    previous: TravelIntent, turn: TravelIntent, words: str, today: dt.date, party: Party | None
) -> TurnReading:
    """The trip after a turn that adds or changes the ride home; hours said before the ride
    home is named ("早上9点以后出发 晚上8点前回到广州就行") are the outbound's, and a train
    named for it ("周五坐Z2回北京西") is ridden home beside the one ridden out."""
    head, _ = split_at_return(words)
    outbound = {
        name: window
        for name in ("depart_window", "arrive_window")
        if (window := getattr(turn, name)) is not None and window.label and window.label in head
    }
    if outbound:
        turn = turn.model_copy(update=dict.fromkeys(outbound))
    reading = _return_read(previous, turn, words, today, party)
    update: dict[str, Any] = {}
    if outbound:
        leaves, arrives = outbound.get("depart_window"), outbound.get("arrive_window")
        # 那周五晚上先过去住一晚，周六…回 after 周六上午十点前到: the ride out's day moved, so
        # the arrival said for the old day goes (the eve before meets it).
        moved = reading.intent.date_start != previous.date_start
        update.update(stale_windows(previous, leaves, arrives, moved=moved))
        update.update(outbound)
    named = [n for n in turn.train_numbers if n not in reading.intent.train_numbers]
    if named and reading.intent.date_end is not None:
        update["train_numbers"] = [*reading.intent.train_numbers, *named]
    if not update:
        return reading
    return replace(reading, intent=reading.intent.model_copy(update=update))


def _first_day_too_far(trip: TravelIntent) -> dt.date:
    """The first day home too late for one trip leaving on `trip`'s day (`MAX_TRIP_DAYS`)."""
    assert trip.date_start is not None
    return trip.date_start + dt.timedelta(days=MAX_TRIP_DAYS)


def _return_read(
    previous: TravelIntent, turn: TravelIntent, words: str, today: dt.date, party: Party | None
) -> TurnReading:
    far = turn.date_start
    if far is not None and previous.date_start is not None and far >= _first_day_too_far(previous):
        # "把开学回北京的也买了 2月24号" of a ride out in December: no trip lasts that long, and
        # the day is not on sale yet; the ride out stays as it was.
        too_far = texts.RETURN_TOO_FAR.format(month=far.month, day=far.day)
        return TurnReading(_with_party(previous, party), question=too_far)
    head, tail = split_at_return(words)
    homeward_night = turn.no_overnight and night_refused_homeward(head, words)
    if homeward_night:
        # "回来下周三，白天的车，不要过夜": the ride home's; the night train out stays.
        turn = turn.model_copy(update={"no_overnight": None})
    intent = _homeward_night(_with_return(previous, turn, words, today), homeward_night)
    open_return = intent.date_end is None and intent.nights is None and intent.days is None
    wishes = _RIDE_WISHES & set(set_slots(turn))
    trips = ride_wishes(head) if head else None
    homeward = ride_wishes(tail)
    if trips and (wishes or turn.order) and homeward:
        # "要一等座，回程坐卧铺": what is said before the ride home is named is the trip's,
        # both rides; what its own clause says is that ride's alone.
        own = _return_own(turn.model_copy(update={**_EMPTY, "order": None, **homeward.as_slots()}))
        turn = turn.model_copy(
            update={
                **{k: v for k, v in _EMPTY.items() if not k.startswith("exclude")},
                "order": None,
                "preferences": [p for p in turn.preferences if p != "卧铺"],
                **trips.as_slots(),
            }
        )
        intent = _with_return(previous, turn, words, today).model_copy(update=own)
        return TurnReading(_with_party(_homeward_night(intent, homeward_night), party))
    if _RETURN_SCOPE.search(words) and (wishes or turn.order) and not trips:
        # Wishes said of the ride home alone ("回程换成卧铺", "回来坐高铁", "回来那天要最晚
        # 的一班") are that ride's own: the outbound keeps its classes, types and order.
        own = _return_own(turn)
        kept = [p for p in turn.preferences if p != "卧铺"]
        turn = turn.model_copy(update={**_EMPTY, "preferences": kept, "order": None})
        intent = _with_return(previous, turn, words, today).model_copy(update=own)
        intent = _homeward_night(intent, homeward_night)
        untold = wishes & {"exclude_seat_classes"}
        question = texts.RETURN_ONLY_WISH if untold else None
        return TurnReading(_with_party(intent, party), question=question)
    # "要一等座。回程周五晚上长沙南回深圳北": wishes said before the ride home is named are
    # the trip's, both rides.
    if open_return:
        # "回程也订": nothing to plan anew until the day is said; "我老乡也跟我一起回, 两个人"
        # changes the party, the ride home only heard in passing: plan, and ask beside it.
        asked = party is None and _RETURN_NAMED.search(words) is not None
        return TurnReading(
            _with_party(intent, party), question=texts.ASK_RETURN_DATE, ask_first=asked
        )
    return TurnReading(_with_party(intent, party))


# -- what the turn is about -------------------------------------------------------------------


def _has_trip(intent: TravelIntent) -> bool:
    return bool(intent.origin or intent.destination or intent.destination_text)


def _same(city: CityOf, a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    return a == b or (city(a) is not None and city(a) == city(b))


def _topic(words: str) -> str | None:
    words = without_context(words)
    for topic, cues in _SCOPE_QUESTIONS.items():
        if any(cue in words for cue in cues):
            return topic
    goods = _GOODS_ASKED.search(words)
    if goods is not None and not any(w in goods.group("what") for w in _RIDE_WORDS):
        return "other"  # 那边还能买到哈密瓜吗: something bought there, no ticket
    return None


# What a ride is bought by (还能买到两张吗, 买得到下铺不): tickets, not goods.
_RIDE_WORDS = (*lexicon.TICKET_WORDS, "铺", "张", "位", "班", "趟", "人")
# Something to buy or eat at a place, asked about (还能买到哈密瓜吗, 能吃到正宗的火锅不): a
# question about the place, not a ride, unless what is asked for is a ticket (买得到票吗).
_GOODS_ASKED = re.compile(
    r"(?:买到|买得到|买得着|吃到|吃得到|吃得着)(?:正宗的?|新鲜的?|当地的?)?"
    r"(?P<what>[\u4e00-\u9fff]{1,6}?)(?:吗|么|嘛|不|没|呢|[?？]|$)"
)


def _scope_question(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> str | None:
    """The topic of a turn that asks something else and changes nothing in the trip."""
    topic = _topic(words)
    if topic is None:
        return None
    slots = set_slots(turn)
    for name in _NO_CHANGE:
        slots.pop(name, None)
    for name in list(slots):
        if slots[name] == getattr(previous, name):
            slots.pop(name)  # 学生票买了以后能退吗: the trip's own fare, asked about
    if not _TRAVEL_VERB.search(words):
        for name in ("origin", "destination", "destination_text"):
            slots.pop(name, None)  # "西安有什么好玩的" asks about a place, goes nowhere
    for name in ("origin", "destination"):
        # Naming the trip's own places ("西安那边冷吗") is no change.
        if name in slots and any(
            _same(city, slots[name], end) for end in (previous.origin, previous.destination)
        ):
            slots.pop(name)
    goods = _GOODS_ASKED.search(words)
    cues = (*_SCOPE_QUESTIONS[topic], *((goods.group("what"),) if goods else ()))
    for name in ("origin", "destination", "destination_text"):
        # A "place" made of the question's own words (订三间房 → 三间房, 到了能买到芒果不 →
        # 芒果不) is no trip.
        if name in slots and any(cue in str(slots[name]) for cue in cues):
            slots.pop(name)
    if topic in ("refund", "change"):
        # 末班车 in "赶不上末班车能退吗" asks for no train, 学生票能退吗 for no fare.
        for name in ("order", "students"):
            slots.pop(name, None)
    return topic if not slots else None


# What a question's own words set without changing the trip: "凭祥那边有什么好玩的" reads as
# a trip for pleasure, and the topics are the question itself.
_NO_CHANGE = ("out_of_scope_topics", "leisure", "preferences")


def _class_permitted(turn: TravelIntent, words: str) -> bool:
    """A class said as acceptable too ("太贵了 硬座也行", "站票也可以"): a permission answering
    the plan shown, not a class required ("硬座就行" names the class, as in a sentence). The
    sentence parser already leaves such a class out (站票也中), so the words decide."""
    said = [phrase for phrase, _ in lexicon.SEAT_PHRASES if phrase in words]
    said = [p for p in said if not any(p != q and p in q for q in said)]  # 二等 in 二等座
    # Every class named is only permitted ("要卧铺，硬卧也行" still asks for a berth).
    return bool(said) and all(re.search(re.escape(p) + _PERMITTED, words) for p in said)


def _no_place_said(turn: TravelIntent, words: str) -> TravelIntent:
    """到 read as "to" where a turn says when to arrive ("九点前到就行", "太晚了，到了没车了",
    "提前多久到车站") or what to raise ("预算提高到一千"): what follows is no place."""
    place = turn.destination_text
    if place is None or turn.destination is not None:
        return turn
    at = words.find("到" + place)
    before = words[:at] if at >= 0 else ""
    if _NOT_A_PLACE.match(place) or _ARRIVAL_BEFORE.search(before):
        return turn.model_copy(update={"destination_text": None})
    return turn


def _ruled_out(place: str, words: str) -> bool:
    """The turn names `place` to rule it out: 别从成都东上车, 格尔木不去了."""
    name = re.escape(place)
    return (
        re.search(_NEGATED + name + _NAME_GOES_ON, words) is not None
        or re.search(name + _DROPPED_AFTER, words) is not None
    )


def _destination_given_up(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent:
    """ "算了峨眉山上太冷了 改去重庆吃火锅", "黄山不去了，换成去杭州": the destination given up,
    named before the new one, is no origin; the trip still leaves from where it did."""
    given_up = turn.origin
    if given_up is None or turn.destination is None or previous.origin is None:
        return turn
    if not _same(city, given_up, previous.destination):
        return turn
    if _same(city, turn.destination, previous.origin) or _THEN.search(words):
        return turn  # home, or on from there: a ride of the trip
    if re.search(r"(?:从|由|在)" + re.escape(given_up), words) or not _INSTEAD.search(words):
        return turn
    return turn.model_copy(update={"origin": None})


def _without_negated(turn: TravelIntent, words: str) -> TravelIntent:
    """Drop a place the turn names only to rule it out ("别从成都东上车，她就认成都站")."""
    negated = [
        name
        for name in ("origin", "destination")
        if getattr(turn, name) and _ruled_out(getattr(turn, name), words)
    ]
    via = [v for v in turn.via if not _ruled_out(v.city, words)]
    if not negated:
        return turn if len(via) == len(turn.via) else turn.model_copy(update={"via": via})
    update: dict[str, Any] = {**dict.fromkeys(negated), "via": via}
    if negated == ["origin"] and turn.destination:
        # The place left is the one wanted instead, in the ruled-out one's role.
        update.update(origin=turn.destination, destination=None)
    return turn.model_copy(update=update)


# 不是长沙，是株洲 / 不是从杭州，而是从宁波: the end denied, then the place meant.
_END_DENIED = re.compile(
    r"不是(?:从|去|到|在)?(?P<old>[\u4e00-\u9fff]{2,6}?)(?:站|市)?[，,\s]*(?:而|应该)?是(?:从|去|到|在)?"
)


def _end_put_right(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent:
    """The one place the turn names, put at the end of the trip it denies (不是长沙，是株洲
    after 长沙→武汉: 株洲 is the origin, whichever role the sentence gave it)."""
    denied = _END_DENIED.search(words)
    named = [p for p in (turn.origin, turn.destination) if p]
    if denied is None or len(named) != 1 or turn.via:
        return turn
    (place,) = named
    old = denied.group("old")
    for end, other in (("origin", "destination"), ("destination", "origin")):
        said = getattr(previous, end)
        if _same(city, old, said) and not _same(city, old, getattr(previous, other)):
            return turn.model_copy(update={end: place, other: None})
    return turn


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
    if _RETURN_SCOPE.search(words) or _home_by(previous, turn, city):
        return True
    return bool(_RETURN_WORD.search(words) or turn.return_trip)


_STAY_AT_END = re.compile(r"(?:待|住|呆|玩)[0-9一两二三四五六七八九十]{1,2}(?:晚|天|夜)")


def _stay_then_home(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent:
    """A stay at the trip's end and the day home (成都待两晚，周日回郑州) reads alone as the
    whole trip there and back, its day out counted back from the day home; said of a trip
    already going there, it is the ride home on that day, the ride out as it was."""
    if turn.origin is None or turn.destination is None or turn.date_end is None:
        return turn
    if previous.date_start is None or not _STAY_AT_END.search(words):
        return turn
    if _DAY_WORD.search(split_at_return(words)[0]):
        return turn  # 周五去成都待两晚，周日回: the day out said too
    if not (
        _same(city, turn.origin, previous.origin)
        and _same(city, turn.destination, previous.destination)
    ):
        return turn
    update = {"origin": None, "destination": turn.origin, "date_start": turn.date_end}
    return turn.model_copy(update={**update, "date_end": None, "nights": None, "days": None})


def _home_from_elsewhere(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> bool:
    """The ride home is said from a place other than the trip's end ("回程从丽江回昆明" after
    昆明→大理): the trip goes on there first."""
    if previous.origin is None or previous.destination is None or previous.date_start is None:
        return False
    if turn.origin is None or not _same(city, turn.destination, previous.origin):
        return False
    if any(_same(city, turn.origin, end) for end in (previous.origin, previous.destination)):
        return False
    if any(_same(city, turn.origin, stop.city) for stop in previous.via):
        return False
    return bool(_RETURN_SCOPE.search(words)) and not _SOMEONE_ELSE.search(words)


def _home_by(previous: TravelIntent, turn: TravelIntent, city: CityOf) -> bool:
    """An hour to be back where a round trip starts (要晚上十点前能到北京南 after 北京南→济南西
    and back): the ride home's deadline, no outbound to the place set off from."""
    if previous.return_trip is not True or turn.origin is not None or turn.arrive_window is None:
        return False
    return _same(city, turn.destination, previous.origin)


def _ride_back(previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf) -> bool:
    """The turn's ride is this trip's own the other way, on or after its day (a bare weekday
    counted from it): 那周日再从重庆回成都的也帮我看下 asks for the ride home of the trip
    shown, not for another trip."""
    if not (
        _same(city, turn.origin, previous.destination)
        and _same(city, turn.destination, previous.origin)
    ):
        return False
    start, day = previous.date_start, turn.date_start
    return start is None or day is None or day >= start or bool(_BARE_WEEKDAY.search(words))


def _only_day_home(words: str) -> bool:
    """True when the one day the turn says is the ride home's (改成住一晚 周四下午回, 回程改成
    周四，住两晚): the turn's range was counted from it by the stay, not said as both rides'
    days."""
    days = list(_DAY.finditer(words))
    if len(days) != 1:
        return False
    clause = re.split(r"[，,。；;\s]", words[: days[0].start()])[-1]
    return (
        _HOME_AFTER_DAY.match(words, days[0].end()) is not None
        or _HOME_BEFORE_DAY.search(clause) is not None
    )


_HOME_AFTER_DAY = re.compile(r"[^，,。；;\s回去走]{0,6}?(?:再|就)?(?:回来|回去|返回|回(?!家))")
_HOME_BEFORE_DAY = re.compile(
    r"(?:回程|返程|回来|回去)(?:的车|的票|那趟|那天)?(?:就|也)?(?:改|换)?(?:成|到|在)?$"
)


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
    if (
        _SAME_DAY_WORD.search(words)
        and extract_dates(_SAME_DAY_WORD.sub("", words), today).start is None
    ):
        # 同一天晚上再从济南西回北京南: "that day" is the outbound's, not the day the turn
        # was read on, and 一天 in it no length of stay.
        turn = turn.model_copy(update={"date_start": None, "date_end": None, "days": None})
    day = turn.date_start
    if (
        turn.date_end is not None
        and day is not None
        and turn.date_end > day
        and not _only_day_home(words)
    ):
        # "周六早上走 周日晚上回": both rides' days, and the outbound's hours, said again; bare
        # weekdays are those of the trip's own week (下周末 … 周六走: next week's Saturday).
        turn = _in_trip_week(previous, turn, words, today)
        day = turn.date_start
        assert day is not None and turn.date_end is not None
        outbound, day = day, turn.date_end
        update["date_start"] = outbound
        if turn.depart_window is not None and turn.return_window is not None:
            update["depart_window"] = turn.depart_window
            moved = outbound != previous.date_start
            update.update(stale_windows(previous, turn.depart_window, None, moved=moved))
    elif day is not None and _BARE_WEEKDAY.search(words):
        day = date_from(words, outbound, today) or day
    if day is not None and day < outbound and _WEEKDAY_SAID.search(words):
        # "回来是下礼拜一" of a trip out on 下礼拜六: the Monday after it, not the one before.
        day += dt.timedelta(days=7 * -(-(outbound - day).days // 7))
    after = _DAYS_AFTER.search(words)
    if day is not None and day < outbound and after is not None:
        # "后天回" of a trip leaving after that day: two days after the outbound.
        day = outbound + dt.timedelta(days=_DAYS_AFTER_OFFSET[after.group()])
    later = _DAYS_LATER.search(words)
    if later is not None and (day is None or day < outbound):
        day = outbound + dt.timedelta(days=to_int(later.group("n")) or 1)  # 两天后回来
    if day is None and _SAME_DAY.search(words):
        day = outbound
    elif day is None and _NEXT_DAY.search(words):
        day = outbound + dt.timedelta(days=1)
    undated = previous.date_end is None and previous.nights is None and previous.days is None
    hours = turn.return_window or turn.depart_window or turn.return_arrive_window
    if day is None and undated and hours and turn.days is None and turn.nights is None:
        day = outbound  # 晚上回广州, no day and no stay said: back the same day, as a sentence
    said_home = day is not None and day >= outbound
    if said_home:
        assert day is not None
        update.update(date_end=day, days=None, nights=None)
        leave = None if turn.nights is None else day - dt.timedelta(days=turn.nights)
        if leave is not None and today <= leave != outbound and _only_day_home(words):
            # 回程改成周五，住两晚: the day home and the nights both said, so the ride out is
            # the nights before it.
            update["date_start"] = leave
        stays = [stop.nights for stop in previous.via if stop.nights is not None]
        said = bool(stays) and len(stays) == len(previous.via)
        if said and day == outbound + dt.timedelta(days=sum(stays)):
            # 绍兴住一晚，周日再去宁波 … 周日晚上从宁波回杭州: home the day the last stop is
            # reached, no night there (not a night kept for a stop added late).
            update["nights"] = 0
    elif turn.days is not None or turn.nights is not None:
        nights = turn.nights
        if nights is None and turn.days is not None and _STAY_WORD.search(words):
            nights = turn.days  # 住一个礼拜: seven nights away
        if nights is not None:
            update.update(date_end=outbound + dt.timedelta(days=nights), days=None, nights=nights)
        else:
            update.update(date_end=None, days=turn.days, nights=None)
    window = turn.return_window or turn.depart_window
    if window is None and _SAME_HOURS.search(words):
        # "回来也同样的时间": the hours the ride out was asked for, as they stand now.
        window = previous.depart_window
    next_day = _NEXT_DAY_PERIOD.search(words)
    if next_day is not None and day is not None and day > outbound:
        # 演唱会晚上十点才结束，回程第二天上午: the hour it ends is that night's; the ride home
        # the next day keeps the part of the day said for it.
        window = TIME_WINDOWS[next_day.group("period")]
    if window is not None:
        update["return_window"] = window
    arrive = turn.return_arrive_window or turn.arrive_window
    if arrive is not None:  # 周一回来，晚上九点前能到广州就行: the ride home's deadline
        update["return_arrive_window"] = arrive
    moved = update.get("date_end", previous.date_end) != previous.date_end
    # "还是周日下午回吧" after "周六回，中午前到家": Saturday's deadline is not Sunday's.
    stale = stale_windows(previous, window, arrive, moved=moved, homeward=True)
    update.update({k: v for k, v in stale.items() if k not in update})
    for name, value in _return_rest(previous, turn).items():
        update.setdefault(name, value)
    merged = previous.model_copy(update=update)
    if "date_end" in update:  # 回程改成周四 is a day home said; 那就住两晚 derives one
        merged = with_end_said(merged, said_home)
    return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))


# 改后天: a day moved to with the bare verb (改成, 改到 … are `lexicon.UPDATE_CUES`).
_MOVED_BARE = re.compile(r"改(?=[今明后大下这周星礼0-9])|挪到")


def _day_trip_moved(previous: TravelIntent, turn: TravelIntent, words: str) -> bool:
    """True when a turn moves a day trip to another day and says it stays one (改成后天去 也是
    当天回): both rides move, not the ride home alone."""
    return (
        turn.date_start is not None
        and previous.date_start is not None
        and turn.date_start != previous.date_start
        and _SAME_DAY_WORD.search(words) is not None
        and (
            any(cue in words for cue in lexicon.UPDATE_CUES)
            or _MOVED_BARE.search(words) is not None
        )
        and not (turn.origin or turn.destination)
    )


def _as_day_trip(
    previous: TravelIntent,
    turn: TravelIntent,
    words: str,
    today: dt.date,
    *,
    moved_whole: bool = False,
) -> TravelIntent:
    """The trip as a day trip on the turn's day (a bare weekday: the trip's week) or its own
    (`day_trip`'s `moved_whole`: the hours go with the day)."""
    assert previous.date_start is not None
    day = _in_trip_week(previous, turn, words, today).date_start or previous.date_start
    update = day_trip(previous, turn, day, words, moved_whole=moved_whole)
    rest = _return_rest(previous, turn)
    # "改去清远了 … 当天来回": the day trip goes where the turn says.
    places = {
        name: getattr(turn, name) for name in ("origin", "destination") if getattr(turn, name)
    }
    if "destination" in places:
        places["destination_text"] = None
    merged = previous.model_copy(update={**rest, **update, **places})
    return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))


def _homeward_night(intent: TravelIntent, refused: bool | None) -> TravelIntent:
    """The trip with no night on the train for the ride home, when said of it alone."""
    return intent.model_copy(update={"return_no_overnight": True}) if refused else intent


def _return_own(turn: TravelIntent) -> dict[str, Any]:
    """The ride home's own wishes from a turn said of it alone: its classes, its train types
    (a refusal, 回程不坐高铁, as the types left), its order."""
    own: dict[str, Any] = {}
    classes = [turn.seat_class] if turn.seat_class else list(turn.seat_classes)
    if classes:
        own["return_seat_classes"] = classes
    if turn.train_types:
        own["return_train_types"] = list(turn.train_types)
    elif turn.exclude_train_types:
        own["return_train_types"] = [t for t in TRAIN_TYPES if t not in turn.exclude_train_types]
    if turn.return_order or turn.order:
        own["return_order"] = turn.return_order or turn.order
    return own


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


def _return_rest(previous: TravelIntent, turn: TravelIntent) -> dict[str, Any]:
    """The turn's other wishes (`_RETURN_KEEPS`) kept with a change of days, a budget said per
    head counted for the party so far (每人来回不超过200 said to a class of 35 is 7000)."""
    rest = {k: v for k, v in set_slots(turn).items() if k in _RETURN_KEEPS}
    each = rest.get("budget_per_person")
    if each is not None and "passengers" not in rest:
        rest["budget"] = each * previous.passengers
    return rest


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
        "return_order",
        "preferences",
        "students",
        "children",
        "no_overnight",
        "berth",
    }
)


# -- places -----------------------------------------------------------------------------------


_SETTING_OFF = re.compile(r"从|出发|动身|上车|起步")


def _places_by_end(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent:
    """Each place the turn names, put at the end of the trip whose city it is in."""
    named = [p for p in (turn.origin, turn.destination) if p]
    if len(named) == 1 and not turn.via:
        (place,) = named
        if (
            turn.origin == place
            and previous.origin is None
            and previous.destination not in (None, place)
            and _SETTING_OFF.search(words)
        ):
            # 想去阿尔山…从乌兰浩特走: the town set off from, though its prefecture (兴安) is
            # the destination's too, is the origin the trip lacked.
            return turn.model_copy(update={"destination": None})
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


_LEG_WORD = re.compile(r"[那这]一?段|那程|这程")
_DAY_WORD = re.compile(DAY_SAID)


def _first_leg_named(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent:
    """The trip's first leg named by its ends (郑州到西安那段要上午的, on a trip through 西安):
    a wish for that leg, whose departure is the trip's, not a new trip between them."""
    if not previous.via or not turn.origin or not turn.destination:
        return turn
    if not _LEG_WORD.search(words) or _DAY_WORD.search(words):
        return turn
    if city(turn.origin) != city(previous.origin or "") or city(turn.destination) != city(
        previous.via[0].city
    ):
        return turn
    return turn.model_copy(update={"origin": None, "destination": None, "date_start": None})


def _one_place_twice(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent:
    """ "我先去南京找同学 从南京出发": one city named as both ends is no ride; where the turn
    sets off from is the trip's new origin (a city of the trip's own is `_places_by_end`'s)."""
    if not (turn.origin and turn.destination and _same(city, turn.origin, turn.destination)):
        return turn
    if any(_same(city, turn.origin, end) for end in (previous.origin, previous.destination)):
        return turn
    if not _SETTING_OFF.search(words):
        return turn
    return turn.model_copy(update={"destination": None})


def _stations_said(turn: TravelIntent, words: str, city: CityOf) -> TravelIntent:
    """A city's name said as its station ("是西安站", "她就认成都站", "就到张家界站") is that
    station alone, not any station of the city: the place the turn names becomes "西安站",
    which the directory reads as the station 西安."""
    update = {
        name: place + "站"
        for name in ("origin", "destination")
        if (place := getattr(turn, name))
        and city(place) == place
        and re.search(re.escape(place) + r"站(?!台)", words)
    }
    return turn.model_copy(update=update) if update else turn


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


_STAY_SAID = re.compile(
    r"(?:玩|住|待|呆|停留)\s*(?P<n>[0-9一二两三四五六七八九十]{1,3})\s*(?:天|日|晚|夜)(?!上|里)"
)


def _final_stay(words: str, destination: str) -> tuple[int | None, int]:
    """The stay said right after the new last stop ("然后去扬州住一晚": one night), and how many
    stays the turn says in all."""
    stays = list(_STAY_SAID.finditer(words))
    at = words.rfind(destination)
    if at < 0 or not stays:
        return None, len(stays)
    after = next((m for m in stays if m.start() >= at + len(destination)), None)
    if after is None or _STAY_SAID.search(words[at + len(destination) : after.start()]) is None:
        near = after is not None and after.start() - (at + len(destination)) <= 3
        return (to_int(after.group("n")) if after is not None and near else None), len(stays)
    return None, len(stays)


def _continued(previous: TravelIntent, turn: TravelIntent, words: str = "") -> TravelIntent:
    assert previous.destination is not None and turn.destination is not None
    final, said = _final_stay(words, turn.destination)
    stay = next((v.nights for v in turn.via if v.city == turn.origin), None)
    if stay is None and final is not None and said == 1:
        stay = previous.nights  # "然后去扬州住一晚": the one stay said is the new stop's
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
            "nights": final,
        }
    )
    return merge_intent(merged, TravelIntent(action="append", confidence=turn.confidence))


# 去的路上想在苏州停一晚, 去的时候想先在鞍山住一宿: a night on the way there.
_WAY_THERE_STAY = re.compile(
    r"(?:路上|途中|中途|半路|顺路|去的时候|过去的时候)[^。]{0,14}?(?:住|停|待|呆|歇|过夜)"
)
# 汉中不住了, 不在汉中住了, 不停汉中了: the stop on the way given up.
_STOP_GIVEN_UP = re.compile(r"不(?:住|停|待|呆|去)了|不在\S{2,5}?(?:住|停|待|呆)了|直接(?:到|去)")


def _named(turn: TravelIntent) -> list[str]:
    """The places a turn names, its origin first."""
    return [p for p in (turn.origin, turn.destination) if p is not None]


def _ride_out_said(turn: TravelIntent) -> dict[str, Any]:
    """The day and hours the turn says the ride out leaves (那就周五下班后出发吧), to update by."""
    said: dict[str, Any] = {}
    if turn.date_start is not None:
        said["date_start"] = turn.date_start
    if turn.depart_window is not None:
        said["depart_window"] = turn.depart_window
    return said


def _stay_on_the_way(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent | None:
    """The trip with a stop on the way there (去的路上想在苏州停一晚，那就周五下班后出发吧): the
    one place the turn names, neither end of the trip, a night there (or as said); a day or
    hours said to leave move the ride out, the day home stays."""
    if not _WAY_THERE_STAY.search(words) or previous.origin is None or not previous.destination:
        return None
    named = _named(turn)
    ends = (previous.origin, previous.destination)
    if len(named) != 1 or any(_same(city, named[0], end) for end in ends):
        return None
    stop = ViaStop(city=named[0], nights=turn.nights if turn.nights is not None else 1)
    update: dict[str, Any] = {"via": [*previous.via, stop], **_ride_out_said(turn)}
    if turn.date_start is not None and previous.date_end is not None:
        update.update(date_end=previous.date_end, days=None, nights=None)
    return previous.model_copy(update=update)


_MORE_NIGHTS = re.compile(r"多(?:住|待|呆|玩|停)|再(?:多)?(?:住|待|呆)")
_NIGHTS_SAID = re.compile(r"(?:住|待|呆|停|玩)\s*(?:[一两二三四五1-5])\s*(?:晚|夜|天)")


def _stop_nights_changed(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent | None:
    """The trip with a stop on the way given another stay (在长沙住两晚吧, 苏州改成住两晚), or
    a stop given up for another with its stay (不在北京住了 改成在石家庄住一晚)."""
    if not previous.via or turn.nights is None or not _NIGHTS_SAID.search(words):
        return None
    if _MORE_NIGHTS.search(words):
        return None  # 汉中多住一晚: one more, read where the stay is lengthened
    named = _named(turn)
    at = [i for i, stop in enumerate(previous.via) if any(_same(city, stop.city, p) for p in named)]
    fresh = [
        p
        for p in named
        if not any(_same(city, p, stop.city) for stop in previous.via)
        and not _same(city, p, previous.origin)
        and not _same(city, p, previous.destination)
    ]
    via = list(previous.via)
    if len(at) == 1 and not fresh:
        via[at[0]] = via[at[0]].model_copy(update={"nights": turn.nights})
    elif len(at) == 1 and len(fresh) == 1 and _STOP_GIVEN_UP.search(words):
        via[at[0]] = ViaStop(city=fresh[0], nights=turn.nights)
    else:
        return None
    return previous.model_copy(update={"via": via})


def _stop_dropped(
    previous: TravelIntent, turn: TravelIntent, words: str, city: CityOf
) -> TravelIntent | None:
    """The trip without a stop on the way the turn gives up (算了汉中不住了 周五晚上直接到成都):
    the same ends, no night there; a day or hours said move the ride out."""
    if not previous.via or not _STOP_GIVEN_UP.search(words):
        return None
    if turn.destination is not None and not _same(city, turn.destination, previous.destination):
        return None  # 算了西宁不去了 就到兰州: the stop made the end, read below
    named = _named(turn)
    kept = [stop for stop in previous.via if not any(_same(city, stop.city, p) for p in named)]
    if len(kept) == len(previous.via) or not all(
        any(_same(city, p, stop.city) for stop in previous.via)
        or _same(city, p, previous.destination)
        for p in named
    ):
        return None
    return previous.model_copy(update={"via": kept, **_ride_out_said(turn)})


def _with_stop(previous: TravelIntent, turn: TravelIntent) -> TravelIntent:
    assert turn.destination is not None
    stop = ViaStop(city=turn.destination, nights=turn.nights if turn.nights is not None else 1)
    merged = previous.model_copy(update={"via": [*previous.via, stop]})
    return merge_intent(merged, TravelIntent(action="append", confidence=turn.confidence))


# -- the party and the dates ------------------------------------------------------------------


def _party(previous: TravelIntent, turn: TravelIntent, words: str) -> Party | None:
    """The party after the turn (None: unchanged): fewer people ("少一个人", "我不去了", "就她
    一个人"), else what `party_after` reads (people joining, an age, the party said again)."""
    if _ALONE.search(words):
        student = students_said(words)  # 就我自己，有学生证
        return Party(1, min(previous.students, 1) if student is None else int(student))
    fewer = _FEWER.search(words)
    if fewer is not None:
        said = fewer.group("n") or fewer.group("m") or "一"
        gone = to_int(said) or 1
        children = list(previous.children)
        if fewer.group("child") and children:
            children.pop()  # the child said to stay behind (which one, if several, unsaid)
        left = _LEFT.search(words)
        total = total_said(words)
        if total is not None:
            count = total  # 娃儿不去了 就我们两口子: the party as said
        elif left is not None:
            count = party_count_word(left.group("n")) or previous.passengers - gone
        elif turn.passengers == 1 or fewer.group("child") or fewer.group("kin"):
            count = previous.passengers - gone
        else:
            return party_after(previous, turn, words)
        children = children[: max(0, count - 1)]
        return Party(max(1, count), previous.students, tuple(children)).fitted()
    return party_after(previous, turn, words)


def _onward_ride(previous: TravelIntent, turn: TravelIntent) -> TravelIntent:
    """The trip after it, from its last stop: `turn`'s ends and day, one way, with the party
    (and the wishes said in `turn`) but none of the old ride's own."""
    onward = previous.model_copy(
        update={
            "via": [],
            "return_trip": None,
            "date_end": None,
            "days": None,
            "nights": None,
            "return_window": None,
            "return_arrive_window": None,
            "return_seat_classes": [],
        }
    )
    # As 换成兰州去张掖: both ends replaced, the old ride's seats, trains and hours dropped.
    return merge_intent(onward, turn.model_copy(update={"action": "update"}))


def _with_party(intent: TravelIntent, party: Party | None) -> TravelIntent:
    if party is None or Party.of(intent) == party:
        return intent
    update: dict[str, Any] = {
        "passengers": party.passengers,
        "students": party.students,
        "children": list(party.children),
    }
    if intent.budget_per_person is not None:
        update["budget"] = intent.budget_per_person * party.passengers
    return intent.model_copy(update=update)


_NO_PARTY: dict[str, Any] = {"passengers": 1, "students": 0, "children": []}


def _stay_shifted(
    previous: TravelIntent, turn: TravelIntent, stay: re.Match[str], words: str
) -> TravelIntent:
    """多住一晚 / 少待两天: the stay at the destination longer or shorter by that much."""
    assert previous.date_start is not None
    count = to_int(stay.group("n") or "一") or 1
    delta = count if stay.group("dir") == "多" else -count
    named = [i for i, v in enumerate(previous.via) if v.city in words[: stay.start() + 1]]
    if named and (previous.destination is None or previous.destination not in words):
        # 汉中多住一晚 of a stop on the way: that stop's nights; the day home moves with them.
        at = named[-1]
        stop = previous.via[at]
        via = list(previous.via)
        via[at] = stop.model_copy(update={"nights": max(1, (stop.nights or 1) + delta)})
        moved = (via[at].nights or 1) - (stop.nights or 1)
        update_via: dict[str, Any] = {"via": via}
        if previous.date_end is not None:
            update_via["date_end"] = previous.date_end + dt.timedelta(days=moved)
        merged = previous.model_copy(update=update_via)
        return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))
    nights = previous.nights
    if nights is None and previous.date_end is not None:
        nights = (previous.date_end - previous.date_start).days - sum(
            v.nights or 0 for v in previous.via
        )
    nights = max(0, (nights or 0) + delta)
    back = previous.date_start + dt.timedelta(
        days=nights + sum(v.nights or 0 for v in previous.via)
    )
    update: dict[str, Any] = {"nights": nights, "date_end": back, "days": None, "return_trip": True}
    rest = _return_rest(previous, turn)
    merged = with_end_said(previous.model_copy(update={**rest, **update}), False)
    return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))


# 那得前一天晚上到: there the evening before the day the trip was for.
_EVE_ARRIVAL = re.compile(
    r"(?<!提)(?:前一天|头一天|前一晚|头天)(?:晚上|下午|傍晚|夜里)?(?:就|得|要)?(?:到|过去|住过去|赶到)"
)


def _day_home_kept(previous: TravelIntent, turn: TravelIntent) -> bool:
    """The turn moves the outbound to a later day still before the day home said (a return
    said as a day, not as nights): the day home stays, the stay shortens."""
    later = turn.date_start
    if later is None or turn.date_end is not None or turn.days or turn.nights is not None:
        return False
    if previous.date_start is None or previous.date_end is None:
        return False
    if previous.return_trip is not True or previous.nights is not None:
        return False
    return previous.date_start < later < previous.date_end


def _eve_before(previous: TravelIntent, turn: TravelIntent, words: str) -> TravelIntent:
    """看日出，那得前一天晚上到，第二天再回: the outbound the day before the trip's day; the ride
    home keeps its day (a day trip's day is now the day after arriving), or is the next day
    when only that is said."""
    assert previous.date_start is not None
    start = previous.date_start - dt.timedelta(days=1)
    end = previous.date_end
    if end is None and _NEXT_DAY.search(words):
        end = previous.date_start
    update: dict[str, Any] = {"date_start": start, "date_end": end, "days": None}
    if end is not None:
        update["return_trip"] = True
    # 会9点开始 … 改成前一天晚上过去吧 6点以后: the deadline was the day of the business, met by
    # arriving the eve before; the hours the turn says are the new ride's.
    update.update({"arrive_window": None, "arrive_date": None, **_outbound_windows(turn)})
    rest = _return_rest(previous, turn)
    merged = previous.model_copy(update={**rest, **update})
    return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))


def _outbound_windows(turn: TravelIntent) -> dict[str, Any]:
    """The hours a turn that moves the outbound's day says for that ride (the other kind said
    for the old day goes with the day: 提前一天，晚上七点以后走 drops the old arrival)."""
    if turn.depart_window is None and turn.arrive_window is None:
        return {}
    return {"depart_window": turn.depart_window, "arrive_window": turn.arrive_window}


# 周一改周二了, 礼拜五的换成礼拜六, 18号改19号: a day of the trip named, and the day it moves to.
_DAY_MOVED = re.compile(
    r"(?:(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])|(?P<dom>[0-9]{1,2})[号日])"
    r"(?:的|那天|那趟|的车|的票)?(?:会|的会)?(?:改成?|换成?|改到|挪到|推到|推迟到|提前到|变成)了?"
    r"(?:(?:周|星期|礼拜)(?P<wd2>[一二三四五六日天1-7])|(?P<dom2>[0-9]{1,2})[号日])"
)


def _named_day_moved(previous: TravelIntent, words: str, turn: TravelIntent) -> TravelIntent | None:
    """The trip with the day named moved to the other day said (周一改周二了 of a trip out on
    Friday and home on Monday: home on Tuesday), or None when the day named is neither the
    ride out's nor the ride home's. The other ride keeps its day; hours said with the new day
    (周日改成周一上午) are the moved ride's."""
    said = _DAY_MOVED.search(words)
    hours = _outbound_windows(turn)
    start, end = previous.date_start, previous.date_end
    if said is None or start is None:
        return None

    def names(day: dt.date | None, weekday: str | None, dom: str | None) -> bool:
        if day is None:
            return False
        if weekday is not None:
            return day.weekday() == WEEKDAY_NUMBERS[weekday]
        return dom is not None and day.day == int(dom)

    def moved(day: dt.date) -> dt.date:
        if said.group("wd2") is not None:
            target = WEEKDAY_NUMBERS[said.group("wd2")]
            step = (target - day.weekday()) % 7
            back = step - 7
            # The nearer of the two (周一改周二: a day later; 周五改周四: a day earlier).
            return day + dt.timedelta(days=step if step <= -back else back)
        dom2 = int(said.group("dom2"))
        for months in (0, 1, -1):
            year, month = day.year, day.month + months
            year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
            try:
                candidate = dt.date(year, month, dom2)
            except ValueError:
                continue
            if abs((candidate - day).days) <= 15:
                return candidate
        return day

    old_wd, old_dom = said.group("wd"), said.group("dom")
    if end is not None and end != start and names(end, old_wd, old_dom):
        new_end = moved(end)
        if new_end < start:
            return None
        update: dict[str, Any] = {"date_end": new_end, "days": None, "nights": None}
        if hours:
            update.update(
                return_window=hours["depart_window"], return_arrive_window=hours["arrive_window"]
            )
        return merge_intent(
            with_end_said(previous.model_copy(update=update), True),
            TravelIntent(action="update"),
        )
    if names(start, old_wd, old_dom):
        new_start = moved(start)
        update = {"date_start": new_start, **hours}
        if end is not None and end < new_start:
            update["date_end"] = new_start + (end - start)
        return merge_intent(previous.model_copy(update=update), TravelIntent(action="update"))
    return None


def _shifted(
    previous: TravelIntent, turn: TravelIntent, words: str, shift: re.Match[str]
) -> TravelIntent:
    """提前一天 / 推迟两天: the trip (or, said of the return, the return) moved by days."""
    assert previous.date_start is not None
    days = to_int(shift.group("n") or "一") or 1
    delta = dt.timedelta(days=days if shift.group("dir") in _LATER_SHIFT else -days)
    rest = _return_rest(previous, turn)
    if _RETURN_SCOPE.search(words) or (_RETURN_WORD.search(words) and previous.date_end):
        if previous.date_end is None:
            return previous
        update: dict[str, Any] = {"date_end": previous.date_end + delta, "days": None}
        # 回程推迟一天: the day home is now one the traveller named.
        moved = previous.model_copy(update={**rest, **update})
        return merge_intent(
            with_end_said(moved, True),
            TravelIntent(action="update", confidence=turn.confidence),
        )
    else:
        update = {"date_start": previous.date_start + delta, **_outbound_windows(turn)}
        if previous.date_end is not None:
            update["date_end"] = previous.date_end + delta
    merged = previous.model_copy(update={**rest, **update})
    return merge_intent(merged, TravelIntent(action="update", confidence=turn.confidence))


def _date_in_trip_week(
    previous: TravelIntent, turn: TravelIntent, words: str, today: dt.date
) -> TravelIntent:
    """A bare weekday correcting the date is that day of the trip's own week (改成周日), also
    with another destination said (改去西安吧 还是周六走: the trip's Saturday), or with the
    origin the trip lacked (下周末去杭州 … 从上海出发 周六去周日回: that weekend's days)."""
    if turn.origin and previous.origin is not None and turn.origin != previous.origin:
        return turn
    return _next_week_meant(previous, _in_trip_week(previous, turn, words, today), words)


# 下周一 set against 这周一 (是下周一 这周一我请假了), or said to correct the day: another week.
_NEXT_WEEK_SAID = re.compile(r"下(?:个)?(?:周|星期|礼拜)[一二三四五六日天1-7]")
_THIS_WEEK_SAID = re.compile(r"(?:这|本)(?:个)?(?:周|星期|礼拜)[一二三四五六日天1-7]")
_DAY_CORRECTED = re.compile(r"不对|错了")  # 说错了, 搞错了, 记错了 all end in 错了


def _next_week_meant(previous: TravelIntent, turn: TravelIntent, words: str) -> TravelIntent:
    """下周X said to correct a trip already on that very day (on a Sunday 周一 and 下周一 are
    both tomorrow) is the X a week later: a correction moves the day it corrects."""
    if turn.date_start is None or turn.date_start != previous.date_start or turn.date_end:
        return turn
    if not _NEXT_WEEK_SAID.search(words):
        return turn
    if not (_DAY_CORRECTED.search(words) or _THIS_WEEK_SAID.search(words)):
        return turn
    return turn.model_copy(update={"date_start": turn.date_start + dt.timedelta(days=7)})


_PARTY_SAID = re.compile(
    r"[0-9一二两三四五六七八九十几]+\s*(?:个人|个大人|位|口人|人)|[俩仨]|我自己|就我|独自|自己去|自己走"
)


def _weekday_after_trip(
    previous: TravelIntent, turn: TravelIntent, words: str, today: dt.date
) -> TravelIntent:
    """Another trip's bare weekday that would fall before the trip under discussion is the one
    after it (下周五的车…另外我礼拜六从芜湖去南京: the Saturday after, not the coming one)."""
    if turn.date_start is None or previous.date_start is None or turn.date_end is not None:
        return turn
    if not _BARE_WEEKDAY.search(words) or turn.date_start >= previous.date_start:
        return turn
    day = date_from(words, previous.date_start, today)
    if day is None or day <= previous.date_start:
        return turn
    return turn.model_copy(update={"date_start": day})


_SUNDAY_SAID = re.compile(r"(?<![下这本个])(?:周|星期|礼拜)[日天7]")


def _sunday_before_meant(trip_day: dt.date, in_week: dt.date, said: dt.date, words: str) -> bool:
    """A Sunday said against a trip early in its week (下周一的车…改成周日晚上过去) is the one
    just before it: calendars start the week on either day, so the nearer Sunday is meant."""
    if not _SUNDAY_SAID.search(words) or in_week.weekday() != 6 or said.weekday() != 6:
        return False
    return said < trip_day and (trip_day - said) < (in_week - trip_day)


def _in_trip_week(
    previous: TravelIntent, turn: TravelIntent, words: str, today: dt.date
) -> TravelIntent:
    """The turn's dates moved to the trip's own week when said as a bare weekday (周六走):
    the weekday said of a trip under discussion is that trip's, not the coming one."""
    if turn.date_start is None or previous.date_start is None:
        return turn
    if not _BARE_WEEKDAY.search(words):
        return turn
    monday = previous.date_start - dt.timedelta(days=previous.date_start.weekday())
    # 比赛周五一早 所以周四晚上8点前得到: the weekday the turn rides on, not the first said.
    rides = turn.date_start.weekday()
    every = [d for _, _, d in days_said(words, today, monday)]
    said = [d for d in every if d.weekday() == rides]
    if not said and turn.date_end is not None:
        home = [d for d in every if d.weekday() == turn.date_end.weekday()]
        if home:
            # 在兰州住两晚，礼拜一回来: the day said is the day home, the first such day after
            # the trip starts; the day out is counted back from it.
            back = home[0]
            while back < previous.date_start:
                back += dt.timedelta(days=7)
            moved = back - turn.date_end
            if not moved or turn.date_start + moved < today:
                return turn
            return turn.model_copy(update={"date_start": turn.date_start + moved, "date_end": back})
    day = said[0] if said else date_from(words, monday, today)
    if day is None or day < today or day == turn.date_start:
        return turn
    if _sunday_before_meant(previous.date_start, day, turn.date_start, words):
        return turn
    update: dict[str, Any] = {"date_start": day}
    if turn.date_end is not None:
        update["date_end"] = turn.date_end + (day - turn.date_start)
    return turn.model_copy(update=update)
