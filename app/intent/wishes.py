"""Wishes as travellers say them: the order in colloquial forms, no night on the train, a
berth, a trip for pleasure, and the nights at every stop said once.

- Order: 越便宜越好, 便宜点, 能省则省 (cheapest); 越早越好, 早点的 (earliest departure);
  越晚越好, 晚点走 (latest); 越快越好 (fastest); 最早到, 早点到, 尽快到 (earliest arrival).
  A wish said of the ride home (回来那趟晚一点的) is not the outbound's order.
- 不要过夜, 不坐夜车, 白天的车: no ride through the night (`no_overnight`).
- 下铺 / 中铺 / 上铺: a berth wish, which no ticket query can choose (`berth`); 靠窗, 靠过道,
  坐在一起 / 连座: where in the carriage (`seat_positions`), which it cannot choose either.
- 玩三天, 旅游, 当天来回, 周末…回: a trip for pleasure (`leisure`).
- 每个城市待两天, 各住两晚: the nights at every stop (`stop_nights`; N天 at a stop is N nights,
  as in a chain).
"""

from __future__ import annotations

import re

from app.intent.model import BerthWish, OrderPreference, SeatPosition
from app.intent.numerals import NUMBER, to_int

COLLOQUIAL_ORDERS: list[tuple[str, OrderPreference]] = [
    ("越早到越好", "earliest_arrival"),
    ("最早到", "earliest_arrival"),
    ("最早抵达", "earliest_arrival"),
    ("早点到", "earliest_arrival"),
    ("早一点到", "earliest_arrival"),
    ("尽早到", "earliest_arrival"),
    ("尽快到", "earliest_arrival"),
    # 能多晚走就多晚走, 能多早到就多早到: as late / as early as the day allows.
    ("能多早到", "earliest_arrival"),
    ("能多早走", "earliest"),
    ("能多早出发", "earliest"),
    ("能多晚走", "latest"),
    ("能多晚出发", "latest"),
    ("哪天便宜", "cheapest"),
    ("哪天最便宜", "cheapest"),
    ("哪天票便宜", "cheapest"),
    ("什么时候便宜", "cheapest"),
    ("越便宜越好", "cheapest"),
    # Whatever costs least is the train: 啥车便宜坐啥, 哪趟便宜就哪趟, 什么便宜买什么.
    ("便宜坐啥", "cheapest"),
    ("便宜就坐啥", "cheapest"),
    ("便宜坐哪", "cheapest"),
    ("便宜就坐哪", "cheapest"),
    ("便宜就哪", "cheapest"),
    ("便宜坐什么", "cheapest"),
    ("便宜买什么", "cheapest"),
    ("便宜买啥", "cheapest"),
    ("便宜要哪", "cheapest"),
    ("便宜的", "cheapest"),
    ("便宜点", "cheapest"),
    ("便宜一点", "cheapest"),
    ("便宜些", "cheapest"),
    ("能省则省", "cheapest"),
    ("越省越好", "cheapest"),
    ("省钱为主", "cheapest"),
    ("最划算", "cheapest"),
    ("越早越好", "earliest"),
    ("越早走越好", "earliest"),
    ("越早出发越好", "earliest"),
    ("越晚走越好", "latest"),
    ("越晚出发越好", "latest"),
    ("越快到越好", "earliest_arrival"),
    ("早点的", "earliest"),
    ("早点走", "earliest"),
    ("早点出发", "earliest"),
    ("早一点的", "earliest"),
    ("早一点出发", "earliest"),
    ("尽早出发", "earliest"),
    ("越晚越好", "latest"),
    ("晚点走", "latest"),
    ("晚点出发", "latest"),
    ("晚点的", "latest"),
    ("晚一点的", "latest"),
    ("晚一点走", "latest"),
    ("晚一点出发", "latest"),
    ("越快越好", "fastest"),
    ("快一点的", "fastest"),
    ("快点的", "fastest"),
    ("时间短点", "fastest"),
    ("时间短一点", "fastest"),
    ("省点钱", "cheapest"),
    ("省钱点", "cheapest"),
    ("快点到", "fastest"),
    # Time on board as a burden: 不想坐太久, 赶时间.
    ("不想坐太久", "fastest"),
    ("别坐太久", "fastest"),
    ("不要坐太久", "fastest"),
    ("坐太久受不了", "fastest"),
    ("不想在车上太久", "fastest"),
    ("别在车上太久", "fastest"),
    ("路上时间短", "fastest"),
    ("省时间", "fastest"),
    ("节省时间", "fastest"),
    # Money as the limit: 穷游, 省钱.
    ("穷游", "cheapest"),
    ("省钱", "cheapest"),
    ("经济实惠", "cheapest"),
    ("便宜就行", "cheapest"),
    ("便宜就好", "cheapest"),
]
# …or a clause led by a bare 回 and its verb (去坐最早的 回坐最晚的: the ride home's order).
_RETURN_BEFORE = re.compile(
    r"(?:回来|回程|返程|返回|回去|(?:^|(?<=[\s，,。；;]))回(?=坐|要|买|选|就|乘))[^，,。；;]{0,4}$"
)
# 最晚一班回北京, 最早的车回来, 最晚那班高铁回来: an order whose train takes the traveller home
# (not 来回).
_RETURN_FOLLOWS = re.compile(
    r"[^，,。；;去到\s]{1,6}?(?:的车|一班|一趟|的那班|的那趟|那班|那趟|的)(?:高铁|动车|火车|车)?"
    r"(?:再|就)?(?<!来)(?:回来|回家|返回|回(?![复答应头]))"
)

