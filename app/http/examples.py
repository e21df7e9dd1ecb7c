"""Examples in the OpenAPI document: what a frontend developer sends and reads.

Taken from the embedded sandbox (real train numbers and stops of its network: G1 北京南 09:00
→ 上海虹桥 13:28) on 2026-12-01; each is checked against the schema it illustrates
(tests/app/test_openapi_contract.py).
"""

from __future__ import annotations

from typing import Any

DATE = "2026-12-04"
TODAY = "2026-12-01"
AS_OF = "2026-12-01T08:00:00+08:00"

BEIJING_SOUTH = {
    "telecode": "VNP",
    "name": "北京南",
    "city": "北京",
    "pinyin": "beijingnan",
    "initials": "bjn",
}
SHANGHAI_HONGQIAO = {
    "telecode": "AOH",
    "name": "上海虹桥",
    "city": "上海",
    "pinyin": "shanghaihongqiao",
    "initials": "shhq",
}
SOURCES = [
    {
        "name": "sandbox-12306",
        "status": "ok",
        "freshness": "realtime",
        "latency_ms": 12,
        "error": None,
        "offers": 37,
    },
    {
        "name": "sandbox-juhe",
        "status": "ok",
        "freshness": "realtime",
        "latency_ms": 9,
        "error": None,
        "offers": 37,
    },
]

G1 = {
    "train_number": "G1",
    "train_no": "62000000G1QY",
    "origin_station": BEIJING_SOUTH,
    "destination_station": SHANGHAI_HONGQIAO,
    "depart_at": f"{DATE}T09:00:00+08:00",
    "arrive_at": f"{DATE}T13:28:00+08:00",
    "duration_min": 268,
    "seats": [
        {"seat_class": "business", "status": "available", "available": 8, "price": 1781.5},
        {"seat_class": "first", "status": "available", "available": None, "price": 903.0},
        {"seat_class": "second", "status": "available", "available": None, "price": 561.5},
        {"seat_class": "no_seat", "status": "sold_out", "available": 0, "price": 561.5},
    ],
    "sources": ["sandbox-12306", "sandbox-juhe"],
    "fetched_at": AS_OF,
    "on_sale_at": None,
    "can_web_buy": True,
    "features": ["复兴号"],
    "fare": "adult",
}

TICKETS: dict[str, Any] = {
    "query": {
        "origin": {**BEIJING_SOUTH, "telecode": "BJP", "name": "北京", "pinyin": "beijing"},
        "destination": {**SHANGHAI_HONGQIAO, "telecode": "SHH", "name": "上海"},
        "date": DATE,
        "train_types": ["G"],
    },
    "freshness": "realtime",
    "as_of": AS_OF,
    "age_s": 0.0,
    "sources": SOURCES,
    "offers": [G1],
    "warnings": [],
}

STATIONS: dict[str, Any] = {
    "query": "杭州",
    "stations": [
        {"telecode": "HZH", "name": "杭州", "city": "杭州", "pinyin": "hangzhou", "initials": "hz"},
        {
            "telecode": "HGH",
            "name": "杭州东",
            "city": "杭州",
            "pinyin": "hangzhoudong",
            "initials": "hzd",
        },
    ],
    "suggestions": [],
}

STOPS: dict[str, Any] = {
    "train_number": "G1",
    "train_no": "62000000G1QY",
    "date": DATE,
    "freshness": "realtime",
    "as_of": AS_OF,
    "age_s": 0.0,
    "sources": SOURCES[:1],
    "stops": [
        {
            "number": 1,
            "name": "北京南",
            "station": BEIJING_SOUTH,
            "arrive_at": None,
            "depart_at": f"{DATE}T09:00:00+08:00",
            "stopover_min": None,
        },
        {
            "number": 2,
            "name": "济南西",
            "station": {
                "telecode": "JGK",
                "name": "济南西",
                "city": "济南",
                "pinyin": "jinanxi",
                "initials": "jnx",
            },
            "arrive_at": f"{DATE}T10:22:00+08:00",
            "depart_at": f"{DATE}T10:24:00+08:00",
            "stopover_min": 2,
        },
        {
            "number": 3,
            "name": "上海虹桥",
            "station": SHANGHAI_HONGQIAO,
            "arrive_at": f"{DATE}T13:28:00+08:00",
            "depart_at": None,
            "stopover_min": None,
        },
    ],
    "warnings": [],
}

PLAN_TEXT = {"text": "下周五从北京去上海玩三天，预算两千左右", "today": TODAY}
PLAN_REQUESTS = {
    "sentence": {"summary": "一句话", "value": PLAN_TEXT},
    "direct": {
        "summary": "直达，限定车型和席别",
        "value": {"text": "12月4日从北京去上海，坐高铁，二等座", "today": TODAY},
    },
    "intent": {
        "summary": "结构化意图",
        "value": {
            "intent": {
                "origin": "北京",
                "destination": "上海",
                "date_start": DATE,
                "train_types": ["G"],
                "seat_class": "second",
            },
            "today": TODAY,
        },
    },
}
CHAT_REQUESTS = {
    "first": {"summary": "第一轮", "value": {"text": "我想去上海玩", "today": TODAY}},
    "next": {
        "summary": "接着上一轮（session_id 来自上一轮的回复）",
        "value": {
            "session_id": "3f2b8c1e9a7d4f60b5c2e8a1d9f3c7b4",
            "text": "从北京出发，12月4日走",
        },
    },
}
INTENT_REQUEST = {"text": "下周五从北京去上海玩三天，预算两千左右", "today": TODAY}
PRECHECK_REQUEST = {
    "train_number": "G1",
    "date": DATE,
    "origin": "北京",
    "destination": "上海",
    "seat_class": "second",
    "expected_price": 561.5,
}

