"""Every metric name the dashboard and the rules use is one the service exports."""

from __future__ import annotations

from typing import Any

from prometheus_client.metrics import MetricWrapperBase

from app.observability.metrics import Metrics
from tests.deploy.promql import metric_names

SERIES_SUFFIXES = {
    "counter": ("_total",),
    "histogram": ("_bucket", "_sum", "_count"),
    "gauge": ("",),
}


def exported_series(metrics: Metrics) -> dict[str, str]:
    """Every series name the catalogue can expose, mapped to its metric family name."""
    # Read the metric objects themselves as well as the registry, so a metric registered
    # only when its dependency is configured (railtrip_redis_up) still counts as exported.
    collectors = [m for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)]
    families = [f for c in collectors for f in c.describe()] + list(metrics.registry.collect())
    return {
        family.name + suffix: family.name
        for family in families
        for suffix in SERIES_SUFFIXES[family.type]
    }


def rule_exprs(rules: dict[str, Any]) -> list[str]:
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]


def recorded_names(rules: dict[str, Any]) -> set[str]:
    return {
        rule["record"] for group in rules["groups"] for rule in group["rules"] if "record" in rule
    }


def dashboard_exprs(dashboard: dict[str, Any]) -> list[str]:
    return [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]


def test_the_catalogue_exports_the_series_the_rules_are_built_on() -> None:
    series = exported_series(Metrics())
    # Spot checks that the suffix logic matches prometheus_client's naming.
    assert "railtrip_source_requests_total" in series
    assert "railtrip_agent_steps_bucket" in series
    assert "railtrip_redis_up" in series


def test_every_metric_in_the_rules_is_exported_or_recorded(rules: dict[str, Any]) -> None:
    known = set(exported_series(Metrics())) | recorded_names(rules)
    used = set().union(*(metric_names(expr) for expr in rule_exprs(rules)))
    assert used, "no metric names found in rules.yml"
    assert used - known == set()


def test_every_metric_on_the_dashboard_is_exported_or_recorded(
    rules: dict[str, Any], dashboard: dict[str, Any]
) -> None:
    known = set(exported_series(Metrics())) | recorded_names(rules)
    used = set().union(*(metric_names(expr) for expr in dashboard_exprs(dashboard)))
    assert used, "no metric names found in the dashboard"
    assert used - known == set()


def test_every_exported_metric_has_a_dashboard_panel(
    rules: dict[str, Any], dashboard: dict[str, Any]
) -> None:
    series = exported_series(Metrics())
    used = set().union(*(metric_names(expr) for expr in dashboard_exprs(dashboard)))
    # A recording rule on the dashboard stands for the metrics its expression reads.
    for rule in (r for g in rules["groups"] for r in g["rules"] if "record" in r):
        if rule["record"] in used:
            used |= metric_names(rule["expr"])
    shown = {series[name] for name in used if name in series}
    assert set(series.values()) - shown == set()


def test_every_recording_rule_is_used_by_an_alert_or_the_dashboard(
    rules: dict[str, Any], dashboard: dict[str, Any]
) -> None:
    used = set().union(*(metric_names(e) for e in rule_exprs(rules) + dashboard_exprs(dashboard)))
    assert recorded_names(rules) - used == set()
