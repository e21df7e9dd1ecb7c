"""Shared fixtures: a fixed station table, a fresh metrics registry, a scripted LLM endpoint."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from app.intent.llm import LlmIntentParser
from app.metrics import Metrics
from sources.stations import StationDirectory

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "intent"
LLM_URL = "http://llm.test/v1/chat/completions"
MODEL = "test-model"
TODAY = dt.date(2026, 11, 30)  # a Monday


@pytest.fixture(scope="session")
def directory() -> StationDirectory:
    # A table owned by these tests, so the curated table can grow without moving labels.
    return StationDirectory.from_csv(FIXTURES / "stations.csv")


@pytest.fixture
def metrics() -> Metrics:
    return Metrics()


class FakeClock:
    """A monotonic clock that advances 0.25 s per reading: latencies without real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.25
        return self.now


@pytest.fixture
async def llm_client():
    client = openai.AsyncOpenAI(
        base_url="http://llm.test/v1",
        api_key="test-key",
        max_retries=0,
        http_client=httpx.AsyncClient(),
    )
    yield client
    await client.close()


@pytest.fixture
def llm(llm_client, metrics, directory) -> LlmIntentParser:
    return LlmIntentParser(
        llm_client, MODEL, metrics=metrics, directory=directory, clock=FakeClock()
    )


def completion(
    content: str, prompt_tokens: int = 900, completion_tokens: int = 80
) -> dict[str, Any]:
    """A chat-completions response body exactly as the wire carries it."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1764460800,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def intent_json(**fields: Any) -> str:
    """A model reply: a complete intent object with `fields` set."""
    body: dict[str, Any] = {
        "kind": "plan_trip",
        "origin": None,
        "destination": None,
        "destination_text": None,
        "via": [],
        "date_start": None,
        "date_end": None,
        "days": None,
        "nights": None,
        "return_trip": None,
        "budget": None,
        "budget_per_person": None,
        "passengers": 1,
        "preferences": [],
        "train_types": [],
        "seat_class": None,
        "depart_window": None,
        "arrive_window": None,
        "train_numbers": [],
        "action": "create",
    }
    body.update(fields)
    return json.dumps(body, ensure_ascii=False)


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    """The current value of one metric sample (0 when never touched)."""
    return metrics.registry.get_sample_value(name, labels) or 0.0
