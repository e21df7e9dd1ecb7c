"""Every scheduling and ranking rule of the engine, as a named, documented constant.

`RuleConfig` bundles them (frozen); `DEFAULT_RULES` is what the service uses unless told
otherwise. Durations are whole minutes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rules.city_proper import CITY_PROPER_EXTRA
from sources.models import SeatClass, Station, TrainOffer

MIN_CONNECTION_SAME_STATION = 20
"""Minutes to change trains inside one station: get off, find the platform, board."""

MIN_CONNECTION_CROSS_STATION = 90
"""Minutes to change between two stations of one city (北京南 → 北京西 by metro, with margin)."""


def in_city_proper(station: Station, open_cities: frozenset[str] = frozenset()) -> bool:
    """True when `station` is in its city proper: named after its official city (金华, 金华南),
    or one of the few inside it under another name (武昌 and 汉口 for 武汉, `CITY_PROPER_EXTRA`,
    within 20 km of the city's station by the reference coordinates).

    The official city is a prefecture, too wide for a traveller's "金华": 义乌 (50 km away) is
    金华's too, and 柳园 and 敦煌 are 酒泉's, 300 km from it. `open_cities` are the cities where
    every station counts (one with no station named after it, such as 延边).
    """
    return (
        station.city in open_cities
        or station.name.startswith(station.city)
        or station.name in CITY_PROPER_EXTRA
    )


def can_change(arriving: Station, leaving: Station) -> bool:
    """True when a traveller can change trains from `arriving` to `leaving` inside a segment:
    the same station, or two stations of one city proper (北京南 → 北京西, 上海 → 上海虹桥,
    吐鲁番 → 吐鲁番北), never across a prefecture (酒泉南 → 柳园) within the
    `MIN_CONNECTION_CROSS_STATION` minutes. A station not named after its city (清河, 福田) is
    not offered for a change across stations, even where one would be possible: the
    conservative way, since the engine knows no distances.
    """
    if arriving.telecode == leaving.telecode:
        return True
    return arriving.city == leaving.city and in_city_proper(arriving) and in_city_proper(leaving)


MAX_CONNECTION = 240
"""No connection longer than this: past four hours a transfer is a wasted afternoon."""

EARLIEST_DEPARTURE = dt.time(6, 0)
"""Departures before this are avoided unless the request allows night travel."""

LATEST_ARRIVAL = dt.time(23, 0)
"""Arrivals (and departures) after this are avoided unless the request allows night travel.

An overnight ride in a sleeper class is exempt: the berth is the night's lodging, so it may
leave late and arrive early.
"""

RETURN_NOT_BEFORE = dt.time(9, 0)
"""With no return time stated, a ride home before this is ranked down (not ruled out): the
last day of a trip is not spent catching a dawn train."""

HUB_STOP_MAX_WAIT = 24 * 60
"""Longest stop at a transfer city where no connection within `MAX_CONNECTION` exists
(喀什→三亚 changes at 吐鲁番 the same evening and at 广州 the next afternoon, after a night
there): the rest of the day or a night in the city, up to a day. Planned only where no
regular connection joins the ends, and said as a stay (a hotel night when it spans one)."""

MIN_STAY = 180
"""Minutes at least between arriving in a city of the trip and leaving it again: a stop with
no night (先在南京玩一天, 顺路去苏州逛逛) or a same-day return is a visit, not a change of
trains, so it gets a few hours in the city rather than the 20 minutes of a transfer."""

MAX_DETOUR = 2.0
"""A transfer route may take at most this many times the quickest direct train of the day."""

MAX_TRANSFERS = 2
"""Changes of train per trip segment by default (the engine supports 0 or 1)."""

WINDOW_SLACK = 0
"""Minutes outside a stated departure/arrival window still considered: none, since a stated
window is a hard constraint (8点前 never gives 08:08); a miss is relaxed in the open."""

DEPARTURE_LEAD = 0
"""Minutes before departure a train stops being offered (0: only trains already gone)."""

TOP_K_PER_SEGMENT = 6
"""Best-scored, mutually distinct options kept per segment before combining segments."""

CHEAPEST_K_PER_SEGMENT = 3
"""Cheapest options also kept per segment, so a tight budget can still be met."""

BEAM_WIDTH = 64
"""Partial itineraries kept while chaining segments: bounds the search for long trips."""

ALTERNATIVE_MIN_GAP = 60
"""Alternatives must differ by a train leaving at least this much earlier or later."""

HIGH_SPEED_TYPES = frozenset({"G", "D", "C"})
"""Train types whose default class is 二等座 (the others default to sleeper or 硬座)."""

SEAT_FALLBACK_ORDER: Mapping[SeatClass, tuple[SeatClass, ...]] = MappingProxyType(
    {
        # High-speed: sold out or over budget → the nearest class; pay up only when a cheaper
        # one is gone. Standing (无座) is never chosen unless asked for.
        SeatClass.SECOND: (SeatClass.SECOND, SeatClass.FIRST, SeatClass.BUSINESS),
        SeatClass.FIRST: (SeatClass.FIRST, SeatClass.SECOND, SeatClass.BUSINESS),
        SeatClass.PREMIUM: (SeatClass.PREMIUM, SeatClass.BUSINESS, SeatClass.FIRST),
        SeatClass.BUSINESS: (SeatClass.BUSINESS, SeatClass.PREMIUM, SeatClass.FIRST),
        # Sleepers: another berth first (it still replaces a hotel night), then a seat.
        SeatClass.HARD_SLEEPER: (
            SeatClass.HARD_SLEEPER,
            SeatClass.EMU_SLEEPER,
            SeatClass.SOFT_SLEEPER,
            SeatClass.HARD_SEAT,
        ),
        SeatClass.EMU_SLEEPER: (
            SeatClass.EMU_SLEEPER,
            SeatClass.HARD_SLEEPER,
            SeatClass.SOFT_SLEEPER,
            SeatClass.SECOND,
        ),
        SeatClass.SOFT_SLEEPER: (
            SeatClass.SOFT_SLEEPER,
            SeatClass.HARD_SLEEPER,
            SeatClass.PREMIUM_SLEEPER,
            SeatClass.EMU_SLEEPER,
        ),
        SeatClass.PREMIUM_SLEEPER: (
            SeatClass.PREMIUM_SLEEPER,
            SeatClass.SOFT_SLEEPER,
            SeatClass.HARD_SLEEPER,
        ),
        # Ordinary trains: a seat, then a berth, then standing as the last resort.
        SeatClass.HARD_SEAT: (
            SeatClass.HARD_SEAT,
            SeatClass.SOFT_SEAT,
            SeatClass.HARD_SLEEPER,
            SeatClass.NO_SEAT,
        ),
        SeatClass.SOFT_SEAT: (SeatClass.SOFT_SEAT, SeatClass.HARD_SEAT, SeatClass.HARD_SLEEPER),
        SeatClass.NO_SEAT: (SeatClass.NO_SEAT, SeatClass.HARD_SEAT, SeatClass.SECOND),
    }
)
"""For a preferred class, the classes to try in order (itself first) when it cannot be had."""

DEFAULT_SLEEPER_ORDER: tuple[SeatClass, ...] = (
    SeatClass.HARD_SLEEPER,
    SeatClass.EMU_SLEEPER,
    SeatClass.SOFT_SLEEPER,
    SeatClass.PREMIUM_SLEEPER,
)
"""With no class requested, the berth an overnight ride defaults to: the cheapest kind first."""


@dataclass(frozen=True, slots=True)
class RankingWeights:
    """Weights of the ranking penalties; an itinerary's score is their weighted sum (lower wins)."""

    price: float = 1.0
    """Points per 100 yuan of ticket price per passenger."""
    travel_time: float = 1.0
    """Points per hour from boarding the first train to leaving the last, per segment."""
    window_fit: float = 2.0
    """Points per hour a departure/arrival falls outside the preferred window."""
    transfers: float = 1.5
    """Points per change of train."""
    seat_margin: float = 0.5
    """Points per leg when seats are scarce (1.0 at the last seat, 0 from 20 spare seats)."""
    seat_fallback: float = 25.0
    """Points per step down the fallback order; large, so the preferred class wins if it can."""


@dataclass(frozen=True, slots=True)
class RuleConfig:
    """All rules the engine applies; override a field with `dataclasses.replace`."""

    min_connection_same_station: int = MIN_CONNECTION_SAME_STATION
    min_connection_cross_station: int = MIN_CONNECTION_CROSS_STATION
    max_connection: int = MAX_CONNECTION
    min_stay: int = MIN_STAY
    hub_stop_max_wait: int = HUB_STOP_MAX_WAIT
    earliest_departure: dt.time = EARLIEST_DEPARTURE
    latest_arrival: dt.time = LATEST_ARRIVAL
    max_transfers: int = MAX_TRANSFERS
    window_slack: int = WINDOW_SLACK
    return_not_before: dt.time = RETURN_NOT_BEFORE
    max_detour: float = MAX_DETOUR
    departure_lead: int = DEPARTURE_LEAD
    top_k_per_segment: int = TOP_K_PER_SEGMENT
    cheapest_k_per_segment: int = CHEAPEST_K_PER_SEGMENT
    beam_width: int = BEAM_WIDTH
    alternative_min_gap: int = ALTERNATIVE_MIN_GAP
    seat_fallback_order: Mapping[SeatClass, tuple[SeatClass, ...]] = field(
        default_factory=lambda: SEAT_FALLBACK_ORDER
    )
    weights: RankingWeights = field(default_factory=RankingWeights)

    def min_connection(self, same_station: bool) -> int:
        """The shortest allowed change: same station or across the city."""
        if same_station:
            return self.min_connection_same_station
        return self.min_connection_cross_station

    def connects(self, arrive_at: dt.datetime, depart_at: dt.datetime, same_station: bool) -> bool:
        """True when a change of trains within a segment is allowed: at least the minimum
        change time, and at most `max_connection` or, as a stop at the hub, a day."""
        wait = (depart_at - arrive_at).total_seconds() / 60
        longest = max(self.max_connection, self.hub_stop_max_wait)
        return self.min_connection(same_station) <= wait <= longest

    def min_gap_between_segments(self, same_station: bool) -> int:
        """The shortest time between two segments: a visit to the city, and never less than
        the change itself takes."""
        return max(self.min_stay, self.min_connection(same_station))

    def seat_order(
        self,
        offer: TrainOffer,
        preferred: SeatClass | None,
        *,
        accepted: frozenset[SeatClass] = frozenset(),
        excluded: frozenset[SeatClass] = frozenset(),
        strict: bool = False,
    ) -> tuple[SeatClass, ...]:
        """Classes to try on `offer`, best first: the preferred one, then its fallbacks.

        `accepted` is a category (any sleeper): its classes in the default berth order.
        `strict` keeps only what was asked; `excluded` classes are never tried.
        """
        if preferred is None and accepted:
            order = tuple(c for c in (*DEFAULT_SLEEPER_ORDER, *SeatClass) if c in accepted)
            order = tuple(dict.fromkeys(order))
        else:
            wanted = preferred or default_class(offer)
            order = self.seat_fallback_order.get(wanted, (wanted,))
            if strict and preferred is not None:
                order = tuple(c for c in order if c is preferred or c in accepted)
            if preferred is None:
                # Nothing asked: any class the train sells beats no train (a D with berths
                # only, at the hour asked); standing stays the very last resort.
                rest = [c for c in SeatClass if c not in order and c is not SeatClass.NO_SEAT]
                order = (*order, *rest)
                if SeatClass.NO_SEAT not in order:
                    order = (*order, SeatClass.NO_SEAT)
        return tuple(c for c in order if c not in excluded)


DEFAULT_RULES = RuleConfig()


def is_overnight(offer: TrainOffer) -> bool:
    """True when the ride spends the night on the train (arrives on a later date)."""
    return offer.arrive_at.date() > offer.depart_at.date()


def default_class(offer: TrainOffer) -> SeatClass:
    """The class a traveller who named none would pick: a berth overnight, else the cheap seat."""
    if is_overnight(offer):
        for seat_class in DEFAULT_SLEEPER_ORDER:
            if offer.seat(seat_class) is not None:
                return seat_class
    if offer.train_type in HIGH_SPEED_TYPES:
        return SeatClass.SECOND
    return SeatClass.HARD_SEAT
