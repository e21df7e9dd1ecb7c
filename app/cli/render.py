"""Every table the CLI prints: tickets, stop lists, plans (legs, days, totals), stations and
the effective configuration, from the JSON the API answers (so a table reads the same fields
a frontend does). CJK characters take two columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sources.models import SeatClass, Station

FRESHNESS_LABELS = {"realtime": "实时", "cached": "缓存", "unavailable": "不可用"}


def _clock(stamp: str) -> str:
    return stamp[11:16]


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


def render_tickets(payload: dict[str, Any]) -> str:
    """Offers as a table, with the answer's freshness and each source's status."""
    q = payload["query"]
    head = (
        f"{q['origin']['name']} → {q['destination']['name']}  {q['date']}  "
        f"freshness={payload['freshness']}"
        + (f" (age {payload['age_s']:.0f}s)" if payload.get("age_s") else "")
    )
    srcs = "  ".join(
        f"{s['name']}: {s['status']}/{s['freshness']}"
        + (f" {s['latency_ms']}ms" if s.get("latency_ms") is not None else "")
        for s in payload["sources"]
    )
    rows = []
    for o in payload["offers"]:
        seats = "  ".join(_seat_text(seat) for seat in o["seats"])
        rows.append(
            [
                o["train_number"],
                f"{o['origin_station']['name']}→{o['destination_station']['name']}",
                o["depart_at"][11:16],
                o["arrive_at"][11:16]
                + ("+1" if o["arrive_at"][:10] != o["depart_at"][:10] else ""),
                f"{o['duration_min'] // 60}:{o['duration_min'] % 60:02d}",
                seats,
                ",".join(o["sources"]),
            ]
        )
    lines = [
        head,
        f"sources  {srcs}",
        table(["车次", "区间", "出发", "到达", "历时", "席位", "来源"], rows),
    ]
    lines += [f"! {w}" for w in payload.get("warnings", [])]
    lines.append(f"{len(payload['offers'])} trains")
    return "\n".join(lines)


def render_stops(payload: dict[str, Any]) -> str:
    """A stop list as a table, with the answer's freshness."""
    head = f"{payload['train_number']}  {payload['date']}  freshness={payload['freshness']}" + (
        f" (age {payload['age_s']:.0f}s)" if payload.get("age_s") else ""
    )
    rows = [
        [
            str(stop["number"]),
            stop["name"],
            (stop.get("arrive_at") or "----")[11:16] or "----",
            (stop.get("depart_at") or "----")[11:16] or "----",
            "" if stop.get("stopover_min") is None else f"{stop['stopover_min']}分",
        ]
        for stop in payload["stops"]
    ]
    lines = [head, table(["站序", "站名", "到达", "出发", "停留"], rows)]
    lines += [f"! {w}" for w in payload.get("warnings", [])]
    return "\n".join(lines)


def _seat_text(seat: dict[str, Any]) -> str:
    label = SeatClass(seat["seat_class"]).label
    status = {
        "available": "有" if seat["available"] is None else str(seat["available"]),
        "sold_out": "无",
        "waitlist": "候补",
        "not_on_sale": "未开售",
    }[seat["status"]]
    price = f"¥{seat['price']:g}" if seat.get("price") is not None else "¥?"
    return f"{label}{status}{price}"


def _width(text: str) -> int:
    """Display columns: CJK characters take two."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def table(header: list[str], rows: list[list[str]]) -> str:
    """A plain-text table aligned for CJK (double-width) characters."""
    widths = [max(_width(str(c)) for c in col) for col in zip(header, *rows, strict=False)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            str(c) + " " * (w - _width(str(c))) for c, w in zip(cells, widths, strict=False)
        ).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def render_stations(rows: Sequence[Station], query: str, suggestions: Sequence[str]) -> str:
    """Stations as a table, or the suggestions when none matched."""
    if not rows:
        return f"没有找到「{query}」。您是不是要找：{'、'.join(suggestions) or '—'}"
    return table(
        ["电报码", "站名", "城市", "拼音"], [[s.telecode, s.name, s.city, s.pinyin] for s in rows]
    )


def render_config(
    rows: Sequence[tuple[str, str]], unknown: Sequence[tuple[str, str | None]]
) -> str:
    """The effective configuration as `NAME=value` lines (secrets hidden), then every
    `RAILTRIP_*` variable no setting reads, with its closest known name."""
    lines = ["# railtrip: effective configuration (secrets hidden)"]
    lines += [f"{name}={value}" for name, value in rows]
    for name, closest in unknown:
        hint = f" (did you mean {closest}?)" if closest else ""
        lines.append(f"# unknown, ignored: {name}{hint}")
    return "\n".join(lines)