# The verb of a refused ride, with whom it is done for: 别给我整过夜的车, 不用帮我订夜车.
_RIDE_VERB = r"(?:给我|帮我|替我|跟我|给咱们?)?(?:是|要|坐|乘|买|选|整|弄|搞|安排|订|定|排)?"
NOT_IN_THE_NIGHT = (
    r"(?:别|不要|不想|不能|不)(?:是|坐|买|选|订)?(?:大)?(?:半夜|深夜|后半夜)"
    r"(?:的车|的火车|的|发车|出发|走|开)"
)
_NO_OVERNIGHT = re.compile(
    # 再/还 may sit between the refusal and its verb: 不想再坐过夜的车了, 不要再坐夜车.
    r"(?:不要|不想|不愿意?|不|别|不用)(?:再|还)?" + _RIDE_VERB + r"(?:那种)?"
    r"(?:过夜|夜车|夜班车|过夜车|卧铺过夜|在车上过夜)"
    r"|(?:不要|不想|别|不用|不)(?:再|还)?" + _RIDE_VERB + r"(?:那种)?"
    r"(?:跨夜|隔夜|半夜到|后半夜到|凌晨到)"
    # The night ride named first, then turned down: 过夜的不要, 夜车就算了, 夜车坐不了.
    r"|(?:过夜|夜车|夜班车)(?:的车?)?(?:就|可|我)?(?:不要|不坐|算了|免了|坐不了|不考虑)"
    # A night on board one cannot bear or will not sleep: 受不了过夜, 不要晚上睡车上.
    r"|(?:受不了|熬不住|熬不了|扛不住|吃不消)(?:再|坐)*(?:过夜|夜车)"
    r"|(?:不要|不想|别|不用|不愿意?)(?:再)?(?:让[^\s，,。；;]{1,4})?(?:晚上|夜里)?(?:睡车上|睡在车上|在车上睡)"
    r"|(?:当天|当晚)(?:之内)?(?:能|得|要)?到(?:就行|就好)?(?=[，,。；;\s]|$)"
    # 也不要夜里跑的车: the trains running through the night refused.
    r"|(?:不要|不想|别|不坐|不用)(?:再|还)?(?:坐)?(?:晚上|夜里|夜间|半夜)(?:跑|开|走|行驶)的(?:车|火车|那种)"
    # 白天走 / 白天出发 says when to leave (`app.intent.times`), not that the ride is over by night.
    r"|白天(?:的)?(?:车|动车|高铁|火车|坐|赶路)|当天到"
    # 别是半夜的车, 不要深夜的: no ride in the small hours, nor one running into them.
    r"|" + NOT_IN_THE_NIGHT
)
_BERTHS: dict[str, BerthWish] = {"下铺": "lower", "中铺": "middle", "上铺": "upper"}
_SEAT_POSITIONS: dict[SeatPosition, re.Pattern[str]] = {
    "window": re.compile(r"靠窗|窗边|窗口的?座|窗户边|window seat"),
    "aisle": re.compile(r"过道|走道|靠走廊|aisle"),
    "together": re.compile(
        r"坐(?:在)?一(?:起|块儿?)|连座|挨着坐|坐(?:在)?旁边|相邻的?座|座位(?:要)?(?:在)?一起"
        r"|同一排|sit together|seats? together"
        # 挨着的铺, 铺位挨着, 相邻的铺: berths side by side, as little chosen as seats.
        r"|(?:挨着|相邻|连着)的?铺|铺位?(?:要)?(?:挨着|相邻|连着|在一起)"
    ),
}
# (玩意儿, 开玩笑: no play.)
_LEISURE = re.compile(
    r"(?<!开)玩(?!意|笑)|旅游|旅行|游玩|度假|逛逛|逛街|一日游|看冰雕|看雪|赏|泡温泉|当天来回|当天往返|一日往返|"
    r"爬山|登山|爬(?=\S{1,3}山)|看球|看展|看演唱会|看海|早去晚回|"
    r"周末.{0,8}(?:去|回)|"
    # A trip counted in days and nights (两天一夜, 三天两晚) is a tour.
    r"[一二两三四五六七八九十0-9]\s*天\s*[一二两三四五六七八九十0-9]\s*(?:夜|晚)"
    # Said in English: we're on holiday, sightseeing, wanna see the old villages.
    r"|\b(?:on\s+holiday|on\s+vacation|sightseeing|wann?a\s+see|to\s+see\s+the|hiking|ski(?:ing)?)\b"
)
_BUSINESS = re.compile(r"出差|开会|公干|见客户|上班|面试")
STOP_NIGHTS = re.compile(
    r"每(?:个)?(?:城市|地方|站|地|处)(?:都)?(?:各)?(?:待|住|玩|呆|停留|停)?\s*(?P<n>"
    + NUMBER
    + r")\s*(?:个)?(?:天|晚|夜)|各(?:待|住|玩|呆)\s*(?P<m>"
    + NUMBER
    + r")\s*(?:个)?(?:天|晚|夜)"
)


