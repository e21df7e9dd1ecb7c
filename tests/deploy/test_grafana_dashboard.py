"""deploy/grafana/railtrip.json: importable as is, on any Prometheus datasource, for a fleet:
`job` and `instance` pickers narrow every raw series, panels sum over the picked replicas or
split by replica."""

from __future__ import annotations

import importlib.util
import re
from typing import Any

import yaml

from tests.deploy.conftest import DASHBOARD, DEPLOY, run_promtool

PROMETHEUS = {"type": "prometheus", "uid": "${datasource}"}
# Grafana's interval variables, replaced by a fixed window to check expressions offline.
GRAFANA_VARIABLES = re.compile(r"\$__(?:rate_interval|interval|range)")
# A raw railtrip series (not a recording rule), with its label matchers if any.
RAW_SERIES = re.compile(r"\b(railtrip_[a-z_]+)(\{[^}]*\})?")
FLEET = 'job=~"$job", instance=~"$instance"'


def visible_panels(dashboard: dict[str, Any]) -> list[dict[str, Any]]:
    """Panels that draw data (row headers only group them)."""
    return [p for p in dashboard["panels"] if p["type"] != "row"]


def load_builder() -> Any:
    path = DEPLOY / "grafana" / "build_dashboard.py"
    spec = importlib.util.spec_from_file_location("build_dashboard", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dashboard_identity_and_schema(dashboard: dict[str, Any]) -> None:
    assert dashboard["uid"] == "railtrip"
    assert 36 <= dashboard["schemaVersion"] <= 41
    # No __inputs: the file imports directly, the datasource is picked by the variable.
    assert "__inputs" not in dashboard
    assert "${DS_" not in DASHBOARD.read_text(encoding="utf-8")


def test_datasource_variable_offers_prometheus_datasources(dashboard: dict[str, Any]) -> None:
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"


def test_job_and_instance_pickers_offer_several_or_all_replicas(dashboard: dict[str, Any]) -> None:
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    for name in ("job", "instance"):
        picker = variables[name]
        assert picker["type"] == "query" and picker["datasource"] == PROMETHEUS
        assert picker["multi"] is True and picker["includeAll"] is True
        assert picker["allValue"] == ".*"  # All also matches series scraped without the label
        assert picker["query"]["query"].startswith("label_values(railtrip_")
        assert picker["query"]["query"].endswith(f", {name})")
    assert '{job=~"$job"}' in variables["instance"]["query"]["query"]
    names = [v["name"] for v in dashboard["templating"]["list"]]
    assert names.index("job") < names.index("instance")  # instance depends on job


def test_every_raw_series_is_narrowed_to_the_picked_replicas(dashboard: dict[str, Any]) -> None:
    for p in visible_panels(dashboard):
        for t in p["targets"]:
            found = RAW_SERIES.findall(t["expr"])
            for name, matchers in found:
                assert matchers.startswith("{" + FLEET), f"{p['title']}: {name}{matchers}"
            if "railtrip:" in t["expr"]:  # recording rules are fleet-wide; the panel says so
                assert "Fleet-wide" in p["description"], p["title"]


def test_the_replicas_row_splits_by_replica_and_sums_the_fleet(dashboard: dict[str, Any]) -> None:
    rows = [p for p in dashboard["panels"] if p["type"] == "row"]
    assert [r["title"] for r in rows][:2] == ["Traffic", "Replicas"]
    start, end = (dashboard["panels"].index(r) for r in rows[1:3])
    replicas = dashboard["panels"][start + 1 : end]
    exprs = [t["expr"] for p in replicas for t in p["targets"]]
    split = [e for e in exprs if re.search(r"by \((instance|instance, \w+)(, le)?\)", e)]
    assert len(split) >= 5
    assert any(e.startswith("count(count by (instance)") for e in exprs)  # replicas reporting
    fleet = [e for e in exprs if e.startswith("sum by (source) (rate(railtrip_source_requests")]
    assert fleet, "the fleet's one budget per source, summed over every replica"


def test_every_panel_and_query_uses_the_datasource_variable(dashboard: dict[str, Any]) -> None:
    for p in visible_panels(dashboard):
        assert p["datasource"] == PROMETHEUS, p["title"]
        for t in p["targets"]:
            assert t["datasource"] == PROMETHEUS, p["title"]


def test_panel_ids_are_unique(dashboard: dict[str, Any]) -> None:
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))


