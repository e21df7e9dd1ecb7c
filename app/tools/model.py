"""What each tool takes and gives: typed inputs (the JSON schema a model sees) and compact,
structured outputs (only the fields a model needs, every answer with `freshness`, `as_of` and
a one-line Chinese `summary`)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.agent.readback import Relaxed
from app.usecases.precheck import PrecheckRequest
from app.usecases.queries import SEAT_CLASS_SCHEMA, described_enum
from sources.models import TRAIN_TYPES, Freshness, SeatClass, SeatStatus

_PLACE = "城市、站名、拼音或电报码，如 北京、上海虹桥、shanghai、AOH"
_CLOCK = r"^([01]\d|2[0-3]):[0-5]\d$"

TRAIN_TYPE_LABELS: dict[str, str] = {
    "G": "高铁（高速动车组）",
    "D": "动车",
    "C": "城际动车",
    "Z": "直达特快",
    "T": "特快",
    "K": "快速",
}
SORT_ORDERS: dict[str, str] = {
    "departure": "出发时间从早到晚",
    "arrival": "到达时间从早到晚",
    "duration": "历时从短到长",
    "price": "票价从低到高（所选席别的票价；未选席别时为最低票价）",
}
Sort = Literal["departure", "arrival", "duration", "price"]
FEATURES: dict[str, str] = {
    "复兴号": "复兴号动车组（CR 系列）",
    "智能动车组": "复兴号智能动车组",
    "静音车厢": "设有静音车厢",
}
Feature = Literal["复兴号", "智能动车组", "静音车厢"]


class ToolInput(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RouteIn(ToolInput):
    """One route on one date."""

    origin: str = Field(min_length=1, max_length=40, description=_PLACE)
    destination: str = Field(min_length=1, max_length=40, description=_PLACE)
    date: str = Field(description="出发日期 YYYY-MM-DD（今天起 15 天内）", max_length=10)


class SearchTicketsIn(RouteIn):
    train_types: list[str] = Field(
        default_factory=list,
        max_length=len(TRAIN_TYPES),
        description='只看这些车型，如 ["G","D"]；空为全部',
        json_schema_extra={
            "items": {"type": "string", **described_enum(TRAIN_TYPE_LABELS, "车型（车次首字母）")}
        },
    )
    seat_class: SeatClass | None = Field(
        default=None,
        description="只看有这一席别的车次",
        json_schema_extra={"anyOf": [{"type": "string", **SEAT_CLASS_SCHEMA}, {"type": "null"}]},
    )
    features: list[Feature] = Field(
        default_factory=list,
        max_length=len(FEATURES),
        description='只看具备全部这些特征的车次，如 ["复兴号"] 或 ["智能动车组"]；空为不限',
        json_schema_extra={"items": {"type": "string", **described_enum(FEATURES, "列车特征")}},
    )
    depart_after: str | None = Field(default=None, pattern=_CLOCK, description="最早出发 HH:MM")
    depart_before: str | None = Field(default=None, pattern=_CLOCK, description="最晚出发 HH:MM")
    sort: Sort = Field(
        default="departure", json_schema_extra=described_enum(SORT_ORDERS, "排序方式")
    )
    max_results: int = Field(default=10, ge=1, le=50, description="最多返回几趟车")
    fare: Literal["adult", "student"] = Field(
        default="adult",
        description="按谁的票价查询：adult 成人票（默认），student 学生票（12306 学生票查询；"
        "聚合数据只报成人票价，每个车次的 fare 说明其价格是谁的）",
    )


class FindTransfersIn(RouteIn):
    transfer_station: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="指定中转的城市或车站（如 南京、郑州东）；不填则自动选择",
    )
    max_results: int = Field(default=3, ge=1, le=5, description="最多返回几个方案")


class CurrentDateIn(ToolInput):
    """No arguments: the date and time in Beijing (Asia/Shanghai), and the sale window."""


class TrainStopsIn(ToolInput):
    # The precheck's own definition of a train number, so the two tools agree.
    train_number: Annotated[str, PrecheckRequest.model_fields["train_number"]]
    date: str = Field(description="列车始发日期 YYYY-MM-DD", max_length=10)


class FindStationsIn(ToolInput):
    query: str = Field(min_length=1, max_length=50, description="名称、拼音、首字母或电报码")
    limit: int = Field(default=10, ge=1, le=50)


class BuildItineraryIn(ToolInput):
    """No arguments: the rule engine plans on what this run has fetched."""


# -- outputs ---------------------------------------------------------------------------------


class Answer(BaseModel):
    """What every tool answer carries."""

    summary: str = Field(description="一句话中文摘要")
    freshness: Freshness
    as_of: dt.datetime | None = Field(description="数据获取时间；unavailable 时为空")
    warnings: list[str] = Field(default_factory=list)


class SeatView(BaseModel):
    seat_class: SeatClass
    label: str
    status: SeatStatus
    left: int | None = Field(description="余票张数；null 表示只知道“有”")
    price: float | None
    discount: float | None = Field(
        default=None, description="折扣：票价占全价的比例（0.88 即 8.8 折）；null 为无折扣信息"
    )


class OfferView(BaseModel):
    train_number: str
    train_no: str = Field(description="12306 内部车次编号（查经停站用）；来源未提供时为空")
    origin: str
    destination: str
    depart: str = Field(description="YYYY-MM-DD HH:MM（北京时间）")
    arrive: str
    duration_min: int
    features: list[str] = Field(description="列车特征：复兴号、智能动车组、静音车厢 …")
    can_web_buy: bool | None = Field(description="现在能否在网上购买；null 为来源未说明")
    on_sale_at: str | None = Field(description="尚未开售时的开售时间 YYYY-MM-DD HH:MM")
    fare: Literal["adult", "student"] = Field(
        default="adult", description="票价是谁的：adult 成人票价，student 学生票价"
    )
    seats: list[SeatView]


class RelaxedView(Relaxed):
    """Something answered other than what was asked (a station, a city, a date), and why."""


class SearchTicketsOut(Answer):
    origin: str
    destination: str
    date: dt.date
    age_s: float | None = None
    count: int = Field(description="符合条件的车次总数（offers 只列前 max_results 个）")
    fare: Literal["adult", "student"] = Field(default="adult", description="所查询的票价类型")
    offers: list[OfferView]


class LegView(BaseModel):
    train_number: str
    origin: str
    destination: str
    depart: str
    arrive: str
    seat_class: SeatClass
    seat: str
    price: float
    freshness: Freshness


class TransferView(BaseModel):
    station: str
    to_station: str
    minutes: int


class ItineraryView(BaseModel):
    trains: list[str]
    legs: list[LegView]
    transfers: list[TransferView]
    total_price: float
    within_budget: bool | None


class FindTransfersOut(Answer):
    options: list[ItineraryView]
    failures: list[str]
    transfer_station: str | None = Field(
        default=None, description="按要求中转的城市或车站；null 为自动选择"
    )
    relaxed: list[RelaxedView] = Field(
        default_factory=list,
        description="与所问不同之处（出发地、目的地、日期、中转站）及原因；全部照办时为空",
    )


class CurrentDateOut(Answer):
    date: dt.date = Field(description="今天（北京时间）")
    weekday: str = Field(description="星期几，如 星期二")
    iso_weekday: int = Field(ge=1, le=7, description="1 为星期一，7 为星期日")
    time: str = Field(description="现在的北京时间 HH:MM")
    timezone: Literal["Asia/Shanghai"] = "Asia/Shanghai"
    tomorrow: dt.date
    sale_window_first: dt.date = Field(description="可购票的第一天（今天）")
    sale_window_last: dt.date = Field(description="可购票的最后一天（今天起第 15 天）")


class BuildItineraryOut(Answer):
    itineraries: list[ItineraryView]
    notes: list[str]
    failures: list[str]


class StopView(BaseModel):
    station: str
    telecode: str
    arrive: str | None = Field(description="到达 YYYY-MM-DD HH:MM；始发站为空")
    depart: str | None = Field(description="出发 YYYY-MM-DD HH:MM；终到站为空")


class TrainStopsOut(Answer):
    train_number: str
    date: dt.date
    stops: list[StopView]


class PlanTripOut(Answer):
    itinerary: ItineraryView | None
    alternatives: list[ItineraryView]
    clarify_question: str | None


class CheckBookingOut(Answer):
    bookable: bool
    reason: (
        Literal["not_found", "not_on_sale", "sold_out", "price_changed", "no_live_answer"] | None
    )
    train_number: str
    seat_class: SeatClass
    available: int | None = None
    price: float | None = None
    depart: str | None = None
    arrive: str | None = None


class StationView(BaseModel):
    telecode: str
    name: str
    city: str


class FindStationsOut(Answer):
    stations: list[StationView]
    suggestions: list[str]
