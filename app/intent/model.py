"""The travel intent: what a traveller asked for, as structured data both parsers produce.

Representation rules (shared by the offline parser, the LLM prompt and the merger):

- `origin` / `destination` are names from the station directory: the station when the text
  names one ("上海虹桥"), else the city ("北京"). A place that is not a station ("九寨沟")
  leaves `destination` null and goes to `destination_text`, with a clarification.
- A multi-city trip is `origin` → `via` stops in order → `destination` (the last stop). The
  nights spent at the last stop are `nights`; `return_trip` is true when the traveller comes
  back to the origin. In a chain "N天" at a stop counts as N nights (one leaves N days after
  arriving). 北京 → 西安 2晚 → 成都 2晚 → 北京 is origin 北京, via [西安 2], destination 成都,
  nights 2, return_trip true.
- `date_end` is the last day of the trip (the return day). It is derived from a duration when
  the text gives one: date_start + days - 1, or date_start + nights when only nights are known;
  and `days` is derived from an explicit range (12月24日到26日 → 3 days).
- `budget` is always for the whole party; with "人均" it is budget_per_person × passengers.
- `budget_per_person` is set for a per-person wording (人均, 每人, 一人800, 每人预算);
  "一共/总共 3000" sets `budget` only.
- Times of day are the `TIME_WINDOWS` constants; 24:00 is written 23:59. An explicit bound
  is a span ("8点前出发" → depart_window 00:00-08:00). `return_window` is when the traveller
  travels back (周日晚上回来) and `return_arrive_window` when the ride home arrives
  (周日回来，晚上九点前到家 → 00:00-21:00); `arrive_date` is the day the outbound ride
  arrives, only when said apart from the departure day (今晚出发第二天早上到: not a return).
- Exclusions: `exclude_seat_classes` (不要无座, 不要卧铺 = the four sleeper classes) and
  `exclude_train_types` (不坐高铁 → G); `seat_classes` is a category of acceptable classes
  (要卧铺 → the four sleepers), a single named class stays in `seat_class`.
- `order`: earliest | latest | cheapest | fastest | earliest_arrival (最早一班, 最晚一班, 最便宜,
  最快, 最早到), colloquial forms too (越便宜越好, 便宜点, 越早越好, 早点的, 晚点走, 越快越好).
- The party: `passengers` counts everyone; `students` of them ride on student tickets (学生票,
  学生证: the word 学生 alone is no fare claim) and `children` lists each child's age (null:
  not said), 两个大人带一个3岁小孩 → passengers 3, children [3]. Adults are the rest.
- `no_overnight`: no ride through the night (不要过夜, 不坐夜车, 白天的车); `berth`: a berth
  wish (下铺 → "lower"), which a ticket query cannot choose; `leisure`: a trip for pleasure
  (玩三天, 周末去玩, 当天来回), so time at the destination counts against price;
  `stop_nights`: the nights at every stop when said once for all (每个城市待两天 → 2).
- `invalid_train_numbers`: train-number-like tokens that cannot be one (G99999), reported.
- `out_of_scope_topics`: what a ticket request also asked that is declined (["hotel"]).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from app.errors import excerpt
from rules.limits import MAX_PARTY, MAX_TRIP_DAYS
from sources.models import SEAT_BY_LABEL, SHANGHAI, TRAIN_TYPES, SeatClass, TrainType

IntentKind = Literal["plan_trip", "query_tickets", "out_of_scope"]
OrderPreference = Literal["earliest", "latest", "cheapest", "fastest", "earliest_arrival"]
BerthWish = Literal["lower", "middle", "upper", "not_upper", "not_lower"]
BERTH_LABELS: dict[str, str] = {
    "lower": "下铺",
    "middle": "中铺",
    "upper": "上铺",
    # 不要上铺: any berth but the top one; 不要下铺: any but the bottom one.
    "not_upper": "下铺或中铺",
    "not_lower": "中铺或上铺",
}
SeatPosition = Literal["window", "aisle", "together"]
SEAT_POSITION_LABELS: dict[str, str] = {"window": "靠窗", "aisle": "靠过道", "together": "坐在一起"}
ScopeTopic = Literal["refund", "change", "hotel", "weather", "other"]
IntentAction = Literal["create", "update", "append"]
RequiredField = Literal["origin", "destination", "date_start"]

SEAT_CLASS_ORDER: tuple[SeatClass, ...] = tuple(SeatClass)
SLEEPER_SET: tuple[SeatClass, ...] = tuple(c for c in SeatClass if c.is_sleeper)
"""The sleeper classes as one category (要卧铺 / 不要卧铺), in SeatClass order."""
_SLEEPERS = json.dumps([c.value for c in SLEEPER_SET])  # as the field descriptions list them
SCOPE_TOPICS: tuple[ScopeTopic, ...] = ("refund", "change", "hotel", "weather", "other")
REQUIRED_FIELDS: tuple[RequiredField, ...] = ("origin", "destination", "date_start")
# Canonical preference tags; anything else a model invents is dropped in post-validation.
# 只此车次: the named train or none (G394 有木有 木有就算了), never another in its place.
PREFERENCE_TAGS: tuple[str, ...] = ("舒适", "便宜", "快", "直达", "卧铺", "只此车次")

END_OF_DAY = dt.time(23, 59)
WINDOW_FIELDS = ("depart_window", "arrive_window", "return_window", "return_arrive_window")
"""The intent's time windows, the rides' hours out and home."""


class Lenient(BaseModel):
    """Model-side validation: unknown fields are dropped, not refused (LLMs invent fields)."""

    model_config = ConfigDict(extra="ignore")


WallClock = Annotated[
    dt.time,
    WithJsonSchema(
        {
            "type": "string",
            "pattern": r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$",
            "description": "a time of day in Asia/Shanghai, HH:MM[:SS]",
        }
    ),
]
"""A time of day without a zone: JSON Schema's `time` format demands an offset, so the
documented shape is the pattern the reply really carries ("18:00:00")."""


class TimeWindow(Lenient):
    """A span of the day the traveller wants to leave or arrive in."""

    start: WallClock
    end: WallClock
    label: str = ""

    @field_validator("start", "end", mode="before")
    @classmethod
    def _clock_text_only(cls, value: object) -> object:
        # Lax parsing reads a number as seconds after midnight (1 → 00:00:01): refuse it.
        if isinstance(value, str | dt.time):
            return value
        raise ValueError(f"expected a time of day as HH:MM, got {excerpt(value)}")

    @field_validator("start", "end")
    @classmethod
    def _wall_clock(cls, value: dt.time) -> dt.time:
        # A time of day in Asia/Shanghai: an offset or fraction a model or client adds is dropped.
        return value.replace(tzinfo=None, microsecond=0)

    def span(self) -> str:
        """ "HH:MM-HH:MM", the form the evaluation set labels windows with."""
        return f"{self.start:%H:%M}-{self.end:%H:%M}"

    def near(self) -> tuple[dt.time, dt.time] | None:
        """The half hour either side of the hour a window was said around (8点左右: the
        window is an hour either side, the train meant the one nearest eight; 中午 alone: the
        one nearest half past twelve), None when its edges were said."""
        if not _AROUND_SAID.search(self.label):
            return None
        start = dt.datetime.combine(dt.date.min, self.start)
        middle = start + (dt.datetime.combine(dt.date.min, self.end) - start) / 2
        half = dt.timedelta(minutes=30)
        return ((middle - half).time(), (middle + half).time())


# 中午 is a moment of the day more than a span: said alone, the train nearest it is meant.
_AROUND_SAID = re.compile(r"(?:左右|上下|前后)$|^中午$")


TIME_WINDOWS: dict[str, TimeWindow] = {
    "凌晨": TimeWindow(start=dt.time(0, 0), end=dt.time(6, 0), label="凌晨"),
    # 早上 runs to ten as travellers say it (a 09:30 train is a morning one); 一早 (一大早,
    # 清早) is the early morning.
    "早上": TimeWindow(start=dt.time(6, 0), end=dt.time(10, 0), label="早上"),
    "一早": TimeWindow(start=dt.time(6, 0), end=dt.time(9, 0), label="一早"),
    "上午": TimeWindow(start=dt.time(6, 0), end=dt.time(12, 0), label="上午"),
    "中午": TimeWindow(start=dt.time(11, 0), end=dt.time(14, 0), label="中午"),
    "下午": TimeWindow(start=dt.time(12, 0), end=dt.time(18, 0), label="下午"),
    "晚上": TimeWindow(start=dt.time(18, 0), end=END_OF_DAY, label="晚上"),
}


_SPAN = re.compile(r"^(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$")


DEFAULT_VIA_NIGHTS = 1
"""A stop named without a length of stay ("再加一站杭州") is one night."""


class ViaStop(Lenient):
    """An intermediate stop of a multi-city trip."""

    city: str
    nights: int | None = Field(default=None, ge=0, le=MAX_TRIP_DAYS)
    through: bool = Field(
        default=False,
        description="true when the traveller only passes through (经/途经济南): no night there",
    )

    @property
    def planned_nights(self) -> int:
        """The nights planned there: those said, else none passing through, else the default."""
        if self.nights is not None:
            return self.nights
        return 0 if self.through else DEFAULT_VIA_NIGHTS


class PlanShown(Lenient):
    """The plan a chat turn was last answered with: what "太早了" or "早一点" are said against."""

    depart_at: WallClock
    arrive_at: WallClock
    total_price: float | None = None


class TravelIntent(Lenient):
    """A traveller's request as structured data (see the module docstring for the rules)."""

    kind: IntentKind = "plan_trip"
    origin: str | None = None
    destination: str | None = None
    destination_text: str | None = None
    # 没直达固始的话到信阳也行, 到不了X就到Y: places that will do when the destination cannot
    # be had as asked (the planner tries them before relaxing any other wish).
    destination_alternatives: list[str] = Field(default_factory=list)
    via: list[ViaStop] = Field(default_factory=list)
    date_start: dt.date | None = None
    date_end: dt.date | None = None
    days: int | None = Field(default=None, ge=1, le=MAX_TRIP_DAYS)
    nights: int | None = Field(default=None, ge=0, le=MAX_TRIP_DAYS)
    return_trip: bool | None = None
    # allow_inf_nan=False: JSON's 1e999 is inf, never an amount (it read as no budget at all).
    budget: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    budget_per_person: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    passengers: int = Field(default=1, ge=1, le=MAX_PARTY)
    preferences: list[str] = Field(default_factory=list)
    train_types: list[TrainType] = Field(default_factory=list)
    seat_class: SeatClass | None = None
    depart_window: TimeWindow | None = None
    arrive_window: TimeWindow | None = None
    train_numbers: list[str] = Field(default_factory=list)
    exclude_seat_classes: list[SeatClass] = Field(
        default_factory=list,
        description=f'seat classes ruled out (不要无座 → ["no_seat"]; 不要卧铺 → {_SLEEPERS}; '
        '不坐硬座 → ["hard_seat"])',
    )
    exclude_train_types: list[TrainType] = Field(
        default_factory=list,
        description='train types ruled out (不坐高铁 → ["G"]; 不要动车 → ["D"]; '
        '不坐绿皮车/普速 → ["Z", "T", "K"]; 不坐高铁动车 → ["G", "D"])',
    )
    seat_classes: list[SeatClass] = Field(
        default_factory=list,
        description="a category of acceptable classes: 要卧铺/卧铺 → the sleeper classes "
        f"{_SLEEPERS}; a single named class (硬卧, 二等座) goes to seat_class and leaves this "
        "empty",
    )
    return_train_types: list[TrainType] = Field(
        default_factory=list,
        description="train types wished for on the ride home alone, when said of it (回来坐高铁 "
        '→ ["G"]); the outbound keeps train_types',
    )
    return_seat_classes: list[SeatClass] = Field(
        default_factory=list,
        description="classes for the ride home alone, when said of it (回程换成卧铺 → the "
        f'sleepers {_SLEEPERS}; 回程坐二等座 → ["second"]); the outbound keeps seat_class '
        "and seat_classes",
    )
    return_window: TimeWindow | None = Field(
        default=None,
        description="when the traveller travels back, same form as depart_window "
        "(周日晚上回来 → date_end that Sunday, return_trip true, 18:00-23:59)",
    )
    return_arrive_window: TimeWindow | None = Field(
        default=None,
        description="when the ride home should arrive, same form as arrive_window "
        "(周日回来，晚上九点前到家 → 00:00-21:00); arrive_window is the outbound's",
    )
    arrive_date: dt.date | None = Field(
        default=None,
        description="ISO day the OUTBOUND ride should arrive, only when said apart from the "
        "departure day (今晚出发第二天早上到 → tomorrow; this is not a return)",
    )
    flexible_until: dt.date | None = Field(
        default=None,
        description="when the traveller says any day will do (哪天都行, 随便哪天, 这两周哪天都行): "
        "the last day they accept, date_start being the first (the sale window when no days "
        "are named); the trip leaves on the best of those days by the stated order",
    )
    suggested_places: dict[str, str] = Field(
        default_factory=dict,
        description="set by code, never by a model: the place asked about for an unknown name, "
        'by slot ({"origin": "武汉"} after 您是指武汉吗？), so the answer (是武汉, 对) fills it',
    )
    order: OrderPreference | None = Field(
        default=None,
        description='"earliest" (最早一班), "latest" (最晚一班, 末班), "cheapest" (最便宜), '
        '"fastest" (最快, 用时最短, 越快越好), "earliest_arrival" (最早到, 早点到), or null; '
        "colloquial forms count (越便宜越好/便宜点 → cheapest, 越早越好/早点的 → earliest, "
        "晚点走 → latest)",
    )
    return_order: OrderPreference | None = Field(
        default=None,
        description="the same vocabulary said of the ride home (回来那趟晚一点的 → latest, "
        "回程要最便宜的 → cheapest); `order` stays the outbound's",
    )
    students: int = Field(
        default=0,
        ge=0,
        le=MAX_PARTY,
        description="how many of the passengers ride on student tickets (学生票, 学生证; the "
        "word 学生 alone claims no fare); 0 when none",
    )
    children: list[int | None] = Field(
        default_factory=list,
        description="one entry per child in the party, its age in years or null when not "
        "said (两个大人带一个3岁小孩 → [3]; 带两个孩子 → [null, null]); counted in passengers",
    )
    no_overnight: bool | None = Field(
        default=None,
        description="true for no ride through the night (不要过夜, 不坐夜车, 白天的车)",
    )
    return_no_overnight: bool | None = Field(
        default=None,
        description="true when no night on the train is said of the ride home alone (回来下周"
        "三，白天的车，不要过夜); the outbound may still be a night train",
    )
    berth: BerthWish | None = Field(
        default=None,
        description='a berth wish (下铺 → "lower", 中铺 → "middle", 上铺 → "upper"; one refused: '
        '不要上铺 → "not_upper", 不要下铺 → "not_lower"); the ticket query cannot choose a berth, '
        "so it is said as not guaranteed",
    )
    seat_positions: list[SeatPosition] = Field(
        default_factory=list,
        description='where in the carriage (靠窗 → "window", 过道 → "aisle", 坐在一起 / 连座 → '
        '"together"); the ticket query cannot choose a seat, so it is said as not guaranteed',
    )
    leisure: bool = Field(
        default=False,
        description="true for a trip for pleasure (玩三天, 周末去玩, 当天来回, 旅游): time at "
        "the destination weighs against price",
    )
    stay_hours: float | None = Field(
        default=None,
        gt=0,
        le=24,
        description="on a day trip, the hours the traveller wants at the destination at "
        "least (在那边至少待6个小时, at least 6 hrs there → 6)",
    )
    stop_nights: int | None = Field(
        default=None,
        ge=0,
        le=MAX_TRIP_DAYS,
        description="nights at every stop when said once for all (每个城市待两天 → 2)",
    )
    invalid_train_numbers: list[str] = Field(
        default_factory=list,
        description="train-number-like tokens that cannot be a train number (G99999, G0); "
        "valid ones go to train_numbers",
    )
    out_of_scope_topics: list[ScopeTopic] = Field(
        default_factory=list,
        description="what the message also asks that is not train travel, from "
        f"{json.dumps(list(SCOPE_TOPICS))}; a message that also asks for tickets keeps its kind",
    )
    shown: PlanShown | None = Field(
        default=None,
        description="chat only, set by the service: the outbound of the plan last shown",
    )
    stated_order: list[str] = Field(
        default_factory=list,
        max_length=32,
        description="chat only, set by the service: the constraints a chat stated (relaxation "
        "names: depart_window, seat_class, …), each where it was last said, the latest last; "
        "when not all can be met, the oldest gives way first",
    )
    action: IntentAction = "create"
    confidence: float = Field(default=0.5, ge=0, le=1)
    missing: list[RequiredField] = Field(default_factory=list)
    # The day home was said (周四回来), not derived from a stay (住三晚): known to the rules
    # parser and the chat merge only, never part of the schema (`end_said`, `with_end_said`).
    _end_said: bool = PrivateAttr(default=False)

    @field_validator("passengers", mode="before")
    @classmethod
    def _null_passengers_is_one(cls, value: object) -> object:
        # A model that does not know the party size says null; one traveller is the default.
        return 1 if value is None else value

    @field_validator(
        "via",
        "preferences",
        "train_types",
        "train_numbers",
        "missing",
        "exclude_seat_classes",
        "exclude_train_types",
        "seat_classes",
        "return_seat_classes",
        "return_train_types",
        "invalid_train_numbers",
        "out_of_scope_topics",
        "children",
        "seat_positions",
        mode="before",
    )
    @classmethod
    def _null_list_is_empty(cls, value: object) -> object:
        return [] if value is None else value

    @field_validator(*WINDOW_FIELDS, mode="before")
    @classmethod
    def _window_by_label(cls, value: object) -> object:
        # Models often answer "晚上" instead of the object: accept the documented labels.
        if isinstance(value, str):
            if value in TIME_WINDOWS:
                return TIME_WINDOWS[value]
            span = _SPAN.match(value.strip())
            if span:
                return {"start": span.group(1), "end": span.group(2), "label": value.strip()}
            return None
        return value

    @field_validator("seat_class", mode="before")
    @classmethod
    def _seat_by_label(cls, value: object) -> object:
        if isinstance(value, str) and value in SEAT_BY_LABEL:
            return SEAT_BY_LABEL[value]
        return value

    @field_validator("exclude_seat_classes", "seat_classes", "return_seat_classes", mode="before")
    @classmethod
    def _seats_by_label(cls, value: object) -> object:
        if isinstance(value, list):
            return [SEAT_BY_LABEL.get(v, v) if isinstance(v, str) else v for v in value]
        return value

    @field_validator("exclude_seat_classes", "seat_classes", "return_seat_classes")
    @classmethod
    def _seats_in_enum_order(cls, value: list[SeatClass]) -> list[SeatClass]:
        return [c for c in SEAT_CLASS_ORDER if c in set(value)]

    @field_validator("train_types", "exclude_train_types", "return_train_types", mode="before")
    @classmethod
    def _upper_train_types(cls, value: object) -> object:
        if isinstance(value, list):
            return [v.upper() if isinstance(v, str) else v for v in value]
        return value

    @field_validator("exclude_train_types", "return_train_types")
    @classmethod
    def _types_in_order(cls, value: list[TrainType]) -> list[TrainType]:
        return [t for t in TRAIN_TYPES if t in set(value)]

    @field_validator("train_numbers", "invalid_train_numbers")
    @classmethod
    def _upper_train_numbers(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(v.strip().upper() for v in value if v and v.strip()))

    @field_validator("students", mode="before")
    @classmethod
    def _null_students_is_none(cls, value: object) -> object:
        return 0 if value is None else value

    @field_validator("leisure", mode="before")
    @classmethod
    def _null_leisure_is_false(cls, value: object) -> object:
        return False if value is None else value

    @field_validator("children")
    @classmethod
    def _child_ages(cls, value: list[int | None]) -> list[int | None]:
        if any(age is not None and not 0 <= age <= 17 for age in value):
            raise ValueError("a child's age is 0 to 17")
        return value

    @model_validator(mode="after")
    def _party_fits(self) -> TravelIntent:
        # Students and children are among the passengers: a larger party is what was meant.
        least = self.students + len(self.children)
        if least > self.passengers:
            self.passengers = min(least, MAX_PARTY)
        return self

    @property
    def adults(self) -> int:
        """The passengers on neither a student nor a child's ticket."""
        return max(0, self.passengers - self.students - len(self.children))

    @field_validator("out_of_scope_topics")
    @classmethod
    def _topics_once(cls, value: list[ScopeTopic]) -> list[ScopeTopic]:
        return list(dict.fromkeys(value))


