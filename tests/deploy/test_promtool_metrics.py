"""The service's exposition passes `promtool check metrics` (naming and format lint)."""

from __future__ import annotations

from prometheus_client import generate_latest

from app.metrics import Metrics
from tests.deploy.conftest import run_promtool


def sampled_metrics() -> Metrics:
    """A catalogue with at least one labelled sample in every metric."""
    m = Metrics()
    m.cache_requests.labels(tier="memory", result="hit").inc()
    m.cache_requests.labels(tier="redis", result="stale").inc()
    m.source_requests.labels(source="sandbox-12306", outcome="ok").inc()
    m.source_requests.labels(source="partner", outcome="circuit_open").inc()
    m.source_duration.labels(source="sandbox-12306").observe(0.12)
    m.responses.labels(endpoint="/v1/tickets", freshness="realtime").inc()
    m.responses.labels(endpoint="/v1/bookings/precheck", freshness="unavailable").inc()
    m.degradations.labels(kind="stale_cache").inc()
    m.intent_parse.labels(parser="llm", outcome="fallback").inc()
    m.agent_steps.labels(mode="state_machine").observe(5)
    m.agent_state.labels(state="QUERY_TICKETS").inc()
    m.invented_trains.labels(origin="llm").inc()
    m.llm_tokens.labels(model="deepseek-chat", kind="prompt").inc(120)
    m.llm_duration.labels(model="deepseek-chat", outcome="ok").observe(1.2)
    m.http_requests.labels(endpoint="/v1/plan", method="POST", status="200").inc()
    m.http_duration.labels(endpoint="/v1/plan", method="POST").observe(0.3)
    m.breaker_state.labels(source="sandbox-12306").set(2)
    m.redis_up.set(1)
    return m


def test_exposition_of_every_metric_passes_promtool_lint(promtool: str) -> None:
    m = sampled_metrics()
    text = generate_latest(m.registry).decode()
    # Every family has a sample, so promtool lints all of them, not just the empty headers.
    for family in m.registry.collect():
        assert family.samples, f"{family.name} has no sample"
    result = run_promtool(promtool, "check", "metrics", stdin=text)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""


def test_promtool_lint_rejects_a_badly_named_counter(promtool: str) -> None:
    # Guards the test above against a promtool that accepts everything.
    text = "# HELP railtrip_bad_bytes x\n# TYPE railtrip_bad_bytes counter\nrailtrip_bad_bytes 1\n"
    result = run_promtool(promtool, "check", "metrics", stdin=text)
    assert result.returncode != 0
    assert "_total" in result.stdout + result.stderr