LEG = {
    "train_number": "G1",
    "origin_station": BEIJING_SOUTH,
    "destination_station": SHANGHAI_HONGQIAO,
    "depart_at": f"{DATE}T09:00:00+08:00",
    "arrive_at": f"{DATE}T13:28:00+08:00",
    "seat_class": "second",
    "unit_price": 561.5,
    "passengers": 1,
    "price": 561.5,
    "freshness": "realtime",
}
PLAN: dict[str, Any] = {
    "itinerary": {
        "legs": [LEG],
        "transfers": [],
        "stays": [{"city": "上海", "arrive_at": f"{DATE}T13:28:00+08:00", "leave_at": None}],
        "days": [
            {
                "date": DATE,
                "items": ["09:00 北京南 乘 G1 出发，13:28 抵达上海虹桥", "下午起在上海自由活动"],
            }
        ],
        "total_price": 561.5,
        "budget": None,
        "within_budget": None,
    },
    "alternatives": [],
    "summary": "已按「北京→上海 · 12月4日」为你安排：去程 G1 北京南 09:00→上海虹桥 13:28 "
    "二等座 561.5元；合计561.5元。",
    "freshness": "realtime",
    "as_of": AS_OF,
    "sources": SOURCES,
    "agent": {"mode": "state_machine", "steps": 4, "trace": []},
    "warnings": [],
    "clarify_question": None,
    "parser": "rules",
    "understood": "12月4日 北京→上海，1人，只坐高铁，二等座",
    "relaxed": [],
}
CHAT = {**PLAN, "session_id": "3f2b8c1e9a7d4f60b5c2e8a1d9f3c7b4"}

BOOKABLE = {
    "bookable": True,
    "train_number": "G1",
    "seat_class": "second",
    "available": None,
    "price": 561.5,
    "depart_at": f"{DATE}T09:00:00+08:00",
    "arrive_at": f"{DATE}T13:28:00+08:00",
    "checked_at": AS_OF,
    "freshness": "realtime",
}

# -- errors --------------------------------------------------------------------------------

UNKNOWN_STATION = {
    "code": "unknown_station",
    "message": "origin: unknown station or city '北景'",
    "field": "origin",
    "suggestions": ["北京"],
}
NO_SUCH_TRAIN = {"code": "not_found", "message": "2026-12-04 没有 G9999 次列车。"}
OVERLOADED = {
    "code": "overloaded",
    "reason": "overloaded",
    "message": "服务当前繁忙，本次查询未能排队（并非数据源故障），请在 2 秒后重试。",
    "retry_after_s": 2,
}
NO_LIVE_ANSWER = {
    "code": "no_live_answer",
    "message": "暂时无法实时核验余票，请稍后再试。",
    "sources": [],
}
SOLD_OUT = {
    "code": "sold_out",
    "reason": "sold_out",
    "message": "G1 二等座已无足够余票。",
    "train_number": "G1",
    "status": "sold_out",
    "available": 0,
}
UNAUTHORIZED = {
    "code": "unauthorized",
    "reason": "unauthorized",
    "message": "缺少有效的 API 密钥：请在 Authorization: Bearer 或 X-API-Key 请求头中提供。",
}
FORBIDDEN = {"code": "forbidden", "reason": "unauthorized", "message": "该接口仅限管理员密钥调用。"}
QUOTA = {"code": "quota_exceeded", "reason": "quota", "message": "请求过于频繁，请在 1 秒后重试。"}
TOO_LARGE = {"code": "payload_too_large", "message": "body over 65536 bytes", "field": "body"}

# -- by operation id and by error model (app/http/contract.py adds them) ---------------------

REQUESTS: dict[str, dict[str, Any]] = {
    "planTrip": PLAN_REQUESTS,
    "planTripStream": PLAN_REQUESTS,
    "chat": CHAT_REQUESTS,
    "chatStream": CHAT_REQUESTS,
    "parseIntent": {"sentence": {"summary": "一句话", "value": INTENT_REQUEST}},
    "precheckBooking": {"G1": {"summary": "下单前核验 G1 二等座", "value": PRECHECK_REQUEST}},
}
REPLIES: dict[str, dict[str, Any]] = {
    "getTickets": TICKETS,
    "searchStations": STATIONS,
    "getTrainStops": STOPS,
    "planTrip": PLAN,
    "chat": CHAT,
    "precheckBooking": BOOKABLE,
}
ERRORS: dict[str, dict[str, Any]] = {
    "InvalidInputError": UNKNOWN_STATION,
    "NotFoundError": NO_SUCH_TRAIN,
    "OverloadedError": OVERLOADED,
    "NoLiveAnswerError": NO_LIVE_ANSWER,
    "BookingConflict": SOLD_OUT,
    "PayloadTooLargeError": TOO_LARGE,
}
ERRORS_BY_STATUS: dict[str, dict[str, Any]] = {
    "401": UNAUTHORIZED,
    "403": FORBIDDEN,
    "429": QUOTA,
}
