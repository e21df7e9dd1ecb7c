"""The ticket data model shared by every source, the query service and the rule engine.

All models are frozen: an offer is a fact reported by a source at `fetched_at`, never edited.
Prices are yuan (float, one decimal as 12306 reports them); times are timezone-aware in
Asia/Shanghai, and an overnight arrival carries the next day's date.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence
from enum import StrEnum
from functools import cached_property
from typing import Literal, get_args
from zoneinfo import ZoneInfo

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator

SHANGHAI = ZoneInfo("Asia/Shanghai")
TOWN_SIBLING = "古城"
"""The suffix of a town's old-town station (平遥古城 is 平遥's): one place with the town."""

Freshness = Literal["realtime", "cached", "unavailable"]
"""How fresh an answer is: fetched live for this request, served from a cache (with its age),
or none could be had. Every ticket-bearing answer, and every leg built from one, carries it."""
FRESHNESS_ORDER: dict[str, int] = {"realtime": 0, "cached": 1, "unavailable": 2}


def worst_freshness(values: Sequence[str]) -> Freshness:
    """The least fresh of `values` (realtime < cached < unavailable); none is unavailable."""
    if not values:
        return "unavailable"
    worst = max(values, key=lambda v: FRESHNESS_ORDER.get(v, 2))
    return worst if worst in ("realtime", "cached") else "unavailable"  # type: ignore[return-value]


TrainType = Literal["G", "D", "C", "Z", "T", "K"]
"""The train types a query or a traveller may filter by (a train number's first letter)."""
TRAIN_TYPES: tuple[TrainType, ...] = get_args(TrainType)

EMU_TYPES = frozenset({"G", "D", "C"})
CONVENTIONAL_TYPES = frozenset({"Z", "T", "K"})
"""The lettered conventional expresses. Travellers name the conventional trains as a whole
(绿皮车, 慢车, 普通火车, read as Z, T and K): an ordinary train (6001, no letter) and the
temporary, tourist and suburban ones (L, Y, S) are of that kind too."""


KIN: dict[str, tuple[str, ...]] = {"C": ("D", "G"), "D": ("G",)}
"""The EMU types travellers may name by another: an intercity EMU (C) is a 动车 (D) to many,
and a 动车 or intercity EMU is a 高铁 (G) to many (南宁→北海 runs D trains, "只坐高铁")."""


def wished_type(
    train_type: str, wanted: Collection[str], refused: Collection[str], *, kin: bool = False
) -> bool:
    """True when a train of `train_type` ("" for an all-digit number) is one a traveller who
    wants `wanted` (empty: any) and refuses `refused` may ride: a set naming every
    conventional letter stands for every conventional train (an ordinary one included); with
    `kin`, a wish for 高铁 (G) or 动车 (D) takes their kin EMUs too (`KIN`)."""
    conventional = train_type not in EMU_TYPES
    kinds = KIN.get(train_type, ()) if kin else ()

    def named(types: Collection[str]) -> bool:
        return train_type in types or (conventional and CONVENTIONAL_TYPES <= set(types))

    if refused and named(refused):
        return False
    return not wanted or named(wanted) or any(kind in wanted for kind in kinds)


def kin_widens(wanted: Collection[str]) -> bool:
    """True when `kin` lets a wish for `wanted` take a type it does not name (G alone takes
    D and C; D alone takes C)."""
    return any(
        train_type not in wanted and any(kind in wanted for kind in kinds)
        for train_type, kinds in KIN.items()
    )


# -- train numbers: one grammar, every use derived from it ------------------------------------
TRAIN_LETTERS = "GDCZTKLYS"
"""The letters a passenger train number starts with: G/D/C (EMUs), Z/T/K (conventional
expresses), L/Y/S (temporary, tourist, suburban); an ordinary train's number has none."""
TRAIN_NUMBER = rf"[{TRAIN_LETTERS}]?[1-9]\d{{0,3}}"
"""A passenger train number: an optional letter, then 1-4 digits without a leading zero
(G1 … G9999, K1075, 6001); G0 and G99999 are not train numbers."""
TRAIN_NUMBER_PATTERN = rf"^{TRAIN_NUMBER}$"
TRAIN_NUMBER_INPUT_PATTERN = rf"^[{TRAIN_LETTERS}{TRAIN_LETTERS.lower()}]?[1-9]\d{{0,3}}$"
"""`TRAIN_NUMBER` as a caller may type it (g5): the JSON Schema of the inputs that take one."""
TRAIN_NUMBER_LIKE = rf"[{TRAIN_LETTERS}]\d{{1,8}}"
"""What a lettered train number looks like in free text (G1, G99999), matched without case:
wider than `TRAIN_NUMBER` so that an invalid or invented one is caught and named, not missed."""
_TRAIN_NUMBER = re.compile(TRAIN_NUMBER)


def normalise_train_number(number: str) -> str:
    """`g1 ` → `G1`: how travellers and models type train numbers."""
    return number.strip().upper()


def is_train_number(number: str) -> bool:
    """True when `number` (in any case, spaces around) can be a passenger train number."""
    return _TRAIN_NUMBER.fullmatch(normalise_train_number(number)) is not None


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Station(Frozen):
    """A passenger station: `telecode` is 12306's three-letter code (北京南 → VNP)."""

    telecode: str = Field(pattern=r"^[A-Z]{3}$")
    name: str
    city: str
    pinyin: str = ""
    initials: str = ""


class SeatClass(StrEnum):
    BUSINESS = "business"
    PREMIUM = "premium"
    PREMIUM_FIRST = "premium_first"
    FIRST = "first"
    SECOND = "second"
    PREMIUM_SLEEPER = "premium_sleeper"
    SOFT_SLEEPER = "soft_sleeper"
    EMU_SLEEPER = "emu_sleeper"
    HARD_SLEEPER = "hard_sleeper"
    SOFT_SEAT = "soft_seat"
    HARD_SEAT = "hard_seat"
    NO_SEAT = "no_seat"
    OTHER = "other"  # 其他 (12306's qt_num, seat code H): a class of its own, never dropped

    @property
    def label(self) -> str:
        """The Chinese name 12306 prints for this class (二等座 …)."""
        return SEAT_LABELS[self]

    @property
    def is_sleeper(self) -> bool:
        return self in SLEEPER_CLASSES


SEAT_LABELS: dict[SeatClass, str] = {
    SeatClass.BUSINESS: "商务座",
    SeatClass.PREMIUM: "特等座",
    SeatClass.PREMIUM_FIRST: "优选一等座",
    SeatClass.FIRST: "一等座",
    SeatClass.SECOND: "二等座",
    SeatClass.PREMIUM_SLEEPER: "高级软卧",
    SeatClass.SOFT_SLEEPER: "软卧",
    SeatClass.EMU_SLEEPER: "动卧",
    SeatClass.HARD_SLEEPER: "硬卧",
    SeatClass.SOFT_SEAT: "软座",
    SeatClass.HARD_SEAT: "硬座",
    SeatClass.NO_SEAT: "无座",
    SeatClass.OTHER: "其他",
}
SEAT_BY_LABEL: dict[str, SeatClass] = {label: cls for cls, label in SEAT_LABELS.items()}
SLEEPER_CLASSES = frozenset(
    {
        SeatClass.PREMIUM_SLEEPER,
        SeatClass.SOFT_SLEEPER,
        SeatClass.EMU_SLEEPER,
        SeatClass.HARD_SLEEPER,
    }
)


class FareKind(StrEnum):
    """Whose fare a price is: 12306 prices a query for adults (`purpose_codes=ADULT`, `00` in
    the transfer search) or students (`0X00`, `0X`); children are priced from the adult fare
    by `sources.fare_rules`, and Juhe answers adult fares only."""

    ADULT = "adult"
    STUDENT = "student"

    @property
    def label(self) -> str:
        return FARE_LABELS[self]


FARE_LABELS: dict[FareKind, str] = {FareKind.ADULT: "成人票", FareKind.STUDENT: "学生票"}


class SeatStatus(StrEnum):
    AVAILABLE = "available"
    SOLD_OUT = "sold_out"
    WAITLIST = "waitlist"
    NOT_ON_SALE = "not_on_sale"  # presale not open yet: 12306's "*" (see `TrainOffer.on_sale_at`)


class Seat(Frozen):
    """One seat class on one ride: `available` is None when the source only says "有".

    `discount` is the fare's share of the full price when the source reports a discount
    (0.88 for 12306's 8.8折), else None.
    """

    seat_class: SeatClass
    status: SeatStatus
    available: int | None = Field(default=None, ge=0)
    price: float | None = Field(default=None, ge=0)
    discount: float | None = Field(default=None, gt=0, le=1)

    def can_seat(self, passengers: int) -> bool:
        """True when the whole party can buy this class now ("有" counts as enough)."""
        if self.status is not SeatStatus.AVAILABLE:
            return False
        return self.available is None or self.available >= passengers


class TrainOffer(Frozen):
    """One ride of one train between two stations on one date, as reported by sources."""

    train_number: str = Field(pattern=TRAIN_NUMBER_PATTERN)
    train_no: str = ""
    origin_station: Station
    destination_station: Station
    depart_at: AwareDatetime
    arrive_at: AwareDatetime
    duration_min: int = Field(ge=0)
    seats: tuple[Seat, ...] = ()
    sources: tuple[str, ...] = ()
    fetched_at: AwareDatetime
    # Optional facts some sources report (None / empty when the source does not say):
    on_sale_at: AwareDatetime | None = None  # when sale opens, for a ride not yet on sale
    can_web_buy: bool | None = None  # 12306's canWebBuy: bookable online right now
    features: tuple[str, ...] = ()  # 复兴号, 智能动车组, 静音车厢 … as the source names them
    fare: FareKind = FareKind.ADULT  # whose fares the seats' prices are

    @field_validator("depart_at", "arrive_at", "fetched_at", "on_sale_at")
    @classmethod
    def _in_shanghai(cls, value: dt.datetime | None) -> dt.datetime | None:
        return value.astimezone(SHANGHAI) if value is not None else None

    @property
    def train_type(self) -> str:
        """G, D, C, Z, T, K … or "" for an all-digit (ordinary) train number."""
        head = self.train_number[0]
        return head if head.isalpha() else ""

    @property
    def date(self) -> dt.date:
        """The departure date of this ride at its boarding station."""
        return self.depart_at.date()

    @property
    def ride_key(self) -> tuple[str, dt.date, str, str]:
        """Identity of a ride across sources: train number, date, from and to telecodes."""
        return (
            self.train_number,
            self.date,
            self.origin_station.telecode,
            self.destination_station.telecode,
        )

    def seat(self, seat_class: SeatClass) -> Seat | None:
        for seat in self.seats:
            if seat.seat_class is seat_class:
                return seat
        return None


class TicketQuery(Frozen):
    """A left-ticket query as 12306 understands it: station or city telecodes and a date.

    Like 12306, a query between two telecodes returns rides from every station of the origin's
    city to every station of the destination's city; callers filter by station if they need to.
    """

    origin: str = Field(pattern=r"^[A-Z]{3}$")
    destination: str = Field(pattern=r"^[A-Z]{3}$")
    date: dt.date
    train_types: frozenset[str] = frozenset()
    fare: FareKind = FareKind.ADULT  # the fares asked for (a source may answer adult only)

    @field_validator("train_types")
    @classmethod
    def _known_types(cls, value: frozenset[str]) -> frozenset[str]:
        unknown = sorted(t for t in value if t not in TRAIN_TYPES)
        if unknown:
            raise ValueError(f"unknown train types: {', '.join(unknown)}")
        return value

    @cached_property
    def key(self) -> str:
        """A normalised cache key: same query, same key, whatever names the caller used
        (made once per query: a cache hit looks it up)."""
        types = ",".join(sorted(self.train_types)) or "*"
        key = f"{self.origin}:{self.destination}:{self.date.isoformat()}:{types}"
        # Adult keys stay as they were, so caches and fleet leases keep their names.
        return key if self.fare is FareKind.ADULT else f"{key}:{self.fare}"

    def admits(self, offer: TrainOffer) -> bool:
        """True when `offer` passes this query's train-type filter."""
        return not self.train_types or offer.train_type in self.train_types
