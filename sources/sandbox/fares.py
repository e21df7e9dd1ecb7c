"""Fares from distance, by fare tier and seat class, with distance bands (pure).

Conventional trains (tiers `tk`, `pk`, `pt`) follow the structure of the national passenger
fare rules (铁路旅客运价规则, 1997 fare table, still the basis of 12306's conventional fares):

- 硬座客票 basic rate 0.05861 yuan per passenger-km, tapered by distance band
  (递远递减): 1–200 km full, 201–500 km −10 %, 501–1000 km −20 %, 1001–1500 km −30 %,
  1501–2500 km −40 %, beyond 2500 km −50 %; at least 20 km is charged;
- 软座 is twice the 硬座 ticket; supplements as shares of the 硬座 ticket: 加快 (express) 40 %
  for 特快/直达特快/快速 (tier `tk`) and 20 % for 普快 (tier `pk`), none for 普客 (`pt`), at
  least 100 km charged; 卧铺 硬卧上铺 110 %, 软卧上铺 175 % (the lowest berth, as the
  left-ticket list shows), at least 400 km charged; air conditioning 25 %;
- 新型空调列车 float 50 % above that (every train of the network is air-conditioned), applied
  to ticket, express and berth, not to the air-conditioning part.

EMU trains are priced per km by class as the railway published them: 200–250 km/h (tier
`emu250`) 一等座 0.3366 and 二等座 0.2805 yuan/km (the 2007 standard), 300–350 km/h (tier
`emu350`) 商务座 1.46, 一等座 0.74, 二等座 0.46 yuan/km (the 2009–2011 high-speed launch
figures); 动卧 (二等卧 0.45, 一等卧 0.58 yuan/km) as observed on overnight EMUs. Since 2016 the
bureaus set EMU fares themselves with distance discounts; railtrip models that with one band
shape, full up to 500 km, −10 % for 501–1000 km and −15 % beyond (so G1 北京南→上海虹桥,
1318 km, comes to 561.5 yuan second class against 553 published in 2019). 无座 costs what
硬座 (conventional) or 二等座 (EMU) costs. Every fare is rounded to 0.5 yuan, at least 0.5.
"""

from __future__ import annotations

from collections.abc import Sequence

from sources.models import SeatClass

HARD_SEAT_BASE = 0.05861  # yuan per passenger-km, 硬座客票基本票价率
CONVENTIONAL_BANDS: tuple[tuple[int, float], ...] = (
    (200, 1.0),
    (500, 0.9),
    (1000, 0.8),
    (1500, 0.7),
    (2500, 0.6),
    (10**6, 0.5),
)
EMU_BANDS: tuple[tuple[int, float], ...] = ((500, 1.0), (1000, 0.9), (10**6, 0.85))
EXPRESS_SHARE = {"tk": 0.4, "pk": 0.2, "pt": 0.0}
BERTH_SHARE = {SeatClass.HARD_SLEEPER: 1.10, SeatClass.SOFT_SLEEPER: 1.75}
AIR_CONDITIONING_SHARE = 0.25
NEW_AIR_CONDITIONED_FLOAT = 1.5
EMU_RATES: dict[str, dict[SeatClass, float]] = {
    "emu350": {
        SeatClass.BUSINESS: 1.46,
        SeatClass.FIRST: 0.74,
        SeatClass.SECOND: 0.46,
        SeatClass.SOFT_SLEEPER: 0.58,
        SeatClass.EMU_SLEEPER: 0.45,
    },
    "emu250": {
        SeatClass.BUSINESS: 1.46 * 0.2805 / 0.46,
        SeatClass.FIRST: 0.3366,
        SeatClass.SECOND: 0.2805,
        SeatClass.SOFT_SLEEPER: 0.58,
        SeatClass.EMU_SLEEPER: 0.45,
    },
}
FARE_TIERS = frozenset({*EMU_RATES, *EXPRESS_SHARE})


def fare(tier: str, seat_class: SeatClass, km: int) -> float:
    """The fare in yuan for `km` in `seat_class` on a train of fare `tier`."""
    if tier in EMU_RATES:
        rates = EMU_RATES[tier]
        cls = SeatClass.SECOND if seat_class is SeatClass.NO_SEAT else seat_class
        return _round(rates[cls] * tapered_km(km, EMU_BANDS))
    if tier not in EXPRESS_SHARE:
        raise ValueError(f"unknown fare tier {tier!r}")
    ticket = HARD_SEAT_BASE * tapered_km(max(km, 20), CONVENTIONAL_BANDS)
    if seat_class is SeatClass.SOFT_SEAT:
        ticket *= 2
    express = EXPRESS_SHARE[tier] * _ticket(max(km, 100))
    berth = 0.0
    if seat_class in (SeatClass.SOFT_SLEEPER, SeatClass.PREMIUM_SLEEPER):
        berth = BERTH_SHARE[SeatClass.SOFT_SLEEPER] * _ticket(max(km, 400))
    elif seat_class is SeatClass.HARD_SLEEPER:
        berth = BERTH_SHARE[SeatClass.HARD_SLEEPER] * _ticket(max(km, 400))
    air = AIR_CONDITIONING_SHARE * _ticket(max(km, 20))
    return _round((ticket + express + berth) * NEW_AIR_CONDITIONED_FLOAT + air)


def tapered_km(km: int, bands: Sequence[tuple[int, float]]) -> float:
    """`km` weighted by the distance bands (each band's km counted at its share)."""
    weighted, floor = 0.0, 0
    for ceiling, share in bands:
        if km <= floor:
            break
        weighted += (min(km, ceiling) - floor) * share
        floor = ceiling
    return weighted


def _ticket(km: int) -> float:
    return HARD_SEAT_BASE * tapered_km(km, CONVENTIONAL_BANDS)


def _round(yuan: float) -> float:
    return max(0.5, round(yuan * 2) / 2)