def colloquial_order(rest: str) -> tuple[int, OrderPreference] | None:
    """The first colloquial order of the outbound in `rest` and where it stands, or None."""
    found: list[tuple[int, OrderPreference]] = []
    for phrase, order in COLLOQUIAL_ORDERS:
        for match in re.finditer(re.escape(phrase), rest):
            if not said_of_return(rest, match.start(), order) and not _denied(rest, match.start()):
                found.append((match.start(), order))
    for match in _SOONER_THERE_THE_BETTER.finditer(rest):
        if not said_of_return(rest, match.start(), "earliest_arrival"):
            found.append((match.start(), "earliest_arrival"))
    return min(found, key=lambda pair: pair[0]) if found else None


_SOONER_THERE_THE_BETTER = re.compile(r"越早(?:到|抵达|赶到)[^，,。；;！!？?\s]{1,8}?越好")
"""越早到南通越好: the place said inside 越早到…越好, the soonest arrival there."""


def _denied(text: str, at: int) -> bool:
    """True when the words at `at` are denied (不省时间, 没必要省钱)."""
    return _DENIED_BEFORE.search(text[max(0, at - 4) : at]) is not None


_DENIED_BEFORE = re.compile(r"(?:不|别|没必要|不用|无需|不必)$")


def said_of_return(text: str, at: int, order: OrderPreference | None = None) -> bool:
    """True when the words at `at` follow a mention of the ride home (回来那趟晚一点的), or lead
    to one in the same clause (坐最晚一班回家: the train is the one home), or are a latest train
    said on its own right after the clause of the ride home (晚上回深圳，最晚的车)."""
    return (
        _RETURN_BEFORE.search(text[:at]) is not None
        or _RETURN_FOLLOWS.match(text, at) is not None
        or (order == "latest" and _after_the_clause_home(text, at))
    )


# A clause holding nothing but the order (最晚的车, 要最晚一班, 坐末班) after one that says the ride
# home: the last train is the one home, a wish people make to stay longest (an outbound at its
# latest after a ride home said would leave no time there). 最早 stays the trip's: ambiguous.
_BARE_CLAUSE_START = re.compile(r"(?:^|[，,。；;\s])(?:要|坐|就|买|选|订|给我|帮我|是)*$")
_CLAUSE_HOME = re.compile(
    r"(?:回来|回家|回程|返程|返回|回去|(?<!来)回(?![复答应头]))[^，,。；;\s]*[，,。；;\s]+$"
)


def _after_the_clause_home(text: str, at: int) -> bool:
    """True when the clause at `at` holds only its order and the clause before says the ride
    home (晚上回北京，最晚一班)."""
    lead = _BARE_CLAUSE_START.search(text[:at])
    if lead is None or lead.group()[:1].strip("，,。；; \t") != "":
        return False  # the first clause: nothing said before it
    before = text[: lead.start() + 1]
    clause = re.search(r"[^，,。；;\s]*[，,。；;\s]+$", before)
    return clause is not None and _CLAUSE_HOME.search(clause.group()) is not None


