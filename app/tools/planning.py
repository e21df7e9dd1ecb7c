"""Executors of the planning tools: the agent's whole plan, the live booking precheck, and
(tool mode only) the rule engine over what the run has fetched."""

from __future__ import annotations

import datetime as dt
from typing import Literal, cast

from app.agent.model import AgentInput
from app.errors import Conflict, InvalidInput, NoLiveAnswer
from app.queries import parse_seat_class
from app.routers.plan import PlanIn
from app.routers.tickets import PrecheckRequest, live_precheck
from app.tools import texts
from app.tools.context import ToolContext
from app.tools.model import BuildItineraryIn, BuildItineraryOut, CheckBookingOut, PlanTripOut
from app.tools.views import clock_text, itinerary_view, provenance

MAX_ALTERNATIVES = 2
"""Alternatives shown to a model: enough to offer a choice, small enough for its context."""


def _one_line(text: str) -> str:
    return " ".join(text.split())


async def plan_trip(ctx: ToolContext, args: PlanIn) -> PlanTripOut:
    """The planning agent on a sentence or an intent, exactly as `POST /v1/plan` runs it."""
    if args.text is None and args.intent is None:
        raise InvalidInput("text", "text: either text or intent is required")
    state = ctx.app
    reply = await state.agent.run(
        AgentInput(today=args.today or ctx.today, text=args.text, intent=args.intent)
    )
    if reply.clarify_question is None:  # a question is not an answer (README "Metrics")
        ctx.answered("plan_trip", reply.freshness)
    summary = _one_line(reply.summary)
    if reply.itinerary is None and not reply.clarify_question:
        summary = texts.PLAN_NONE.format(summary=summary)
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
    """The live precheck of `POST /v1/bookings/precheck`: never answered from a cache.

    "Not bookable" (409) and "no live answer" (503) are answers, not tool errors: the model
    should tell the traveller, not retry with other arguments.
    """
    seat_class = parse_seat_class(args.seat_class)
    train = args.train_number.upper()
    try:
        found = await live_precheck(ctx.app, args)
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
    available, price = found["available"], found["price"]
    checked_at, depart, arrive = found["checked_at"], found["depart_at"], found["arrive_at"]
    assert isinstance(checked_at, dt.datetime) and isinstance(depart, dt.datetime)
    assert isinstance(arrive, dt.datetime)
    assert available is None or isinstance(available, int)
    assert price is None or isinstance(price, float | int)
    return CheckBookingOut(
        summary=texts.BOOKABLE.format(
            train=train,
            seat=seat_class.label,
            left="有" if available is None else available,
            price="未知" if price is None else f"{price:g} 元",
        ),
        freshness="realtime",
        as_of=checked_at,
        bookable=True,
        reason=None,
        train_number=train,
        seat_class=seat_class,
        available=available,
        price=price,
        depart=clock_text(depart),
        arrive=clock_text(arrive),
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
