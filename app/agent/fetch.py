"""Fetch every leg a plan needs from the query service, concurrently; one failure loses one leg."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Iterable, Mapping
from typing import Protocol

from app.agent import texts
from app.errors import Overloaded
from app.tickets.model import QueryEcho, ResolvedQuery, SourceReport, SourceStatus, TicketResult
from app.tickets.transfers import TransferResult
from rules import LegKey
from rules.model import Town
from rules.towns import offers_in_towns
from sources.models import (
    FRESHNESS_ORDER,
    Station,
    TicketQuery,
    TrainOffer,
    worst_freshness,
)
from sources.stations import Place, StationDirectory

log = logging.getLogger("railtrip.agent")


class TicketSearch(Protocol):
    """The part of `TicketService` the agent uses (a fake in unit tests)."""

    async def search(
        self,
        resolved: ResolvedQuery,
        *,
        refresh: bool = False,
        allow_stale: bool = True,
        one_source: bool = False,
    ) -> TicketResult: ...


def _city_station(directory: StationDirectory, city: str) -> Station:
    code = directory.city_code(city)
    station = directory.get(code)
    assert station is not None
    return station


def _unanswered(
    key: LegKey,
    origin: Station,
    destination: Station,
    status: SourceStatus,
    error: str,
    warning: str,
) -> TicketResult:
    """A leg without an answer (its query raised, or our own queue refused it): no offers,
    unavailable, and the reason as a warning."""
    return TicketResult(
        query=QueryEcho(origin=origin, destination=destination, date=key.date),
        freshness="unavailable",
        sources=(
            SourceReport(name="query-service", status=status, freshness="unavailable", error=error),
        ),
        warnings=(warning,),
    )


def leg_queries(
    directory: StationDirectory, key: LegKey, places: Mapping[str, Place]
) -> list[ResolvedQuery]:
    """The queries one leg is asked with: city-wide, and where the traveller named a place
    of that city (漠河, filed under 加格达奇; 昆山 under 苏州; the station 北京西), once more
    from or to each station of that place, kept to those stations.

    A city-wide query names each train at one station of the city (12306's picture: K7041
    "arrives" at 加格达奇, its first call there, though it goes on to 漠河), so the trains
    calling at the place itself are only seen when asked by its own stations. The city-wide
    answer stays for the relaxations, which must see what the rest of the city offers."""
    first, last = _whole(directory, key.origin, places), _whole(directory, key.destination, places)
    asked = TicketQuery(origin=first.telecode, destination=last.telecode, date=key.date)
    city_wide = ResolvedQuery(asked, first, last)
    start = places.get(key.origin, city_wide.origin)
    end = places.get(key.destination, city_wide.destination)
    if start.is_city and end.is_city:
        return [city_wide]
    queries = [city_wide]
    for board in start.stations if not start.is_city else (city_wide.origin_station,):
        for alight in end.stations if not end.is_city else (city_wide.destination_station,):
            query = TicketQuery(origin=board.telecode, destination=alight.telecode, date=key.date)
            if query != asked or start is not first or end is not last:
                queries.append(ResolvedQuery(query, start, end))
    return queries


def _whole(directory: StationDirectory, name: str, places: Mapping[str, Place]) -> Place:
    """All of a leg's end: its city, or a town keyed as a place of its own (`rules.towns`:
    苏州→昆山 asks 昆山 by its own stations, never 苏州 to 苏州)."""
    place = places.get(name)
    if place is not None and place.city != name:
        return place
    return directory.city(name)


def town_places(directory: StationDirectory, towns: Iterable[Town]) -> dict[str, Place]:
    """The towns keyed as places of their own, as places of the directory (by their key)."""
    found: dict[str, Place] = {}
    for town in towns:
        stations = [s for s in (directory.get(code) for code in sorted(town.codes)) if s]
        if not stations:
            continue
        stations.sort(key=lambda s: s.name != town.name)  # the namesake station first
        found[town.name] = Place(
            name=town.name,
            city=stations[0].city,
            telecode=stations[0].telecode,
            is_city=False,
            stations=tuple(stations),
        )
    return found


def station_query(
    directory: StationDirectory,
    key: LegKey,
    board: str,
    alight: str,
    places: Mapping[str, Place] | None = None,
) -> ResolvedQuery:
    """One leg asked by two of its cities' stations: the answer still holds every train
    between the cities, each named at the asked stations wherever it calls there (as a
    city-wide answer names it at one station of each city, often not the one it is best
    boarded at: D2324 leaves 深圳北 before 深圳坪山)."""
    query = TicketQuery(origin=board, destination=alight, date=key.date)
    known = places or {}
    start, end = _whole(directory, key.origin, known), _whole(directory, key.destination, known)
    return ResolvedQuery(query, start, end)


def merged_result(results: list[TicketResult]) -> TicketResult:
    """One leg's answer from its queries: every offer once, the freshness of those answered."""
    offers: dict[tuple[str, str, str, dt.datetime], TrainOffer] = {}
    for result in results:
        for offer in result.offers:
            ends = (offer.origin_station.telecode, offer.destination_station.telecode)
            offers.setdefault((offer.train_number, *ends, offer.depart_at), offer)
    answered = [r.freshness for r in results if r.freshness != "unavailable"]
    warnings = tuple(dict.fromkeys(w for r in results for w in r.warnings))
    return (
        results[0]
        .with_offers(tuple(offers.values()))
        .model_copy(
            update={
                "freshness": worst_freshness(answered) if answered else "unavailable",
                "sources": tuple(merge_sources(results)),
                "warnings": warnings,
            }
        )
    )


