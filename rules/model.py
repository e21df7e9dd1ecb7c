"""What goes into the rule engine (a trip request and fetched offers) and what comes out.

Inputs are small frozen dataclasses (`LegKey("北京", "上海", date)` reads naturally and hashes
fast); outputs are frozen pydantic models whose JSON is the `/v1/plan` itinerary (README),
plus the engine's explanations (score, reasons, segment, stays, sleeper nights).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from pydantic import AwareDatetime, Field, model_validator

from rules.limits import MAX_PARTY
from sources.fare_rules import TicketKind
from sources.models import Freshness, Frozen, SeatClass, Station, TrainOffer

# -- inputs ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LegKey:
    """One city-to-city query on one date; cities are `Station.city` names."""

    origin: str
    destination: str
    date: dt.date


@dataclass(frozen=True, slots=True)
class LegOffers:
    """What the ticket query service returned for one leg, and how fresh it is."""

    key: LegKey
    offers: tuple[TrainOffer, ...]
    freshness: Freshness = "realtime"


@dataclass(frozen=True, slots=True)
class ViaStop:
    """A city visited on the way, with the nights spent there; `said` is False for a stay
    the traveller did not say (a default), which a night on a berth may stand for."""

    city: str
    nights: int
    said: bool = True


class Town(Frozen):
    """A town or station keyed as a place of its own (昆山 under 苏州): where a trip joins it
    to another place of its prefecture, legs name it by `name` and its stations (`codes`)
    carry it as their city in the engine's view (`rules.towns`)."""

    name: str
    codes: frozenset[str]


