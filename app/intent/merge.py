"""Multi-turn slot filling: combine the intent so far with the intent of a new message.

- `update` (换成/改成): the fields the new turn sets replace the old ones. A new start date
  keeps the trip's length ("换成下周六" moves the whole trip).
- `append` (再加一站/顺便去): the old destination becomes a via stop (keeping its nights) and
  the turn's destination is the new last stop.
- `create`: a turn that names a new origin *and* destination starts a new trip (nothing of
  the old one carries over); a turn that names one end only corrects that end and keeps the
  rest ("不对，是去蒙自"); a turn without a trip of its own, or one that only fills what is
  missing ("北京到上海" after "下周末，预算2000"), completes the previous intent.

A turn read against the trip (returns, corrections of one end, stops, the party, relative
wishes, declined questions) is `app/intent/followup.py`; this module merges the slots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.intent.model import (
    TRAVEL_SLOTS,
    TravelIntent,
    ViaStop,
    end_said,
    missing_fields,
    with_derived_dates,
    with_end_said,
)

_SLOTS = TRAVEL_SLOTS
_DATE_SLOTS = ("date_start", "date_end", "days", "nights")


def set_slots(intent: TravelIntent) -> dict[str, Any]:
    """The slots `intent` actually says something about (not None, not empty, not default)."""
    defaults = TravelIntent()
    return {
        name: getattr(intent, name)
        for name in _SLOTS
        if getattr(intent, name) not in (None, [])
        and getattr(intent, name) != getattr(defaults, name)
    }


def merge_intent(
    previous: TravelIntent,
    turn: TravelIntent,
    *,
    city: Callable[[str], str | None] | None = None,
    route: Sequence[str] | None = None,
) -> TravelIntent:
    """The intent after `turn`, given the conversation's intent so far; `city` tells the
    city of a place name (a station of the trip's city is no new trip); `route` is the
    named train's stops as cities, when known (see `starts_over`)."""
    if turn.kind == "out_of_scope":
        return previous
    slots = set_slots(turn)
    if turn.action == "create" and starts_over(previous, turn, city, route):
        return _finish(turn, turn)
    if turn.action == "update" and starts_over(previous, turn, city, route):
        # 换成兰州去张掖，还是周日: both ends replaced, the day and party kept; the seats,
        # trains and hours wished for the old ride were that ride's.
        previous = previous.model_copy(update=_OLD_RIDE_WISHES)
    if "seat_class" in slots and "seat_classes" not in slots and previous.seat_classes:
        # 卧铺 … then 硬卧就行: the one class named now stands for the category said before.
        previous = previous.model_copy(update={"seat_classes": []})
    elif "seat_classes" in slots and "seat_class" not in slots:
        if previous.seat_class is not None and previous.seat_class in slots["seat_classes"]:
            # 硬卧 … then 给她也要下铺: the berth's category holds the class already named.
            del slots["seat_classes"]
    merged = (
        _append(previous, slots, turn)
        if turn.action == "append"
        else _update(previous, slots, turn)
    )
    kind = "plan_trip" if "plan_trip" in (previous.kind, turn.kind) else previous.kind
    if previous.kind == "out_of_scope":
        kind = turn.kind
    return _finish(merged.model_copy(update={"kind": kind}), turn)


_OLD_RIDE_WISHES: dict[str, Any] = {
    "seat_class": None,
    "seat_classes": [],
    "train_types": [],
    "train_numbers": [],
    "berth": None,
    "depart_window": None,
    "arrive_window": None,
    "order": None,
}


def starts_over(
    previous: TravelIntent,
    turn: TravelIntent,
    city: Callable[[str], str | None] | None,
    route: Sequence[str] | None = None,
) -> bool:
    """A new origin and destination: another trip, not a change to this one (a turn of
    action `create` that names both). `route` is the previous turn's named train's stops as
    cities, in order: a ride along it is that train's, not another trip."""
    if turn.origin is None or (turn.destination is None and turn.destination_text is None):
        return False
    if previous.origin is None or (
        previous.destination is None and previous.destination_text is None
    ):
        return False

    def where(name: str | None) -> str | None:
        return (city(name) or name) if city is not None and name is not None else name

    before = (where(previous.origin), where(previous.destination or previous.destination_text))
    after = (where(turn.origin), where(turn.destination or turn.destination_text))
    if previous.train_numbers and not turn.train_numbers and _rides(route, after):
        # G79后天 … 我们从北京到广州, … 从石家庄到长沙: the ends of a ride on the named train
        # (its first station or any stop after, then a later stop), not another trip.
        # 从北京到上海 is another trip: G79 does not call at 上海.
        return False
    if previous.train_numbers:
        return before != after  # another ride than the named train's: its own trip
    # One end kept (还是从广州走，改去武汉): a change to this trip, its day and party kept.
    return before[0] != after[0] and before[1] != after[1]


def _rides(route: Sequence[str] | None, ends: tuple[str | None, str | None]) -> bool:
    """Both ends are stops of `route`, the origin before the destination."""
    origin, destination = ends
    if not route or origin is None or destination is None or origin not in route:
        return False
    return destination in route[route.index(origin) + 1 :]


def _update(previous: TravelIntent, slots: dict[str, Any], turn: TravelIntent) -> TravelIntent:
    update = dict(slots)
    if "date_start" in slots and "date_end" not in slots and previous.date_start:
        # Keep the trip's length: move the end with the start.
        if previous.date_end is not None:
            update["date_end"] = slots["date_start"] + (previous.date_end - previous.date_start)
        else:
            update["date_end"] = None
    elif ("days" in slots or "nights" in slots) and "date_end" not in slots:
        update["date_end"] = None
    if "nights" in slots and "days" not in slots:
        update["days"] = None  # 那就住两晚: the old length in days would set the end again
    elif "days" in slots and "nights" not in slots:
        update["nights"] = None
    if "date_start" in slots and "flexible_until" not in slots:
        update["flexible_until"] = None  # a day named now replaces "any day will do"
    if "destination" in slots and "destination_text" not in slots:
        update["destination_text"] = None
    update.update(_types_switched(previous, slots))
    if "budget_per_person" in slots and "budget" in slots and "passengers" not in slots:
        update["budget"] = slots["budget_per_person"] * previous.passengers
    elif "passengers" in slots and previous.budget_per_person and "budget" not in slots:
        update["budget"] = previous.budget_per_person * slots["passengers"]
    merged = previous.model_copy(update=update)
    if "date_end" in slots:
        # 回程改成周四: the day home is the turn's, said or derived from its own stay.
        return with_end_said(merged, end_said(turn))
    if update.get("date_end") is None and "date_end" in update:
        return with_end_said(merged, False)
    return merged  # a start moved keeps the length, and whether its end was said


# The classes no high-speed train sells: a wish for them is the slow train's.
_SLOW_TRAIN_CLASSES = frozenset(
    {"premium_sleeper", "soft_sleeper", "hard_sleeper", "soft_seat", "hard_seat"}
)
_HIGH_SPEED = frozenset({"G", "D", "C"})


def _types_switched(previous: TravelIntent, slots: dict[str, Any]) -> dict[str, Any]:
    """算了，坐高铁吧 after a named K train and its sleeper: the train of another type and the
    classes only a slow train sells are dropped with the switch (the new type is the wish)."""
    types = set(slots.get("train_types") or ())
    if not types:
        return {}
    dropped: dict[str, Any] = {}
    if "train_numbers" not in slots and previous.train_numbers:
        kept = [n for n in previous.train_numbers if n[:1].upper() in types]
        if kept != previous.train_numbers:
            dropped["train_numbers"] = kept
    if types <= _HIGH_SPEED:
        if "seat_class" not in slots and previous.seat_class in _SLOW_TRAIN_CLASSES:
            dropped["seat_class"] = None
        if "seat_classes" not in slots and previous.seat_classes:
            kept_classes = [c for c in previous.seat_classes if c not in _SLOW_TRAIN_CLASSES]
            if kept_classes != previous.seat_classes:
                dropped["seat_classes"] = kept_classes
        if "preferences" not in slots and "卧铺" in previous.preferences:
            dropped["preferences"] = [p for p in previous.preferences if p != "卧铺"]
    return dropped


def _append(previous: TravelIntent, slots: dict[str, Any], turn: TravelIntent) -> TravelIntent:
    stop = slots.pop("destination", None)
    stay = slots.pop("nights", None) or slots.pop("days", None)
    slots.pop("days", None)
    if stop is None:
        return _update(previous, slots, turn)
    via = list(previous.via) + list(slots.pop("via", []))
    if previous.destination is not None:
        via.append(ViaStop(city=previous.destination, nights=previous.nights))
    merged = _update(previous, slots, turn)
    return merged.model_copy(
        update={"via": via, "destination": stop, "destination_text": None, "nights": stay}
    )


def _finish(intent: TravelIntent, turn: TravelIntent) -> TravelIntent:
    intent = with_derived_dates(intent)
    return intent.model_copy(
        update={
            "action": turn.action,
            "missing": missing_fields(intent),
            "confidence": min(intent.confidence, turn.confidence),
        }
    )
