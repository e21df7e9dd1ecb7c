"""Every dashboard query returns data once the service has seen each kind of event.

The exposition of `sampled_metrics()` becomes promtool input series (counters growing at the
sampled amount per minute, gauges held), the real rules.yml is loaded so recording rules
evaluate, and each panel query is asserted non-empty through `absent(...)`, which promtool
can compare with "no samples". This catches selectors, labels and rule names that no real
series would ever match, which a syntax check cannot.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from tests.deploy.conftest import RULES, run_promtool
from tests.deploy.samples import sampled_metrics

GRAFANA_VARIABLES = re.compile(r"\$__(?:rate_interval|interval|range)")
GROWING = ("_total", "_bucket", "_count", "_sum")


def input_series() -> list[dict[str, str]]:
    """promtool input series for every sample the sampled catalogue exposes."""
    series = []
    for family in sampled_metrics().registry.collect():
        for sample in family.samples:
            if sample.name.endswith("_created"):
                continue
            labels = ", ".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            value = sample.value
            values = f"0+{value:g}x20" if sample.name.endswith(GROWING) else f"{value:g}x20"
            series.append({"series": f"{sample.name}{{{labels}}}", "values": values})
    return series


def test_every_dashboard_query_returns_data(
    promtool: str, dashboard: dict[str, Any], tmp_path
) -> None:
    # The replica pickers at their default, All (any value, or no such label at all).
    pickers = {v["name"]: v["allValue"] for v in dashboard["templating"]["list"] if "allValue" in v}
    assert set(pickers) == {"job", "instance"}

    def offline(expr: str) -> str:
        for name, value in pickers.items():
            expr = expr.replace(f"${name}", value)
        return GRAFANA_VARIABLES.sub("5m", expr)

    queries = [
        (panel["title"], offline(target["expr"]))
        for panel in dashboard["panels"]
        for target in panel.get("targets", [])
    ]
    spec = {
        "rule_files": [str(RULES)],
        "evaluation_interval": "1m",
        "tests": [
            {
                "interval": "1m",
                "input_series": input_series(),
                "promql_expr_test": [
                    {
                        # The query's index rides along as a label, to name the panel.
                        "expr": f'label_replace(absent({expr}), "query", "{i}", "", "")',
                        "eval_time": "10m",
                        "exp_samples": [],
                    }
                    for i, (_, expr) in enumerate(queries)
                ],
            }
        ],
    }
    path = tmp_path / "dashboard_data_test.yml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    result = run_promtool(promtool, "test", "rules", str(path))
    output = result.stdout + result.stderr
    # Name the panels whose query came back empty, not just promtool's expression dump.
    empty = [queries[int(i)][0] for i in re.findall(r'query="(\d+)"', output)]
    assert result.returncode == 0 and not empty, f"panels without data: {empty}\n{output}"
