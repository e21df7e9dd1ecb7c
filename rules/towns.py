"""Towns keyed as places of their own (`TripRequest.towns`).

The official list files every station under a prefecture: 昆山 and 昆山南 are 苏州's, so a
trip 苏州→昆山 would be a leg from 苏州 to 苏州. Where a trip joins a town (or a station
outside the city proper) to another place of its prefecture, the town is keyed by its own
name: its stations carry it as their city in the engine's view, so the legs, the offers and
the timetable name it as they name any city (苏州→昆山), and its stations are its whole place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from rules.config import in_city_proper
from rules.model import Town
from sources.models import Station, TrainOffer


class Place(Protocol):
    """What a name resolved to, as the directory says (`sources.stations.Place`)."""

    @property
    def city(self) -> str: ...
    @property
    def is_city(self) -> bool: ...
    @property
    def stations(self) -> Sequence[Station]: ...


def in_proper(place: Place) -> bool:
    """True when a place means a city proper: a city, or a station inside it (北京南)."""
    return place.is_city or all(in_city_proper(s) for s in place.stations)


def same_place(one: Place, other: Place) -> bool:
    """True when two places are one for a trip: both a city proper of one city (北京 and
    北京南), or the same town (昆山 and 昆山南). A city and a town of its prefecture are two
    (苏州 and 昆山), as are two towns of it (昆山 and 太仓)."""
    if one.city != other.city:
        return False
    if in_proper(one) or in_proper(other):
        return in_proper(one) and in_proper(other)
    return bool({s.telecode for s in one.stations} & {s.telecode for s in other.stations})


def town_of(code: str, towns: Iterable[Town]) -> str | None:
    """The town station `code` is keyed under, or None."""
    return next((town.name for town in towns if code in town.codes), None)


def as_town(station: Station, towns: Iterable[Town]) -> Station:
    """`station` as the engine sees it: a town's station carries the town as its city."""
    town = town_of(station.telecode, towns)
    if town is None or town == station.city:
        return station
    return station.model_copy(update={"city": town})


def offers_in_towns(
    offers: tuple[TrainOffer, ...], towns: tuple[Town, ...]
) -> tuple[TrainOffer, ...]:
    """`offers` with the towns' stations keyed under their towns (unchanged without towns)."""
    if not towns:
        return offers
    found = []
    for offer in offers:
        board = as_town(offer.origin_station, towns)
        alight = as_town(offer.destination_station, towns)
        if board is offer.origin_station and alight is offer.destination_station:
            found.append(offer)
        else:
            found.append(
                offer.model_copy(update={"origin_station": board, "destination_station": alight})
            )
    return tuple(found)
