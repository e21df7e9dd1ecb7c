"""The metric catalogue (README "Metrics", operational extras included), one registry per app.

Each app builds its own `Metrics` on its own `CollectorRegistry`, so tests that build
several apps read exact values without cross-talk. Labels are low-cardinality only: never
train numbers, stations, texts or session ids.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
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
# `endpoint` label of a request no route matches (404s for unknown paths). A request refused
# before its handler (401, 413, 429 …) is labelled with the route template it matches.
UNMATCHED_ENDPOINT = "unmatched"

# The closed label values of the catalogue (README "Metrics"): every one is created at 0 when
# the service starts, so `rate()` and `increase()` see the first event, not a series that is
# born at its full count (a new series has no earlier sample to grow from).
FRESHNESS_VALUES = ("realtime", "cached", "unavailable")
SOURCE_OUTCOMES = ("ok", "error", "timeout", "rate_limited", "circuit_open")
REJECTION_REASONS = ("overloaded", "quota", "unauthorized")
CACHE_RESULTS = ("hit", "miss", "stale")
DEGRADATION_KINDS = (
    "stale_cache",
    "redis_down",
    "llm_fallback",
    "llm_circuit_open",
    "llm_quota",
    "source_down",
    "source_overloaded",
    "session_single_turn",
    "session_memory_only",
    "session_lost",
    "session_restored",
    "session_from_copy",
    "quota_local",
    "step_bound",
    "unavailable",
)
INVENTED_TRAIN_ORIGINS = ("user", "llm", "cache")
PARSE_OUTCOMES: dict[str, tuple[str, ...]] = {
    "llm": ("ok", "retried", "fallback"),
    "rules": ("ok", "failed"),
}
LLM_OUTCOMES = ("ok", "invalid", "timeout", "rate_limited", "error")
LLM_TOKEN_KINDS = ("prompt", "completion")


@dataclass(frozen=True)
class KnownLabels:
    """The label values a service knows when it starts: its sources, its tiers, its model,
    its agent modes and states, and the endpoints that answer (HTTP route templates and
    `mcp:<tool>`). `answering` endpoints count every answer kind; `ticket_bearing` ones
    (answering routes and the MCP tools that carry tickets) count every freshness."""

    sources: tuple[str, ...] = ()
    redis: bool = False
    llm_model: str | None = None
    agent_modes: tuple[str, ...] = ()
    agent_states: tuple[str, ...] = ()
    answering: tuple[str, ...] = ()
    ticket_bearing: tuple[str, ...] = ()


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


class AdmissionCollector(Collector):
    """`railtrip_source_admission_limit` and `railtrip_source_latency_seconds`, read from each
    source's admission at scrape time: the bound moves with the latency estimate (it is not a
    count of events), so it is exported as it is when Prometheus asks."""

    def __init__(self) -> None:
        self._sources: dict[str, tuple[Callable[[], int], Callable[[], float]]] = {}

    def watch(self, source: str, limit: Callable[[], int], latency_s: Callable[[], float]) -> None:
        """Export `limit()` (requests admitted at once) and `latency_s()` of `source`."""
        self._sources[source] = (limit, latency_s)

    def describe(self) -> Iterator[GaugeMetricFamily]:
        yield from self._families()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        limits, latencies = self._families()
        for source, (limit, latency_s) in self._sources.items():
            limits.add_metric([source], float(limit()))
            latencies.add_metric([source], float(latency_s()))
        yield limits
        yield latencies

    @staticmethod
    def _families() -> tuple[GaugeMetricFamily, GaugeMetricFamily]:
        return (
            GaugeMetricFamily(
                "railtrip_source_admission_limit",
                "Requests a source admits at once (running or queued) before refusing "
                "`overloaded`: sized from its latency estimate unless a queue limit is set.",
                labels=["source"],
            ),
            GaugeMetricFamily(
                "railtrip_source_latency_seconds",
                "The latency estimate that sizes the admission limit: a high percentile of "
                "the source's last attempts (the attempt timeout until it has answered).",
                labels=["source"],
            ),
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
        self.admission = AdmissionCollector()
        r.register(self.admission)
        # Registered only by `track_redis()`: absent (not 0) when Redis is not configured,
        # so the RedisDown alert cannot fire on the embedded default.
        self.redis_up = Gauge(
            "railtrip_redis_up",
            "1 when Redis answers, 0 when it is down; absent when Redis is not configured.",
            registry=None,
        )
        self._redis_tracked = False

    def start_at_zero(self, known: KnownLabels) -> None:
        """Create every label set `known` names, at 0 (calling again adds, never resets)."""
        tiers = ("memory", "redis") if known.redis else ("memory",)
        for tier in tiers:
            for result in CACHE_RESULTS:
                self.cache_requests.labels(tier=tier, result=result)
        for source in known.sources:
            self.source_duration.labels(source=source)
            for outcome in SOURCE_OUTCOMES:
                self.source_requests.labels(source=source, outcome=outcome)
        _zero(self.rejections, "reason", REJECTION_REASONS)
        _zero(self.degradations, "kind", DEGRADATION_KINDS)
        _zero(self.invented_trains, "origin", INVENTED_TRAIN_ORIGINS)
        _zero(self.agent_state, "state", known.agent_states)
        for mode in known.agent_modes:
            self.agent_steps.labels(mode=mode)
        for parser, outcomes in PARSE_OUTCOMES.items():
            if parser == "llm" and known.llm_model is None:
                continue  # no model configured: the LLM parser never runs
            for outcome in outcomes:
                self.intent_parse.labels(parser=parser, outcome=outcome)
        if known.llm_model is not None:
            for kind in LLM_TOKEN_KINDS:
                self.llm_tokens.labels(model=known.llm_model, kind=kind)
            for outcome in LLM_OUTCOMES:
                self.llm_duration.labels(model=known.llm_model, outcome=outcome)
        for endpoint in known.answering:
            for answer in ANSWER_KINDS:
                self.answers.labels(endpoint=endpoint, kind=answer)
        for endpoint in known.ticket_bearing:
            for freshness in FRESHNESS_VALUES:
                self.responses.labels(endpoint=endpoint, freshness=freshness)

    def track_redis(self) -> None:
        """Start exporting `railtrip_redis_up` (Redis is configured)."""
        if not self._redis_tracked:
            self.registry.register(self.redis_up)
            self._redis_tracked = True


def _zero(counter: Counter, label: str, values: Iterable[str]) -> None:
    for value in values:
        counter.labels(**{label: value})
