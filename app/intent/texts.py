"""Every Chinese sentence the intent layer shows travellers: questions and refusals (templates).

Code decides *what* to say (which field is missing, which topic is out of scope); the words
live here so they can be reviewed in one place and never come from a model.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

ASK_ORIGIN = "请问您从哪个城市出发？"
ASK_DESTINATION = "请问您想去哪里？"
ASK_DATE = "请问您打算哪天出发？"
ASK_RETURN_DATE = "请问您打算哪天返程？告诉我日期，我把返程加上。"
RETURN_TOO_FAR = (
    "返程{month}月{day}日离出发太久，车票还没开售，这次先为您安排去程；"
    "等开售后再告诉我，帮您订返程。"
)
RETURN_ONLY_WISH = "目前不要的席别只能对去程和返程一起排除，只针对返程的这一要求暂未单独安排。"

# Combined questions, keyed by the sorted tuple of missing fields.
_COMBINED: dict[tuple[str, ...], str] = {
    ("destination", "origin"): "请问您从哪个城市出发，想去哪里？",
    ("date_start", "origin"): "请问您从哪个城市出发，打算哪天出发？",
    ("date_start", "destination"): "请问您想去哪里，打算哪天出发？",
    ("date_start", "destination", "origin"): "请问您从哪里出发、想去哪里，打算哪天出发？",
}
_SINGLE = {"origin": ASK_ORIGIN, "destination": ASK_DESTINATION, "date_start": ASK_DATE}

NOT_A_STATION = "抱歉，{place}不在我们可以查询的火车站里。请问您想到哪个车站？"
NOT_A_STATION_HINT = "可以考虑先乘火车到{gateway}。"
PLANNED_AT_NEAREST = (
    "{place}没有火车站，已按最近的火车站{station}为您规划；如想去其他车站请告诉我。"
)
PLANNED_AT_NEAREST_OTHERS = "（附近还有{others}）"
PLANNED_AT_NEXT_NEAREST = (
    "{place}没有火车站，最近的火车站{nearest}这天没有符合要求的车次，"
    "已按附近的{station}为您规划；如想去其他车站请告诉我。"
)
PLANNED_AT_GATEWAY = (
    "{place}站这天没有从{other}过去的车次，已按去{place}常用的{station}站为您规划；"
    "如想去其他车站请告诉我。"
)
NEAREST_UNSERVED = (
    "{place}没有火车站，最近的火车站{station}这天没有符合要求的车次。请问您想改去哪个车站或城市？"
)
NOT_A_STATION_NEAREST = "{place}没有火车站，最近的火车站是{stations}。要按{first}为您规划吗？"
NO_SERVICE = (
    "{place}站{date}没有查到任何车次，最近的有车的车站是{stations}。要按{first}为您规划吗？"
)
NOT_A_STATION_FAR = (
    "{place}附近没有火车站（最近的车站也在数百公里外），需换乘汽车或飞机前往。"
    "请问您想坐火车到哪个车站？"
)
UNKNOWN_PLACE = "抱歉，我没有找到“{place}”这个车站或城市，请问您指的是哪里？"
UNKNOWN_PLACE_HINT = "您是不是想说：{names}？"
AND_THEN = "另外，"

TRAIN_NUMBERS_UNVERIFIED = "您提到的车次（{numbers}）会以实时余票查询结果为准。"
INVALID_TRAIN_NUMBERS = "“{numbers}”不是有效的车次号，已按其余条件为您查询。"
DID_YOU_MEAN = "抱歉，我没有找到“{place}”这个车站或城市，您是指{name}吗？"

OUT_OF_SCOPE = {
    "hotel": "抱歉，我目前只能帮您查询火车票和规划铁路行程，暂时无法帮您预订酒店。",
    "refund": "抱歉，我目前只能帮您查询火车票和规划铁路行程，退票和改签请通过12306办理。",
    "change": "抱歉，我目前只能帮您查询火车票和规划铁路行程，退票和改签请通过12306办理。",
    "writing": "抱歉，我目前只能帮您查询火车票和规划铁路行程，暂时无法帮您撰写游记或文章。",
    "weather": "抱歉，我目前只能帮您查询火车票和规划铁路行程，暂时无法查询天气。",
    "flight": "抱歉，我目前只能帮您查询火车票和规划铁路行程，暂时无法查询或预订机票。",
    "food": "抱歉，我目前只能帮您查询火车票和规划铁路行程，暂时无法推荐餐厅或美食。",
    "other": "抱歉，我目前只能帮您查询火车票和规划铁路行程，这个问题暂时无法帮您解答。",
}
# Said next to a real trip when the same message also asks for something out of scope.
PARTLY_OUT_OF_SCOPE = "{refusal}火车票部分我可以继续帮您安排。"


def ask_for(missing: Sequence[str]) -> str | None:
    """The question that names exactly the missing required fields (None when complete)."""
    key = tuple(sorted(set(missing)))
    if not key:
        return None
    if len(key) == 1:
        return _SINGLE[key[0]]
    return _COMBINED[key]


def not_a_station(place: str, gateway: str | None) -> str:
    """Ask for a station when the traveller named a place that has none in the directory."""
    text = NOT_A_STATION.format(place=place)
    if gateway:
        text += NOT_A_STATION_HINT.format(gateway=gateway)
    return text


def planned_at_nearest(place: str, station: str, others: Sequence[str] = ()) -> str:
    """A well-known place without a station, planned at its nearest served one, said openly
    (with the other stations near it, when it has several)."""
    if others:
        station += PLANNED_AT_NEAREST_OTHERS.format(others="、".join(others))
    return PLANNED_AT_NEAREST.format(place=place, station=station)


def planned_at_next_nearest(place: str, nearest: str, station: str) -> str:
    """A place planned at its nearest station, which had no train that fits, and reached at
    another station near it."""
    return PLANNED_AT_NEXT_NEAREST.format(place=place, nearest=nearest, station=station)


def planned_at_gateway(place: str, other: str, station: str) -> str:
    """A place whose own station had no train from `other` that day, planned at the station
    travellers usually take to it, said openly."""
    return PLANNED_AT_GATEWAY.format(place=place, other=other, station=station)


def nearest_unserved(place: str, station: str) -> str:
    """A place planned at its one nearest station, which had no train that fits."""
    return NEAREST_UNSERVED.format(place=place, station=station)


def nearest_stations(place: str, stations: Sequence[str]) -> str:
    """A well-known place without a station: its nearest served stations, the first offered
    (answered with 好/对 it is planned), or that the railway is far from it."""
    if not stations:
        return NOT_A_STATION_FAR.format(place=place)
    return NOT_A_STATION_NEAREST.format(
        place=place, stations="、".join(stations), first=stations[0]
    )


def no_service(place: str, date: str, stations: Sequence[str]) -> str:
    """A place whose station sold no train at all that day: its nearest served stations,
    the first offered (answered with 好/对 it is planned)."""
    return NO_SERVICE.format(
        place=place, date=date, stations="、".join(stations), first=stations[0]
    )


def unknown_place(place: str, suggestions: Sequence[str]) -> str:
    """Ask again when a name (typically invented by a model) is not in the directory."""
    text = UNKNOWN_PLACE.format(place=place)
    if suggestions:
        text += UNKNOWN_PLACE_HINT.format(names="、".join(suggestions))
    return text


def refusal(topic: str) -> str:
    """The polite refusal for an out-of-scope topic."""
    return OUT_OF_SCOPE.get(topic, OUT_OF_SCOPE["other"])


def train_numbers_unverified(numbers: Sequence[str]) -> str:
    """Tell the traveller that the train numbers they named are checked, not trusted."""
    return TRAIN_NUMBERS_UNVERIFIED.format(numbers="、".join(numbers))


def invalid_train_numbers(numbers: Sequence[str]) -> str:
    """Tell the traveller which of their train numbers cannot exist (G99999)."""
    return INVALID_TRAIN_NUMBERS.format(numbers="、".join(numbers))


def did_you_mean(place: str, name: str) -> str:
    """Ask whether a misspelt place is the directory's nearest name."""
    return DID_YOU_MEAN.format(place=place, name=name)


