"""The transition table: one module owns it, and the driver refuses anything else."""

from __future__ import annotations

import pytest

from app.agent.states import TRANSITIONS, IllegalTransition, State, check_transition


def test_every_state_has_a_row_and_done_is_terminal() -> None:
    assert set(TRANSITIONS) == set(State)
    assert TRANSITIONS[State.DONE] == frozenset()


def test_every_state_is_reachable_from_parse_intent_and_can_reach_done() -> None:
    seen, frontier = {State.PARSE_INTENT}, [State.PARSE_INTENT]
    while frontier:
        for target in TRANSITIONS[frontier.pop()]:
            if target not in seen:
                seen.add(target)
                frontier.append(target)
    assert seen == set(State)
    for state in State:
        reach, todo = {state}, [state]
        while todo:
            for target in TRANSITIONS[todo.pop()]:
                if target not in reach:
                    reach.add(target)
                    todo.append(target)
        assert State.DONE in reach, state


def test_an_illegal_transition_is_refused_with_both_ends_named() -> None:
    with pytest.raises(IllegalTransition) as caught:
        check_transition(State.CLARIFY, State.QUERY_TICKETS)
    assert (caught.value.source, caught.value.target) == (State.CLARIFY, State.QUERY_TICKETS)


def test_a_state_that_raised_may_always_fall_back_except_fallback_itself() -> None:
    check_transition(State.PARSE_INTENT, State.FALLBACK, after_error=True)
    check_transition(State.QUERY_TICKETS, State.FALLBACK, after_error=True)
    with pytest.raises(IllegalTransition):
        check_transition(State.FALLBACK, State.FALLBACK, after_error=True)
