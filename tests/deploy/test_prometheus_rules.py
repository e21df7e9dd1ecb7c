"""deploy/prometheus/rules.yml: valid for promtool, tested by promtool, complete for operators."""

from __future__ import annotations

from typing import Any

import pytest

from tests.deploy.conftest import RULES, RULES_TEST, run_promtool

REQUIRED_ALERTS = {
    "RailtripSourceErrorRatioHigh",
    "RailtripAllSourcesFailing",
    "RailtripRedisDown",
    "RailtripAgentStepsNearBound",
    "RailtripUnavailableAnswersHigh",
    "RailtripLlmFallbackRateHigh",
    "RailtripCircuitOpen",
    "RailtripHigh5xxRate",
    "RailtripRequestsRefused",
}
REQUIRED_RECORDS = {
    "railtrip:cache_hit_ratio:rate5m",
    "railtrip:source_error_ratio:rate5m",
    "railtrip:unavailable_ratio:rate5m",
    "railtrip:refusal_ratio:rate5m",
}


def alerts(rules: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["alert"]: r for g in rules["groups"] for r in g["rules"] if "alert" in r}


def test_promtool_accepts_the_rule_file(promtool: str) -> None:
    result = run_promtool(promtool, "check", "rules", str(RULES))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


def test_promtool_unit_tests_pass(promtool: str) -> None:
    # Run from the test file's directory semantics: promtool resolves rule_files relative
    # to the test file, so any cwd works.
    result = run_promtool(promtool, "test", "rules", str(RULES_TEST))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


def test_promtool_unit_tests_catch_a_broken_threshold(promtool: str, tmp_path) -> None:
    # The unit tests must be able to fail: a rule file with the agent bound moved to 9
    # (p95 estimate > 8) no longer fires for runs of 8 steps.
    broken = RULES.read_text(encoding="utf-8").replace(
        "railtrip:agent_steps:p95_rate5m > 7", "railtrip:agent_steps:p95_rate5m > 8"
    )
    assert broken != RULES.read_text(encoding="utf-8")
    (tmp_path / "rules.yml").write_text(broken, encoding="utf-8")
    (tmp_path / "rules_test.yml").write_text(RULES_TEST.read_text(encoding="utf-8"))
    result = run_promtool(promtool, "test", "rules", str(tmp_path / "rules_test.yml"))
    assert result.returncode != 0
    assert "RailtripAgentStepsNearBound" in result.stdout + result.stderr


def test_every_required_alert_and_recording_rule_is_defined(rules: dict[str, Any]) -> None:
    records = {r["record"] for g in rules["groups"] for r in g["rules"] if "record" in r}
    assert REQUIRED_ALERTS <= set(alerts(rules))
    assert REQUIRED_RECORDS <= records


@pytest.mark.parametrize("name", sorted(REQUIRED_ALERTS))
def test_alert_has_summary_runbook_severity_and_a_for_duration(
    rules: dict[str, Any], name: str
) -> None:
    alert = alerts(rules)[name]
    assert alert["annotations"]["summary"].strip()
    assert alert["annotations"]["runbook"].endswith("#operating-railtrip")
    assert alert["labels"]["severity"] in {"warning", "critical"}
    assert alert["for"]


@pytest.mark.parametrize("name", sorted(REQUIRED_ALERTS))
def test_alert_is_unit_tested_both_firing_and_silent(rules_test: dict[str, Any], name: str) -> None:
    checks = [
        check
        for case in rules_test["tests"]
        for check in case.get("alert_rule_test", [])
        if check["alertname"] == name
    ]
    assert any(check["exp_alerts"] for check in checks), f"{name} never shown firing"
    assert any(not check["exp_alerts"] for check in checks), f"{name} never shown silent"


def test_every_recording_rule_value_is_checked(rules: dict[str, Any], rules_test) -> None:
    records = {r["record"] for g in rules["groups"] for r in g["rules"] if "record" in r}
    checked = " ".join(
        check["expr"] for case in rules_test["tests"] for check in case.get("promql_expr_test", [])
    )
    assert {name for name in records if name not in checked} == set()


def test_example_scrape_config_is_valid_and_loads_the_rules(promtool: str) -> None:
    config = RULES.parent / "prometheus.yml"
    result = run_promtool(promtool, "check", "config", str(config))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 rule files found" in result.stdout
