"""Whose wishes a turn that adds the ride home says: the trip's, or that ride's alone.

A turn may say something of the trip before it turns to the ride home ("要一等座。回程周五晚上
长沙南回深圳北": first class is the trip's, both rides), or say it inside the clause about the
ride home ("回程换成卧铺", "回来下周三，白天的车，不要过夜": the ride home's alone). The clause
that first names the ride home opens its scope; what comes before it is the trip's.

Pure functions over the normalised text of one turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from app.intent.constraints import MASK, read_constraints
from app.intent.lexicon import SEAT_PHRASES, TRAIN_TYPE_PHRASES
from app.intent.model import OrderPreference
from app.intent.wishes import no_overnight
from sources.models import SeatClass

_RETURN_WORD = re.compile(r"回来|回去|返回|回程|返程|回(?!家)")
_CLAUSE_END = re.compile(r"[，,。；;！!？?\s]")
_BOTH_RIDES = re.compile(r"来回|往返|去回|两趟|两程|都")


def split_at_return(words: str) -> tuple[str, str]:
    """(the clauses before the one naming the ride home, that clause and the rest); the head
    is empty when the turn opens with the ride home or never names it."""
    found = _RETURN_WORD.search(words)
    if found is None:
        return "", words
    ends = [m.end() for m in _CLAUSE_END.finditer(words, 0, found.start())]
    if not ends:
        return "", words
    return words[: ends[-1]], words[ends[-1] :]


@dataclass(frozen=True)
class RideWishes:
    """The classes, train types and order one stretch of a turn names (its refusals apart)."""

    seat_classes: tuple[SeatClass, ...] = ()
    train_types: tuple[str, ...] = ()
    order: OrderPreference | None = None
    refused: bool = False
    """Something refused too (不要无座): a refusal serves both rides, wherever said."""
    phrases: tuple[str, ...] = field(default=(), repr=False)

    def __bool__(self) -> bool:
        return bool(self.seat_classes or self.train_types or self.order or self.refused)

    def as_slots(self) -> dict[str, Any]:
        """The intent slots they set: one class named is `seat_class`, a category (卧铺)
        `seat_classes`."""
        slots: dict[str, Any] = {}
        if len(self.seat_classes) == 1:
            slots["seat_class"] = self.seat_classes[0]
        elif self.seat_classes:
            slots["seat_classes"] = list(self.seat_classes)
        if self.train_types:
            slots["train_types"] = list(self.train_types)
        if self.order:
            slots["order"] = self.order
        return slots


def ride_wishes(text: str) -> RideWishes:
    """What `text` asks of a ride: the classes and train types it names, its order."""
    said = read_constraints(text.lower())
    rest = said.rest
    found: dict[str, list[Any]] = {"seats": [], "types": []}
    phrases: list[str] = []
    for key, table in (("seats", SEAT_PHRASES), ("types", TRAIN_TYPE_PHRASES)):
        for phrase, values in table:  # longest first: 一等座 before 一等
            if phrase in rest:
                found[key].extend(v for v in values if v not in found[key])
                phrases.append(phrase)
                rest = rest.replace(phrase, MASK * len(phrase))
    return RideWishes(
        seat_classes=tuple(found["seats"]),
        train_types=tuple(found["types"]),
        order=said.order,
        refused=bool(said.exclude_seat_classes or said.exclude_train_types),
        phrases=tuple(phrases),
    )


def night_refused_homeward(head: str, words: str) -> bool:
    """True when a night on the train is refused in the clause of the ride home (回来下周三，
    白天的车，不要过夜), not before it (不要过夜，周日回来) nor of both rides (来回都不要过夜)."""
    return not no_overnight(head.lower()) and not _BOTH_RIDES.search(words)
