"""Replay what the real app exports after ordinary chats into promtool's rule unit tests.

The app runs for real (lifespan, sandbox vendors, Redis sessions); its /metrics page is
scraped and every counter sample becomes an input series that grows by the scraped value
each minute, i.e. the same traffic repeated every minute for 20 minutes. promtool then
evaluates deploy/prometheus/rules.yml on it. The healthy replay must leave the critical
unavailable-answers alert silent; the same chats with every source failing must fire it, so
the harness is shown able to fail.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from prometheus_client.parser import text_string_to_metric_families

from app.settings import Settings
from tests.app.apps import running
from tests.deploy.conftest import RULES, run_promtool

TODAY = "2026-12-01"
FAST = {name: {"rate_per_s": 1000} for name in ("sandbox-12306", "sandbox-juhe")}
# A three-turn chat that asks twice before it plans, and a turn that is out of scope.
THREE_TURNS = ("我想去上海玩", "从北京出发", "12月5日走")
REFUSED = "帮我订个酒店"


async def chat_scenario(redis_url: str, *, sources_fail: bool) -> str:
    """Two three-turn chats and one refusal against the real app; returns its /metrics."""
    async with running(Settings(source_overrides=FAST, redis_url=redis_url)) as (client, _):
        if sources_fail:
            for vendor in ("12306", "juhe"):
                faults = await client.post(f"/sandbox/{vendor}/faults", json={"error_rate": 1})
                assert faults.status_code == 200
        for _ in range(2):
            session: dict[str, str] = {}
            for text in THREE_TURNS:
                reply = await client.post(
                    "/v1/chat", json={"text": text, "today": TODAY, **session}
                )
                assert reply.status_code == 200
                session = {"session_id": reply.json()["session_id"]}
        refusal = await client.post("/v1/chat", json={"text": REFUSED, "today": TODAY})
        assert refusal.json()["itinerary"] is None
        return (await client.get("/metrics")).text


def replayed_series(exposition: str) -> list[dict[str, str]]:
    """promtool input series: each counter sample grows by its scraped value every minute."""
    series = []
    for family in text_string_to_metric_families(exposition):
        for s in family.samples:
            if family.type == "counter" and s.name.endswith("_total") and s.value > 0:
                labels = ", ".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
                series.append({"series": f"{s.name}{{{labels}}}", "values": f"0+{s.value:g}x20"})
    return series


def unavailable_alert_case(
    exposition: str, *, firing: bool, ratio: float | None
) -> dict[str, object]:
    check: dict[str, object] = {"eval_time": "15m", "alertname": "RailtripUnavailableAnswersHigh"}
    if firing:
        alert = next(
            r
            for g in yaml.safe_load(RULES.read_text(encoding="utf-8"))["groups"]
            for r in g["rules"]
            if r.get("alert") == "RailtripUnavailableAnswersHigh"
        )
        annotations = {
            **alert["annotations"],
            "summary": "100% of ticket-bearing answers are `unavailable`",
        }
        check["exp_alerts"] = [
            {"exp_labels": {"severity": "critical"}, "exp_annotations": annotations}
        ]
    else:
        check["exp_alerts"] = []
    case: dict[str, object] = {
        "name": "replayed chats",
        "interval": "1m",
        "input_series": replayed_series(exposition),
        "alert_rule_test": [check],
    }
    if ratio is not None:
        case["promql_expr_test"] = [
            {
                "expr": "railtrip:unavailable_ratio:rate5m",
                "eval_time": "15m",
                "exp_samples": [{"labels": "railtrip:unavailable_ratio:rate5m", "value": ratio}],
            }
        ]
    return case


def promtool_test(promtool: str, tmp_path: Path, case: dict[str, object]) -> str:
    tests = {"rule_files": [str(RULES)], "evaluation_interval": "1m", "tests": [case]}
    path = tmp_path / "replay_test.yml"
    path.write_text(yaml.safe_dump(tests, allow_unicode=True), encoding="utf-8")
    result = run_promtool(promtool, "test", "rules", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def sample(exposition: str, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(exposition):
        for s in family.samples:
            if s.name == name and s.labels == labels:
                return s.value
    return 0.0


async def test_replayed_chat_clarify_traffic_leaves_the_unavailable_alert_silent(
    promtool: str, redis_url: str, tmp_path: Path
) -> None:
    exposition = await chat_scenario(redis_url, sources_fail=False)
    # Four clarifying questions and a refusal are answers, but not ticket-bearing ones.
    assert (
        sample(exposition, "railtrip_answers_total", endpoint="/v1/chat", kind="clarification") == 4
    )
    assert sample(exposition, "railtrip_answers_total", endpoint="/v1/chat", kind="refusal") == 1
    assert sample(exposition, "railtrip_answers_total", endpoint="/v1/chat", kind="tickets") == 2
    assert (
        sample(exposition, "railtrip_responses_total", endpoint="/v1/chat", freshness="unavailable")
        == 0
    )
    output = promtool_test(
        promtool, tmp_path, unavailable_alert_case(exposition, firing=False, ratio=0)
    )
    assert "SUCCESS" in output


async def test_replayed_chats_with_every_source_failing_fire_the_unavailable_alert(
    promtool: str, redis_url: str, tmp_path: Path
) -> None:
    exposition = await chat_scenario(redis_url, sources_fail=True)
    assert (
        sample(exposition, "railtrip_responses_total", endpoint="/v1/chat", freshness="unavailable")
        == 2
    )
    output = promtool_test(
        promtool, tmp_path, unavailable_alert_case(exposition, firing=True, ratio=1)
    )
    assert "SUCCESS" in output