async def fetch_legs(
    tickets: TicketSearch,
    directory: StationDirectory,
    keys: Iterable[LegKey],
    refused: list[Overloaded] | None = None,
    places: Mapping[str, Place] | None = None,
    stations: Mapping[LegKey, tuple[str, str]] | None = None,
    *,
    one_source: bool = False,
    towns: tuple[Town, ...] = (),
) -> dict[LegKey, TicketResult]:
    """Results for every key (queried city-wide, every train type; the engine filters).

    `places` are the places the traveller named, by their directory city: a leg to or from
    one is asked by its own stations too (`leg_queries`). `stations`: a leg asked by these
    two stations instead (`station_query`). A leg refused by admission control is kept as
    `overloaded` and its refusal appended to `refused`, so the caller can refuse the whole
    plan when that leg was needed. `one_source`: the trains wanted are known (a journey's
    legs), so one source that answers in full is enough (`TicketService.search`). `towns`:
    the trip's towns keyed as places of their own, whose stations every answer names under
    the town (`rules.towns`); `places` must hold them (`town_places`).
    """
    wanted = list(dict.fromkeys(keys))

    async def one(key: LegKey) -> TicketResult:
        found = await answer(key)
        if not towns or not found.offers:
            return found
        return found.with_offers(offers_in_towns(found.offers, towns))

    async def answer(key: LegKey) -> TicketResult:
        pair = (stations or {}).get(key)
        if pair is not None:
            return await ask(key, station_query(directory, key, *pair, places=places))
        queries = leg_queries(directory, key, places or {})
        if len(queries) == 1:
            return await ask(key, queries[0])
        return merged_result(list(await asyncio.gather(*(ask(key, q) for q in queries))))

    async def ask(key: LegKey, resolved: ResolvedQuery) -> TicketResult:
        origin, destination = resolved.origin_station, resolved.destination_station
        try:
            if one_source:
                return await tickets.search(resolved, one_source=True)
            return await tickets.search(resolved)
        except Overloaded as exc:
            if refused is not None:
                refused.append(exc)
            # The reason is ours, not the sources'.
            return _unanswered(key, origin, destination, "overloaded", exc.code, exc.message)
        except Exception as exc:  # one broken leg must not sink the others
            log.warning(
                "leg query failed",
                extra={
                    "leg": f"{key.origin}-{key.destination}",
                    "date": str(key.date),
                    "error": repr(exc),
                },
            )
            failed = texts.LEG_QUERY_FAILED.format(
                origin=key.origin, destination=key.destination, date=key.date
            )
            return _unanswered(key, origin, destination, "error", type(exc).__name__, failed)

    results = await asyncio.gather(*(one(key) for key in wanted))
    return dict(zip(wanted, results, strict=True))


def merge_sources(results: Iterable[TicketResult]) -> list[SourceReport]:
    """One report per source over many queries: its worst status and freshness."""
    merged: dict[str, SourceReport] = {}
    for result in results:
        for report in result.sources:
            seen = merged.get(report.name)
            if seen is None:
                merged[report.name] = report
                continue
            status = seen.status if seen.status != "ok" else report.status
            freshness = max(seen.freshness, report.freshness, key=FRESHNESS_ORDER.__getitem__)
            latency = max(
                (v for v in (seen.latency_ms, report.latency_ms) if v is not None), default=None
            )
            merged[report.name] = seen.model_copy(
                update={
                    "status": status,
                    "freshness": freshness,
                    "latency_ms": latency,
                    "error": seen.error or report.error,
                    "offers": seen.offers + report.offers,
                }
            )
    return list(merged.values())


