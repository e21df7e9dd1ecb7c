"""The planning agent: a bounded state machine (or, optionally, model-chosen read-only tools)
from a travel request to an itinerary built by the rule engine from live ticket data."""

from app.agent.machine import PlanningAgent
from app.agent.model import AgentInfo, AgentInput, ChatReply, PlanReply, TraceStep
from app.agent.states import TRANSITIONS, IllegalTransition, State

__all__ = [
    "TRANSITIONS",
    "AgentInfo",
    "AgentInput",
    "ChatReply",
    "IllegalTransition",
    "PlanReply",
    "PlanningAgent",
    "State",
    "TraceStep",
]
