"""From a validated `TravelIntent` to the rule engine's `TripRequest` (cities, dates, party)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from app.agent import party_notes, texts
from app.intent.model import (
    DEFAULT_VIA_NIGHTS,
    TIME_WINDOWS,
    TimeWindow,
    TravelIntent,
    end_said,
)
from rules import TripRequest, ViaStop
from rules.config import in_city_proper
from rules.limits import GROUP_TICKETS, MAX_ORDER, MAX_PARTY, MAX_VIA_STOPS
from rules.model import Town
from rules.options import expected_arrival
from rules.relax import stated
from rules.towns import in_proper, same_place
from sources.models import SeatClass
from sources.sale_window import SALE_DATES, last_sale_day
from sources.stations import Place, StationDirectory, UnknownStationError


class TripProblem(ValueError):
    """The intent cannot become a trip request; `question` is what to ask the traveller."""

    def __init__(self, question: str) -> None:
        super().__init__(question)
        self.question = question


class Places:
    """The intent's place names, each resolved once for the whole request (its city, whether
    it is a whole city, its exact station) rather than once per question asked of it."""

    def __init__(self, directory: StationDirectory) -> None:
        self.directory = directory
        self._resolved: dict[str, Place] = {}

    def resolve(self, name: str) -> Place:
        """The place a directory name (city or station) stands for; a question when none."""
        place = self._resolved.get(name)
        if place is None:
            try:
                place = self._resolved[name] = self.directory.resolve(name)
            except UnknownStationError as exc:
                raise TripProblem(texts.UNKNOWN_PLACE.format(place=name)) from exc
        return place

    def city(self, name: str) -> str:
        """The city a directory name belongs to."""
        return self.resolve(name).city

    def exact_station(self, name: str) -> str | None:
        """The station a traveller named (北京西), or None when they named a city (北京)."""
        place = self.resolve(name)
        return None if place.is_city else place.name

    def towns(self, names: list[str], stops: Sequence[str] = ()) -> dict[str, Town]:
        """The names among `names` keyed as places of their own (`rules.towns`): a town or
        station outside its city proper (昆山, 都江堰, 雁荡山) where another name of the trip
        is a different place of the same prefecture (苏州→昆山, 昆山→太仓), or where it is a
        stop on the way (`stops`: a stop has no exact station, and 敦煌 keyed as 酒泉 would stop
        at 酒泉南, 300 km off). Two names of one place (北京 and 北京南, 昆山 and 昆山南) stay
        one city, refused as the same city."""
        found: dict[str, Town] = {}
        for name in names:
            place = self.resolve(name)
            if in_proper(place):
                continue
            if name in stops:
                found[name] = Town(
                    name=place.name, codes=frozenset(s.telecode for s in place.stations)
                )
                continue
            for other in names:
                there = self.resolve(other)
                if there.city == place.city and not same_place(place, there):
                    codes = frozenset(s.telecode for s in place.stations)
                    found[name] = Town(name=place.name, codes=codes)
                    break
        return found

    def open_cities(self, names: list[str]) -> frozenset[str]:
        """The cities among `names` where any station of the official city will do: those
        named by a station or town (义乌 is 金华's; an exact station, where kept, narrows it
        further) and those with no station named after them. A city named as such means its
        city proper."""
        found = set()
        for name in names:
            place = self.resolve(name)
            proper = any(in_city_proper(s) for s in self.directory.in_city(place.city))
            if not place.is_city or not proper:
                found.add(place.city)
        return frozenset(found)


def trip_request(
    intent: TravelIntent,
    directory: StationDirectory,
    *,
    today: dt.date,
    warnings: list[str],
) -> TripRequest:
    """The engine's view of `intent`; raises `TripProblem` with a question when it cannot."""
    assert intent.origin and intent.destination and intent.date_start
    places = Places(directory)
    stop_cities = [stop.city for stop in intent.via]
    towns = places.towns([intent.origin, intent.destination, *stop_cities], stops=stop_cities)

    def key(name: str) -> str:
        """The engine's name for a place: its town (`Places.towns`), else its city."""
        town = towns.get(name)
        return town.name if town is not None else places.city(name)

    def station(name: str) -> str | None:
        """The exact station named, where the place is not a town keyed as its own."""
        return None if name in towns else places.exact_station(name)

    origin = key(intent.origin)
    destination = key(intent.destination)
    if origin == destination and not intent.via:
        raise TripProblem(texts.SAME_CITY.format(city=origin))
    start = intent.date_start
    last_day = last_sale_day(today)
    if start < today:
        raise TripProblem(texts.DATE_PAST.format(date=texts.day_label(start)))
    if start > last_day:
        raise TripProblem(
            texts.DATE_NOT_ON_SALE.format(
                date=texts.day_label(start),
                days=SALE_DATES,
                last=texts.day_label(last_day),
            )
        )
    stops = intent.via
    if len(stops) > MAX_VIA_STOPS:
        warnings.append(texts.VIA_CAPPED.format(n=len(stops), max=MAX_VIA_STOPS))
        stops = stops[:MAX_VIA_STOPS]
    # The origin named again with no stay (上海工地活干完了…上海到信阳) is a mention, not a
    # stop: only 先在北京玩一天 (a stay said) delays the departure.
    stops = [s for s in stops if s.nights is not None or places.city(s.city) != origin]
    stop_names = [stop.city for stop in stops]
    via_stops = [
        ViaStop(key(stop.city), stop.planned_nights, said=stop.nights is not None) for stop in stops
    ]
    # A stop in the origin city is a stay before leaving ("先在北京玩一天"), one in the
    # destination city a longer stay there: neither is a ride.
    while via_stops and via_stops[0].city == origin:
        start += dt.timedelta(days=via_stops.pop(0).nights)
    via = tuple(stop for stop in via_stops if stop.city not in (origin, destination))
    passengers = intent.passengers
    if passengers >= MAX_PARTY:  # the parser's ceiling: the head count may have been larger
        warnings.append(texts.PARTY_CAPPED.format(max=MAX_PARTY))
        passengers = MAX_PARTY
    if passengers > MAX_ORDER:  # a class or a team: one plan, bought in several orders
        orders = -(-passengers // MAX_ORDER)
        group = texts.PARTY_GROUP.format(n=GROUP_TICKETS) if passengers >= GROUP_TICKETS else ""
        warnings.append(
            texts.PARTY_ORDERS.format(n=passengers, orders=orders, max=MAX_ORDER, group=group)
        )
    # A trip to plan comes home unless told otherwise; a ticket question is one ride.
    return_trip = (
        intent.return_trip if intent.return_trip is not None else intent.kind != "query_tickets"
    )
    return_date = intent.date_end if return_trip else None
    onward_end = start + dt.timedelta(days=sum(stop.nights for stop in via))
    if return_date is not None and return_date < start:
        return_date = None
    nights = None
    same_day_home = intent.nights == 0 and return_date == onward_end
    if return_date is not None and return_date <= onward_end and via and not same_day_home:
        # A stop added after the dates were set ("再加一站杭州"): keep a night at the last stop
        # rather than returning the day one arrives (unless the day home was said as that day:
        # 周日去扬州，周日晚上回上海, no night there).
        return_date = None
        nights = intent.nights or DEFAULT_VIA_NIGHTS
    elif return_date is not None and return_date < onward_end:
        return_date = None
    if return_trip and return_date is None and nights is None and intent.nights is not None:
        nights = intent.nights
    if return_date is not None and return_date > last_day:
        warnings.append(texts.RETURN_NOT_ON_SALE.format(date=texts.day_label(return_date)))
        return_date, nights = None, None
    # The ride home is planned on its day or after the nights at the last stop (再加一站杭州:
    # a night there, then home): its own wishes (周日晚上回) ride with it either way.
    homeward = return_trip and (return_date is not None or nights is not None)
    # 住三晚 (the nights said, and no other day home): nights are slept there, counted from
    # the day the ride there arrives, however long it takes (`TripRequest.stay_from_arrival`).
    # A day home said as well (住三晚，周四回来) is the day meant: the traveller named it.
    said_nights = intent.nights is not None and intent.nights >= 1
    stay_from_arrival = (
        homeward
        and said_nights
        and (
            return_date is None
            or (
                not end_said(intent)
                and return_date == onward_end + dt.timedelta(days=intent.nights or 0)
            )
        )
    )
    prefs = set(intent.preferences)
    # A stated time of day or a berth is the traveller's own choice of the night hours: the
    # engine's night default must not overrule "8点前" with a later train; nor may it hide the
    # last train of the day from "最晚一班" (or the first from "最早一班"). A window is the
    # choice of its own ride: 周日晚上回来 is no wish to ride out at 03:00.
    # An order said of the ride home (回程最晚一班) is that ride's choice only: it must not
    # send the outbound off at 03:48 to save a few yuan.
    chosen = "卧铺" in prefs or bool(intent.seat_classes)
    clock_order = ("earliest", "latest")
    out_night = (
        chosen
        or intent.order in clock_order
        or _night_chosen(intent.depart_window, intent.arrive_window)
    )
    home_night = (
        chosen
        or intent.order in clock_order
        or intent.return_order in clock_order
        or _night_chosen(intent.return_window, intent.return_arrive_window)
    )
    return TripRequest(
        origin=origin,
        destination=destination,
        depart_date=start,
        return_date=return_date,
        nights=nights,
        return_trip=return_trip,
        via=via,
        passengers=passengers,
        budget=intent.budget,
        depart_window=_window(intent.depart_window),
        # 8点左右: any train of the hour either side will do, the nearest eight is meant.
        rank_window=intent.depart_window.near() if intent.depart_window else None,
        return_rank_window=intent.return_window.near()
        if homeward and intent.return_window
        else None,
        arrive_window=_window(intent.arrive_window),
        depart_part_of_day=part_of_day(intent.depart_window),
        train_types=frozenset(intent.train_types),
        seat_class=intent.seat_class,
        max_transfers=0 if "直达" in prefs else 2,
        allow_night=out_night,
        return_allow_night=home_night if homeward else None,
        origin_station=station(intent.origin),
        destination_station=station(intent.destination),
        return_window=_window(intent.return_window) if homeward else None,
        return_arrive_window=_window(intent.return_arrive_window) if homeward else None,
        arrive_date=intent.arrive_date
        or expected_arrival(start, _window(intent.depart_window), _window(intent.arrive_window)),
        seat_classes=frozenset(intent.seat_classes),
        return_seat_classes=frozenset(intent.return_seat_classes) if homeward else frozenset(),
        return_train_types=frozenset(intent.return_train_types) if homeward else frozenset(),
        stated_order=tuple(intent.stated_order),
        exclude_seat_classes=excluded_classes(intent.exclude_seat_classes),
        exclude_train_types=frozenset(intent.exclude_train_types),
        order=intent.order,
        return_order=intent.return_order if homeward else None,
        party=party_notes.tickets(intent) if passengers == intent.passengers else (),
        no_overnight=bool(intent.no_overnight),
        return_no_overnight=bool(intent.return_no_overnight) and homeward,
        # Back the same day (当天回, 看完当晚回来, 早去晚回): the day is spent there, so its
        # hours weigh as a leisure trip's do, whatever the errand.
        leisure=intent.leisure or (return_date is not None and return_date == start),
        # A town keyed as its own is all of its stations; its prefecture stays a city proper.
        open_cities=places.open_cities(
            [n for n in (intent.origin, intent.destination, *stop_names) if n not in towns]
        )
        | {town.name for town in towns.values()},
        towns=tuple(sorted(set(towns.values()), key=lambda town: town.name)),
        stay_from_arrival=stay_from_arrival,
        # 至少待6个小时 of a day trip: the hours there between the ride there and home.
        min_stay=round(intent.stay_hours * 60)
        if intent.stay_hours and return_date is not None and return_date == start and not via
        else None,
    )


def excluded_classes(said: list[SeatClass]) -> frozenset[SeatClass]:
    """The classes ruled out: those said, and standing (无座) once a seat class it would stand
    in for is refused (不要硬座: a ticket to stand in the hard-seat car is no substitute)."""
    excluded = set(said)
    if excluded & STOOD_IN:
        excluded.add(SeatClass.NO_SEAT)
    return frozenset(excluded)


STOOD_IN = frozenset({SeatClass.HARD_SEAT, SeatClass.SECOND})
"""The classes whose cars a 无座 ticket stands in (硬座 on conventional trains, 二等座 on EMUs)."""


_DAYTIME_WORDS = ("早上", "上午", "中午", "下午", "白天", "早晨", "一早", "明早", "今早")


def _night_chosen(*windows: TimeWindow | None) -> bool:
    """True when a window of one ride is the traveller's own choice of hours, night ones
    included (九点以前, 晚上): one said with a part of the day is not (早上九点以前)."""
    return any(window is not None and not _daytime_said(window) for window in windows)


def _daytime_said(window: TimeWindow) -> bool:
    """A window said with a part of the day (早上九点以前走) chooses no night hours: its
    bound is the day's, and a train at 03:00 is no 早上 one."""
    return any(word in window.label for word in _DAYTIME_WORDS)


def part_of_day(window: TimeWindow | None) -> bool:
    """True when `window` is a part of the day as said (早上, 上午), no hour in it."""
    return window is not None and TIME_WINDOWS.get(window.label) == window


def _window(window: TimeWindow | None) -> tuple[dt.time, dt.time] | None:
    """A stated time window as the engine's (start, end) pair."""
    return (window.start, window.end) if window else None


def shifted(request: TripRequest, days: int) -> TripRequest:
    """The same trip moved by `days` (return date too)."""
    delta = dt.timedelta(days=days)
    return request.model_copy(
        update={
            "depart_date": request.depart_date + delta,
            "return_date": request.return_date + delta if request.return_date else None,
        }
    )


def relaxed(request: TripRequest) -> TripRequest:
    """The same trip with any train type, any class, any time of day (budget kept)."""
    return request.model_copy(
        update={
            "train_types": frozenset(),
            "seat_class": None,
            "depart_window": None,
            "arrive_window": None,
            "allow_night": True,
            "return_allow_night": True,
        }
    )  # superseded by rules.relax for stated constraints; kept for the tool mode


def has_preferences(request: TripRequest) -> bool:
    """True when relaxing types, classes or times could change anything."""
    return bool(
        request.train_types
        or request.seat_class
        or request.depart_window
        or request.arrive_window
        or stated(request)
    )
