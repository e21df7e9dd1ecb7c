"""Executors of the planning tools: the planning and precheck use cases, and
(tool mode only) the rule engine over what the run has fetched."""

from __future__ import annotations

from typing import Literal, cast

from app.errors import Conflict, NoLiveAnswer
from app.tools import texts
from app.tools.context import ToolContext
from app.tools.model import BuildItineraryIn, BuildItineraryOut, CheckBookingOut, PlanTripOut
from app.tools.views import clock_text, itinerary_view, provenance
from app.usecases import planning
from app.usecases.planning import PlanRequest
from app.usecases.precheck import PrecheckRequest, precheck
from app.usecases.queries import parse_seat_class

MAX_ALTERNATIVES = 2
"""Alternatives shown to a model: enough to offer a choice, small enough for its context."""


def _one_line(text: str) -> str:
    return " ".join(text.split())


async def plan_trip(ctx: ToolContext, args: PlanRequest) -> PlanTripOut:
    """The planning use case on a sentence or an intent, exactly as `POST /v1/plan` runs it
    (the same validation: exactly one of text and intent, `today` within a day)."""
    services = ctx.services
    reply = await planning.plan(services, planning.plan_input(services, args))
    if reply.clarify_question is None:  # a question is not an answer (README "Metrics")
        ctx.answered("plan_trip", reply.freshness)
    summary = _one_line(reply.summary)
    if reply.itinerary is None and not reply.clarify_question:
        summary = texts.PLAN_NONE.format(summary=summary)
        if reply.freshness == "unavailable" and reply.sources:
            summary = f"{summary}{texts.NO_DATA_ADVICE}"
    return PlanTripOut(
        summary=summary,
        freshness=reply.freshness,
        as_of=reply.as_of,
        warnings=reply.warnings,
        itinerary=itinerary_view(reply.itinerary) if reply.itinerary else None,
        alternatives=[itinerary_view(it) for it in reply.alternatives[:MAX_ALTERNATIVES]],
        clarify_question=reply.clarify_question,
    )


Reason = Literal["not_found", "not_on_sale", "sold_out", "price_changed", "no_live_answer"]


async def check_booking(ctx: ToolContext, args: PrecheckRequest) -> CheckBookingOut:
    """The live precheck use case of `POST /v1/bookings/precheck`: never from a cache.

    "Not bookable" (409) and "no live answer" (503) are answers, not tool errors: the model
    should tell the traveller, not retry with other arguments.
    """
    seat_class = parse_seat_class(args.seat_class)
    train = args.train_number.upper()
    try:
        found = await precheck(ctx.services, args)
    except Conflict as exc:
        return CheckBookingOut(
            summary=texts.NOT_BOOKABLE.format(train=train, seat=seat_class.label, message=exc),
            freshness="realtime",
            as_of=ctx.clock(),
            bookable=False,
            reason=cast(Reason, exc.code),
            train_number=train,
            seat_class=seat_class,
            available=exc.details.get("available"),
            price=exc.details.get("price"),
        )
    except NoLiveAnswer as exc:
        return CheckBookingOut(
            summary=texts.NOT_BOOKABLE.format(train=train, seat=seat_class.label, message=exc),
            freshness="unavailable",
            as_of=None,
            bookable=False,
            reason="no_live_answer",
            train_number=train,
            seat_class=seat_class,
        )
    available, price = found.available, found.price
    return CheckBookingOut(
        summary=texts.BOOKABLE.format(
            train=train,
            seat=seat_class.label,
            left="有" if available is None else available,
            price="未知" if price is None else f"{price:g} 元",
        ),
        freshness="realtime",
        as_of=found.checked_at,
        bookable=True,
        reason=None,
        train_number=train,
        seat_class=seat_class,
        available=available,
        price=price,
        depart=clock_text(found.depart_at),
        arrive=clock_text(found.arrive_at),
    )


async def build_itinerary(ctx: ToolContext, args: BuildItineraryIn) -> BuildItineraryOut:
    """Tool mode only: the rule engine plans this run's trip on the legs fetched so far."""
    found, results = ctx.plan_run()
    freshness, as_of = provenance(found.itineraries, results)
    if found.itineraries:
        best = found.itineraries[0]
        summary = texts.ITINERARIES.format(
            count=len(found.itineraries),
            best="→".join(best.train_numbers),
            price=best.total_price,
        )
    else:
        summary = texts.ITINERARIES_NONE
    return BuildItineraryOut(
        summary=summary,
        freshness=freshness,
        as_of=as_of,
        itineraries=[itinerary_view(it) for it in found.itineraries],
        notes=list(found.notes),
        failures=[f.message for f in found.failures],
    )
