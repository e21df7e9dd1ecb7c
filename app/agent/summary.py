"""The reply text of a plan, from templates: every train number in it comes from the itinerary."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from app.agent import texts
from rules import Itinerary, Leg, TripRequest
from rules.timeline import hub_night
from sources.models import SHANGHAI, TRAIN_NUMBER_LIKE

TRAIN_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])(" + TRAIN_NUMBER_LIKE + r")(?!\d)", re.IGNORECASE)
"""Lettered train numbers inside Chinese prose (no word boundaries between CJK and Latin)."""


def train_numbers_in(text: str) -> list[str]:
    """Every lettered train number mentioned in `text`, upper-cased, in order."""
    return [m.upper() for m in TRAIN_IN_TEXT.findall(text)]


def header(request: TripRequest, home_day: dt.date | None = None) -> str:
    """`北京→上海 · 12月4日–6日 · 预算2000元` (what the plan was built for); `home_day`: the
    day the plan's ride home leaves, where it has one (住三晚 after a night train out goes
    home a day after the dates read)."""
    # The traveller's own words for the ends: the station when one was named (杭州→义乌, not
    # 杭州→金华, though 义乌 is 金华's in the official list).
    cities = [
        request.origin_station or request.origin,
        *(stop.city for stop in request.via),
        request.destination_station or request.destination,
    ]
    end = home_day or request.return_date
    if end is None and request.nights is not None:
        end = request.depart_date + dt.timedelta(
            days=sum(s.nights for s in request.via) + request.nights
        )
    parts = ["→".join(cities), texts.date_span(request.depart_date, end)]
    if request.passengers > 1:
        parts.append(texts.HEADER_PARTY.format(n=request.passengers))
    if request.budget is not None:
        parts.append(texts.HEADER_BUDGET.format(budget=texts.yuan(request.budget)))
    return texts.HEADER_SEP.join(parts)


def _leg_text(label: str, leg: Leg) -> str:
    return texts.LEG.format(
        label=label,
        train=leg.train_number,
        origin=leg.origin_station.name,
        depart=texts.clock(leg.depart_at.astimezone(SHANGHAI)),
        destination=leg.destination_station.name,
        arrive=_arrival(leg),
        seat=leg.seat_class.label,
        price=texts.yuan(leg.price),
    ).strip()


def _arrival(leg: Leg) -> str:
    """`13:28`, `次日07:10` for an overnight ride, `第3日16:51` for one of two nights."""
    depart, arrive = leg.depart_at.astimezone(SHANGHAI), leg.arrive_at.astimezone(SHANGHAI)
    nights = (arrive.date() - depart.date()).days
    prefix = ""
    if nights == 1:
        prefix = texts.OVERNIGHT
    elif nights > 1:
        prefix = texts.LATER_DAY.format(n=nights + 1)
    return prefix + texts.clock(arrive)


def _label(segment: int, last: int, returns: bool) -> str:
    if segment == 0:
        return texts.LEG_LABEL_OUT
    if returns and segment == last:
        return texts.LEG_LABEL_RETURN
    return texts.LEG_LABEL_NTH.format(n=segment + 1)


def plan_summary(
    request: TripRequest, itinerary: Itinerary, alternatives: Sequence[Itinerary]
) -> str:
    """`已按「…」为你安排：去程 G… …；返程 G… …；合计…元，在预算内。`"""
    segments: dict[int, list[Leg]] = {}
    for leg in itinerary.legs:
        segments.setdefault(leg.segment, []).append(leg)
    last = max(segments)
    returns = itinerary.legs[-1].destination_station.city == request.origin and last > 0
    parts = []
    for segment, legs in sorted(segments.items()):
        label = _label(segment, last, returns)
        text = _leg_text(label, legs[0])
        for before, after in zip(legs, legs[1:], strict=False):
            if hub_night(before, after):
                # A night at the hub: the next train's clock is the next day's, said so.
                text += texts.LEG_HUB_NIGHT.format(city=before.destination_station.city)
            else:
                text += texts.LEG_TRANSFER.format(station=before.destination_station.name)
            text += _leg_text("", after)
        parts.append(text)
    if itinerary.within_budget is True:
        note = texts.WITHIN_BUDGET
    elif itinerary.within_budget is False and itinerary.budget is not None:
        note = texts.OVER_BUDGET.format(over=texts.yuan(itinerary.total_price - itinerary.budget))
    else:
        note = ""
    text = texts.SUMMARY.format(
        header=header(request, segments[last][0].depart_at.astimezone(SHANGHAI).date())
        if returns
        else header(request),
        legs="；".join(parts),
        total=texts.yuan(itinerary.total_price),
        budget_note=note,
    )
    if alternatives:
        text += texts.ALTERNATIVES.format(n=len(alternatives))
    return text
