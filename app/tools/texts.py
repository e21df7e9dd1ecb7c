"""The one-line Chinese summaries and messages tools answer with (templates, never a model)."""

from __future__ import annotations

from app.tickets.texts import age_text

FRESHNESS = {"realtime": "实时数据", "cached": "缓存数据（{age}前）", "unavailable": "暂无数据"}

TICKETS = "{date} {origin}→{destination}：{count} 趟车符合条件，{shown}，{freshness}。"
TICKETS_SHOWN = "列出前 {n} 趟"
TICKETS_ALL = "全部列出"
TICKETS_NONE = "{date} {origin}→{destination}：没有符合条件的车次（{freshness}）。"
# No source answered and nothing was cached: say that no data could be had, not "no trains".
NO_DATA_ADVICE = "这不代表没有车次：请稍后再试，或到 12306 官网/App 查询。"
TICKETS_NO_DATA = (
    "{date} {origin}→{destination}：暂时无法获取余票数据（数据源均未响应，且没有缓存）。"
    + NO_DATA_ADVICE
)
TRANSFERS = (
    "{date} {origin}→{destination}：{count} 个方案，最优 {best}，共 {price:g} 元，{freshness}。"
)
TRANSFERS_NONE = "{date} {origin}→{destination}：没有找到可行的方案（{freshness}）。"
TRANSFERS_NONE_VIA = "{date} {origin}→{destination}：经{hub}中转没有找到可行的方案（{freshness}）。"
TRANSFERS_NO_DATA = (
    "{date} {origin}→{destination}：暂时无法获取中转所需的余票数据（数据源均未响应，且没有缓存）。"
    + NO_DATA_ADVICE
)
RELAXED = "{reason}"
SUBSTITUTED_STATION = "「{requested}」没有可行的中转方案，以下方案改为{offered}。"
SUBSTITUTED_DATE = "{requested} 没有可行的中转方案，以下方案改为 {offered} 出发。"
ITINERARIES = "规则引擎生成 {count} 个行程，最优 {best}，共 {price:g} 元。"
ITINERARIES_NONE = "规则引擎未能生成行程。"
STOPS = "{train} 次（{date}）：{first}→{last}，共 {count} 站，{freshness}。"
STOPS_NONE = "{train} 次（{date}）：暂时查不到经停站（{freshness}）。"
STOPS_NO_DATA = (
    "{train} 次（{date}）：暂时无法获取经停站数据（数据源均未响应，且没有缓存），请稍后再试。"
)
BOOKABLE = "{train} {seat} 可以预订：余票 {left}，票价 {price}，已实时核验。"
NOT_BOOKABLE = "{train} {seat} 不可预订：{message}"
STATIONS = "找到 {count} 个车站：{names}。"
STATIONS_NONE = "没有找到「{query}」。您是不是要找：{suggestions}"
PLAN_NONE = "未能生成行程：{summary}"
CURRENT_DATE = (
    "今天是 {date}（{weekday}），北京时间 {time}；可购票日期为今天至 {last}（共 15 天）。"
)


def freshness_text(freshness: str, age_s: float | None = None) -> str:
    """实时数据 / 缓存数据（2分钟前）/ 暂无数据."""
    return FRESHNESS.get(freshness, freshness).format(age=age_text(age_s or 0.0))
