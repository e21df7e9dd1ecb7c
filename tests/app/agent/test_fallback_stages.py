"""FALLBACK follows what failed: each failure code calls for the stages that can cure it."""

from __future__ import annotations

import datetime as dt

from app.agent.fallback import Relaxation, next_relaxation, stage_order
from rules import Failure, LegKey, TripRequest
from rules.model import (
    FILTERED_OUT,
    NO_OFFERS,
    OVER_BUDGET,
    PAST_DEPARTURE,
    SOLD_OUT,
)

TODAY = dt.date(2026, 12, 1)
DAY = dt.date(2026, 12, 5)
ONE_WAY = TripRequest(origin="南京", destination="张家界", depart_date=DAY, return_trip=False)


class _Lines:
    """A topology from direct pairs `{(a, b): (km, trains)}`."""

    def __init__(self, links: dict[tuple[str, str], tuple[int, int]]) -> None:
        self.links = links

    def reach(self, city: str) -> dict[str, tuple[int, int]]:
        return {b: v for (a, b), v in self.links.items() if a == city}

    def reached_from(self, city: str) -> dict[str, tuple[int, int]]:
        return {a: v for (a, b), v in self.links.items() if b == city}


TOPOLOGY = _Lines({("南京", "长沙"): (900, 40), ("长沙", "张家界"): (330, 10)})


def failed(code: str, segment: int | None = 0) -> tuple[Failure, ...]:
    return (Failure(code, "no", segment=segment),)


def relaxation_after(
    failures: tuple[Failure, ...],
    tried: list[str] | None = None,
    *,
    request: TripRequest = ONE_WAY,
    official: bool = True,
    hubs_tried: tuple[str, ...] = (),
) -> Relaxation | None:
    """What the agent tries next after `failures`, with `tried` stages behind it."""
    return next_relaxation(
        original=request,
        failures=failures,
        tried=tried or [],
        today=TODAY,
        last_sale_day=TODAY + dt.timedelta(days=14),
        hub_offers={},
        topology=TOPOLOGY,
        hubs_tried=hubs_tried,
        official_search=official,
    )


def stage_after(
    failures: tuple[Failure, ...],
    tried: list[str] | None = None,
    *,
    request: TripRequest = ONE_WAY,
    official: bool = True,
    hubs_tried: tuple[str, ...] = (),
) -> str | None:
    found = relaxation_after(
        failures, tried, request=request, official=official, hubs_tried=hubs_tried
    )
    return None if found is None else found.stage


def test_no_offers_asks_the_official_transfer_search_first_with_no_leg_query() -> None:
    found = relaxation_after(failed(NO_OFFERS))
    assert found is not None and found.stage == "transfer" and found.official
    assert found.legs == () and found.hub_segments == (0,) and found.hubs == ()


def test_the_own_hub_search_runs_only_after_the_official_search_found_nothing() -> None:
    found = relaxation_after(failed(NO_OFFERS), ["transfer"])
    assert found is not None and found.stage == "hubs" and not found.official
    assert found.hubs == ("长沙",)
    assert set(found.legs) == {LegKey("南京", "长沙", DAY), LegKey("长沙", "张家界", DAY)}


def test_without_the_capability_the_transfer_stage_is_the_own_hub_search() -> None:
    found = relaxation_after(failed(NO_OFFERS), official=False)
    assert found is not None and found.stage == "transfer" and not found.official
    assert found.hubs == ("长沙",) and LegKey("长沙", "张家界", DAY) in found.legs
    # 长沙 was the only hub: no "hubs" stage (that follows the official search), other days.
    after = stage_after(failed(NO_OFFERS), ["transfer"], official=False, hubs_tried=("长沙",))
    assert after == "days"


def test_no_offers_then_other_days_once_every_hub_stage_is_spent() -> None:
    spent = ["transfer", "hubs", "more_hubs"]
    assert stage_after(failed(NO_OFFERS), spent) == "days"


def test_a_constraint_that_filtered_everything_out_gives_way_only_after_transfers() -> None:
    typed = ONE_WAY.model_copy(update={"train_types": ("G",)})
    # A route that honours the constraint beats one that drops it; other days come last.
    assert stage_order(failed(FILTERED_OUT)) == (
        "transfer",
        "hubs",
        "more_hubs",
        "day_before",  # only for an arrival deadline (none here: the stage is skipped)
        "relax",
        "days",
        "days_relax",
    )
    spent = ["transfer", "hubs", "more_hubs"]
    assert stage_after(failed(FILTERED_OUT), spent, request=typed) == "relax"
    assert stage_after(failed(FILTERED_OUT), [*spent, "relax"], request=typed) == "days"


def test_over_budget_relaxes_then_moves_the_day_and_never_asks_for_a_transfer() -> None:
    budget = ONE_WAY.model_copy(update={"budget": 50})
    failures = failed(OVER_BUDGET, segment=None) + failed(OVER_BUDGET)
    assert stage_order(failures) == ("relax", "days", "days_relax")
    assert stage_after(failures, request=budget) == "relax"
    assert stage_after(failures, ["relax"], request=budget) == "days"


def test_a_sold_out_day_tries_other_days_before_a_transfer() -> None:
    assert stage_after(failed(SOLD_OUT)) == "days"
    assert stage_after(failed(SOLD_OUT), ["days"]) == "transfer"


def test_trains_all_gone_call_for_another_day_only() -> None:
    assert stage_after(failed(PAST_DEPARTURE)) == "days"
    assert stage_after(failed(PAST_DEPARTURE), ["days"]) is None


def test_the_first_failure_leads_and_each_stage_runs_at_most_once() -> None:
    mixed = failed(SOLD_OUT, 0) + failed(NO_OFFERS, 1)
    order = stage_order(mixed)
    # A sold-out day gives way on a stated wish first (relax), then moves the trip a day.
    assert order[:3] == ("day_before", "relax", "days") and len(order) == len(set(order))
    assert "transfer" in order, "the second segment's failure still calls for a transfer"
    assert stage_after(failed(NO_OFFERS), list(order)) is None


def test_no_transfer_is_asked_when_the_traveller_wants_direct_trains_only() -> None:
    direct_only = ONE_WAY.model_copy(update={"max_transfers": 0})
    assert stage_after(failed(NO_OFFERS), request=direct_only) == "days"


def test_where_no_single_change_joins_the_ends_the_official_search_is_not_asked() -> None:
    far = TripRequest(origin="南京", destination="三亚", depart_date=DAY, return_trip=False)
    # No city joins 南京 and 三亚 with one change in the topology.
    found = relaxation_after(failed(NO_OFFERS), request=far)
    assert found is not None and found.stage == "transfer" and not found.official
