"""A train named without stations ("G1 明天的", "Z21 后天还有票吗"): its own route.

The train's stop list on the asked date gives the stations the traveller left out: the first
stop for a missing origin, the last for a missing destination (a station the traveller did
name is kept, so "坐C2003去天津" rides C2003 from its first stop to 天津). A number no source
knows on that date is said as such, never planned as another train.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from app.agent import texts
from app.errors import NotFound
from app.intent.model import TravelIntent, missing_fields
from app.tickets.stops import StopListResult
from sources.capabilities import StopCall
from sources.models import normalise_train_number

log = logging.getLogger("railtrip.agent")

MAX_STOPS_SAID = 8
"""Stops listed in the reply's route line; a longer route lists its ends and the count."""


class StopSearch(Protocol):
    """The part of `StopListService` the agent uses (a fake in unit tests)."""

    async def stops(self, train_number: str, date: dt.date) -> StopListResult: ...


@dataclass(frozen=True)
class NamedTrainRoute:
    """What the stop list added: the intent with its stations, and the route line to say."""

    intent: TravelIntent
    note: str | None = None
    unknown: str | None = None  # a train number no source knows on that date
    train_no: str = ""  # the run's own id (12306's train_no): both numbers of a renumbered one


def needs_route(intent: TravelIntent) -> bool:
    """True when the traveller named a train and a date but not both ends of the ride."""
    return bool(
        intent.train_numbers
        and intent.date_start is not None
        and (intent.origin is None or intent.destination is None)
        and not intent.via
    )


def unknown_train_only(intent: TravelIntent) -> bool:
    """True when the only thing to go by is a train number that cannot exist (G99999)."""
    return bool(
        intent.invalid_train_numbers
        and not intent.train_numbers
        and intent.origin is None
        and intent.destination is None
        and not intent.destination_text
    )


async def fill_route(stops: StopSearch, intent: TravelIntent) -> NamedTrainRoute:
    """The intent with the named train's own ends filled in (see the module docstring)."""
    assert intent.date_start is not None
    number = normalise_train_number(intent.train_numbers[0])
    try:
        result = await stops.stops(number, intent.date_start)
    except NotFound:
        return NamedTrainRoute(intent, unknown=number)
    except Exception as exc:  # no stop list: the traveller is asked for the stations instead
        log.warning("stop list failed", extra={"train": number, "error": repr(exc)})
        return NamedTrainRoute(intent)
    calls = [call for call in result.stops if call.station is not None]
    if len(calls) < 2:
        return NamedTrainRoute(intent, unknown=None if result.stops else number)
    update: dict[str, object] = {}
    if intent.origin is None:
        update["origin"] = calls[0].name
    if intent.destination is None:
        update["destination"] = calls[-1].name
    filled = intent.model_copy(update=update)
    filled = filled.model_copy(update={"missing": missing_fields(filled)})
    return NamedTrainRoute(filled, note=route_note(number, calls), train_no=result.train_no)


def rides_named_train(previous: TravelIntent, turn: TravelIntent) -> bool:
    """True when the trip so far rides a named train and `turn` names both ends of a ride
    without a train of its own ("G79后天" … "从北京到广州"): whether the train calls at
    both is for its stop list to say (`route_cities`)."""
    return bool(
        previous.train_numbers
        and previous.date_start is not None
        and not turn.train_numbers
        and turn.origin is not None
        and (turn.destination is not None or turn.destination_text is not None)
    )


@dataclass(frozen=True)
class TrainRoute:
    """A named train's stops as cities, in order, and the day each is left on: days after
    the train leaves its first stop (Z21 leaves 北京西 at 20:00 and 西宁 the next afternoon)."""

    cities: tuple[str, ...]
    days: tuple[int, ...]

    def day_of(self, city: str | None) -> int | None:
        """The day the train leaves `city` (its first call there), None when it calls not."""
        if city is None or city not in self.cities:
            return None
        return self.days[self.cities.index(city)]


