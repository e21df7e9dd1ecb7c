"""The one-line Chinese summaries and messages tools answer with (templates, never a model)."""

from __future__ import annotations

from app.tickets.texts import age_text

FRESHNESS = {"realtime": "实时数据", "cached": "缓存数据（{age}前）", "unavailable": "暂无数据"}

TICKETS = "{date} {origin}→{destination}：{count} 趟车符合条件，{shown}，{freshness}。"
TICKETS_SHOWN = "列出前 {n} 趟"
TICKETS_ALL = "全部列出"
TICKETS_NONE = "{date} {origin}→{destination}：没有符合条件的车次（{freshness}）。"
TRANSFERS = (
    "{date} {origin}→{destination}：{count} 个方案，最优 {best}，共 {price:g} 元，{freshness}。"
)
TRANSFERS_NONE = "{date} {origin}→{destination}：没有找到可行的方案（{freshness}）。"
ITINERARIES = "规则引擎生成 {count} 个行程，最优 {best}，共 {price:g} 元。"
ITINERARIES_NONE = "规则引擎未能生成行程。"
STOPS = "{train} 次（{date}）：{first}→{last}，共 {count} 站，{freshness}。"
STOPS_NONE = "{train} 次（{date}）：暂时查不到经停站（{freshness}）。"
BOOKABLE = "{train} {seat} 可以预订：余票 {left}，票价 {price}，已实时核验。"
NOT_BOOKABLE = "{train} {seat} 不可预订：{message}"
STATIONS = "找到 {count} 个车站：{names}。"
STATIONS_NONE = "没有找到「{query}」。您是不是要找：{suggestions}"
PLAN_NONE = "未能生成行程：{summary}"


def freshness_text(freshness: str, age_s: float | None = None) -> str:
    """实时数据 / 缓存数据（2分钟前）/ 暂无数据."""
    return FRESHNESS.get(freshness, freshness).format(age=age_text(age_s or 0.0))