WHICH_DAY = "{day}是{weekday}，{other}才是{said}，请问您打算哪天出发？"
_WEEKDAY_NAMES = "一二三四五六日"


def which_day(day: dt.date, other: dt.date) -> str:
    """A calendar date said with a weekday it does not fall on (12月17号周五): both named."""
    return WHICH_DAY.format(
        day=_month_day(day),
        weekday="周" + _WEEKDAY_NAMES[day.weekday()],
        other=_month_day(other),
        said="周" + _WEEKDAY_NAMES[other.weekday()],
    )


def _month_day(day: dt.date) -> str:
    return f"{day.month}月{day.day}日"


WHICH_OF = "“{place}”有{names}几个车站，请问您要去哪一个？"
SPELT_NAMESAKES = "“{word}”可以是{names}，请问您指的是哪一个？"


def spelt_namesakes(word: str, names: Sequence[str]) -> str:
    """A city typed in pinyin that several cities spell alike (taizhou: 台州, 泰州)."""
    return SPELT_NAMESAKES.format(word=word, names="、".join(names))


SPELT_NAMESAKE_NEAR = (
    "“{word}”按离{other}近的{chosen}安排（{others}较远；如果您指的是{others}，请告诉我）"
)


def spelt_namesake_near(word: str, chosen: str, other: str, others: Sequence[str]) -> str:
    """A city typed in pinyin, read as the namesake near the trip's other end (suzhou beside
    上海: 苏州), the far ones named so the traveller can say otherwise."""
    far = "、".join(others)
    return SPELT_NAMESAKE_NEAR.format(word=word, chosen=chosen, other=other, others=far)


def which_of(place: str, names: Sequence[str]) -> str:
    """A town named without the direction its stations carry, in several places (河口)."""
    return WHICH_OF.format(place=place, names="、".join(names))


NAMESAKE_BY_OTHER_END = (
    "“{place}”有{names}几个车站，{other}与行程另一端同城，已按{station}理解，如不对请告诉我。"
)


def namesake_by_other_end(place: str, names: Sequence[str], station: str) -> str:
    """A name shared by a city and another city's district (朝阳), settled because the
    district is the trip's other end's own city: said openly."""
    others = "、".join(n for n in names if n != station)
    return NAMESAKE_BY_OTHER_END.format(
        place=place, names="、".join(names), other=others, station=station
    )


HEARD_AS = "「{typed}」已按「{name}」理解（按读音），如不对请告诉我。"


def heard_as(typed: str, name: str) -> str:
    """A place typed by its sound, planned as the place it sounds like: said openly."""
    return HEARD_AS.format(typed=typed, name=name)


FORMER_NAME = "「{typed}」是{name}的旧称，已按{name}理解，如不对请告诉我。"
SCHOOL_PLACE = "「{typed}」已按{school}所在的{name}理解，如不对请告诉我。"


def school_place(typed: str, school: str, name: str) -> str:
    """A school called by its short name (延大), planned from its city: said openly, since
    another school may go by the same short name."""
    return SCHOOL_PLACE.format(typed=typed, school=school, name=name)


def former_name(typed: str, name: str) -> str:
    """A renamed city called by its old name (襄樊), planned as the city now: said openly."""
    return FORMER_NAME.format(typed=typed, name=name)
