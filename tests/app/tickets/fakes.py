"""In-process fake sources for unit tests of the query service (no HTTP, no sandbox)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.cache import CacheEntry
from app.tickets.guard import GuardedSource
from app.tickets.model import ResolvedQuery
from sources.capabilities import StopCall, StopList
from sources.errors import SourceError
from sources.models import SHANGHAI, Seat, SeatClass, SeatStatus, Station, TicketQuery, TrainOffer
from sources.stations import Place
from tests.clocks import FakeTime

BJN = Station(telecode="VNP", name="北京南", city="北京", pinyin="beijingnan", initials="bjn")
SHQ = Station(
    telecode="AOH", name="上海虹桥", city="上海", pinyin="shanghaihongqiao", initials="shhq"
)
DAY = dt.date(2026, 12, 4)


def city_wide(query: TicketQuery, origin: Station, destination: Station) -> ResolvedQuery:
    """`query` as the service takes it, asked for the whole of both cities (no station kept
    apart), echoing `origin` and `destination`."""

    def whole(station: Station) -> Place:
        return Place(
            name=station.city,
            city=station.city,
            telecode=station.telecode,
            is_city=True,
            stations=(station,),
        )

    return ResolvedQuery(query, whole(origin), whole(destination))


def offer(
    number: str = "G1",
    *,
    hour: int = 9,
    source: str = "a",
    second: Seat | None = None,
    fetched_at: dt.datetime | None = None,
) -> TrainOffer:
    depart = dt.datetime(DAY.year, DAY.month, DAY.day, hour, 0, tzinfo=SHANGHAI)
    return TrainOffer(
        train_number=number,
        train_no=f"24000{number}0",
        origin_station=BJN,
        destination_station=SHQ,
        depart_at=depart,
        arrive_at=depart + dt.timedelta(hours=4, minutes=30),
        duration_min=270,
        seats=(
            second
            or Seat(
                seat_class=SeatClass.SECOND, status=SeatStatus.AVAILABLE, available=20, price=553.0
            ),
        ),
        sources=(source,),
        fetched_at=fetched_at or dt.datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI),
    )


def query(day: dt.date = DAY, origin: str = "BJP", destination: str = "SHH") -> TicketQuery:
    return TicketQuery(origin=origin, destination=destination, date=day)


class FakeSource:
    """Answers from a script: offers, an exception, or a wait on a gate; after `delay_s` on
    the loop's clock (a source's latency, for virtual time)."""

    def __init__(
        self,
        name: str,
        answer: Callable[[TicketQuery], list[TrainOffer]] | None = None,
        *,
        error: SourceError | None = None,
        script: list[SourceError | None] | None = None,
        gate: asyncio.Event | None = None,
        delay_s: float = 0.0,
    ) -> None:
        self.name = name
        self.delay_s = delay_s
        self.calls: list[TicketQuery] = []
        self.error = error  # raised on every call while set
        self.script = list(script or [])  # consumed first: an error to raise, or None to answer
        self.gate = gate
        self._answer = answer or (lambda q: [offer(source=name)])

    async def search(self, query: TicketQuery) -> list[TrainOffer]:
        self.calls.append(query)
        if self.gate is not None:
            await self.gate.wait()
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        step = self.script.pop(0) if self.script else self.error
        if step is not None:
            raise step
        return self._answer(query)


class SlowL2:
    """The L2 tier's calls the query service makes (`RedisTier`'s), each answered after a wait
    on the loop's clock: a Redis slowed by a stall or a pool wait. It holds no fresh entry,
    only the `stale` copies given, and notes each write when it lands."""

    def __init__(
        self,
        *,
        read_s: float = 0.0,
        write_s: float = 0.0,
        stale: dict[str, CacheEntry] | None = None,
    ) -> None:
        self.read_s = read_s
        self.write_s = write_s
        self.stale = dict(stale or {})
        self.written: list[tuple[str, float]] = []  # (query key, loop time it landed)

    async def get(self, key: str) -> CacheEntry | None:
        await asyncio.sleep(self.read_s)
        return None

    async def get_stale(self, key: str) -> CacheEntry | None:
        await asyncio.sleep(self.read_s)
        return self.stale.get(key)

    async def put(self, key: str, entry: CacheEntry, *, force: bool = False) -> None:
        await asyncio.sleep(self.write_s)
        self.written.append((key, asyncio.get_running_loop().time()))


def stop_list(number: str = "G1", day: dt.date = DAY) -> StopList:
    """A two-stop list of `number` on `day`: 北京南 09:00 → 上海虹桥 13:30."""
    depart = dt.datetime(day.year, day.month, day.day, 9, 0, tzinfo=SHANGHAI)
    return StopList(
        train_number=number,
        train_no=f"24000{number}0",
        date=day,
        stops=(
            StopCall(number=1, name=BJN.name, station=BJN, depart_at=depart),
            StopCall(
                number=2, name=SHQ.name, station=SHQ, arrive_at=depart + dt.timedelta(hours=4.5)
            ),
        ),
        fetched_at=dt.datetime(2026, 12, 1, 8, 0, tzinfo=SHANGHAI),
    )


class FakeStopSource(FakeSource):
    """A fake source that also gives stop lists, failing with `error` while it is set."""

    def __init__(self, name: str, *, error: SourceError | None = None) -> None:
        super().__init__(name, error=error)
        self.stop_calls: list[tuple[str, dt.date]] = []

    async def stops(self, train_number: str, date: dt.date) -> StopList:
        self.stop_calls.append((train_number, date))
        if self.error is not None:
            raise self.error
        return stop_list(train_number, date)


def guarded(source: FakeSource, metrics: Metrics, time: FakeTime) -> GuardedSource:
    """`source` behind a guard that neither retries nor limits, on `time`'s clocks."""
    settings = SourceSettings(retries=0, rate_per_s=1000)
    return GuardedSource(source, settings, metrics, sleep=time.sleep, monotonic=time.monotonic)