def shanghai_today() -> dt.date:
    """Today's date in Asia/Shanghai (the default `today` of every parse)."""
    return dt.datetime.now(SHANGHAI).date()


def places_named(intent: TravelIntent) -> list[str]:
    """The places the trip names: its ends and every stop on the way."""
    ends = (intent.origin, intent.destination, *(stop.city for stop in intent.via))
    return [place for place in ends if place]


def missing_fields(intent: TravelIntent) -> list[RequiredField]:
    """The required fields still unknown (none for an out-of-scope request)."""
    if intent.kind == "out_of_scope":
        return []
    return [name for name in REQUIRED_FIELDS if getattr(intent, name) is None]


EVENING_START = dt.time(17, 0)
"""A departure window starting this late leaves in the evening: the days there start after."""


def _days_start_next(intent: TravelIntent) -> bool:
    """True when the outbound arrives the next day or leaves in the evening (周五晚上走，玩三天):
    the days of a stay said in days are counted from the morning after (Saturday to Monday)."""
    start, window = intent.date_start, intent.depart_window
    if start is not None and intent.arrive_date is not None and intent.arrive_date > start:
        return True
    return window is not None and window.start >= EVENING_START


def end_said(intent: TravelIntent) -> bool:
    """True when `date_end` is a day home the traveller said (住三晚，周四回来), False when it
    was derived from a stay or nobody knows (an LLM's reading): the nights then rule."""
    return intent._end_said and intent.date_end is not None


