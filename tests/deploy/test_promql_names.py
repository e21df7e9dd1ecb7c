"""The PromQL name reader the catalogue checks rely on."""

from __future__ import annotations

from tests.deploy.promql import metric_names


def test_functions_grouping_labels_and_ranges_are_not_metric_names() -> None:
    expr = (
        "histogram_quantile(0.95, sum by (source, le) "
        '(rate(railtrip_source_request_duration_seconds_bucket{source=~"a|b"}[$__rate_interval])))'
    )
    assert metric_names(expr) == {"railtrip_source_request_duration_seconds_bucket"}


def test_recording_rule_names_and_binary_operands_are_read() -> None:
    expr = (
        '(sum by (tier) (rate(railtrip_cache_requests_total{result="hit"}[5m])) '
        "or 0 * railtrip:source_attempts:rate5m) / ignoring (freshness) group_left "
        "railtrip_redis_up unless on () up == bool 1e3"
    )
    assert metric_names(expr) == {
        "railtrip_cache_requests_total",
        "railtrip:source_attempts:rate5m",
        "railtrip_redis_up",
        "up",
    }


def test_label_values_inside_matchers_are_not_metric_names() -> None:
    assert metric_names('railtrip_responses_total{freshness="unavailable", endpoint!="x"}') == {
        "railtrip_responses_total"
    }
