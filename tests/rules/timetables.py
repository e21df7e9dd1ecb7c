"""A static timetable for tests, built from the offers themselves: each offer is one train
with two stops, running daily at its clock times, its fares the offer's seat prices (the
timetable the sources sell from)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sources.models import SHANGHAI, SeatClass, Station, TrainOffer


@dataclass(frozen=True)
class Run:
    """One train's stops: clock minutes after midnight of the day it starts."""

    codes: tuple[str, ...]
    tier: str
    seat_classes: tuple[SeatClass, ...]
    stations: tuple[str, ...]
    km: tuple[int, ...]
    arrive: tuple[int, ...]
    depart: tuple[int, ...]
    fares: Mapping[SeatClass, float]

    def code_at(self, position: int) -> str:
        return self.codes[0]


class Timetable:
    """A `rules.schedule.Schedule` of a few runs."""

    def __init__(self, runs: Sequence[Run], stations: Iterable[Station]) -> None:
        self.runs = tuple(runs)
        self.stations = {s.telecode: s for s in stations}

    def city_of(self, code: str) -> str:
        return self.stations[code].city

    def fare(self, run: int, board: int, alight: int, seat_class: SeatClass) -> float:
        return self.runs[run].fares[seat_class]


def timetable_of(*offers: TrainOffer, extra: Iterable[Station] = ()) -> Timetable:
    """The timetable the offers were sold from: one daily run per offer."""
    runs = []
    stations: dict[str, Station] = {s.telecode: s for s in extra}
    for offer in offers:
        start = offer.depart_at.astimezone(SHANGHAI)
        depart = start.hour * 60 + start.minute
        arrive = depart + offer.duration_min
        runs.append(
            Run(
                codes=(offer.train_number,),
                tier="emu350",
                seat_classes=tuple(s.seat_class for s in offer.seats),
                stations=(offer.origin_station.telecode, offer.destination_station.telecode),
                km=(0, 100),
                arrive=(depart, arrive),
                depart=(depart, arrive),
                fares={s.seat_class: s.price or 0.0 for s in offer.seats},
            )
        )
        stations[offer.origin_station.telecode] = offer.origin_station
        stations[offer.destination_station.telecode] = offer.destination_station
    return Timetable(runs, stations.values())
