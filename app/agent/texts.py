"""Every Chinese sentence the agent says, as templates; code picks them, models never write them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from rules.texts import clock, day_label, route_label, yuan

__all__ = ["clock", "day_label", "route_label", "yuan"]

# -- the plan ----------------------------------------------------------------------------------
SUMMARY = "已按「{header}」为你安排：{legs}；合计{total}元{budget_note}。"
HEADER_SEP = " · "
HEADER_BUDGET = "预算{budget}元"
HEADER_PARTY = "{n}人"
LEG = "{label} {train} {origin} {depart}→{destination} {arrive} {seat} {price}元"
LEG_TRANSFER = "，在{station}换乘 "
LEG_HUB_NIGHT = "，在{city}住一晚，次日换乘 "
LEG_LABEL_OUT = "去程"
LEG_LABEL_RETURN = "返程"
LEG_LABEL_NTH = "第{n}程"
WITHIN_BUDGET = "，在预算内"
OVER_BUDGET = "，超出预算{over}元"
ALTERNATIVES = "另有{n}个备选方案。"
CACHED_PLAN = "注意：本方案部分余票信息来自缓存（非实时），购票前请以实时查询为准。"
FLEXIBLE_DAY = "您说哪天都行，已为您选了{day}出发。"
ANY_DAY = "{span}任选一天"
DAYTIME = "白天出发、当天到达"
SHIFTED_DAY = "原定{wanted}没有合适的车次，已改为{chosen}出发。"
DAY_BEFORE = "{day}当天没有{deadline}前能到的车次，已改为提前一天（{chosen}）出发。"
NIGHT_LIFTED = "{ride}白天时段没有符合要求的车次，已安排夜间（23:00后或6:00前）运行的车次。"
NIGHT_RIDES = {"out": "去程", "home": "返程", "both": "去程和返程"}
RELAXED = "按原要求（车型/席别/时段）没有合适的车次，已放宽这些条件。"
VIA_TRANSFER = "没有直达车次，已为你安排中转方案。"
VIA_TRANSFER_UNFIT = "直达车次都不符合要求，已为你安排中转方案。"
FASTER_BY_CHANGE = "直达需{direct}，中转{changes}{via}，已为你安排中转方案。"
CHANGES = {1: "一次", 2: "两次"}


def duration_label(minutes: int) -> str:
    """63小时, 22小时38分, 45分钟."""
    hours, rest = divmod(int(minutes), 60)
    if not hours:
        return f"{rest}分钟"
    return f"{hours}小时" + (f"{rest}分" if rest else "")


# -- the traveller's own train numbers ----------------------------------------------------------
TRAIN_NOT_FOUND = (
    "您提到的车次{train}不在{route} {date}的实时查询结果中，已为您推荐实际有票的车次。"
)
TRAIN_DOES_NOT_CALL = "{train}次列车不经停{places}（{route}），已为您推荐实际有票的车次。"
TRAIN_DOES_NOT_CALL_REASON = "车次{train}不经停{places}"
TRAIN_ALTERNATIVES = "可选车次：{trains}。"
TRAIN_SOLD_AS = (
    "{train}次列车在您上车的区段以{sold}车次发售（同一趟车，途中改变车次），已按{sold}为您查询。"
)
# A train named without stations: its own route, from its stop list (app/agent/named_train.py).
NAMED_TRAIN_ROUTE = "{train}全程（共{n}站）：{stops}。"
NAMED_TRAIN_JOIN = " → "
NAMED_TRAIN_ASK = "请核对车次号，或告诉我出发地和目的地。"
NAMED_TRAIN_INVALID = "没有找到车次{train}：这不是有效的车次号，" + NAMED_TRAIN_ASK
NAMED_TRAIN_ONLY = (
    "{day}的车次{trains}没有符合您要求的余票（已售完或只能候补）；您说没有就算了，"
    "就不为您换别的车次了。需要的话可以告诉我换个日期或车次再查。"
)
"""The named train has no seat the traveller can have, and they said they want no other."""
NAMED_TRAIN_UNKNOWN = "没有找到车次{train}（{date}查不到这趟车的停靠站），" + NAMED_TRAIN_ASK
NAMED_TRAIN_RUN_STARTED = "已按{day}在{station}上车查询，这趟{train}是{start}从{first}始发的。"
# A name that is several towns' stations, settled by the trains of the trip's other end
# (app/agent/which_station.py).
STATION_BY_TRIP = (
    "“{place}”有{names}几个车站，{end}有车次的是{station}，已按{station}理解，如不对请告诉我。"
)
STATION_BY_TRIP_FROM = "从{other}出发"
STATION_BY_TRIP_TO = "去{other}"

# -- what cannot be planned ----------------------------------------------------------------------
NO_PLAN = "抱歉，没能为「{header}」找到合适的行程。{why}"
# Every leg that failed had no data at all: not "no trains", and said so.
NO_DATA = "抱歉，暂时无法为「{header}」规划行程：{why}"
TRIED = "已尝试：{steps}。"
ADVICE = "建议{advice}。"
ADVICE_JOIN = "，或"
TRIED_DIRECT = "直达车次"
TRIED_TRANSFER = "经{hubs}中转"
TRIED_OFFICIAL = "铁路官方中转查询（经{cities}）"
TRIED_OFFICIAL_NONE = "铁路官方中转查询"
TRIED_DAYS = "前后一天（{days}）"
TRIED_RELAX = "其他车型和席别"
ADVISE_BUDGET = "适当提高预算"
ADVISE_DATE = "换一个出发日期"
ADVISE_TRANSFER = "允许中转"
ADVISE_RELAX = "放宽车型、席别或出发时间的要求"
ADVISE_LATER = "稍后再试（或到 12306 官网/App 查询）"
UNAVAILABLE = (
    "暂时无法获取{route} {date}的余票信息（数据源均未响应，且没有缓存），这不代表没有车次。"
)
LEG_QUERY_FAILED = "{origin}→{destination} {date}: 查询失败"
STEP_BOUND = (
    "规划在第{steps}步决策时停止（已达上限）：已查询{legs}个区间，共{offers}个车次，"
    "但还没有组成符合要求的行程。"
)
QUERY_BUDGET = "本次规划的余票查询已达上限（{n}次），以下结果仅基于已查询的范围。"
PLAN_DEADLINE = "抱歉，规划已用时{seconds:g}秒（上限），先按已查到的余票答复到这里。"
INTERNAL_ERROR = "抱歉，规划时出现内部错误（{state}），请稍后再试。"

# -- questions -------------------------------------------------------------------------------------
UNKNOWN_PLACE = "抱歉，我没有找到“{place}”这个车站或城市，请问您指的是哪里？"
SAME_CITY = "出发地和目的地都在{city}，请问您想去哪里？"
DATE_PAST = "{date}已经过去了，请问您打算哪天出发？"
DATE_NOT_ON_SALE = (
    "{date}的车票尚未开售（可购买{days}天内的车票，最晚{last}），请问您想改在哪天出发？"
)
# The day is in the sale window but its trains' presale has not opened yet (app/agent/presale.py).
PRESALE_NOT_OPEN = (
    "{date}的车票尚未开售{opens}，暂时查不到可购的车次；开售后再为您查询，或告诉我想改在哪天出发。"
)
PRESALE_OPENS = "（{day}{clock}起按车次陆续开售）"
RETURN_NOT_ON_SALE = "返程日期{date}的车票尚未开售，先为您规划去程。"
VIA_CAPPED = "一次最多规划{max}个途经站，已按前{max}站安排（您提到{n}站），其余请分段规划。"
PARTY_CAPPED = "一次最多为{max}人规划，已按{max}人安排，人数更多请分批规划。"
# A party larger than one order: the plan seats everyone on the same trains (each class checked
# for the whole party; 12306 shows 「有」 past twenty seats, so the count is confirmed at booking).
PARTY_ORDERS = (
    "{n}人同行：12306每笔订单最多{max}人，需分{orders}笔订单购买，余票以下单时为准{group}。"
)
PARTY_GROUP = "；{n}人及以上也可通过12306或车站办理团体票"
SESSION_SINGLE_TURN = "会话服务暂时不可用，本轮按单轮对话处理，之前的对话内容未能保留。"
SESSION_NOT_SAVED = "本轮修改暂未能保存到会话记录，下一轮可能接续不上，请在下一句中重复关键信息。"
SESSION_RESTORED = (
    "会话记录曾丢失，已从本服务器的副本恢复，可能缺少最近一轮的修改，请核对理解的内容。"
)
SESSION_FROM_COPY = (
    "会话服务暂时不可用，本轮按本服务器上的对话副本继续，可能缺少最近几轮的修改，请核对理解的内容。"
)
SESSION_EXPIRED = "之前的对话已过期，请重新告诉我您的出发地、目的地和日期。"
LLM_TEXT_DISCARDED = "模型回复中含有查询结果里没有的车次，已改用系统生成的说明。"
LLM_STEP_BOUND = "智能助手调用工具次数已达上限，已由系统根据已查询的余票完成规划。"
LLM_FAILED = "智能助手暂时不可用，已改用规则规划。"


def hours_label(hours: float) -> str:
    """6 → "6", 5.5 → "5.5": hours as said, no trailing zero."""
    return f"{hours:g}"


def date_span(start: dt.date, end: dt.date | None) -> str:
    """`12月4日` or `12月4日–6日` or `12月30日–1月2日`."""
    if end is None or end == start:
        return day_label(start)
    if end.month == start.month:
        return f"{day_label(start)}–{end.day}日"
    return f"{day_label(start)}–{day_label(end)}"


# -- what was understood and what was relaxed ------------------------------------------------------
BEFORE = "{time}前"
AFTER = "{time}后"
DEPART = "出发"
ARRIVE = "到达"
RETURN_AT = "{span}返程"
RETURN_ARRIVE = "返程{span}到"
RETURN_ORDER = "返程{order}"
UNDERSTOOD_RETURN = "往返"
UNDERSTOOD_RETURN_UNMET = "返程未能安排"
UNDERSTOOD_RETURN_OPEN = "返程日期待定"
STAY_AT = "{city}住{nights}晚"
STAY_HOURS = "在{city}至少待{hours}小时"
STAYED_HOURS = "在{city}待{hours}小时"
DIRECT_ONLY = "只要直达"
NO_OVERNIGHT = "不坐夜车"
STUDENTS = "其中学生{n}人"
CHILDREN = "儿童{n}人"
CHILD_AGES = "（{ages}）"
CHILD_AGE = "{age}岁"
ONLY = "只坐{what}"
NOT_TYPES = "不坐{what}"
NOT_SEATS = "不要{what}"
SLEEPER_CATEGORY = "卧铺"
RETURN_SEATS = "返程{what}"
TRAINS = "车次{trains}"
BUDGET_EACH = "预算每人{budget}元"
FROM_STATION = "{station}出发"
TO_STATION = "到{station}"
TOTAL = "合计{total}元"
RELAX_REASON = "按「{requested}」查不到同时满足其他要求且有票的车次"
STAY_LONGER_REASON = "提前一天出发、返程日期不变，多住一晚"
RELAX_STATION_REASON = "{at}查不到{when}且满足其他要求、有票的车次，{city}市区的其他车站可以"
"""A named station given up for its own end's window, the window kept (`rules.relax`)."""
AT_STATION_FROM = "从{station}"
RELAXED_SENTENCE = "{reason}，已为你安排{offered}。"
OVERNIGHT = "次日"
LATER_DAY = "第{n}日"  # a ride of two nights or more (Z232 吐鲁番北→广州 arrives on day 3)
TRAIN_ABSENT_REASON = "车次{trains}不在实时查询结果中"
INSTEAD_REASON = "到{asked}没有符合您要求的车次，您说到{place}也行"
INSTEAD_NEAR_REASON = "到{asked}没有符合您要求的车次，{place}同样在{near}附近"
INSTEAD_ALSO_FAILED = "到{asked}没有符合您要求的车次，改查{place}也没有。"
TRAIN_UNUSABLE_REASON = "车次{trains}已发车或没有符合要求的余票"
ORDER_LABELS = {
    "earliest": "最早一班",
    "latest": "最晚一班",
    "cheapest": "最便宜",
    "fastest": "最快",
    "earliest_arrival": "最早到达",
}
TYPE_LABELS = {
    "G": "高铁",
    "D": "动车",
    "C": "城际",
    "Z": "直达特快",
    "T": "特快",
    "K": "快速",
    "Y": "旅游列车",
    "L": "临客",
    "S": "市郊列车",
    "": "普客",
}
CONVENTIONAL = "普速列车（绿皮车）"
"""The conventional trains as a kind: an ordinary train (no letter), L, Y, S and Z, T, K."""
# -- the party and the wishes a ticket query cannot promise (app/agent/party_notes.py) -----------
PARTY_TYPED = "{n}人（{who}）"
HEADER_GROUP = "{n}人及以上（团体）"
PARTY_ADULTS = "{n}名成人"
PARTY_STUDENTS = "{n}张学生票"
PARTY_CHILD_AGE = "{age}岁儿童"
PARTY_CHILD_UNKNOWN = "儿童（年龄未说）"
PARTY_JOIN = "、"
BERTH_WISH = "想要{berth}（不保证）"
TOGETHER_BERTH_WISH = "想要挨着的铺位（不保证）"
SEAT_POSITION_WISH = "想要{what}的座位（不保证）"
LEISURE = "出游"
FARE_FREE_CHILD = "{age}岁的孩子未满6周岁，随成人免费乘车、不单独占座（如需座位请买儿童票）"
FARE_CHILD = "{age}岁的孩子按儿童票（6至14周岁，半价）计"
FARE_CHILD_UNKNOWN = (
    "孩子年龄未说，按儿童票（6至14周岁，半价）计；未满6周岁不占座可免票，满14周岁须买成人票"
)
FARE_TEEN = "{age}岁已满14周岁，按成人票计"
FARE_STUDENTS = (
    "学生票按铁路学生优惠规则由成人票价折算（动车组二等座、一等座和卧铺为75折，普速硬座半价、"
    "硬卧减半个硬座票价，其他席别无优惠），购票时须核验学生资质；聚合数据只报成人票价"
)
FARE_NOTE = "票价说明：{notes}。"
BERTH_NOTE = "关于{berth}：车票查询无法指定铺位，下单时可选铺位但不保证能买到{berth}。"
SEAT_POSITION_NOTE = (
    "关于座位（{what}）：车票查询无法指定座位位置，下单时可在选座中选择，但不保证能选到。"
)
TOGETHER_BERTH_NOTE = (
    "关于相邻的铺位：车票查询无法指定铺位，同行的人请一起下单，但不保证能买到挨着的铺。"
)
TOGETHER_NOTE = "同行的人请一起下单，并在选座中选相邻的座位（连座），但不保证能坐在一起。"
SOME_SOURCES_FAILED = "部分数据源本次未能返回结果，方案基于其余数据源的实时余票。"