class TripRequest(Frozen):
    """A traveller's trip, already understood: cities, dates, party, budget and preferences.

    Multi-city: origin → each `via` stop (staying its nights) → destination (staying `nights`
    or until `return_date`) → back to origin when `return_trip`. The time windows are
    preferences for the onward legs (trains up to `WINDOW_SLACK` outside are still
    considered, with a penalty); the return leg is ranked without them.
    """

    origin: str
    destination: str
    depart_date: dt.date
    return_date: dt.date | None = None
    nights: int | None = Field(default=None, ge=0)
    return_trip: bool = True
    via: tuple[ViaStop, ...] = ()
    passengers: int = Field(default=1, ge=1, le=MAX_PARTY)
    budget: float | None = Field(default=None, ge=0)
    depart_window: tuple[dt.time, dt.time] | None = None
    arrive_window: tuple[dt.time, dt.time] | None = None
    train_types: frozenset[str] = frozenset()
    train_kin: bool = False
    """A wish for 动车 (D) widened to the intercity EMUs (C): a relaxation, said as
    `train_types` (`rules.relax`), tried before the wish is dropped."""
    seat_class: SeatClass | None = None
    max_transfers: int = Field(default=2, ge=0)
    allow_waitlist: bool = False
    allow_night: bool = False
    return_allow_night: bool | None = None
    """The ride home's own choice of the night hours (None: the trip's `allow_night`): an
    evening said of the ride home (周日晚上回来) is no wish to ride out at 03:00."""
    night_lifted: bool = False
    """The night hours allowed on the ride out only because no ride outside them plans it
    (nobody chose them): the fewest minutes riding awake at night rank first
    (`rules.objective.apply_night`)."""
    return_night_lifted: bool = False
    """The same, of the ride home."""
    required_trains: tuple[str, ...] = ()
    # Hard constraints the traveller stated (README "What was asked"): met, or relaxed in the open.
    origin_station: str | None = None
    """The exact station to board at (北京西), when the traveller named one, not a city."""
    destination_station: str | None = None
    """The exact station to arrive at; the return leg runs between the same two stations."""
    homeward_stations: tuple[str | None, str | None] | None = None
    """The stations the ride home boards and alights at, where they are not the ride out's
    (None: `destination_station` and `origin_station`): a named station given up for the ride
    out alone (its deadline met at the city's other stations, `rules.relax`) is still the ride
    home's."""
    return_window: tuple[dt.time, dt.time] | None = None
    """When the return leg should leave."""
    return_arrive_window: tuple[dt.time, dt.time] | None = None
    """When the return leg should arrive (on the return day, or the next for a night ride)."""
    arrive_date: dt.date | None = None
    """The day the outbound ride must arrive (今晚出发第二天早上到)."""
    seat_classes: frozenset[SeatClass] = frozenset()
    """Acceptable classes as a category (any sleeper); `seat_class` is one named class."""
    return_seat_classes: frozenset[SeatClass] = frozenset()
    """The classes acceptable on the ride home alone (回程换成卧铺); empty: the trip's own."""
    return_train_types: frozenset[str] = frozenset()
    """The train types wished for on the ride home alone (回来坐高铁); empty: the trip's own."""
    stated_order: tuple[str, ...] = ()
    """The constraints as a chat stated them, each where last said, the latest last
    (`rules.relax`): the oldest gives way first; unlisted ones are older than any listed."""
    exclude_seat_classes: frozenset[SeatClass] = frozenset()
    exclude_train_types: frozenset[str] = frozenset()
    open_cities: frozenset[str] = frozenset()
    """Cities where any station of the official city will do at a segment's end. Elsewhere a
    city without an exact station means its city proper (`rules.config.in_city_proper`):
    金华 is 金华 and 金华南, not 义乌, which is 金华's too but a town of its own."""
    outlying_cities: frozenset[str] = frozenset()
    """Those of `open_cities` opened by the fallback alone, to keep a stated window that the
    city proper cannot (`rules.relax.outlying_keeps_windows`): an outlying station there is
    said in the plan."""
    strict_seat: bool = True
    """Only the named class (or category) is taken; False lets the fallback order choose."""
    order: Literal["earliest", "latest", "cheapest", "fastest", "earliest_arrival"] | None = None
    """The objective (`rules.objective`); None: the balanced score."""
    return_order: (
        Literal["earliest", "latest", "cheapest", "fastest", "earliest_arrival"] | None
    ) = None
    """The order of the ride home when said of it (回来那趟晚一点的: the latest)."""
    rank_window: tuple[dt.time, dt.time] | None = None
    """Ranking only, never a filter: departures outside it are ranked down (a relaxed window
    still prefers the nearest train; the ride home is not a dawn train by default). Beside a
    stated `depart_window` it is the hour that window was said around (10点左右)."""
    return_rank_window: tuple[dt.time, dt.time] | None = None
    """The ride home's hour said around (回来也9点左右), beside its `return_window`."""
    depart_part_of_day: bool = False
    """The `depart_window` is a part of the day said (当天早上过去), not an hour (七点以后):
    loose words that give way before the day said does (`rules.relax`)."""
    budget_strict: bool = True
    """False once the budget is relaxed: still shown and compared, no longer a filter."""
    party: tuple[TicketKind, ...] = ()
    """One ticket kind per traveller when the party is typed (children, students); empty:
    `passengers` adults. Each ride is priced per ticket (`rules.party`)."""
    no_overnight: bool = False
    """No ride through the night (不要过夜): an overnight train is not taken."""
    return_no_overnight: bool = False
    """No night on the train on the ride home alone (回来…白天的车，不要过夜)."""
    towns: tuple[Town, ...] = ()
    """Ends of the trip keyed by their own name rather than their prefecture's (苏州→昆山):
    each is a place of its own for legs, offers and the timetable (`rules.towns`)."""
    min_stay: int | None = Field(default=None, ge=0, le=24 * 60)
    """Minutes at least at the destination between the ride there and a ride home the same
    day, as the traveller said them (至少待6个小时); None: the rule's own (`MIN_STAY`)."""
    leisure: bool = False
    """A trip for pleasure: time at the destination weighs against price (the ranking's)."""
    stay_from_arrival: bool = False
    """The stay at the destination was said in nights (住三晚), not by a day home: a night is
    where one sleeps there, so they count from the day the ride there arrives, and a night
    train out moves the ride home as many days later (`rules.planner`, `stay_follow_legs`).
    The return day (`return_date` or `nights`) is the one of a ride arriving the day it
    leaves."""

    @model_validator(mode="after")
    def _party_is_passengers(self) -> TripRequest:
        if self.party and len(self.party) != self.passengers:
            raise ValueError("party lists one ticket per passenger")
        return self

    @model_validator(mode="after")
    def _dates_in_order(self) -> TripRequest:
        if any(stop.nights < 0 for stop in self.via):
            raise ValueError("via nights must be >= 0")
        if self.return_date is not None:
            last_leg = self.depart_date + dt.timedelta(days=sum(s.nights for s in self.via))
            if self.return_date < last_leg:
                raise ValueError("return_date is before the last onward leg")
        return self


# -- outputs -----------------------------------------------------------------------------------


class PassengerFare(Frozen):
    """What one kind of ticket costs on one ride: `count` tickets at `unit_price` each."""

    type: Literal["adult", "student", "child", "child_free"]
    count: int = Field(ge=1)
    unit_price: float = Field(ge=0)
    price: float = Field(ge=0)


