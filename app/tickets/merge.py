"""Merge the offers several sources report into one offer per ride."""

from __future__ import annotations

from collections.abc import Iterable

from sources.models import FareKind, Seat, SeatClass, TrainOffer


def merge_offers(batches: Iterable[list[TrainOffer]]) -> list[TrainOffer]:
    """One offer per ride (train, date, from, to), sorted by departure.

    Seat status and count come from the most recent answer; a price (or discount) missing
    there is taken from whichever other source has it; `sources` lists every source that
    reported the ride, in the order the batches were given (source priority). Optional facts
    (train_no, on_sale_at, can_web_buy) come from the newest answer that has them; features
    are the union, in source priority order.

    Prices are whose fares they are: a ride some source priced for students (it was asked
    for them, and could) is priced from those sources only, never from an adult-only one's
    (Juhe's); the merged offer says which (`fare`).
    """
    rides: dict[tuple[object, ...], list[TrainOffer]] = {}
    for batch in batches:
        for offer in batch:
            rides.setdefault(offer.ride_key, []).append(offer)
    merged = [_merge_ride(reports) for reports in rides.values()]
    merged.sort(key=lambda o: (o.depart_at, o.train_number, o.origin_station.telecode))
    return merged


def _merge_ride(reports: list[TrainOffer]) -> TrainOffer:
    if len(reports) == 1:
        return reports[0]
    newest_first = sorted(reports, key=lambda o: o.fetched_at, reverse=True)
    newest = newest_first[0]
    fare = FareKind.STUDENT if any(r.fare is FareKind.STUDENT for r in reports) else newest.fare
    seats: dict[SeatClass, Seat] = {}
    for report in newest_first:
        for seat in report.seats:
            if report.fare is not fare:
                seat = seat.model_copy(update={"price": None, "discount": None})
            known = seats.get(seat.seat_class)
            if known is None:
                seats[seat.seat_class] = seat
            else:
                missing = {
                    field: getattr(seat, field)
                    for field in ("price", "discount")
                    if getattr(known, field) is None and getattr(seat, field) is not None
                }
                if missing:
                    seats[seat.seat_class] = known.model_copy(update=missing)
    sources = tuple(dict.fromkeys(name for report in reports for name in report.sources))
    ordered = tuple(sorted(seats.values(), key=lambda s: list(SeatClass).index(s.seat_class)))
    return newest.model_copy(
        update={
            "seats": ordered,
            "sources": sources,
            "train_no": next((r.train_no for r in newest_first if r.train_no), ""),
            "on_sale_at": next((r.on_sale_at for r in newest_first if r.on_sale_at), None),
            "can_web_buy": next(
                (r.can_web_buy for r in newest_first if r.can_web_buy is not None), None
            ),
            "features": tuple(dict.fromkeys(f for report in reports for f in report.features)),
            "fare": fare,
        }
    )
