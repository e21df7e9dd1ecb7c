"""The agent's states and the one table of legal transitions between them.

    PARSE_INTENT ──► CLARIFY ───────────────────────────────► DONE
         │   └─────────────────────────────────────────────► DONE (out of scope, refusal)
         │ ─► LLM_TOOLS ⟲ (tool mode: one model request per step)
         ▼        │
    QUERY_TICKETS ◄┘─► EVALUATE_OPTIONS ──► GENERATE_PLAN ──► DONE
         ▲                  │    ▲              │
         │                  ▼    │              ▼
         └──────────────── FALLBACK ◄───────────┘  (relax: transfer, ±1 day, types/seats)
                               └────────────────────────────► DONE (explain what to relax)

Any state may go to FALLBACK when it raised; FALLBACK may always end the run. The driver
refuses a transition missing from `TRANSITIONS` (a developer error, shown in the trace).
LLM_TOOLS is a state like the others, under the same step bound: in tool mode the model picks
read-only tools there (app/tools/runner.py), and the itinerary still comes from
QUERY_TICKETS → EVALUATE_OPTIONS → GENERATE_PLAN.
"""

from __future__ import annotations

from enum import StrEnum


class State(StrEnum):
    PARSE_INTENT = "PARSE_INTENT"
    CLARIFY = "CLARIFY"
    LLM_TOOLS = "LLM_TOOLS"
    QUERY_TICKETS = "QUERY_TICKETS"
    EVALUATE_OPTIONS = "EVALUATE_OPTIONS"
    GENERATE_PLAN = "GENERATE_PLAN"
    FALLBACK = "FALLBACK"
    DONE = "DONE"


TRANSITIONS: dict[State, frozenset[State]] = {
    State.PARSE_INTENT: frozenset(
        {State.CLARIFY, State.LLM_TOOLS, State.QUERY_TICKETS, State.DONE}
    ),
    State.CLARIFY: frozenset({State.DONE}),
    State.LLM_TOOLS: frozenset({State.LLM_TOOLS, State.QUERY_TICKETS}),
    State.QUERY_TICKETS: frozenset({State.EVALUATE_OPTIONS, State.DONE}),
    State.EVALUATE_OPTIONS: frozenset({State.GENERATE_PLAN, State.FALLBACK}),
    State.GENERATE_PLAN: frozenset({State.DONE, State.FALLBACK}),
    State.FALLBACK: frozenset({State.QUERY_TICKETS, State.EVALUATE_OPTIONS, State.DONE}),
    State.DONE: frozenset(),
}
"""Where each state may go next (besides FALLBACK after a state raised)."""


class IllegalTransition(RuntimeError):
    """A state handler asked for a transition the table does not allow (a bug, not input)."""

    def __init__(self, source: State, target: State) -> None:
        super().__init__(f"illegal agent transition {source} -> {target}")
        self.source = source
        self.target = target


def check_transition(source: State, target: State, *, after_error: bool = False) -> None:
    """Raise `IllegalTransition` unless the table (or an error in `source`) allows it."""
    if after_error and target is State.FALLBACK and source is not State.FALLBACK:
        return
    if target not in TRANSITIONS[source]:
        raise IllegalTransition(source, target)
