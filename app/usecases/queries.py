"""Turn what a caller typed (names, dates, filters) into a validated `TicketQuery`.

Every refusal names the offending field, so bad input is a clear 422, never a guess.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from pydantic import ValidationError
from pydantic.json_schema import JsonDict

from app.errors import InvalidInput, UnknownStation, excerpt
from app.tickets.model import ResolvedQuery
from rules.config import in_city_proper
from rules.towns import same_place
from sources.models import SEAT_LABELS, TRAIN_TYPES, FareKind, SeatClass, TicketQuery
from sources.sale_window import SALE_DATES, last_sale_day
from sources.stations import AmbiguousStationError, Place, StationDirectory, UnknownStationError


def resolve_place(directory: StationDirectory, field: str, text: str) -> Place:
    """A city, station name, pinyin or telecode; 422 with suggestions otherwise."""
    try:
        return directory.resolve(text)
    except AmbiguousStationError as exc:
        raise UnknownStation(
            field,
            f"{field}: {excerpt(text)} is ambiguous; "
            f"did you mean one of {', '.join(exc.suggestions)}?",
            suggestions=exc.suggestions,
        ) from exc
    except UnknownStationError as exc:
        raise UnknownStation(
            field,
            f"{field}: unknown station or city {excerpt(text)}",
            suggestions=exc.suggestions,
        ) from exc


def parse_date(field: str, text: str, today: dt.date) -> dt.date:
    """An ISO date within the sale window (today … today + 14), refused before any query."""
    try:
        day = dt.date.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(field, f"{field}: expected YYYY-MM-DD, got {excerpt(text)}") from exc
    if day < today:
        raise InvalidInput(field, f"{field}: {day} is in the past (today is {today})")
    last = last_sale_day(today)
    if day > last:
        raise InvalidInput(
            field,
            f"{field}: {day} is not on sale yet: 12306 sells {SALE_DATES} dates, "
            f"today through {last}",
        )
    return day


CLIENT_TODAY_SLACK_DAYS = 1
"""How far a client's `today` may be from the server's (time zones, a clock slightly off)."""


def accepted_today(given: dt.date | None, server_today: dt.date) -> dt.date:
    """The client's `today` when within a day of the server's, else a 422 naming `today`.

    It only anchors relative dates ("明天"); the sale window always starts at the server's.
    """
    if given is None:
        return server_today
    if abs((given - server_today).days) > CLIENT_TODAY_SLACK_DAYS:
        raise InvalidInput(
            "today",
            f"today: {given} is more than {CLIENT_TODAY_SLACK_DAYS} day from the server's date "
            f"({server_today}); omit it or send the traveller's current date",
        )
    return given


def parse_train_types(text: str | None) -> frozenset[str]:
    """`G,D` → {"G", "D"}; unknown letters are refused."""
    if not text:
        return frozenset()
    types = frozenset(part.strip().upper() for part in text.split(",") if part.strip())
    unknown = sorted(types - set(TRAIN_TYPES))
    if unknown:
        raise InvalidInput(
            "train_types",
            f"train_types: unknown {', '.join(unknown)}; choose from {', '.join(TRAIN_TYPES)}",
        )
    return types


def described_enum(values: dict[str, str], lead: str) -> JsonDict:
    """A closed argument's JSON schema: its values, each one named in the description (what
    a model or a frontend developer reads before choosing)."""
    meanings = "；".join(f"{value}：{meaning}" for value, meaning in values.items())
    return {"enum": list(values), "description": f"{lead}（{meanings}）"}


SEAT_CLASS_SCHEMA = described_enum(
    {seat.value: label for seat, label in SEAT_LABELS.items()}, "席别"
)
"""The seat classes a caller may name (`parse_seat_class` accepts exactly these)."""


def parse_seat_class(text: str) -> SeatClass:
    try:
        return SeatClass(text)
    except ValueError as exc:
        raise InvalidInput(
            "seat_class",
            f"seat_class: unknown {excerpt(text)}; "
            f"choose from {', '.join(c.value for c in SeatClass)}",
        ) from exc


FARES: tuple[str, ...] = tuple(kind.value for kind in FareKind)
"""Whose fares a ticket query asks for (`fare`): adult (the default) or student."""


def parse_fare(text: str | None) -> FareKind:
    """`adult` or `student` (None or "" is adult); anything else is refused by name."""
    if not text:
        return FareKind.ADULT
    try:
        return FareKind(text.strip().lower())
    except ValueError:
        raise InvalidInput(
            "fare", f"fare: unknown {excerpt(text)}; choose from {', '.join(FARES)}"
        ) from None


def city_proper(place: Place) -> Place:
    """A whole city as its city proper (`rules.config.in_city_proper`), kept to those
    stations; any other place (or a city with no station in its proper) as it is."""
    if not place.is_city:
        return place
    proper = tuple(s for s in place.stations if in_city_proper(s))
    if not proper or len(proper) == len(place.stations):
        return place
    return place.model_copy(update={"is_city": False, "stations": proper})


@lru_cache(maxsize=4096)
def resolve_query(
    directory: StationDirectory,
    origin: str,
    destination: str,
    date: str,
    *,
    today: dt.date,
    train_types: str | None = None,
    fare: str | None = None,
) -> ResolvedQuery:
    """Validate every field of a ticket query, naming the first bad one.

    Memoised (the directory is immutable and `today` is part of the key): a popular query's
    validation is then a dict lookup on the cache-hit path. Refusals raise and are not cached.
    """
    origin_place = resolve_place(directory, "origin", origin)
    destination_place = resolve_place(directory, "destination", destination)
    if same_place(origin_place, destination_place):
        raise InvalidInput(
            "destination",
            f"destination: {excerpt(destination)} is in the same city as the origin "
            f"{excerpt(origin)}",
        )
    if origin_place.city == destination_place.city:
        # A city and a town of its prefecture (温州→雁荡山): the city's end is its city
        # proper, as the planner boards there (`rules.towns`).
        origin_place = city_proper(origin_place)
        destination_place = city_proper(destination_place)
    day = parse_date("date", date, today)
    types = parse_train_types(train_types)
    kind = parse_fare(fare)
    try:
        query = TicketQuery(
            origin=origin_place.telecode,
            destination=destination_place.telecode,
            date=day,
            train_types=types,
            fare=kind,
        )
    except ValidationError as exc:  # pragma: no cover - fields are validated above
        raise InvalidInput("query", str(exc)) from exc
    return ResolvedQuery(query, origin_place, destination_place)
