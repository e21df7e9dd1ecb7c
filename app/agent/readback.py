"""What the reply says about constraints: the `understood` read-back and the `relaxed` list.

Both are built from templates (app/agent/texts.py) over the parsed intent, the request the
engine was first given and the one it finally planned, so the words can never disagree with
what was done: a constraint the chosen request no longer holds is always listed in `relaxed`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from pydantic import BaseModel

from app.agent import party_notes, texts
from app.intent.model import SLEEPER_SET, PlanShown, TimeWindow, TravelIntent, end_said
from rules import Itinerary, Leg, TripRequest
from rules.legs import stay_nights
from rules.relax import relaxed_between
from sources.models import CONVENTIONAL_TYPES, SHANGHAI, TRAIN_TYPES, SeatClass


class Relaxed(BaseModel):
    """One stated constraint the plan could not honour: what was asked, what is offered, why."""

    constraint: str
    requested: str
    offered: str
    reason: str


def _span(window: tuple[dt.time, dt.time] | TimeWindow) -> str:
    start, end = (window.start, window.end) if isinstance(window, TimeWindow) else window
    if start == dt.time(0, 0):
        return texts.BEFORE.format(time=f"{end:%H:%M}")
    if end >= dt.time(23, 59):
        return texts.AFTER.format(time=f"{start:%H:%M}")
    return f"{start:%H:%M}-{end:%H:%M}"


def _seats(classes: Sequence[SeatClass]) -> str:
    return "、".join(c.label for c in classes)


def _types(types: Sequence[str]) -> str:
    """Train types in words, the filter's order first; every conventional letter together
    (绿皮车: Z, T, K) is said as the kind, which takes the ordinary trains too."""
    said = set(types)
    kind = CONVENTIONAL_TYPES <= said
    if kind:
        said -= CONVENTIONAL_TYPES

    def rank(t: str) -> int:
        return TRAIN_TYPES.index(t) if t in TRAIN_TYPES else len(TRAIN_TYPES)

    words = [texts.TYPE_LABELS.get(t, t) for t in sorted(said, key=rank)]
    return "、".join([*words, texts.CONVENTIONAL] if kind else words)


def _class_wish(classes: Sequence[SeatClass]) -> str:
    """卧铺 for the whole sleeper category, else the classes named."""
    if set(classes) == set(SLEEPER_SET):
        return texts.SLEEPER_CATEGORY
    return _seats([c for c in SeatClass if c in classes])


def _train_type(number: str) -> str:
    return number[0] if number[:1].isalpha() else ""


def _daytime(intent: TravelIntent) -> bool:
    """白天的车: both windows are the daytime pair the parser sets for 白天."""
    windows = (intent.depart_window, intent.arrive_window)
    return all(w is not None and w.label == "白天" for w in windows)


def asks_return(intent: TravelIntent) -> bool:
    """The traveller asked to come back (said so, or gave a return day or a stay)."""
    if intent.origin is None:
        return False
    if intent.return_trip is not None:
        return intent.return_trip
    # As the trip request reads it: a ticket question is one ride unless a return is said.
    stay = intent.date_end is not None or intent.nights is not None
    return intent.kind != "query_tickets" and stay


def returns(itinerary: Itinerary) -> bool:
    """The plan has a ride home: its last segment ends in the city its first one left."""
    if not itinerary.legs:
        return False
    segments = {leg.segment for leg in itinerary.legs}
    back = _segment_legs(itinerary, max(segments))
    first = itinerary.legs[0].origin_station.city
    return len(segments) > 1 and back[-1].destination_station.city == first


def plan_shown(itinerary: Itinerary) -> PlanShown | None:
    """The outbound of a plan as a chat remembers it (departure, arrival, total)."""
    out = _segment_legs(itinerary, 0) or list(itinerary.legs)
    if not out:
        return None
    return PlanShown(
        depart_at=out[0].depart_at.astimezone(SHANGHAI).time(),
        arrive_at=out[-1].arrive_at.astimezone(SHANGHAI).time(),
        total_price=itinerary.total_price,
    )


def understood(intent: TravelIntent | None, itinerary: Itinerary | None = None) -> str:
    """One Chinese line of everything heard: 12月10日 广州→长沙，1人，不要硬座，预算每人800元.

    With the plan made, 往返 is said only when the plan has the ride home; a return asked for
    that the plan lacks is said as not arranged, never as 往返."""
    if intent is None or intent.kind == "out_of_scope":
        return ""
    parts: list[str] = []
    head = []
    if intent.date_start is not None and intent.flexible_until is not None:
        span = texts.date_span(intent.date_start, intent.flexible_until)
        head.append(texts.ANY_DAY.format(span=span))
    elif intent.date_start is not None:
        head.append(texts.date_span(intent.date_start, _home_day(intent, itinerary)))
    mentioned = [v for v in intent.via if v.nights is not None or v.city != intent.origin]
    places = [intent.origin or "?", *(v.city for v in mentioned)]
    places.append(intent.destination or intent.destination_text or "?")
    head.append("→".join(places))
    parts.append(" ".join(head))
    parts.append(party_notes.party_words(intent))
    stays = [texts.STAY_AT.format(city=v.city, nights=v.nights) for v in intent.via if v.nights]
    parts += stays
    if itinerary is not None and itinerary.legs and returns(itinerary):
        parts.append(texts.UNDERSTOOD_RETURN)
    elif itinerary is not None and itinerary.legs and asks_return(intent):
        open_day = intent.date_end is None and intent.nights is None and intent.days is None
        parts.append(texts.UNDERSTOOD_RETURN_OPEN if open_day else texts.UNDERSTOOD_RETURN_UNMET)
    elif itinerary is None and asks_return(intent):
        open_day = intent.date_end is None and intent.nights is None and intent.days is None
        parts.append(texts.UNDERSTOOD_RETURN_OPEN if open_day else texts.UNDERSTOOD_RETURN)
    daytime = _daytime(intent)
    if daytime:
        parts.append(texts.DAYTIME)
    elif intent.depart_window:
        parts.append(_span(intent.depart_window) + texts.DEPART)
    if daytime:
        pass
    elif intent.arrive_date and intent.arrive_window:
        parts.append(
            texts.day_label(intent.arrive_date) + _span(intent.arrive_window) + texts.ARRIVE
        )
    elif intent.arrive_window:
        parts.append(_span(intent.arrive_window) + texts.ARRIVE)
    elif intent.arrive_date:
        parts.append(texts.day_label(intent.arrive_date) + texts.ARRIVE)
    if intent.return_window:
        parts.append(texts.RETURN_AT.format(span=_span(intent.return_window)))
    if intent.return_arrive_window:
        parts.append(texts.RETURN_ARRIVE.format(span=_span(intent.return_arrive_window)))
    if intent.train_types:
        parts.append(texts.ONLY.format(what=_types(intent.train_types)))
    if intent.exclude_train_types:
        parts.append(texts.NOT_TYPES.format(what=_types(intent.exclude_train_types)))
    if intent.seat_class:
        parts.append(intent.seat_class.label)
    elif intent.seat_classes:
        parts.append(_class_wish(intent.seat_classes))
    if intent.return_train_types:
        wanted = _types(intent.return_train_types)
        parts.append(texts.RETURN_SEATS.format(what=texts.ONLY.format(what=wanted)))
    if intent.return_seat_classes:
        parts.append(texts.RETURN_SEATS.format(what=_class_wish(intent.return_seat_classes)))
    if intent.exclude_seat_classes:
        parts.append(texts.NOT_SEATS.format(what=_seats(intent.exclude_seat_classes)))
    if "直达" in intent.preferences:
        parts.append(texts.DIRECT_ONLY)
    if intent.stay_hours and intent.destination:
        hours = texts.hours_label(intent.stay_hours)
        parts.append(texts.STAY_HOURS.format(city=intent.destination, hours=hours))
    if intent.no_overnight:
        parts.append(texts.NO_OVERNIGHT)
    elif intent.return_no_overnight:
        parts.append(texts.RETURN_SEATS.format(what=texts.NO_OVERNIGHT))
    if intent.order:
        parts.append(texts.ORDER_LABELS.get(intent.order, intent.order))
    if intent.return_order:
        order = texts.ORDER_LABELS.get(intent.return_order, intent.return_order)
        parts.append(texts.RETURN_ORDER.format(order=order))
    if intent.train_numbers:
        parts.append(texts.TRAINS.format(trains="、".join(intent.train_numbers)))
    parts += party_notes.wish_words(intent)
    if intent.budget_per_person is not None:
        parts.append(texts.BUDGET_EACH.format(budget=texts.yuan(intent.budget_per_person)))
    elif intent.budget is not None:
        parts.append(texts.HEADER_BUDGET.format(budget=texts.yuan(intent.budget)))
    return "，".join(parts)


def _home_day(intent: TravelIntent, itinerary: Itinerary | None) -> dt.date | None:
    """The trip's last day as read back: the day said or derived, or the day the plan's ride
    home leaves where the nights said moved it (住三晚 after a night train out goes home a day
    later, counted from the day it arrives)."""
    end = intent.date_end
    if end is None or intent.nights is None or end_said(intent) or intent.via:
        return end
    if itinerary is None or not returns(itinerary):
        return end
    last = max(leg.segment for leg in itinerary.legs)
    there = [leg for leg in itinerary.legs if leg.segment < last][-1]
    home = _segment_legs(itinerary, last)[0].depart_at.astimezone(SHANGHAI).date()
    arrived = there.arrive_at.astimezone(SHANGHAI).date()
    moved = home == arrived + dt.timedelta(days=intent.nights)
    return home if moved and home > end else end


def _overnight(leg: Leg) -> bool:
    return leg.arrive_at.astimezone(SHANGHAI).date() > leg.depart_at.astimezone(SHANGHAI).date()


def _segment_legs(itinerary: Itinerary, segment: int) -> list[Leg]:
    return [leg for leg in itinerary.legs if leg.segment == segment]


def _clock(moment: dt.datetime) -> str:
    return texts.clock(moment.astimezone(SHANGHAI))


def relaxed_items(
    original: TripRequest, chosen: TripRequest, itinerary: Itinerary
) -> list[Relaxed]:
    """Every constraint `chosen` dropped from `original`, with what the itinerary offers."""
    out = _segment_legs(itinerary, 0) or list(itinerary.legs)
    back = _segment_legs(itinerary, max(leg.segment for leg in itinerary.legs))
    classes = list(dict.fromkeys(leg.seat_class for leg in itinerary.legs))
    # An ordinary train's number has no letter (1461): its type is "" (普速), never its digit.
    types = list(dict.fromkeys(_train_type(leg.train_number) for leg in itinerary.legs))
    items = []
    names = relaxed_between(original, chosen)
    if "train_kin" in names:
        # 动车 widened to the intercity EMUs is the train-type wish relaxed, said as such.
        names.remove("train_kin")
        if "train_types" not in names:
            names.append("train_types")
    for name in names:
        if name == "date_start":
            requested = texts.day_label(original.depart_date)
            offered = texts.day_label(chosen.depart_date)
        elif name == "nights":
            # 峨眉山 (乐山's station) is where the traveller stays, as they named it.
            city = original.destination_station or original.destination
            requested = texts.STAY_AT.format(city=city, nights=stay_nights(original))
            offered = texts.STAY_AT.format(city=city, nights=stay_nights(chosen))
        elif name == "depart_window" and original.depart_window:
            requested = _span(original.depart_window) + texts.DEPART
            offered = _clock(out[0].depart_at) + texts.DEPART
        elif name == "arrive_window" and original.arrive_window:
            requested = _span(original.arrive_window) + texts.ARRIVE
            offered = _clock(out[-1].arrive_at) + texts.ARRIVE
        elif name == "return_window" and original.return_window:
            requested = texts.RETURN_AT.format(span=_span(original.return_window))
            offered = texts.RETURN_AT.format(span=_clock(back[0].depart_at))
        elif name == "return_arrive_window" and original.return_arrive_window:
            requested = texts.RETURN_ARRIVE.format(span=_span(original.return_arrive_window))
            offered = texts.RETURN_ARRIVE.format(span=_clock(back[-1].arrive_at))
        elif name == "arrive_date" and original.arrive_date:
            requested = texts.day_label(original.arrive_date) + texts.ARRIVE
            offered = texts.day_label(out[-1].arrive_at.astimezone(SHANGHAI).date()) + texts.ARRIVE
        elif name == "seat_class" and original.seat_class:
            requested, offered = original.seat_class.label, _seats(classes)
        elif name == "seat_classes":
            requested, offered = texts.SLEEPER_CATEGORY, _seats(classes)
        elif name == "return_train_types":
            requested = texts.RETURN_SEATS.format(
                what=texts.ONLY.format(what=_types(sorted(original.return_train_types)))
            )
            offered = texts.RETURN_SEATS.format(
                what=_types([_train_type(leg.train_number) for leg in back])
            )
        elif name == "return_seat_classes":
            wish = _class_wish(sorted(original.return_seat_classes))
            requested = texts.RETURN_SEATS.format(what=wish)
            offered = texts.RETURN_SEATS.format(
                what=_seats(list(dict.fromkeys(leg.seat_class for leg in back)))
            )
        elif name == "train_types":
            requested = texts.ONLY.format(what=_types(sorted(original.train_types)))
            offered = _types(types)
        elif name == "exclude_train_types":
            requested = texts.NOT_TYPES.format(what=_types(sorted(original.exclude_train_types)))
            offered = _types(types)
        elif name == "exclude_seat_classes":
            wanted = [c for c in SeatClass if c in original.exclude_seat_classes]
            requested = texts.NOT_SEATS.format(what=_seats(wanted))
            offered = _seats(classes)
        elif name == "origin" and original.origin_station:
            requested = texts.FROM_STATION.format(station=original.origin_station)
            offered = texts.FROM_STATION.format(station=out[0].origin_station.name)
        elif name == "destination" and original.destination_station:
            requested = texts.TO_STATION.format(station=original.destination_station)
            offered = texts.TO_STATION.format(station=out[-1].destination_station.name)
        elif name in ("no_overnight", "return_no_overnight"):
            homeward = name == "return_no_overnight"
            requested = texts.NO_OVERNIGHT
            offered = "、".join(
                f"{leg.train_number}{_clock(leg.depart_at)}{texts.DEPART}"
                f"{texts.OVERNIGHT}{_clock(leg.arrive_at)}{texts.ARRIVE}"
                for leg in (back if homeward else itinerary.legs)
                if leg.arrive_at.astimezone(SHANGHAI).date()
                > leg.depart_at.astimezone(SHANGHAI).date()
            ) or _types(types)
            if homeward:
                requested = texts.RETURN_SEATS.format(what=requested)
        elif name == "stay" and original.min_stay is not None and out and back:
            there = original.destination
            requested = texts.STAY_HOURS.format(
                city=there, hours=texts.hours_label(original.min_stay / 60)
            )
            minutes = (back[0].depart_at - out[-1].arrive_at).total_seconds() / 60
            offered = texts.STAYED_HOURS.format(
                city=there, hours=texts.hours_label(round(minutes / 60, 1))
            )
        elif name == "budget" and original.budget is not None:
            requested = texts.HEADER_BUDGET.format(budget=texts.yuan(original.budget))
            offered = texts.TOTAL.format(total=texts.yuan(itinerary.total_price))
        else:
            continue
        reason = _station_reason(name, original, chosen) or texts.RELAX_REASON.format(
            requested=requested
        )
        if name == "nights":
            reason = texts.STAY_LONGER_REASON
        items.append(Relaxed(constraint=name, requested=requested, offered=offered, reason=reason))
    return items


def _station_reason(name: str, original: TripRequest, chosen: TripRequest) -> str:
    """Why a named station was given up with the window of its end kept: that window cannot
    be met there, and the city proper's other stations meet it ("" for any other case)."""
    if name == "destination" and original.destination_station:
        window, kept = original.arrive_window, chosen.arrive_window
        at = texts.TO_STATION.format(station=original.destination_station)
        when = _span(window) + texts.ARRIVE if window else ""
        city = original.destination
    elif name == "origin" and original.origin_station:
        window, kept = original.depart_window, chosen.depart_window
        at = texts.AT_STATION_FROM.format(station=original.origin_station)
        when = _span(window) + texts.DEPART if window else ""
        city = original.origin
    else:
        return ""
    if window is None or kept != window:
        return ""
    return texts.RELAX_STATION_REASON.format(at=at, when=when, city=city)


def relaxed_sentence(items: Sequence[Relaxed]) -> str:
    """The summary's opening words for what was relaxed ("" when nothing was)."""
    return "".join(
        texts.RELAXED_SENTENCE.format(reason=item.reason, offered=item.offered) for item in items
    )
