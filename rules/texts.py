"""Every Chinese sentence the rule engine produces, as a template with named fields."""

from __future__ import annotations

import datetime as dt

# -- failures (why a segment or the trip has no option) ----------------------------------------
FAILURE_NO_OFFERS = "{route} {date}没有查到车次"
FAILURE_PAST_DEPARTURE = "{route} {date}的车次都已发车"
FAILURE_FILTERED_OUT = "{route} {date}没有符合车型、出发/到达时间或夜间出行要求的车次"
FAILURE_SOLD_OUT = "{route} {date}所需席别均无{passengers}人的余票"
FAILURE_NO_CONNECTION = (
    "{route} {date}没有可衔接的中转方案（同站换乘至少{same}分钟，跨站至少{cross}分钟，"
    "最长{longest}分钟）"
)
FAILURE_CHAIN = "{route} {date}的车次无法与上一程衔接"
FAILURE_OVER_BUDGET = "预算{budget}元不足：最便宜的组合也需{cheapest}元"
FAILURE_UNKNOWN_TRAIN = "指定的车次{train}不在查询结果中"

# -- notes --------------------------------------------------------------------------------------
NOTE_SOLD_OUT_SWITCH = "{train} {wanted}已售罄，已改为{chosen}"
NOTE_BUDGET_SWITCH = "{train} {wanted}超出预算，已改为{chosen}"
NOTE_MISSING_SWITCH = "{train} 没有{wanted}，已改为{chosen}"
NOTE_OUTLYING = "{station}是{city}市辖下的外围车站，不在{city}城区：城区车站这一程没有车次"
NOTE_OUTLYING_WINDOW = (
    "{station}是{city}市辖下的外围车站，不在{city}城区：城区车站这一程没有符合时间要求的车次"
)
NOTE_STAY_CUT_SHORT = (
    "{route} {date}{time}以后没有合适的车次，只能乘凌晨出发的车，在{city}的住宿会少一晚"
)
NOTE_SHORT_VISIT = "当天没有能在{city}多留的车次，只能停留{hours}"
NOTE_ONE_WAY = "未指定返程日期或天数，仅规划单程"
NOTE_CACHED = "{route} 的余票信息来自缓存，购票前请以实时查询为准"
NOTE_REQUIRED_UNUSABLE = "指定的车次{train}已发车或无余票，已为您另选车次"

# -- reasons (one line per chosen train) --------------------------------------------------------
REASON_REQUIRED = "按您指定的车次"
REASON_EARLIEST = "最早到达"
REASON_CHEAPEST = "票价最低"
REASON_FASTEST = "用时最短"
REASON_SLEEPER = "卧铺过夜省一晚住宿"
REASON_BALANCED = "时间与票价综合最优"
REASON_WITHIN_BUDGET = "在预算内"
REASON_JOIN = "且"
REASON_LIST = "、"
REASON_VIA = "经{station}换乘，"

# -- timeline -----------------------------------------------------------------------------------
DAY_DEPART_ARRIVE = "{depart} {origin} 乘 {train} 出发，{arrive} 抵达{destination}"
DAY_RETURN = "{depart} {origin} 乘 {train} 返回{home}，{arrive} 抵达{destination}"
DAY_DEPART_SLEEPER = "{depart} {origin} 乘 {train} 出发，卧铺过夜（无需住宿）"
DAY_DEPART_NIGHT = "{depart} {origin} 乘 {train} 出发，夜间乘车"
DAY_ARRIVE = "{arrive} 乘 {train} 抵达{destination}"
DAY_TRANSFER_SAME = "在{station}换乘，停留{minutes}分钟"
DAY_TRANSFER_CROSS = "从{station}前往{to_station}换乘（跨站），预留{minutes}分钟"
DAY_TRANSFER_NIGHT = "当日无可衔接的车次，在{city}住一晚，次日{depart}从{to_station}换乘{train}"
DAY_FREE_FROM_MORNING = "上午起在{city}自由活动"
DAY_FREE_FROM_AFTERNOON = "下午起在{city}自由活动"
DAY_FREE_EVENING = "晚上在{city}自由活动"
DAY_REST = "抵达{city}后入住休息"
DAY_FULL = "全天在{city}自由活动"
DAY_BEFORE_NOON_LEAVE = "上午在{city}自由活动"
DAY_BEFORE_EVENING_LEAVE = "白天在{city}自由活动"


def clock(moment: dt.datetime) -> str:
    """`08:05`: how timetables print a time."""
    return moment.strftime("%H:%M")


def day_label(day: dt.date) -> str:
    """`12月4日`."""
    return f"{day.month}月{day.day}日"


def route_label(origin: str, destination: str) -> str:
    """`北京→上海`."""
    return f"{origin}→{destination}"


def hours_minutes(minutes: int) -> str:
    """`2小时14分`, `2小时`, `45分`."""
    hours, rest = divmod(minutes, 60)
    text = f"{hours}小时" if hours else ""
    return text + (f"{rest}分" if rest or not hours else "")


def yuan(amount: float) -> str:
    """`553.5` or `1000` (no trailing .0)."""
    return f"{amount:.2f}".rstrip("0").rstrip(".")
