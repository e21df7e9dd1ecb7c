"""Ride options: which (offer, seat class) pairs a traveller could actually take on one leg.

Filtering runs as a funnel (date and cities → not yet departed → train type and windows →
seats for the party → night rule) and counts what survives each step, so a segment with
nothing left can say which rule emptied it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from rules.config import NIGHT_REST_UNTIL, RuleConfig, in_city_proper, is_overnight
from rules.model import LegKey, TripRequest
from rules.party import seats_needed
from sources.models import (
    SLEEPER_CLASSES,
    TOWN_SIBLING,
    Freshness,
    Seat,
    SeatClass,
    SeatStatus,
    Station,
    TrainOffer,
    wished_type,
)

SCARCE_BELOW = 20
"""Spare seats under which a class counts as scarce (12306 prints "有" from 20 up)."""


@dataclass(frozen=True, slots=True)
class Ride:
    """One bookable (offer, class) choice; times are minutes since the epoch for fast sorting."""

    offer: TrainOffer
    seat_class: SeatClass
    unit_price: float
    fallback: int
    scarcity: float
    depart: int
    arrive: int
    freshness: Freshness
    required: bool
    aside: int = 0
    """Ends of its segment this ride makes at a station not named after the city the
    traveller named there (`off_name`): 0, 1 or 2; ranked down, never filtered."""


@dataclass(slots=True)
class Funnel:
    """How many offers survived each filtering step of one leg."""

    total: int = 0
    future: int = 0
    eligible: int = 0
    seated: int = 0
    usable: int = 0

    def add(self, other: Funnel) -> None:
        """Accumulate another leg's counts (the legs of a route or of a segment)."""
        self.total += other.total
        self.future += other.future
        self.eligible += other.eligible
        self.seated += other.seated
        self.usable += other.usable


def epoch_minutes(moment: dt.datetime) -> int:
    """Whole minutes since the epoch: cheap integer arithmetic for connection windows."""
    return int(moment.timestamp()) // 60


def early_for_deadline(
    moment: dt.datetime, request: TripRequest, arrive_date: dt.date | None
) -> bool:
    """True when `moment` is on an earlier day than a deadline's (an arrival window from
    midnight on `arrive_date`): 后天早上九点前到 is met the evening before too."""
    window = request.arrive_window
    return (
        window is not None
        and arrive_date is not None
        and window[0] == dt.time(0, 0)
        and moment.date() < arrive_date
    )


def arrival_gap(moment: dt.datetime, request: TripRequest) -> int:
    """Minutes an arrival falls outside the request's arrival window; 0 for an arrival on an
    earlier day than a deadline's (`early_for_deadline`)."""
    if early_for_deadline(moment, request, request.arrive_date):
        return 0
    return window_gap(moment, request.arrive_window)


def window_gap(moment: dt.datetime, window: tuple[dt.time, dt.time] | None) -> int:
    """Minutes by which the time of day of `moment` falls outside `window` (0 inside)."""
    if window is None:
        return 0
    minute = moment.hour * 60 + moment.minute
    lo = window[0].hour * 60 + window[0].minute
    hi = window[1].hour * 60 + window[1].minute
    if lo <= hi:
        if minute < lo:
            return lo - minute
        return max(0, minute - hi)
    # A window across midnight (22:00–02:00): inside unless strictly between hi and lo.
    if hi < minute < lo:
        return min(lo - minute, minute - hi)
    return 0


def expected_arrival(
    depart: dt.date,
    depart_window: tuple[dt.time, dt.time] | None,
    arrive_window: tuple[dt.time, dt.time] | None,
) -> dt.date | None:
    """The day an arrival window with no stated day means: the day of departure.

    A window is a time of day, so without a day "中午之前到" would accept a ride arriving the
    next noon, a 23-hour trip the traveller never asked for. The one exception is a departure
    window that opens after the arrival window closes (晚上走、早上到): that arrival can only
    be the next morning. Where no ride arrives on the day meant, the planner relaxes the day
    in the open (`rules.relax`), never silently.
    """
    if arrive_window is None:
        return None
    if depart_window is not None and depart_window[0] > arrive_window[1]:
        return depart + dt.timedelta(days=1)
    return depart