def today_start(day: dt.date) -> dt.datetime:
    """Midnight of `day` in Asia/Shanghai."""
    from sources.models import SHANGHAI

    return dt.datetime.combine(day, dt.time(0, 0), tzinfo=SHANGHAI)


class TransferSearch(Protocol):
    """The part of `TransferSearchService` the agent uses."""

    @property
    def available(self) -> bool: ...

    async def search(
        self, query: TicketQuery, origin: Station, destination: Station, *, pages: int = 1
    ) -> TransferResult: ...


async def fetch_transfers(
    search: TransferSearch, directory: StationDirectory, keys: Iterable[LegKey]
) -> dict[LegKey, TransferResult]:
    """The railway's own transfer search for every key, concurrently, one page each.

    The first page holds the best-ranked plans (earliest arrival first); the planner needs a
    few good ones, so later pages are not worth their requests.
    """
    wanted = list(dict.fromkeys(keys))

    async def one(key: LegKey) -> TransferResult:
        origin = _city_station(directory, key.origin)
        destination = _city_station(directory, key.destination)
        query = TicketQuery(origin=origin.telecode, destination=destination.telecode, date=key.date)
        return await search.search(query, origin, destination, pages=1)

    results = await asyncio.gather(*(one(key) for key in wanted))
    return dict(zip(wanted, results, strict=True))


def transfer_leg_results(
    answers: Iterable[TransferResult], directory: StationDirectory
) -> dict[LegKey, TicketResult]:
    """The halves of the official plans as leg answers (origin→middle, middle→destination).

    Each half is a train a source returned, so the engine chains the halves with its own
    connection rules and the grounding check accepts them; each keeps its answer's freshness
    and sources. A second half that leaves the next day (an overnight first train) also makes
    the same-day key exist, empty, because the engine looks for hub legs from that key.
    """
    offers: dict[LegKey, dict[tuple[str, str, dt.datetime], TrainOffer]] = {}
    answer_of: dict[LegKey, TransferResult] = {}
    for answer in answers:
        for plan in answer.offers:
            halves = []
            for half in (plan.first, plan.second):
                key = LegKey(half.origin_station.city, half.destination_station.city, half.date)
                halves.append(key)
                offers.setdefault(key, {})[_ride(half)] = half
                answer_of.setdefault(key, answer)
            first, second = halves
            same_day = LegKey(second.origin, second.destination, first.date)
            if second.date != first.date and same_day not in offers:
                offers[same_day] = {}
                answer_of[same_day] = answer
    results: dict[LegKey, TicketResult] = {}
    for key, found in offers.items():
        answer = answer_of[key]
        results[key] = TicketResult(
            query=QueryEcho(
                origin=_city_station(directory, key.origin),
                destination=_city_station(directory, key.destination),
                date=key.date,
            ),
            freshness=answer.freshness,
            as_of=answer.as_of,
            age_s=answer.age_s,
            sources=answer.sources,
            offers=tuple(found.values()),
            warnings=answer.warnings,
        )
    return results


def unpriced_legs(results: dict[LegKey, TicketResult]) -> list[LegKey]:
    """Halves with a seat on sale but no fare: the leg query must price them before planning.

    The official search's rows normally carry `yp_info_new` (fares); a row without it would
    leave the engine to plan on unknown prices, so that leg is asked the usual way.
    """
    return [
        key
        for key, result in results.items()
        if any(
            seat.price is None and seat.status == "available"
            for offer in result.offers
            for seat in offer.seats
        )
    ]


def with_transfer_halves(
    results: Mapping[LegKey, TicketResult], halves: Mapping[LegKey, TicketResult]
) -> dict[LegKey, TicketResult]:
    """Leg answers with the official plans' halves added where the leg query lacks them.

    A key answered by both keeps the leg query's offers plus the halves it did not return,
    tagged with the less fresh of the two answers.
    """
    merged = dict(results)
    for key, half in halves.items():
        full = merged.get(key)
        if full is None or not full.offers:
            merged[key] = half
            continue
        seen = {_ride(o) for o in full.offers}
        extra = tuple(o for o in half.offers if _ride(o) not in seen)
        if extra:
            freshness = worst_freshness([full.freshness, half.freshness])
            merged[key] = full.with_offers(full.offers + extra).model_copy(
                update={"freshness": freshness}
            )
    return merged


def _ride(offer: TrainOffer) -> tuple[str, str, dt.datetime]:
    return (offer.train_number, offer.origin_station.telecode, offer.depart_at)