def test_every_panel_has_queries_with_an_expression(dashboard: dict[str, Any]) -> None:
    panels = visible_panels(dashboard)
    assert len(panels) >= 20
    for p in panels:
        assert p["targets"], p["title"]
        for t in p["targets"]:
            assert t["expr"].strip(), p["title"]
        ref_ids = [t["refId"] for t in p["targets"]]
        assert len(ref_ids) == len(set(ref_ids)), p["title"]


def test_panels_do_not_overlap_on_the_grid(dashboard: dict[str, Any]) -> None:
    cells: set[tuple[int, int]] = set()
    for p in dashboard["panels"]:
        g = p["gridPos"]
        assert 0 <= g["x"] and g["x"] + g["w"] <= 24, p["title"]
        mine = {
            (x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])
        }
        assert not cells & mine, f"{p['title']} overlaps another panel"
        cells |= mine


def test_the_required_views_are_present(dashboard: dict[str, Any]) -> None:
    exprs = "\n".join(t["expr"] for p in visible_panels(dashboard) for t in p["targets"])
    for quantile in ("0.5", "0.95", "0.99"):
        assert f"histogram_quantile({quantile}, sum by (endpoint, le)" in exprs
    assert 'status=~"5.."' in exprs
    assert "railtrip:freshness_share:rate5m" in exprs
    assert "railtrip:cache_hit_ratio:rate5m" in exprs
    assert "sum by (source, outcome)" in exprs
    assert "histogram_quantile(0.95, sum by (source, le)" in exprs
    assert "railtrip_source_circuit_state" in exprs
    assert "sum by (kind) (rate(railtrip_degradations_total{" in exprs
    assert "histogram_quantile(0.95, sum by (mode, le) (rate(railtrip_agent_steps_bucket{" in exprs
    assert "railtrip_agent_state_total" in exprs
    assert "railtrip:llm_fallback_ratio:rate5m" in exprs
    assert "sum by (model, kind) (rate(railtrip_llm_tokens_total{" in exprs
    assert "railtrip_llm_request_duration_seconds_bucket" in exprs
    assert "sum by (origin)" in exprs
    assert "railtrip_redis_up" in exprs


def test_breaker_panel_names_its_states(dashboard: dict[str, Any]) -> None:
    (breaker,) = [
        p
        for p in visible_panels(dashboard)
        if "railtrip_source_circuit_state" in p["targets"][0]["expr"]
    ]
    options = breaker["fieldConfig"]["defaults"]["mappings"][0]["options"]
    assert {k: v["text"] for k, v in options.items()} == {
        "0": "closed",
        "1": "half-open",
        "2": "open",
    }


def test_committed_json_matches_its_builder() -> None:
    # The JSON is generated; edit build_dashboard.py and rerun it instead of the JSON.
    assert DASHBOARD.read_text(encoding="utf-8") == load_builder().render()


def test_every_dashboard_expression_parses_as_promql(
    promtool: str, dashboard: dict[str, Any], tmp_path
) -> None:
    exprs = [t["expr"] for p in visible_panels(dashboard) for t in p["targets"]]
    rules = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [
                    {"record": f"dashboard:query_{i}", "expr": GRAFANA_VARIABLES.sub("5m", expr)}
                    for i, expr in enumerate(exprs)
                ],
            }
        ]
    }
    path = tmp_path / "dashboard_rules.yml"
    path.write_text(yaml.safe_dump(rules), encoding="utf-8")
    result = run_promtool(promtool, "check", "rules", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(exprs)} rules found" in result.stdout