def at_night(moment: dt.datetime, config: RuleConfig) -> bool:
    """True in the hours the engine avoids: before the earliest departure or after the latest."""
    clock = moment.time()
    return clock < config.earliest_departure or clock > config.latest_arrival


def seat_scarcity(available: int | None, passengers: int) -> float:
    """0 with plenty of seats, rising to 1 at the last seat the party needs."""
    if available is None:
        return 0.0
    spare = available - passengers
    return max(0.0, 1.0 - spare / SCARCE_BELOW)


def _outside_city_proper(
    offer: TrainOffer, request: TripRequest, *, ends: tuple[bool, bool]
) -> bool:
    """True when a segment's end, boarding or alighting (`ends`), where the traveller named a
    city and not a station, is outside that city proper (义乌 for "金华")."""
    board, alight = ends
    open_cities = request.open_cities
    return (board and not in_city_proper(offer.origin_station, open_cities)) or (
        alight and not in_city_proper(offer.destination_station, open_cities)
    )


def off_name(station: Station, open_cities: frozenset[str] = frozenset()) -> bool:
    """True when `station` is not named after its city (肥东, 武昌, 福田 for 合肥, 武汉, 深圳),
    in a city that has stations named after it (not one of `open_cities`, such as 延边).

    A traveller who names a city expects one of its own-named stations (合肥, 合肥南, 合肥西):
    a station inside the city proper under another name, a county seat 17 km out among them,
    is taken only when clearly better (`RankingWeights.station_fit`).
    """
    return station.city not in open_cities and not station.name.startswith(station.city)


def at_place(station: Station, named: str) -> bool:
    """True when `station` is the station or town the traveller named: the station itself, or
    one named after a town with a direction (昆山南 for 昆山, as the directory's town has it).
    A city's namesake station is only itself (北京站 is not 北京西). A town's station named
    after its old town (平遥古城 beside 平遥) is the town's as well, as the directory reads it
    (`sources.models.TOWN_SIBLING`): a named train calling there is a ride there."""
    name = station.name
    return name == named or (
        station.city != named
        and name.startswith(named)
        and name[len(named) :] in ("东", "西", "南", "北", TOWN_SIBLING)
    )


def build_rides(
    key: LegKey,
    offers: Iterable[TrainOffer],
    freshness: Freshness,
    request: TripRequest,
    config: RuleConfig,
    now: dt.datetime,
    *,
    depart_window: bool,
    arrive_window: bool,
    board: str | None = None,
    alight: str | None = None,
    arrive_date: dt.date | None = None,
    outlying: bool | None = None,
    not_before: dt.time | None = None,
) -> tuple[list[Ride], Funnel]:
    """Every usable ride of one leg and the funnel counts explaining what was dropped.

    `depart_window`/`arrive_window` say whether this leg starts/ends its segment, i.e.
    whether the traveller's windows apply to it; `board`/`alight` are the exact stations
    the traveller named for the segment's ends, and `arrive_date` the day it must arrive.
    `outlying` lets a city end be an outlying station (True), never (False), or (None) only
    where no offer of this leg serves the city proper; the planner decides it per segment.
    `not_before` is the earliest departure of a leg that starts its segment after a stay.
    """
    funnel = Funnel()
    rides: list[Ride] = []
    cutoff = now + dt.timedelta(minutes=config.departure_lead)
    required = {number.strip().upper() for number in request.required_trains}
    slack = config.window_slack
    offers = [
        offer
        for offer in offers
        if offer.depart_at.date() == key.date
        and offer.origin_station.city == key.origin
        and offer.destination_station.city == key.destination
    ]
    city_ends = (depart_window and board is None, arrive_window and alight is None)
    # The ends where the traveller named a city, for the ranking (`Ride.aside`): a station
    # named by the traveller is theirs whatever its name.
    said_city = city_ends
    if outlying is None:
        outlying = all(_outside_city_proper(offer, request, ends=city_ends) for offer in offers)
    if outlying:
        # No train at the city proper at all (银川→吴忠 runs to 青铜峡 and 盐池 only): the
        # outlying stations are planned, and the plan says so (NOTE_OUTLYING).
        city_ends = (False, False)
    for offer in offers:
        named = offer.train_number in required
        if not named and _outside_city_proper(offer, request, ends=city_ends):
            continue  # 义乌 for "金华": not a train to or from the city the traveller named
        funnel.total += 1
        if offer.depart_at <= cutoff:
            continue
        funnel.future += 1
        # A named train too must call where the traveller boards and alights (K7041 to 漠河
        # is not K7041 to 加格达奇, where a city-wide answer names it).
        if depart_window and board and not at_place(offer.origin_station, board):
            continue
        if arrive_window and alight and not at_place(offer.destination_station, alight):
            continue
        if not named:
            if not wished_type(
                offer.train_type,
                request.train_types,
                request.exclude_train_types,
                kin=request.train_kin,
            ):
                continue
            if request.no_overnight and is_overnight(offer):
                continue
            if depart_window and not_before and offer.depart_at.time() < not_before:
                continue  # the night of the stay said is spent in a bed, not on this train
            # 后天早上九点前到，明天几点走都行: a deadline on a later day is met by arriving
            # earlier too, on a ride leaving the day the traveller said.
            if (
                arrive_window
                and arrive_date
                and offer.arrive_at.date() != arrive_date
                and not early_for_deadline(offer.arrive_at, request, arrive_date)
            ):
                continue
            if depart_window and window_gap(offer.depart_at, request.depart_window) > slack:
                continue
            if arrive_window and arrival_gap(offer.arrive_at, request) > slack:
                continue
        funnel.eligible += 1
        aside = int(said_city[0] and off_name(offer.origin_station, request.open_cities))
        aside += int(said_city[1] and off_name(offer.destination_station, request.open_cities))
        found = _seat_options(offer, named, freshness, request, config, aside)
        funnel.seated += found is not None
        if found:
            funnel.usable += 1
            rides.extend(found)
    return rides, funnel


