"""A place name that is stations of several towns, settled by the trip's other end.

河口 is 河口北 (蒙自, 云南) and 河口南 (兰州, 甘肃), 300 km of desert apart; a traveller from 昆明
means the one 昆明 has trains to. When the other end of the trip is known, each candidate
station is asked once of the ticket query (any source answers it: no network of our own is
needed), from that end or towards it, on the trip's day (the next day when none is said yet,
or the day is not on sale: the route's trains are much the same any day).
The trains found decide: exactly one candidate with trains is taken and said back to the
traveller; none or several, and the traveller is asked, as before. A candidate whose query
no source answered may be the one: it stays, so an outage never picks a station.

The cost is bounded: at most `MAX_CANDIDATES` names, one query each (the one kept is the
plan's own leg, which the query service then answers from its cache).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.agent.fetch import TicketSearch
from app.intent.model import TravelIntent, missing_fields
from app.intent.parser import WhichStation
from app.tickets.model import ResolvedQuery, TicketResult
from sources.models import TicketQuery, TrainOffer
from sources.stations import Place, StationDirectory, UnknownStationError

log = logging.getLogger("railtrip.agent")

MAX_CANDIDATES = 3
"""More stations than this for one name are asked about, never queried one by one."""

SLOTS = ("origin", "destination")


@dataclass(frozen=True)
class OpenName:
    """A slot of the trip left open because its name is several stations."""

    slot: str  # "origin" | "destination"
    typed: str
    stations: tuple[str, ...]
    other: str  # the trip's other end, as the intent names it


def open_name(
    intent: TravelIntent, asked: Mapping[str, WhichStation], directory: StationDirectory
) -> OpenName | None:
    """The one end of `intent` still open between several stations (this turn's parse
    asked, `asked`, or the trip carries the name, `destination_text`), when the other end is
    known; None otherwise (both open, or nothing to go by)."""
    found: dict[str, WhichStation] = {
        slot: which for slot, which in asked.items() if getattr(intent, slot, "") is None
    }
    text = intent.destination_text
    if intent.destination is None and text and "destination" not in found:
        stations = tuple(s.name for s in directory.directed(text))
        if len(stations) > 1:
            found["destination"] = WhichStation(text, stations)
    if len(found) != 1:
        return None
    ((slot, which),) = found.items()
    other = intent.origin if slot == "destination" else intent.destination
    if other is None or not 1 < len(which.stations) <= MAX_CANDIDATES:
        return None
    return OpenName(slot, which.typed, which.stations, other)


async def with_trains(
    tickets: TicketSearch,
    directory: StationDirectory,
    name: OpenName,
    date: dt.date,
    answered: dict[tuple[object, ...], TicketResult],
    fits: Callable[[TrainOffer], bool] | None = None,
) -> list[str]:
    """The candidate stations with a train to or from the trip's other end on `date` (or
    whose query went unanswered), one query each; each answer is kept in `answered`.
    `fits`: only a train it accepts counts (one leaving in the hours said)."""
    try:
        other = directory.resolve(name.other)
    except UnknownStationError:
        return list(name.stations)

    async def kept(station: str) -> bool:
        try:
            candidate = directory.resolve(station + "站")
        except UnknownStationError:
            return True
        resolved = _between(other, candidate, name.slot, date)
        try:
            result = await tickets.search(resolved)
        except Exception as exc:  # no answer says nothing about this station
            log.warning("station probe failed", extra={"station": station, "error": repr(exc)})
            return True
        answered[asked_as(resolved)] = result
        offers = [o for o in result.offers if fits(o)] if fits is not None else result.offers
        return bool(offers) or result.freshness == "unavailable"

    found = await asyncio.gather(*(kept(s) for s in name.stations))
    return [s for s, ok in zip(name.stations, found, strict=True) if ok]


class Remembered:
    """A `TicketSearch` that answers a query this run already asked with that answer, seconds
    old (a full answer only: never a refresh, never for a one-source caller's narrower one)."""

    def __init__(self, tickets: TicketSearch, answered: dict[tuple[object, ...], TicketResult]):
        self._tickets = tickets
        self._answered = answered

    async def search(
        self,
        resolved: ResolvedQuery,
        *,
        refresh: bool = False,
        allow_stale: bool = True,
        one_source: bool = False,
    ) -> TicketResult:
        known = None if refresh else self._answered.get(asked_as(resolved))
        if known is not None:
            return known
        return await self._tickets.search(
            resolved, refresh=refresh, allow_stale=allow_stale, one_source=one_source
        )


def asked_as(resolved: ResolvedQuery) -> tuple[object, ...]:
    """What makes two queries one: the telecodes and day, and the stations kept."""
    return (
        resolved.query,
        tuple(s.telecode for s in resolved.origin.stations),
        tuple(s.telecode for s in resolved.destination.stations),
        resolved.origin.is_city,
        resolved.destination.is_city,
    )


def _between(other: Place, candidate: Place, slot: str, date: dt.date) -> ResolvedQuery:
    start, end = (other, candidate) if slot == "destination" else (candidate, other)
    query = TicketQuery(origin=start.telecode, destination=end.telecode, date=date)
    return ResolvedQuery(query, start, end)


def taken(intent: TravelIntent, name: OpenName, station: str) -> TravelIntent:
    """`intent` with the open end set to `station`, the question about it dropped."""
    update: dict[str, object] = {
        name.slot: station,
        "suggested_places": {k: v for k, v in intent.suggested_places.items() if k != name.slot},
    }
    if name.slot == "destination":
        update["destination_text"] = None
    filled = intent.model_copy(update=update)
    return filled.model_copy(update={"missing": missing_fields(filled)})
