"""Every scheduling and ranking rule of the engine, as a named, documented constant.

`RuleConfig` bundles them (frozen); `DEFAULT_RULES` is what the service uses unless told
otherwise. Durations are whole minutes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from sources.models import SeatClass, TrainOffer

MIN_CONNECTION_SAME_STATION = 20
"""Minutes to change trains inside one station: get off, find the platform, board."""

MIN_CONNECTION_CROSS_STATION = 90
"""Minutes to change between two stations of one city (北京南 → 北京西 by metro, with margin)."""

MAX_CONNECTION = 240
"""No connection longer than this: past four hours a transfer is a wasted afternoon."""

EARLIEST_DEPARTURE = dt.time(6, 0)
"""Departures before this are avoided unless the request allows night travel."""

LATEST_ARRIVAL = dt.time(23, 0)
"""Arrivals (and departures) after this are avoided unless the request allows night travel.

An overnight ride in a sleeper class is exempt: the berth is the night's lodging, so it may
leave late and arrive early.
"""

MAX_TRANSFERS = 2
"""Changes of train per trip segment by default (the engine supports 0 or 1)."""

WINDOW_SLACK = 60
"""Minutes outside a preferred departure/arrival window still considered (with a penalty)."""

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
    earliest_departure: dt.time = EARLIEST_DEPARTURE
    latest_arrival: dt.time = LATEST_ARRIVAL
    max_transfers: int = MAX_TRANSFERS
    window_slack: int = WINDOW_SLACK
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

    def seat_order(self, offer: TrainOffer, preferred: SeatClass | None) -> tuple[SeatClass, ...]:
        """Classes to try on `offer`, best first: the preferred one, then its fallbacks."""
        wanted = preferred or default_class(offer)
        return self.seat_fallback_order.get(wanted, (wanted,))


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