def _seat_options(
    offer: TrainOffer,
    named: bool,
    freshness: Freshness,
    request: TripRequest,
    config: RuleConfig,
    aside: int = 0,
) -> list[Ride] | None:
    """The usable classes of one offer in fallback order (None: no seats for the party).

    A class later in the order is kept only when it is cheaper than every class kept before
    it: otherwise it is worse on price and on fallback, and can never be the better choice.
    """
    seats = seats_needed(request)
    by_class: dict[SeatClass, Seat] = {}
    for listed in offer.seats:
        by_class.setdefault(listed.seat_class, listed)  # like TrainOffer.seat: the first one wins
    # 最便宜, 最快: a seat on a night ride is the traveller's own choice of price (or time)
    # over sleep, unless a berth was asked for (then the seat is not among the classes tried).
    night_ok = named or request.allow_night or request.order in ("cheapest", "fastest")
    seat_night_ok = night_ok or not (
        at_night(offer.depart_at, config) or at_night(offer.arrive_at, config)
    )
    overnight = is_overnight(offer)
    depart = arrive = 0
    found: list[Ride] | None = None
    cheapest = float("inf")
    order = config.seat_order(
        offer,
        request.seat_class,
        accepted=request.seat_classes,
        excluded=request.exclude_seat_classes,
        strict=request.strict_seat,
    )
    for rank, seat_class in enumerate(order):
        seat = by_class.get(seat_class)
        if seat is None or seat.price is None:
            continue
        if seat.can_seat(seats):
            scarcity = seat_scarcity(seat.available, seats)
        elif request.allow_waitlist and seat.status is SeatStatus.WAITLIST:
            scarcity = 1.0
        else:
            continue
        if found is None:
            found = []
            depart, arrive = epoch_minutes(offer.depart_at), epoch_minutes(offer.arrive_at)
        # An overnight berth is the night's lodging, so the night rule does not apply to it
        # (unless it sets the traveller down in the small hours).
        lodged = overnight and offer.arrive_at.time() >= NIGHT_REST_UNTIL
        if not (seat_night_ok or (lodged and seat_class in SLEEPER_CLASSES)):
            continue
        if seat.price >= cheapest:
            continue
        cheapest = seat.price
        found.append(
            Ride(
                offer=offer,
                seat_class=seat_class,
                unit_price=seat.price,
                fallback=rank,
                scarcity=scarcity,
                depart=depart,
                arrive=arrive,
                freshness=freshness,
                required=named,
                aside=aside,
            )
        )
    return found
