"""Compact views of offers and itineraries: only what a model needs to choose and explain."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from app.tickets.model import TicketResult
from app.tools.model import ItineraryView, LegView, OfferView, SeatView, TransferView
from rules import Itinerary
from sources.models import SHANGHAI, Freshness, SeatClass, TrainOffer, worst_freshness


def clock_text(moment: dt.datetime | None) -> str | None:
    """`2026-12-04 09:00` in Beijing time."""
    return None if moment is None else moment.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M")


def offer_view(offer: TrainOffer, only: SeatClass | None = None) -> OfferView:
    """One ride; with `only`, just that seat class (the one the caller asked about)."""
    return OfferView(
        train_number=offer.train_number,
        origin=offer.origin_station.name,
        destination=offer.destination_station.name,
        depart=clock_text(offer.depart_at) or "",
        arrive=clock_text(offer.arrive_at) or "",
        duration_min=offer.duration_min,
        train_no=offer.train_no,
        features=list(offer.features),
        can_web_buy=offer.can_web_buy,
        on_sale_at=clock_text(offer.on_sale_at),
        fare=offer.fare.value,
        seats=[
            SeatView(
                seat_class=s.seat_class,
                label=s.seat_class.label,
                status=s.status,
                left=s.available,
                price=s.price,
                discount=s.discount,
            )
            for s in offer.seats
            if only is None or s.seat_class is only
        ],
    )


def itinerary_view(itinerary: Itinerary) -> ItineraryView:
    return ItineraryView(
        trains=list(itinerary.train_numbers),
        legs=[
            LegView(
                train_number=leg.train_number,
                origin=leg.origin_station.name,
                destination=leg.destination_station.name,
                depart=clock_text(leg.depart_at) or "",
                arrive=clock_text(leg.arrive_at) or "",
                seat_class=leg.seat_class,
                seat=leg.seat_class.label,
                price=leg.price,
                freshness=leg.freshness,
            )
            for leg in itinerary.legs
        ],
        transfers=[
            TransferView(station=t.station.name, to_station=t.to_station.name, minutes=t.minutes)
            for t in itinerary.transfers
        ],
        total_price=itinerary.total_price,
        within_budget=itinerary.within_budget,
    )


def provenance(
    itineraries: Iterable[Itinerary], results: Iterable[TicketResult]
) -> tuple[Freshness, dt.datetime | None]:
    """Freshness of the legs used (else of the results), and the oldest `as_of` behind them."""
    answers = list(results)
    legs = [leg.freshness for it in itineraries for leg in it.legs]
    freshness = worst_freshness(legs or [r.freshness for r in answers])
    stamps = [r.as_of for r in answers if r.as_of is not None]
    return freshness, min(stamps, default=None)
