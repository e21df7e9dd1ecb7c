"""The LLM's instructions: the schema, every field's rules, the date, and few-shot examples.

Examples all use the same field order and a fixed example date, stated as such, so the model
learns the relative-date arithmetic rather than copying dates.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from app.intent.model import PREFERENCE_TAGS, TIME_WINDOWS, TRAVEL_SLOTS, TravelIntent
from sources.models import TRAIN_TYPES, SeatClass

FIELD_ORDER = ("kind", *TRAVEL_SLOTS, "action")

_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

SYSTEM_TEMPLATE = """You turn a Chinese (or English) train-travel request into ONE JSON object.
Today is {today} ({weekday}), timezone Asia/Shanghai. Resolve every relative date against it.
Return only the JSON object: no prose, no code fences, no comments.

Fields, always in this order:
- kind: "plan_trip" (a trip to plan: sightseeing, durations, budgets, several stops), \
"query_tickets" (a ticket or timetable question), or "out_of_scope" (hotels, refunds, \
changing tickets, flights, weather, writing travel notes, anything that is not train travel).
- origin, destination: a Chinese city or station name exactly as written in Chinese \
("北京", "上海虹桥"); translate English names to Chinese. null when not stated.
- destination_text: a destination that has no railway station (e.g. "九寨沟"); then \
destination is null.
- via: ordered intermediate stops [{{"city": "西安", "nights": 2}}]; the last stop is \
destination, not a via stop. "N天" at a stop counts as N nights; 经/途经X (passing \
through, no stay) is {{"city": "X", "nights": null, "through": true}}.
- date_start, date_end: ISO dates "YYYY-MM-DD"; date_end is the return/last day. \
周末 = Saturday to Sunday; 下周五 = Friday of next week; 周五 alone = the next Friday; \
holidays are their next occurrence (元旦 1-01, 五一 5-01, 国庆 10-01, 春节 lunar new year).
- days, nights: integers for the trip length (玩三天 → days 3; 五天四晚 → days 5, nights 4).
- return_trip: true when the traveller comes back (往返, 回来, 回<origin>); else null.
- budget: yuan for the whole party (两千 → 2000, 3k → 3000, 1.5万 → 15000); \
budget_per_person when the text says 人均, 每人, 一人800, 每人预算 (and then budget = per \
person × passengers); 一共/总共 3000 is budget only.
- passengers: integer, default 1 (一家三口 → 3; 我和老婆带一个孩子 → 3; 两张二等座 → 2).
- preferences: tags from {preference_tags} only.
- train_types: from {train_types}; 高铁 → ["G"], 动车 → ["D"], \
不要绿皮 → ["G", "D", "C"].
- seat_class: one of {seat_classes}, or null.
- depart_window, arrive_window: {{"start": "HH:MM", "end": "HH:MM", "label": "..."}} or \
null; {time_windows}.
- train_numbers: train numbers the traveller names ("G1"); never add any yourself.
{generated}
- action: "update" when the message changes an earlier request (换成, 改成), "append" when \
it adds a stop (再加一站, 顺便去), else "create".

null means unknown: never guess a value the text does not give. Use null, not "" or 0."""

_EXAMPLE_TODAY = dt.date(2026, 11, 30)

ENUMERATIONS = {
    "preference_tags": json.dumps(list(PREFERENCE_TAGS), ensure_ascii=False),
    "train_types": json.dumps(list(TRAIN_TYPES)),
    "seat_classes": ", ".join(f'"{seat.value}"' for seat in SeatClass),
    "time_windows": ", ".join(f"{label} {window.span()}" for label, window in TIME_WINDOWS.items()),
}
"""The value lists the prompt states, from the enums and tables the reply is validated against,
so a class added to `SeatClass` (premium_first) is offered to the model at once."""


def generated_field_lines() -> str:
    """One prompt line per intent field whose rule lives on the model (`Field.description`),
    so the prompt and the schema the reply is validated against cannot drift apart."""
    lines = []
    for name in TRAVEL_SLOTS:
        description = TravelIntent.model_fields[name].description
        if description:
            lines.append(f"- {name}: {description}.")
    return "\n".join(lines)


def _blank() -> dict[str, Any]:
    return dict.fromkeys(FIELD_ORDER) | {
        "via": [],
        "passengers": 1,
        "preferences": [],
        "train_types": [],
        "train_numbers": [],
        "exclude_seat_classes": [],
        "exclude_train_types": [],
        "seat_classes": [],
        "return_seat_classes": [],
        "return_train_types": [],
        "invalid_train_numbers": [],
        "out_of_scope_topics": [],
        "students": 0,
        "children": [],
        "leisure": False,
        "action": "create",
    }


def _example(**fields: Any) -> str:
    out = _blank()
    out.update(fields)
    return json.dumps({k: out[k] for k in FIELD_ORDER}, ensure_ascii=False)


FEW_SHOTS: list[tuple[str, str]] = [
    (
        "下周五从北京去上海玩三天，预算两千左右，坐高铁",
        _example(
            kind="plan_trip",
            origin="北京",
            destination="上海",
            date_start="2026-12-11",
            date_end="2026-12-13",
            days=3,
            budget=2000,
            train_types=["G"],
        ),
    ),
    (
        "下个月想带爸妈去桂林玩几天，人均1000",
        _example(
            kind="plan_trip",
            destination="桂林",
            date_start="2026-12-01",
            passengers=3,
            budget=3000,
            budget_per_person=1000,
        ),
    ),
    (
        "明天晚上到成都的卧铺还有吗，不要无座",
        _example(
            kind="query_tickets",
            destination="成都",
            date_start="2026-12-01",
            preferences=["卧铺"],
            seat_classes=["premium_sleeper", "soft_sleeper", "emu_sleeper", "hard_sleeper"],
            exclude_seat_classes=["no_seat"],
            arrive_window={"start": "18:00", "end": "23:59", "label": "晚上"},
        ),
    ),
    (
        "北京出发，先去西安住两晚，再去成都住两晚，最后回北京，顺便帮我订酒店",
        _example(
            kind="plan_trip",
            origin="北京",
            destination="成都",
            via=[{"city": "西安", "nights": 2}],
            nights=2,
            return_trip=True,
            out_of_scope_topics=["hotel"],
        ),
    ),
    (
        "帮我把明天G1次的票退了",
        _example(
            kind="out_of_scope",
            date_start="2026-12-01",
            train_numbers=["G1"],
            out_of_scope_topics=["refund"],
        ),
    ),
]


def system_prompt(today: dt.date) -> str:
    """The system message for one parse, stating today's date."""
    return SYSTEM_TEMPLATE.format(
        today=today.isoformat(),
        weekday=_WEEKDAY_NAMES[today.weekday()],
        generated=generated_field_lines(),
        **ENUMERATIONS,
    )


def build_messages(text: str, today: dt.date) -> list[dict[str, str]]:
    """System prompt, few-shot pairs (dated to their own example day), then the request."""
    messages = [{"role": "system", "content": system_prompt(today)}]
    note = f"(example; today is {_EXAMPLE_TODAY.isoformat()}) "
    for request, answer in FEW_SHOTS:
        messages.append({"role": "user", "content": note + request})
        messages.append({"role": "assistant", "content": answer})
    messages.append({"role": "user", "content": text})
    return messages


def retry_message(error: str) -> dict[str, str]:
    """Feed a validation error back so the next attempt can correct it."""
    return {
        "role": "user",
        "content": (
            f"Your previous reply could not be used: {error}. "
            "Reply again with only the corrected JSON object, same fields, same order."
        ),
    }