def return_order(rest: str, phrases: list[tuple[str, OrderPreference]]) -> OrderPreference | None:
    """The order said of the ride home (回来那趟晚一点的, 回程要最便宜的), from `phrases` and the
    colloquial forms, or None."""
    found = [
        (match.start(), order)
        for phrase, order in [*phrases, *COLLOQUIAL_ORDERS]
        for match in re.finditer(re.escape(phrase), rest)
        if said_of_return(rest, match.start(), order)
    ]
    return min(found, key=lambda pair: pair[0])[1] if found else None


def no_overnight(lower: str) -> bool | None:
    """True when the text rules out a night on the train."""
    return True if _NO_OVERNIGHT.search(lower) else None


def berth(lower: str) -> BerthWish | None:
    """The berth wished for, if any (the first named); a top or bottom berth refused (不要上铺,
    老人爬不了上铺, 下铺就算了) wishes for the others."""
    refused = _BERTH_REFUSED.search(lower)
    if refused is not None:
        return "not_upper" if "上" in (refused.group("a") or refused.group("b")) else "not_lower"
    found = [(lower.find(word), wish) for word, wish in _BERTHS.items() if word in lower]
    return min(found)[1] if found else None


_BERTH_REFUSED = re.compile(
    r"(?:不要|不想|不能|不睡|不买|不选|别|莫|甭|爬不了|爬不上|上不了|上不去|睡不了|睡不惯)"
    r"(?:给我们?|帮我们?|跟我们?|让[^\s，,。；;]{1,3})?(?:买|选|订|安排|睡|整|搞|爬)?(?P<a>[上下]铺)"
    r"|(?P<b>[上下]铺)(?:的话)?(?:就|可|我|老人)?(?:不要|不行|算了|免了|睡不了|爬不了|爬不上|上不去|别)"
)


def seat_positions(lower: str) -> list[SeatPosition]:
    """Where in the carriage the traveller would sit, in a fixed order."""
    return [place for place, words in _SEAT_POSITIONS.items() if words.search(lower)]


def leisure(lower: str) -> bool:
    """A trip for pleasure (never a business trip)."""
    return bool(_LEISURE.search(lower)) and not _BUSINESS.search(lower)


# 在那边至少待6个小时, 能玩五六个钟头, 逛够四个小时; at least 6 hrs there, spend 5 hours in X.
_STAY_HOURS = re.compile(
    r"(?:至少|起码|最少|最起码|怎么也得|得)\s*(?:要|得|能)?\s*(?:在[^，,。；;]{0,6}?)?"
    r"(?:待|呆|玩|逛|停留|留|转)\s*(?:上|够|个)?\s*"
    r"(?P<n>[0-9]{1,2}|[一两二三四五六七八九十])(?:[一二三四五六七八九]|[-~到至][0-9一二三四五六七八九十]+)?"
    r"\s*(?:个)?\s*(?:半)?\s*(?:小时|钟头|钟)"
    r"|(?:待|呆|玩|逛|停留|转)\s*(?:上|够)?\s*(?P<m>[0-9]{1,2}|[两三四五六七八九十])"
    r"(?:[一二三四五六七八九]|[-~到至][0-9一二三四五六七八九十]+)?\s*个\s*(?:小时|钟头)"
    r"(?=[^，,。；;]{0,4}(?:以上|左右|就行|就够|再回|再走|回来|回去|$|[，,。；;]))"
    r"|(?:at\s+least|min(?:imum)?)\s+(?P<e>[0-9]{1,2})\s*(?:hrs?|hours?)"
    r"|(?:spend|have|need|want)\s+(?:about\s+|around\s+)?(?P<f>[0-9]{1,2})\s*(?:hrs?|hours?)"
    r"\s+(?:there|in|at)\b",
    re.IGNORECASE,
)
_STAY_HOURS_RIDE = re.compile(r"(?:车程|坐车|坐|路上|开车|火车)[^，,。；;]{0,3}$")


def stay_hours(lower: str) -> float | None:
    """The hours at least the traveller wants at the destination (至少待6个小时: 6), said of
    the visit, not of a ride (坐两个小时的车) or a wait (等两个小时)."""
    for match in _STAY_HOURS.finditer(lower):
        if _STAY_HOURS_RIDE.search(lower[max(0, match.start() - 6) : match.start()]):
            continue
        said = next(g for g in (match.group(k) for k in "nmef") if g)
        hours = to_int(said)
        if hours is not None and 0 < hours <= 16:
            return float(hours)
    return None


def stop_nights(masked: str) -> tuple[int, int, int] | None:
    """(nights, start, end) for 每个城市待两天 in `masked`, or None."""
    match = STOP_NIGHTS.search(masked)
    if not match:
        return None
    nights = to_int(match.group("n") or match.group("m"))
    return (nights, match.start(), match.end()) if nights is not None else None
