"""Shared fixtures: a fixed station table, a fresh metrics registry, a scripted LLM endpoint."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import httpx
import openai
import pytest

from app.intent.followup import TurnReading, read_turn, turn_text
from app.intent.llm import LlmIntentParser
from app.intent.offline import parse_offline
from app.observability.metrics import Metrics
from sources.stations import StationDirectory, UnknownStationError
from tests.llm_wire import LLM_URL, completion, intent_json

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "intent"
MODEL = "test-model"
__all__ = ["LLM_URL", "MODEL", "TODAY", "completion", "intent_json"]
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


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    """The current value of one metric sample (0 when never touched)."""
    return metrics.registry.get_sample_value(name, labels) or 0.0


@pytest.fixture
def chat(directory: StationDirectory):
    """A chat read turn by turn with the rules parser: the trip after its last text."""

    def city(name: str) -> str | None:
        try:
            return directory.resolve(name).city
        except UnknownStationError:
            return None

    def run(*texts: str) -> TurnReading:
        reading = TurnReading(parse_offline(texts[0], TODAY, directory))
        for text in texts[1:]:
            turn = parse_offline(turn_text(text), TODAY, directory)
            reading = read_turn(reading.intent, turn, text, today=TODAY, city=city)
        return reading

    return run
