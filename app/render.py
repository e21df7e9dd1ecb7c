"""The CLI's view of a plan: the `/v1/plan` JSON as readable tables (legs, days, totals)."""

from __future__ import annotations

from typing import Any

from app.cli import table
from sources.models import SeatClass

FRESHNESS_LABELS = {"realtime": "实时", "cached": "缓存", "unavailable": "不可用"}


def _clock(stamp: str) -> str:
    return stamp[11:16]


def _width(text: str) -> int:
    """Display columns: CJK characters take two."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def _day(stamp: str) -> str:
    return f"{int(stamp[5:7])}月{int(stamp[8:10])}日"


def _yuan(amount: float | None) -> str:
    if amount is None:
        return "—"
    return f"¥{amount:.2f}".rstrip("0").rstrip(".")


def _segment_label(segment: int, last: int, returns: bool) -> str:
    if segment == 0:
        return "去程"
    if returns and segment == last:
        return "返程"
    return f"第{segment + 1}程"


def _legs_table(itinerary: dict[str, Any]) -> str:
    legs = itinerary["legs"]
    last = max(leg.get("segment", 0) for leg in legs)
    returns = (
        last > 0 and legs[-1]["destination_station"]["city"] == legs[0]["origin_station"]["city"]
    )
    rows = []
    for leg in legs:
        arrive = _clock(leg["arrive_at"])
        if leg["arrive_at"][:10] != leg["depart_at"][:10]:
            arrive += "+1"
        rows.append(
            [
                _segment_label(leg.get("segment", 0), last, returns),
                _day(leg["depart_at"]),
                leg["train_number"],
                f"{leg['origin_station']['name']}→{leg['destination_station']['name']}",
                _clock(leg["depart_at"]),
                arrive,
                SeatClass(leg["seat_class"]).label,
                f"{leg['passengers']}×{_yuan(leg['unit_price'])}",
                _yuan(leg["price"]),
                FRESHNESS_LABELS.get(leg["freshness"], leg["freshness"]),
            ]
        )
    return table(
        ["行程", "日期", "车次", "区间", "出发", "到达", "席别", "单价", "小计", "余票"], rows
    )


def _itinerary_lines(itinerary: dict[str, Any]) -> list[str]:
    lines = [_legs_table(itinerary)]
    for transfer in itinerary.get("transfers", []):
        where = transfer["station"]["name"]
        to = transfer.get("to_station", transfer["station"])["name"]
        kind = "同站换乘" if transfer["same_station"] else f"跨站换乘至{to}"
        lines.append(f"换乘  {where} {kind}，{transfer['minutes']}分钟")
    if itinerary.get("days"):
        lines.append("")
        lines.append("日程")
        for day in itinerary["days"]:
            label = _day(day["date"])
            blank = " " * _width(label)
            for index, item in enumerate(day["items"]):
                lines.append(f"  {label if index == 0 else blank}  {item}")
    total = f"合计  {_yuan(itinerary['total_price'])}"
    if itinerary.get("budget") is not None:
        total += f"  预算 {_yuan(itinerary['budget'])}"
        total += "（在预算内）" if itinerary.get("within_budget") else "（超出预算）"
    lines += ["", total]
    return lines


def render_plan(payload: dict[str, Any]) -> str:
    """A `/v1/plan` answer as text: summary, legs, transfers, days, totals, freshness."""
    lines = [payload.get("summary", "")]
    itinerary = payload.get("itinerary")
    if itinerary:
        lines.append("")
        lines += _itinerary_lines(itinerary)
        for index, alternative in enumerate(payload.get("alternatives", []), start=1):
            trains = " → ".join(leg["train_number"] for leg in alternative["legs"])
            lines.append(f"备选{index}  {trains}  {_yuan(alternative['total_price'])}")
    elif payload.get("clarify_question") and payload["clarify_question"] != payload.get("summary"):
        lines.append(payload["clarify_question"])
    freshness = payload.get("freshness", "unavailable")
    sources = "  ".join(
        f"{s['name']}: {s['status']}/{s['freshness']}" for s in payload.get("sources", [])
    )
    lines.append("")
    lines.append(
        f"数据  {FRESHNESS_LABELS.get(freshness, freshness)} ({freshness})  {sources}".rstrip()
    )
    agent = payload.get("agent") or {}
    if agent:
        lines.append(f"agent  {agent.get('mode')}  {agent.get('steps')} steps")
    warnings = [w for w in payload.get("warnings", []) if w != payload.get("summary")]
    lines += [f"! {w}" for w in warnings]
    return "\n".join(lines)
