"""FALLBACK: what to relax next, in a fixed order, each at most once; then say what was tried.

1. one-transfer routes via hub cities (for every segment that failed): with the network's
   topology (`rules.hubs`), both halves via the best hub within a bounded detour, then
   (stage `more_hubs`) via the next one if that failed; two hubs in a row where no single
   hub joins the ends; without a topology, two phases over the fixed list: probe which
   hubs reach the far end, then ask only those for both halves;
2. the fewest stated constraints dropped on the asked day (`rules.relax`);
3. the adjacent days (±1, the whole trip moved), then those days with the fewest dropped;
4. stop, with a Chinese explanation of what was tried and what the traveller could relax.

Stages that cannot help the failure at hand are skipped (a budget shortfall is not cured by
a transfer), so the run stays well inside the step bound.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.agent import texts
from app.agent.trip import has_preferences, relaxed, shifted
from rules import (
    MAJOR_HUBS,
    Failure,
    LegKey,
    LegOffers,
    TripRequest,
    required_legs,
    transfer_legs,
)
from rules.config import DEFAULT_RULES
from rules.hubs import Topology, one_change_hubs, two_change_hubs
from rules.legs import two_change_query_legs
from rules.model import FILTERED_OUT, OVER_BUDGET, PAST_DEPARTURE
from rules.relax import minimal_relaxation
from sources.models import TrainOffer


@dataclass(frozen=True, slots=True)
class Relaxation:
    """The next attempt: the candidate requests to plan and the legs they need."""

    stage: str
    candidates: tuple[TripRequest, ...]
    legs: tuple[LegKey, ...]
    needs_query: bool
    hub_segments: tuple[int, ...] = ()  # failing segments whose hub legs follow the probe
    probe: bool = True  # False: the legs already ask both halves via topology-chosen hubs
    hubs: tuple[str, ...] = ()  # the hubs asked, for the reply


def segment_failures(failures: tuple[Failure, ...]) -> list[Failure]:
    return [f for f in failures if f.segment is not None]


def hub_probe_legs(request: TripRequest, failing: list[int]) -> list[LegKey]:
    """Phase 1 of the hub search: which hubs reach the far end of the first failing segment.

    Asking every hub for both halves of every failing segment costs dozens of queries, more
    than a 5-requests-per-second source answers within the query deadline. The far end (the
    end that is not itself a hub, e.g. 昆明 for 北京→昆明) is reached by few hubs, so probing
    it first narrows phase 2 to the hubs that can work at all.
    """
    keys = required_legs(request)
    segments = [keys[i] for i in failing if 0 <= i < len(keys)]
    if not segments:
        return []
    first = segments[0]
    hubs = [h for h in MAJOR_HUBS if h not in (first.origin, first.destination)]
    if first.destination not in MAJOR_HUBS or first.origin in MAJOR_HUBS:
        return [LegKey(h, first.destination, first.date) for h in hubs]
    return [LegKey(first.origin, h, first.date) for h in hubs]


def topology_transfer_legs(
    request: TripRequest,
    failing: list[int],
    topology: Topology,
    tried: tuple[str, ...] = (),
) -> tuple[list[LegKey], list[str]]:
    """Both halves of every failing segment via its best hub not yet `tried`, and the hubs.

    One hub at a time: the best hub usually works, and then a transfer plan costs the direct
    query and two more per source; the next hub is asked only when it did not.
    """
    keys = required_legs(request)
    legs: list[LegKey] = []
    hubs: list[str] = []
    for index in dict.fromkeys(failing):
        if not 0 <= index < len(keys):
            continue
        segment = keys[index]
        ranked = one_change_hubs(topology, segment.origin, segment.destination)
        found = [h for h in ranked if h not in tried][:1]
        hubs.extend(found)
        legs.extend(transfer_legs(segment, found))
        # Two changes: at once where no single hub joins the ends (喀什→三亚), else with the
        # second stage, once the best single hub has failed (漠河→张家界).
        first_stage = not tried
        if request.max_transfers < 2 or bool(ranked) == first_stage:
            continue
        pairs = two_change_hubs(topology, segment.origin, segment.destination)
        hubs.extend(h for pair in pairs for h in pair)
        legs.extend(two_change_query_legs(segment, pairs))
    return list(dict.fromkeys(legs)), list(dict.fromkeys(hubs))


def hub_follow_legs(
    request: TripRequest, failing: list[int], offers_of: dict[LegKey, int]
) -> list[LegKey]:
    """Phase 2: both halves of every failing segment, via the hubs the probe found."""
    keys = required_legs(request)
    segments = [keys[i] for i in failing if 0 <= i < len(keys)]
    if not segments:
        return []
    first = segments[0]
    responsive = [
        h
        for h in MAJOR_HUBS
        if offers_of.get(LegKey(h, first.destination, first.date))
        or offers_of.get(LegKey(first.origin, h, first.date))
    ]
    legs: list[LegKey] = []
    for segment in segments:
        legs.extend(transfer_legs(segment, responsive))
    return [k for k in dict.fromkeys(legs) if k not in offers_of]


def overnight_follow_legs(
    request: TripRequest, failing: list[int], offers: Mapping[LegKey, Sequence[TrainOffer]]
) -> list[LegKey]:
    """Phase 3, only when needed: the second half on the next day, where a first half
    reaches its hub the next day (北京→兰州 by sleeper), or reaches it the same day after the
    last train on (a night at the hub, `rules.config.HUB_STOP_MAX_WAIT`)."""
    keys = required_legs(request)
    legs: list[LegKey] = []
    for index in failing:
        if not 0 <= index < len(keys):
            continue
        segment = keys[index]
        next_day = segment.date + dt.timedelta(days=1)
        for key, firsts in offers.items():
            hub = key.destination
            if key.origin != segment.origin or key.date != segment.date:
                continue
            if hub == segment.destination or not firsts:
                continue
            seconds = offers.get(LegKey(hub, segment.destination, segment.date), ())
            overnight = any(o.arrive_at.date() == next_day for o in firsts)
            same_day = [o.arrive_at for o in firsts if o.arrive_at.date() == segment.date]
            # Skipped where some train leaves the hub within a connection of a same-day
            # arrival, and after same-day arrivals only where the hub serves the destination.
            if _catchable(same_day, seconds) or not (overnight or seconds):
                continue
            legs.append(LegKey(hub, segment.destination, next_day))
    return [k for k in dict.fromkeys(legs) if k not in offers]


def _catchable(arrivals: Sequence[dt.datetime], seconds: Sequence[TrainOffer]) -> bool:
    """True when some second half leaves within a connection (`DEFAULT_RULES`) of an arrival."""
    shortest = dt.timedelta(minutes=DEFAULT_RULES.min_connection(True))
    longest = dt.timedelta(minutes=DEFAULT_RULES.max_connection)
    return any(shortest <= o.depart_at - arrive <= longest for arrive in arrivals for o in seconds)


def useful_hubs(offers_of: dict[LegKey, int]) -> set[str]:
    """Hubs that had trains on both halves of some transfer (worth asking again on other days)."""
    arriving = {(k.destination, k.date) for k, n in offers_of.items() if n}
    leaving = {(k.origin, k.date) for k, n in offers_of.items() if n}
    return {hub for hub, _ in arriving & leaving}


def _via_hubs(
    stage: str,
    original: TripRequest,
    segments: list[int],
    topology: Topology,
    hubs_tried: tuple[str, ...],
) -> Relaxation | None:
    """Both halves of every failing segment via the next topology-chosen hubs, or None."""
    hub_legs, named = topology_transfer_legs(original, segments, topology, hubs_tried)
    if not hub_legs:
        return None
    return Relaxation(
        stage,
        (original,),
        tuple(hub_legs),
        needs_query=True,
        hub_segments=tuple(dict.fromkeys(segments)),
        probe=False,
        hubs=tuple(named),
    )


def next_relaxation(
    *,
    original: TripRequest,
    failures: tuple[Failure, ...],
    tried: list[str],
    today: dt.date,
    last_sale_day: dt.date,
    hub_offers: dict[LegKey, int],
    topology: Topology | None = None,
    hubs_tried: tuple[str, ...] = (),
    book: Mapping[LegKey, LegOffers] | None = None,
    now: dt.datetime | None = None,
) -> Relaxation | None:
    """The next stage worth trying after `tried` (stage names), or None: time to stop."""
    failing = segment_failures(failures)
    over_budget = any(f.code == OVER_BUDGET for f in failures)
    transfers_ok = original.max_transfers >= 1
    if (
        "transfer" not in tried
        and failing
        and transfers_ok
        and any(f.code != PAST_DEPARTURE for f in failing)
    ):
        segments = [f.segment for f in failing if f.segment is not None]
        if topology is not None:
            via_hubs = _via_hubs("transfer", original, segments, topology, ())
            if via_hubs is not None:
                return via_hubs
        return Relaxation(
            "transfer",
            (original,),
            tuple(hub_probe_legs(original, segments)),
            needs_query=True,
            hub_segments=tuple(dict.fromkeys(segments)),
        )
    if (
        topology is not None
        and "transfer" in tried
        and "more_hubs" not in tried
        and "days" not in tried
        and failing
        and transfers_ok
    ):
        segments = [f.segment for f in failing if f.segment is not None]
        via_hubs = _via_hubs("more_hubs", original, segments, topology, hubs_tried)
        if via_hubs is not None:
            return via_hubs
    filtered = any(f.code == FILTERED_OUT for f in failures)
    may_relax = has_preferences(original) or over_budget or filtered
    if "relax" not in tried and may_relax and book is not None and now is not None:
        # The fewest stated constraints dropped on the asked day (DESIGN §1.5), said openly.
        found = minimal_relaxation(original, book, now=now)
        if found is not None:
            return Relaxation("relax", (found[0],), (), needs_query=False)
    if "days" not in tried and failing:
        candidates = []
        for delta in (1, -1):
            moved = shifted(original, delta)
            last = moved.return_date or moved.depart_date
            if moved.depart_date >= today and last <= last_sale_day:
                candidates.append(moved)
        if candidates:
            hubs = useful_hubs(hub_offers) if "transfer" in tried else set()
            legs: list[LegKey] = []
            for moved in candidates:
                keys = required_legs(moved)
                legs.extend(keys)
                for key in keys:
                    for hub in sorted(hubs - {key.origin, key.destination}):
                        legs += [
                            LegKey(key.origin, hub, key.date),
                            LegKey(hub, key.destination, key.date),
                        ]
            return Relaxation("days", tuple(candidates), tuple(legs), needs_query=True)
    if "days" in tried and "days_relax" not in tried and may_relax and book is not None:
        assert now is not None
        moved_found = [
            found
            for delta in (1, -1)
            if (found := minimal_relaxation(shifted(original, delta), book, now=now))
        ]
        if moved_found:
            return Relaxation("days_relax", tuple(r for r, _ in moved_found), (), needs_query=False)
    if "relax" not in tried and may_relax and book is None:
        base = [original]
        if "days" in tried:
            base += [shifted(original, d) for d in (1, -1)]
        candidates_r = tuple(relaxed(r) for r in base)
        return Relaxation("relax", candidates_r, (), needs_query=False)
    return None


def explain(
    *,
    header: str,
    original: TripRequest,
    failures: tuple[Failure, ...],
    tried: list[str],
    hubs_tried: bool,
    unavailable: list[str],
    hubs: tuple[str, ...] = (),
) -> str:
    """Why nothing could be planned, what was tried, and what the traveller could relax."""
    why = "；".join(dict.fromkeys(f.message for f in failures)) + ("。" if failures else "")
    why += "".join(unavailable)
    steps = [texts.TRIED_DIRECT]
    if "transfer" in tried or hubs_tried:
        named = hubs or MAJOR_HUBS
        steps.append(texts.TRIED_TRANSFER.format(hubs="、".join(named[:3])))
    if "days" in tried:
        days = [texts.day_label(original.depart_date + dt.timedelta(days=d)) for d in (-1, 1)]
        steps.append(texts.TRIED_DAYS.format(days="、".join(days)))
    if "relax" in tried:
        steps.append(texts.TRIED_RELAX)
    advice = []
    if unavailable:
        advice.append(texts.ADVISE_LATER)
    if any(f.code == OVER_BUDGET for f in failures) or original.budget is not None:
        advice.append(texts.ADVISE_BUDGET)
    advice.append(texts.ADVISE_DATE)
    if original.max_transfers == 0 or "transfer" not in tried:
        advice.append(texts.ADVISE_TRANSFER)
    if has_preferences(original) and "relax" not in tried:
        advice.append(texts.ADVISE_RELAX)
    text = texts.NO_PLAN.format(header=header, why=why)
    text += texts.TRIED.format(steps="、".join(steps))
    text += texts.ADVICE.format(advice=texts.ADVICE_JOIN.join(advice))
    return text
