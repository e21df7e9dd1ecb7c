"""How planning time grows with the number of offers per leg (transfers included).

Builds a deterministic random timetable for a 北京 ⇄ 上海 round trip with two transfer hubs
(南京, 郑州), N offers on every leg (10 legs), and prints the median `plan` time for N = 250,
1,000 and 4,000 plus the 4,000/1,000 ratio (near-linear growth means at most about 4-5).

Run from the repository root: `python bench/rules_scaling.py [--repeat 5]`.

The timetable is input built before the clock starts. By default it is moved out of the
garbage collector's reach (`gc.freeze`) so that the collector's full passes do not re-scan
~400k input objects during each run, which would time this script's heap rather than the
planner; the same ratio without freezing is printed too, for comparison.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import LegKey, LegOffers, TripRequest, plan  # noqa: E402
from sources.models import (  # noqa: E402
    SHANGHAI,
    Seat,
    SeatClass,
    SeatStatus,
    Station,
    TrainOffer,
)

SIZES = (250, 1_000, 4_000)
DAY = dt.date(2026, 12, 4)
RETURN_DAY = DAY + dt.timedelta(days=2)
NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=SHANGHAI)
STATIONS = {
    "北京": (Station(telecode="VNP", name="北京南", city="北京"),
             Station(telecode="BXP", name="北京西", city="北京")),
    "上海": (Station(telecode="AOH", name="上海虹桥", city="上海"),
             Station(telecode="SHH", name="上海", city="上海")),
    "南京": (Station(telecode="NKH", name="南京南", city="南京"),),
    "郑州": (Station(telecode="ZAF", name="郑州东", city="郑州"),),
}  # fmt: skip
ROUTES = [
    ("北京", "上海"),
    ("北京", "南京"),
    ("南京", "上海"),
    ("北京", "郑州"),
    ("郑州", "上海"),
]


def leg_offers(key: LegKey, count: int, rng: random.Random) -> LegOffers:
    """`count` rides spread over the day with realistic seat states."""
    offers = []
    fetched = NOW - dt.timedelta(minutes=1)
    for index in range(count):
        depart = dt.datetime.combine(key.date, dt.time(6), SHANGHAI) + dt.timedelta(
            minutes=rng.randrange(0, 16 * 60)
        )
        duration = rng.randrange(60, 330)
        second = float(rng.randrange(150, 700))

        def state() -> tuple[SeatStatus, int | None]:
            roll = rng.random()
            if roll < 0.15:
                return SeatStatus.SOLD_OUT, 0
            if roll < 0.2:
                return SeatStatus.WAITLIST, 0
            return SeatStatus.AVAILABLE, rng.choice([None, rng.randrange(1, 40)])

        seats = []
        for seat_class, factor in ((SeatClass.SECOND, 1.0), (SeatClass.FIRST, 1.6)):
            status, available = state()
            seats.append(
                Seat(
                    seat_class=seat_class,
                    status=status,
                    available=available,
                    price=round(second * factor, 1),
                )
            )
        offers.append(
            TrainOffer(
                train_number=f"G{index + 1}",
                origin_station=rng.choice(STATIONS[key.origin]),
                destination_station=rng.choice(STATIONS[key.destination]),
                depart_at=depart,
                arrive_at=depart + dt.timedelta(minutes=duration),
                duration_min=duration,
                seats=tuple(seats),
                fetched_at=fetched,
            )
        )
    return LegOffers(key, tuple(offers), "realtime")


def timetable(count: int, seed: int = 5) -> dict[LegKey, LegOffers]:
    """Every outbound and return leg (direct and via each hub) with `count` offers."""
    rng = random.Random(seed)
    book = {}
    for origin, destination in ROUTES:
        for key in (LegKey(origin, destination, DAY), LegKey(destination, origin, RETURN_DAY)):
            book[key] = leg_offers(key, count, rng)
    return book


def median_ms(count: int, repeat: int, *, freeze: bool) -> tuple[float, int]:
    """Median wall time of `plan` over `repeat` runs, and how many itineraries came back."""
    book = timetable(count)
    gc.collect()
    if freeze:
        gc.freeze()
    request = TripRequest(
        origin="北京", destination="上海", depart_date=DAY, nights=2, passengers=2, budget=2500
    )
    times = []
    found = 0
    for _ in range(repeat):
        started = time.perf_counter()
        result = plan(request, book, now=NOW)
        times.append((time.perf_counter() - started) * 1000)
        found = len(result.itineraries)
    gc.unfreeze()
    return statistics.median(times), found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    unfrozen = {count: median_ms(count, args.repeat, freeze=False)[0] for count in (1_000, 4_000)}
    medians = {}
    lines = []
    for count in SIZES:
        medians[count], found = median_ms(count, args.repeat, freeze=True)
        legs = len(ROUTES) * 2
        lines.append(
            f"{count:>6} offers/leg x {legs} legs: median {medians[count]:8.1f} ms"
            f" ({found} itineraries)"
        )
    print("rules_scaling: plan() on a round trip with 2 transfer hubs")
    print(
        f"(input not frozen: 1000 {unfrozen[1_000]:.1f} ms, 4000 {unfrozen[4_000]:.1f} ms,"
        f" ratio {unfrozen[4_000] / unfrozen[1_000]:.2f})"
    )
    print("\n".join(lines))
    print(f"ratio 4000/1000: {medians[4_000] / medians[1_000]:.2f} (target <= 5)")


if __name__ == "__main__":
    main()