class Leg(Frozen):
    """One train ride of an itinerary, priced for the whole party (`unit_price` is the adult
    fare; `price` the party's, the sum of `fares` when the party is typed)."""

    train_number: str
    origin_station: Station
    destination_station: Station
    depart_at: AwareDatetime
    arrive_at: AwareDatetime
    seat_class: SeatClass
    unit_price: float
    passengers: int
    price: float
    freshness: Freshness
    reason: str = ""
    segment: int = 0
    fares: tuple[PassengerFare, ...] = ()
    """The price per ticket kind (adult, student, child, child_free) when the party has
    children or students; empty for a party of adults."""


class Transfer(Frozen):
    """A change of train: arrive at `station`, board at `to_station` `minutes` later."""

    station: Station
    to_station: Station
    minutes: int
    same_station: bool


class Stay(Frozen):
    """Time spent in a city between arriving and leaving (`leave_at` None: trip ends there)."""

    city: str
    arrive_at: AwareDatetime
    leave_at: AwareDatetime | None = None


class DayPlan(Frozen):
    """One calendar day of the trip as a Chinese timeline."""

    date: dt.date
    items: tuple[str, ...]


class ScoreBreakdown(Frozen):
    """Weighted ranking penalties (see `rules.config.RankingWeights`); lower total is better."""

    price: float = 0.0
    travel_time: float = 0.0
    window_fit: float = 0.0
    transfers: float = 0.0
    seat_margin: float = 0.0
    seat_fallback: float = 0.0
    station_fit: float = 0.0
    """Segment ends where the traveller named a city but the plan uses a station not named
    after it (肥东 for 合肥), `RankingWeights.station_fit` each; 0 at the city's own stations."""
    objective: float = 0.0
    """What the trip's own aims add to the balanced parts above (`rules.objective`): a stated
    order (最便宜, 最快), a night of a stay spent on a train, a leisure trip's hours away, the
    distance from an hour said with 左右, night hours nobody chose. The alternatives are
    ranked by `total`, this included, so the score shown is the one they were ranked by."""
    total: float = 0.0


class Itinerary(Frozen):
    """A complete, validated trip: legs, transfers, stays, day plan, cost and why."""

    legs: tuple[Leg, ...]
    transfers: tuple[Transfer, ...] = ()
    stays: tuple[Stay, ...] = ()
    days: tuple[DayPlan, ...] = ()
    total_price: float
    budget: float | None = None
    within_budget: bool | None = None
    remaining_per_day: float | None = None
    hotel_nights: int = 0
    sleeper_nights: int = 0
    score: ScoreBreakdown = ScoreBreakdown()
    reasons: tuple[str, ...] = ()

    @property
    def train_numbers(self) -> tuple[str, ...]:
        """The trains taken, in order."""
        return tuple(leg.train_number for leg in self.legs)


# -- findings ----------------------------------------------------------------------------------

UNKNOWN_TRAIN = "UNKNOWN_TRAIN"
TIME_MISMATCH = "TIME_MISMATCH"
PRICE_MISMATCH = "PRICE_MISMATCH"
STATION_MISMATCH = "STATION_MISMATCH"
NO_SEATS = "NO_SEATS"
CONNECTION_TOO_SHORT = "CONNECTION_TOO_SHORT"
CONNECTION_TOO_LONG = "CONNECTION_TOO_LONG"
OVER_BUDGET = "OVER_BUDGET"
NOT_CHRONOLOGICAL = "NOT_CHRONOLOGICAL"


@dataclass(frozen=True, slots=True)
class Violation:
    """Why a proposed itinerary or train number cannot be trusted (`code` is a constant above)."""

    code: str
    message: str
    train_number: str | None = None


NO_OFFERS = "NO_OFFERS"
SOLD_OUT = "SOLD_OUT"
NO_CONNECTION = "NO_CONNECTION"
FILTERED_OUT = "FILTERED_OUT"
PAST_DEPARTURE = "PAST_DEPARTURE"
# OVER_BUDGET and UNKNOWN_TRAIN (a required train absent from the offers) also serve as
# failure codes.


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a trip segment (or, with `segment` None, the whole trip) has no option."""

    code: str
    message: str
    segment: int | None = None


@dataclass(frozen=True, slots=True)
class PlanResult:
    """Ranked itineraries (best first), Chinese notes, and why anything could not be planned."""

    itineraries: tuple[Itinerary, ...] = ()
    notes: tuple[str, ...] = ()
    failures: tuple[Failure, ...] = ()

    @property
    def best(self) -> Itinerary | None:
        """The top itinerary, or None when nothing could be built."""
        return self.itineraries[0] if self.itineraries else None
