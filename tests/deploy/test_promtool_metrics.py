"""The service's exposition passes `promtool check metrics` (naming and format lint)."""

from __future__ import annotations

from prometheus_client import generate_latest

from tests.deploy.conftest import run_promtool
from tests.deploy.samples import sampled_metrics


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