# -- progress of a streamed run (one line per step) -----------------------------------------------
PROGRESS_PARSED = "已理解：{route}，{date}出发"
PROGRESS_ASKING = "需要补充信息"
PROGRESS_OUT_OF_SCOPE = "这不是行程规划请求"
PROGRESS_QUERIED = "查询到 {trains} 趟列车，{sources} 个来源"
PROGRESS_QUERIED_DOWN = "，{down} 个来源不可用"
PROGRESS_OPTIONS = "找到 {n} 个可行方案"
PROGRESS_NO_OPTIONS = "没有符合要求的方案，尝试调整"
PROGRESS_PLANNED = "行程已生成：{trains}"
PROGRESS_PLAN_REJECTED = "方案未通过校验，尝试调整"
PROGRESS_RELAXING = "调整条件：{stage}"
PROGRESS_STOPPED = "无法继续调整，整理说明"
PROGRESS_TOOL_STEP = "智能助手调用工具：{detail}"
PROGRESS_STEP_FAILED = "步骤出错，转入兜底处理"
PROGRESS_STAGES = {
    "transfer": "尝试中转",
    "hubs": "尝试经枢纽中转",
    "more_hubs": "尝试经其他枢纽中转",
    "days": "尝试前后一天",
    "relax": "放宽车型和席别",
    "days_relax": "前后一天并放宽车型和席别",
}
"""What a relaxation stage is called in the progress line."""


def some_of(names: Sequence[str], shown: int = 3) -> str:
    """The first `shown` names joined, with 等 only when more were tried than are named."""
    text = "、".join(names[:shown])
    return text + "等" if len(names) > shown else text
