"""The rule engine: pure functions over ticket offers (no IO, no asyncio, clock passed in).

`plan` turns a `TripRequest` and the offers fetched for `required_legs` (and `transfer_legs`)
into ranked itineraries; `validate` and `check_train_numbers` vet anything proposed from
outside (a traveller's "我要坐G1", an LLM's plan, a cached itinerary).
"""

from rules.config import DEFAULT_RULES, RankingWeights, RuleConfig
from rules.legs import MAJOR_HUBS, required_legs, transfer_legs
from rules.model import (
    DayPlan,
    Failure,
    Itinerary,
    Leg,
    LegKey,
    LegOffers,
    PlanResult,
    ScoreBreakdown,
    Stay,
    Transfer,
    TripRequest,
    ViaStop,
    Violation,
)
from rules.planner import plan
from rules.validate import check_train_numbers, validate

__all__ = [
    "DEFAULT_RULES",
    "MAJOR_HUBS",
    "DayPlan",
    "Failure",
    "Itinerary",
    "Leg",
    "LegKey",
    "LegOffers",
    "PlanResult",
    "RankingWeights",
    "RuleConfig",
    "ScoreBreakdown",
    "Stay",
    "Transfer",
    "TripRequest",
    "ViaStop",
    "Violation",
    "check_train_numbers",
    "plan",
    "required_legs",
    "transfer_legs",
    "validate",
]