async def route_cities(
    stops: StopSearch, previous: TravelIntent, city: Callable[[str], str | None]
) -> TrainRoute | None:
    """The cities the trip's named train calls at, in order (None when its stop list cannot
    be had: the turn is then read as a trip of its own)."""
    assert previous.date_start is not None
    number = normalise_train_number(previous.train_numbers[0])
    try:
        result = await stops.stops(number, previous.date_start)
    except Exception as exc:  # no route known: the train is not kept for a ride it may not go
        log.warning("stop list failed", extra={"train": number, "error": repr(exc)})
        return None
    cities = tuple(
        (call.station.city if call.station is not None else None) or city(call.name) or call.name
        for call in result.stops
    )
    moments = [call.depart_at or call.arrive_at for call in result.stops]
    first = next((m.date() for m in moments if m is not None), None)
    days = tuple(0 if m is None or first is None else (m.date() - first).days for m in moments)
    return TrainRoute(cities, days)


def run_started(
    previous: TravelIntent,
    turn: TravelIntent,
    intent: TravelIntent,
    route: TrainRoute,
    city: Callable[[str], str | None],
) -> dt.date | None:
    """The day the run of the trip's named train boarded at a new stop left its first stop,
    when earlier than the boarding day (Z322这周六 … 我西宁上车: the traveller boards at 西宁
    on Saturday, the day said, on the Z322 that left 成都 the day before); None when the turn
    says a day itself, keeps the stop, or the stop is reached on the train's first day.
    The day said is the traveller's, as on a ticket: this only says which run that is."""
    if (
        not intent.train_numbers
        or intent.train_numbers != previous.train_numbers
        or turn.date_start is not None
        or intent.date_start is None
        or intent.date_start != previous.date_start
        or intent.date_end is not None
        or previous.origin is None
        or intent.origin is None
    ):
        return None
    before = route.day_of(city(previous.origin) or previous.origin)
    after = route.day_of(city(intent.origin) or intent.origin)
    if before is None or after is None or before == after or after == 0:
        return None
    return intent.date_start - dt.timedelta(days=after)


@dataclass(frozen=True)
class MissedStops:
    """The ends of a ride a named train does not call at, and its own route to say so."""

    places: tuple[str, ...]
    note: str


async def missed_stops(
    stops: StopSearch,
    number: str,
    date: dt.date,
    ends: tuple[str, str],
    city: Callable[[str], str | None],
) -> MissedStops | None:
    """Which of the ride's `ends` (a station, or any station of a city) the train `number`
    does not call at on `date`, from its stop list ("G1在南京南停吗": it does not); None
    when it calls at both, or its stop list cannot be had."""
    try:
        result = await stops.stops(number, date)
    except Exception as exc:  # no stop list: the train is said as not found, as before
        log.info("stop list for a named train failed", extra={"error": repr(exc)})
        return None
    calls = [call for call in result.stops if call.station is not None] or list(result.stops)
    if len(calls) < 2:
        return None

    def calls_at(place: str) -> bool:
        return any(
            place in (call.name, call.station.city if call.station else None, city(call.name))
            for call in calls
        )

    missed = tuple(place for place in ends if not calls_at(place))
    if not missed:
        return None
    return MissedStops(missed, route_note(number, calls))


def route_note(number: str, calls: list[StopCall]) -> str:
    """ "G1 全程：北京南 09:00 → 济南西 10:32 → … → 上海虹桥 13:28（共5站）"."""
    shown = calls if len(calls) <= MAX_STOPS_SAID else [calls[0], calls[-1]]
    parts = [_stop(call) for call in shown]
    return texts.NAMED_TRAIN_ROUTE.format(
        train=number,
        stops=texts.NAMED_TRAIN_JOIN.join(parts),
        n=len(calls),
    )


def _stop(call: StopCall) -> str:
    moment = call.depart_at or call.arrive_at
    return call.name if moment is None else f"{call.name} {texts.clock(moment)}"
