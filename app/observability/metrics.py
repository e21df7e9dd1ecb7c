"""The metric catalogue (README "Metrics", operational extras included), one registry per app.

Each app builds its own `Metrics` on its own `CollectorRegistry`, so tests that build
several apps read exact values without cross-talk. Labels are low-cardinality only: never
train numbers, stations, texts or session ids.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Literal, get_args

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

# Steps per agent run: integers up to the hard bound (default 10).
AGENT_STEP_BUCKETS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LLM_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)

# Circuit-breaker states as gauge values (documented in README "Operating railtrip").
BREAKER_STATE_VALUES = {"closed": 0, "half_open": 1, "open": 2}

# `railtrip_answers_total{kind}`: what an answering endpoint replied. Only `tickets` answers
# are also counted in `railtrip_responses_total{freshness}` (README "Metrics").
AnswerKind = Literal["tickets", "clarification", "refusal", "error"]
ANSWER_KINDS: tuple[AnswerKind, ...] = get_args(AnswerKind)
# `endpoint` label of a request no route matches (404s for unknown paths), and of a request
# refused by the body limits before the router saw it (413, 422 for JSON nested too deep).
UNMATCHED_ENDPOINT = "unmatched"
BEFORE_ROUTING_ENDPOINT = "before_routing"


class CircuitStateCollector(Collector):
    """`railtrip_source_circuit_state`, read from each breaker at scrape time.

    A stored gauge only changes when something calls the breaker, so an idle source whose
    cool-down ended stayed at "open" while /readyz (which reads the breaker) said half-open.
    Reading the same `state` property here makes the two agree by construction.
    """

    def __init__(self) -> None:
        self._states: dict[str, Callable[[], str]] = {}

    def watch(self, source: str, state: Callable[[], str]) -> None:
        """Export `state()` (closed | half_open | open) as the gauge of `source`."""
        self._states[source] = state

    def describe(self) -> Iterator[GaugeMetricFamily]:
        yield self._family()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = self._family()
        for source, state in self._states.items():
            family.add_metric([source], BREAKER_STATE_VALUES[str(state())])
        yield family

    @staticmethod
    def _family() -> GaugeMetricFamily:
        return GaugeMetricFamily(
            "railtrip_source_circuit_state",
            "Circuit-breaker state per source: 0 closed, 1 half-open, 2 open.",
            labels=["source"],
        )


class Metrics:
    """Every metric railtrip exports, registered on `registry`."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        r = self.registry
        self.cache_requests = Counter(
            "railtrip_cache_requests_total",
            "Ticket-result cache lookups by tier and result.",
            ["tier", "result"],
            registry=r,
        )
        self.source_requests = Counter(
            "railtrip_source_requests_total",
            "Attempts at a ticket source (each retry counts; circuit_open never reached it).",
            ["source", "outcome"],
            registry=r,
        )
        self.source_duration = Histogram(
            "railtrip_source_request_duration_seconds",
            "Duration of one attempt at a ticket source.",
            ["source"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.responses = Counter(
            "railtrip_responses_total",
            "Ticket-bearing responses by endpoint and freshness.",
            ["endpoint", "freshness"],
            registry=r,
        )
        self.answers = Counter(
            "railtrip_answers_total",
            "Answers of the answering endpoints by kind: tickets (also counted in "
            "railtrip_responses_total), clarification, refusal, error.",
            ["endpoint", "kind"],
            registry=r,
        )
        self.degradations = Counter(
            "railtrip_degradations_total",
            "Times the service degraded instead of failing, by kind.",
            ["kind"],
            registry=r,
        )
        self.intent_parse = Counter(
            "railtrip_intent_parse_total",
            "Intent parses by parser and outcome.",
            ["parser", "outcome"],
            registry=r,
        )
        self.agent_steps = Histogram(
            "railtrip_agent_steps",
            "Steps per agent run.",
            ["mode"],
            buckets=AGENT_STEP_BUCKETS,
            registry=r,
        )
        self.agent_state = Counter(
            "railtrip_agent_state_total",
            "Agent states entered.",
            ["state"],
            registry=r,
        )
        self.invented_trains = Counter(
            "railtrip_invented_train_rejections_total",
            "Train numbers rejected because this request's sources did not return them.",
            ["origin"],
            registry=r,
        )
        self.llm_tokens = Counter(
            "railtrip_llm_tokens_total",
            "LLM tokens used, by model and kind (prompt | completion).",
            ["model", "kind"],
            registry=r,
        )
        self.llm_duration = Histogram(
            "railtrip_llm_request_duration_seconds",
            "Duration of one LLM request (OpenTelemetry gen_ai.client.operation.duration).",
            ["model", "outcome"],
            buckets=LLM_BUCKETS,
            registry=r,
        )
        self.http_requests = Counter(
            "railtrip_http_requests_total",
            "HTTP requests by route template, method and status code.",
            ["endpoint", "method", "status"],
            registry=r,
        )
        self.http_duration = Histogram(
            "railtrip_http_request_duration_seconds",
            "HTTP request latency by route template.",
            ["endpoint", "method"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.rejections = Counter(
            "railtrip_rejections_total",
            "Requests refused before any work, by reason (overloaded | quota | unauthorized).",
            ["reason"],
            registry=r,
        )
        self.breaker_state = CircuitStateCollector()
        r.register(self.breaker_state)
        # Registered only by `track_redis()`: absent (not 0) when Redis is not configured,
        # so the RedisDown alert cannot fire on the embedded default.
        self.redis_up = Gauge(
            "railtrip_redis_up",
            "1 when Redis answers, 0 when it is down; absent when Redis is not configured.",
            registry=None,
        )
        self._redis_tracked = False

    def track_redis(self) -> None:
        """Start exporting `railtrip_redis_up` (Redis is configured)."""
        if not self._redis_tracked:
            self.registry.register(self.redis_up)
            self._redis_tracked = True
