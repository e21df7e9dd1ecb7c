"""What each tool takes and gives: typed inputs (the JSON schema a model sees) and compact,
structured outputs (only the fields a model needs, every answer with `freshness`, `as_of` and
a one-line Chinese `summary`)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.usecases.precheck import PrecheckRequest
from sources.models import TRAIN_TYPES, Freshness, SeatClass, SeatStatus

_PLACE = "城市、站名、拼音或电报码，如 北京、上海虹桥、shanghai、AOH"
_CLOCK = r"^([01]\d|2[0-3]):[0-5]\d$"


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
        json_schema_extra={"items": {"type": "string", "enum": list(TRAIN_TYPES)}},
    )
    seat_class: SeatClass | None = Field(default=None, description="只看有这一席别的车次")
    depart_after: str | None = Field(default=None, pattern=_CLOCK, description="最早出发 HH:MM")
    depart_before: str | None = Field(default=None, pattern=_CLOCK, description="最晚出发 HH:MM")
    max_results: int = Field(default=10, ge=1, le=50, description="最多返回几趟车")


class FindTransfersIn(RouteIn):
    max_results: int = Field(default=3, ge=1, le=5, description="最多返回几个方案")


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


class OfferView(BaseModel):
    train_number: str
    origin: str
    destination: str
    depart: str = Field(description="YYYY-MM-DD HH:MM（北京时间）")
    arrive: str
    duration_min: int
    seats: list[SeatView]


class SearchTicketsOut(Answer):
    origin: str
    destination: str
    date: dt.date
    age_s: float | None = None
    count: int = Field(description="符合条件的车次总数（offers 只列前 max_results 个）")
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
