"""The shape of a planned trip as a traveller sees it, read from a reply's itinerary.

Pure data over reply dicts (no IO): legs grouped by their `segment` (0 = outbound, middle
segments after via stops, the last one the return when it ends where the trip began), the
outbound journey, the return journey, and the points where the traveller stops on the way.
A journey is judged as the traveller rides it: first boarding, last alighting, every change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sources.models import SHANGHAI


def parse_time(value: str) -> dt.datetime:
    """An ISO time of the API (`2026-12-11T06:36:00+08:00`) on the Shanghai clock."""
    moment = dt.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=SHANGHAI)
    return moment.astimezone(SHANGHAI)


def train_type(train_number: str) -> str:
    """The type letter of a train number; "P" for a digits-only (普快/普客) train."""
    head = train_number[:1].upper()
    return head if head.isalpha() else "P"


@dataclass(frozen=True)
class Leg:
    """One ride of the plan."""

    train_number: str
    origin: str
    origin_code: str
    origin_city: str
    destination: str
    destination_code: str
    destination_city: str
    depart: dt.datetime
    arrive: dt.datetime
    seat_class: str
    unit_price: float | None
    price: float | None
    passengers: int | None
    segment: int
    fares: list[dict[str, Any]] | None

    @classmethod
    def from_reply(cls, raw: dict[str, Any]) -> Leg:
        start, end = raw.get("origin_station") or {}, raw.get("destination_station") or {}
        fares = raw.get("fares")
        return cls(
            train_number=str(raw.get("train_number", "")).upper(),
            origin=start.get("name", ""),
            origin_code=start.get("telecode", ""),
            origin_city=start.get("city", ""),
            destination=end.get("name", ""),
            destination_code=end.get("telecode", ""),
            destination_city=end.get("city", ""),
            depart=parse_time(raw["depart_at"]),
            arrive=parse_time(raw["arrive_at"]),
            seat_class=str(raw.get("seat_class") or ""),
            unit_price=raw.get("unit_price"),
            price=raw.get("price"),
            passengers=raw.get("passengers"),
            segment=int(raw.get("segment") or 0),
            fares=list(fares) if isinstance(fares, list) else None,
        )

    @property
    def overnight(self) -> bool:
        """The ride arrives on a later date than it left."""
        return self.arrive.date() > self.depart.date()

    def describe(self) -> str:
        return (
            f"{self.train_number} {self.origin}→{self.destination} "
            f"{self.depart:%m-%d %H:%M}→{self.arrive:%m-%d %H:%M} {self.seat_class}"
        )


@dataclass(frozen=True)
class Stop:
    """A point where the traveller leaves one train and later boards another."""

    station: str
    city: str
    next_station: str
    arrive: dt.datetime
    leave: dt.datetime
    planned: bool  # a segment boundary (a stay on the way), not a change inside a segment

    @property
    def nights(self) -> int:
        return (self.leave.date() - self.arrive.date()).days


@dataclass(frozen=True)
class Journey:
    """Legs ridden one after another; `parts` are its segments (more than one across via stops)."""

    parts: tuple[tuple[Leg, ...], ...]

    @property
    def legs(self) -> tuple[Leg, ...]:
        return tuple(leg for part in self.parts for leg in part)

    @property
    def first(self) -> Leg:
        return self.legs[0]

    @property
    def last(self) -> Leg:
        return self.legs[-1]

    @property
    def changes(self) -> int:
        """Changes of train inside segments (a planned stay on the way is not a change)."""
        return sum(len(part) - 1 for part in self.parts)

    @property
    def minutes(self) -> int:
        """Door-to-door time, first departure to last arrival."""
        return int((self.last.arrive - self.first.depart).total_seconds() // 60)

    @property
    def unit_price(self) -> float | None:
        """What one adult pays for the journey, when every leg says."""
        prices = [_unit_price(leg) for leg in self.legs]
        return None if any(p is None for p in prices) else sum(p for p in prices if p)

    def change_points(self) -> list[Stop]:
        """Every change inside a segment and every stay between its segments, in order."""
        points = []
        legs = self.legs
        ends = [len(part) for part in self.parts]
        boundaries = {sum(ends[: i + 1]) for i in range(len(ends))}
        for index in range(1, len(legs)):
            before, after = legs[index - 1], legs[index]
            points.append(
                Stop(
                    station=before.destination,
                    city=before.destination_city,
                    next_station=after.origin,
                    arrive=before.arrive,
                    leave=after.depart,
                    planned=index in boundaries,
                )
            )
        return points

    def describe(self) -> str:
        return "; ".join(leg.describe() for leg in self.legs)


def _unit_price(leg: Leg) -> float | None:
    if leg.unit_price is not None:
        return float(leg.unit_price)
    if leg.price is not None and leg.passengers:
        return float(leg.price) / leg.passengers
    return None


@dataclass(frozen=True)
class Trip:
    """The plan read as outbound, the whole way out (with any stays on the way) and return."""

    outbound: Journey
    forward: Journey  # every segment before the return; the outbound is its beginning
    back: Journey | None

    @property
    def stay_hours(self) -> float | None:
        """Hours between arriving at the destination and boarding the return."""
        if self.back is None:
            return None
        return (self.back.first.depart - self.forward.last.arrive).total_seconds() / 3600

    @property
    def stay_nights(self) -> int | None:
        """Nights between arriving at the destination and boarding the return."""
        if self.back is None:
            return None
        return (self.back.first.depart.date() - self.forward.last.arrive.date()).days


def segments(legs: Iterable[Leg]) -> list[tuple[Leg, ...]]:
    """Legs grouped by segment, in segment order, each group in departure order."""
    groups: dict[int, list[Leg]] = {}
    for leg in legs:
        groups.setdefault(leg.segment, []).append(leg)
    return [tuple(sorted(groups[key], key=lambda leg: leg.depart)) for key in sorted(groups)]


def read_trip(
    itinerary: dict[str, Any],
    origin_names: Sequence[str] = (),
    destination_names: Sequence[str] = (),
) -> Trip | None:
    """The trip of an itinerary; `origin_names`/`destination_names` are the traveller's
    stations for the outbound's start and end, when the case states them."""
    legs = [Leg.from_reply(raw) for raw in itinerary.get("legs") or []]
    if not legs:
        return None
    parts = segments(legs)
    back: Journey | None = None
    if len(parts) > 1 and _ends_at_origin(parts[-1], parts[0][0], origin_names):
        back = Journey((parts[-1],))
        parts = parts[:-1]
    # The outbound is the first segment; when the case names its end and the first segment
    # stops short of it (a via stop), the outbound runs on through the segments that reach it.
    reach = 1
    if destination_names and parts[0][-1].destination not in destination_names:
        for index, part in enumerate(parts):
            if part[-1].destination in destination_names:
                reach = index + 1
                break
    return Trip(outbound=Journey(tuple(parts[:reach])), forward=Journey(tuple(parts)), back=back)


def _ends_at_origin(part: tuple[Leg, ...], first: Leg, origin_names: Sequence[str]) -> bool:
    end = part[-1]
    return (
        end.destination == first.origin
        or end.destination in origin_names
        or (bool(end.destination_city) and end.destination_city == first.origin_city)
    )
