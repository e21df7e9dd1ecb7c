"""The party and the wishes in the reply: who travels on which ticket, and what a ticket
query cannot promise (a berth), read back in `understood` and said in the summary.

Children's and students' fares follow `sources.fare_rules` (12306's rules); the engine prices
each leg per ticket kind (`rules.party`), and these notes say how, in Chinese templates.
"""

from __future__ import annotations

from app.agent import texts
from app.intent.model import BERTH_LABELS, SEAT_POSITION_LABELS, TravelIntent
from rules.limits import MAX_PARTY
from sources.fare_rules import ADULT_FROM, FREE_CHILD_BELOW, TicketKind, party_tickets

UNKNOWN_CHILD_AGE = FREE_CHILD_BELOW
"""A child whose age was not said is priced on a child ticket (6 to 13, half the fare)."""


def typed(intent: TravelIntent) -> bool:
    """The party has children or students: each leg is priced per ticket kind."""
    return bool(intent.children) or intent.students > 0


def tickets(intent: TravelIntent) -> tuple[TicketKind, ...]:
    """One ticket kind per passenger, grown-ups first (empty for a party of adults).

    A child of 14 or more rides on an adult ticket; a child of unknown age on a child's.
    """
    if not typed(intent):
        return ()
    teens = sum(1 for age in intent.children if age is not None and age >= ADULT_FROM)
    young = [
        UNKNOWN_CHILD_AGE if age is None else age
        for age in intent.children
        if age is None or age < ADULT_FROM
    ]
    return party_tickets(intent.adults + teens, intent.students, young)


def party_words(intent: TravelIntent) -> str:
    """`3人（2名成人、3岁儿童）` for a typed party, else `2人` (`60人及以上` at the ceiling,
    past which the intent keeps no head count)."""
    if intent.passengers >= MAX_PARTY:
        return texts.HEADER_GROUP.format(n=MAX_PARTY)
    if not typed(intent):
        return texts.HEADER_PARTY.format(n=intent.passengers)
    who = []
    if intent.adults:
        who.append(texts.PARTY_ADULTS.format(n=intent.adults))
    if intent.students:
        who.append(texts.PARTY_STUDENTS.format(n=intent.students))
    for age in intent.children:
        who.append(
            texts.PARTY_CHILD_UNKNOWN if age is None else texts.PARTY_CHILD_AGE.format(age=age)
        )
    return texts.PARTY_TYPED.format(n=intent.passengers, who=texts.PARTY_JOIN.join(who))


def wish_words(intent: TravelIntent) -> list[str]:
    """The wishes `understood` reads back beyond the engine's constraints."""
    words = []  # 不坐夜车 and the stays are read back by `readback.understood` itself
    if intent.berth:
        words.append(texts.BERTH_WISH.format(berth=BERTH_LABELS[intent.berth]))
    positions = list(intent.seat_positions)
    if "together" in positions and _berths(intent):
        positions.remove("together")
        words.append(texts.TOGETHER_BERTH_WISH)
    if positions:
        what = texts.PARTY_JOIN.join(SEAT_POSITION_LABELS[p] for p in positions)
        words.append(texts.SEAT_POSITION_WISH.format(what=what))
    if intent.leisure:
        words.append(texts.LEISURE)
    return words


def fare_note(intent: TravelIntent) -> str:
    """How the party's tickets were priced ("" for a party of adults)."""
    if not typed(intent):
        return ""
    notes = []
    for age in intent.children:
        if age is None:
            notes.append(texts.FARE_CHILD_UNKNOWN)
        elif age < FREE_CHILD_BELOW:
            notes.append(texts.FARE_FREE_CHILD.format(age=age))
        elif age < ADULT_FROM:
            notes.append(texts.FARE_CHILD.format(age=age))
        else:
            notes.append(texts.FARE_TEEN.format(age=age))
    if intent.students:
        notes.append(texts.FARE_STUDENTS)
    return texts.FARE_NOTE.format(notes="；".join(dict.fromkeys(notes)))


def berth_note(intent: TravelIntent) -> str:
    """A berth or seat wish said as not guaranteed ("" when none was made): no ticket query
    chooses a berth or a seat (靠窗, 过道, 坐在一起)."""
    notes = []
    if intent.berth:
        notes.append(texts.BERTH_NOTE.format(berth=BERTH_LABELS[intent.berth]))
    positions = list(intent.seat_positions)
    if "together" in positions and _berths(intent):
        # 挨着的铺 on a sleeper: berths side by side, said as berths.
        positions.remove("together")
        notes.append(texts.TOGETHER_BERTH_NOTE)
    if positions:
        what = texts.PARTY_JOIN.join(SEAT_POSITION_LABELS[p] for p in positions)
        notes.append(texts.SEAT_POSITION_NOTE.format(what=what))
    if "together" in positions:
        notes.append(texts.TOGETHER_NOTE)
    return "".join(notes)


def _berths(intent: TravelIntent) -> bool:
    """The trip rides in berths: a sleeper class asked for, or 卧铺 wished."""
    classes = [intent.seat_class, *intent.seat_classes, *intent.return_seat_classes]
    return "卧铺" in intent.preferences or any(c is not None and c.is_sleeper for c in classes)