def with_end_said(intent: TravelIntent, said: bool) -> TravelIntent:
    """`intent` with `end_said` as given."""
    copy = intent.model_copy()
    copy._end_said = said
    return copy


def with_derived_dates(intent: TravelIntent) -> TravelIntent:
    """Fill `date_end` from a duration and `days` from an explicit range (pure arithmetic);
    a day home derived here is not one said (`end_said`)."""
    start, end, days, nights = intent.date_start, intent.date_end, intent.days, intent.nights
    if start is not None and end is not None and end < start:
        end = None
    if start is not None and end is None and not intent.via:
        if days is not None:
            end = start + dt.timedelta(days=days - (0 if _days_start_next(intent) else 1))
        elif nights is not None:
            end = start + dt.timedelta(days=nights)
    if start is not None and end is not None and days is None:
        days = (end - start).days + 1
        if days > MAX_TRIP_DAYS:  # not a trip we can plan: keep the start, drop the range
            end, days = None, None
    derived = intent.model_copy(update={"date_end": end, "days": days})
    return derived if end == intent.date_end else with_end_said(derived, False)


class StrictIntentIn(BaseModel):
    """The HTTP body of `POST /v1/intent/parse`: strict, unlike the lenient intent model."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(min_length=1, max_length=1000)
    today: dt.date | None = None

    @field_validator("today", mode="before")
    @classmethod
    def _iso_date_only(cls, value: object) -> object:
        # strict mode refuses strings for dates; JSON carries dates as ISO strings.
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                raise ValueError(f"expected YYYY-MM-DD, got {excerpt(value)}") from None
        return value

    @field_validator("text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text must not be blank")
        return value


TRAVEL_SLOTS: tuple[str, ...] = (
    "origin",
    "destination",
    "destination_text",
    "via",
    "date_start",
    "date_end",
    "days",
    "nights",
    "return_trip",
    "flexible_until",
    "budget",
    "budget_per_person",
    "passengers",
    "preferences",
    "train_types",
    "seat_class",
    "depart_window",
    "arrive_window",
    "train_numbers",
    "exclude_seat_classes",
    "exclude_train_types",
    "seat_classes",
    "return_seat_classes",
    "return_train_types",
    "return_window",
    "return_arrive_window",
    "arrive_date",
    "order",
    "return_order",
    "invalid_train_numbers",
    "out_of_scope_topics",
    "students",
    "children",
    "no_overnight",
    "return_no_overnight",
    "berth",
    "seat_positions",
    "leisure",
    "stay_hours",
    "stop_nights",
)
"""The fields a traveller's words set, in the order the prompt shows them; the bookkeeping
fields (kind, action, confidence, missing) are derived."""
