"""The model's instructions state every value the reply is validated against, from the enums."""

from __future__ import annotations

import datetime as dt
import json
import re

from app.intent.model import PREFERENCE_TAGS, SCOPE_TOPICS, TIME_WINDOWS
from app.intent.prompt import system_prompt
from sources.models import TRAIN_TYPES, SeatClass

PROMPT = system_prompt(dt.date(2026, 12, 1))


def _line(field: str) -> str:
    return next(line for line in PROMPT.splitlines() if line.startswith(f"- {field}:"))


def test_every_seat_class_is_offered_for_seat_class_premium_first_included() -> None:
    offered = re.findall(r'"([a-z_]+)"', _line("seat_class"))
    assert offered == [seat.value for seat in SeatClass]
    assert "premium_first" in offered


def test_train_types_preferences_and_topics_are_the_model_enums() -> None:
    assert json.dumps(list(TRAIN_TYPES)) in _line("train_types")
    assert json.dumps(list(PREFERENCE_TAGS), ensure_ascii=False) in _line("preferences")
    assert json.dumps(list(SCOPE_TOPICS)) in _line("out_of_scope_topics")


def test_every_time_window_is_stated_with_its_span() -> None:
    windows = _line("depart_window, arrive_window")
    for label, window in TIME_WINDOWS.items():
        assert f"{label} {window.span()}" in windows
