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
from prometheus_client import generate_latest
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


# One source fails every attempt (no retries, a breaker that stays closed, so each query is
# one error) while a client runs past its request quota (a burst of 30, never refilled on the
# test's fixed clock).
OUTAGE = Settings(
    source_overrides={
        "sandbox-12306": {"rate_per_s": 1000, "retries": 0, "breaker_failures": 1000},
        "sandbox-juhe": {"rate_per_s": 1000},
    },
    client_rate_per_s=0.001,
    client_burst=30,
)


async def outage_scenario() -> tuple[str, str]:
    """/metrics right after start-up, and after a short outage's traffic."""
    async with running(OUTAGE) as (client, state):
        # Read as a scrape reads it (the client's own quota is spent below, /metrics's too).
        at_start = generate_latest(state.metrics.registry).decode()
        faults = await client.post("/sandbox/12306/faults", json={"error_rate": 1})
        assert faults.status_code == 200
        for day in range(2, 14):
            query = {"origin": "北京", "destination": "上海", "date": f"2026-12-{day:02d}"}
            answer = await client.get("/v1/tickets", params=query)
            assert answer.status_code == 200 and answer.json()["freshness"] == "realtime"
        statuses = [(await client.get("/v1/stations", params={"q": "北京"})).status_code]
        while statuses[-1] != 429:
            statuses.append((await client.get("/v1/stations", params={"q": "北京"})).status_code)
        for _ in range(9):
            statuses.append((await client.get("/v1/stations", params={"q": "北京"})).status_code)
        assert statuses.count(429) == 10
        return at_start, generate_latest(state.metrics.registry).decode()


def series_name(name: str, labels: dict[str, str]) -> str:
    pairs = ", ".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    return f"{name}{{{pairs}}}"


def counters(exposition: str) -> dict[str, float]:
    return {
        series_name(s.name, s.labels): s.value
        for family in text_string_to_metric_families(exposition)
        if family.type == "counter"
        for s in family.samples
        if s.name.endswith("_total")
    }


def outage_series(at_start: str, after: str, *, quiet: int, minutes: int) -> list[dict[str, str]]:
    """Each counter as scraped at start-up for `quiet` minutes, then growing by the outage's
    traffic every minute for `minutes` more."""
    start, end = counters(at_start), counters(after)
    series = []
    for name, value in end.items():
        first = start.get(name, 0.0)
        step = value - first
        series.append(
            {"series": name, "values": f"{first:g}x{quiet - 1} {first:g}+{step:g}x{minutes}"}
        )
    return series


async def test_a_short_outage_replayed_from_series_created_at_zero_fires_error_and_refusal_alerts(
    promtool: str, tmp_path: Path
) -> None:
    at_start, after = await outage_scenario()
    start, end = counters(at_start), counters(after)
    # Every series the outage moved already existed at start-up, at 0: rate() sees its start.
    outage = {
        'railtrip_source_requests_total{outcome="error", source="sandbox-12306"}': 12,
        'railtrip_rejections_total{reason="quota"}': 10,
        'railtrip_degradations_total{kind="source_down"}': 12,
    }
    for name, count in outage.items():
        assert start[name] == 0 and end[name] == count, name
    alerts = {
        r["alert"]: r
        for g in yaml.safe_load(RULES.read_text(encoding="utf-8"))["groups"]
        for r in g["rules"]
        if "alert" in r
    }

    def fired(alert: str, labels: dict[str, str], summary: str) -> dict[str, object]:
        annotations = {**alerts[alert]["annotations"], "summary": summary}
        if alert == "RailtripSourceErrorRatioHigh":
            annotations["description"] = annotations["description"].replace(
                "{{ $labels.source }}", labels["source"]
            )
        return {"exp_labels": {"severity": "warning", **labels}, "exp_annotations": annotations}

    # 12 errors and the one ok of the session's init page; 10 of 40 requests refused.
    firing = [
        fired(
            "RailtripSourceErrorRatioHigh",
            {"source": "sandbox-12306"},
            "Source sandbox-12306 fails 92.31% of the attempts that reach it",
        ),
        fired(
            "RailtripRequestsRefused", {"reason": "quota"}, "25% of requests are refused as quota"
        ),
    ]
    case = {
        "name": "replayed outage",
        "interval": "1m",
        "input_series": outage_series(at_start, after, quiet=3, minutes=15),
        "promql_expr_test": [
            {  # one minute into the outage, rate() already sees it: 12 of 13 attempts failed
                "expr": 'railtrip:source_error_ratio:rate5m{source="sandbox-12306"} > bool 0.92',
                "eval_time": "4m",
                "exp_samples": [{"labels": '{source="sandbox-12306"}', "value": 1}],
            },
            {
                "expr": 'railtrip:refusal_ratio:rate5m{reason="quota"} > bool 0.24',
                "eval_time": "4m",
                "exp_samples": [{"labels": '{reason="quota"}', "value": 1}],
            },
        ],
        "alert_rule_test": [
            {"eval_time": "2m", "alertname": "RailtripSourceErrorRatioHigh", "exp_alerts": []},
            {"eval_time": "2m", "alertname": "RailtripRequestsRefused", "exp_alerts": []},
            {
                "eval_time": "12m",
                "alertname": "RailtripSourceErrorRatioHigh",
                "exp_alerts": [firing[0]],
            },
            {"eval_time": "12m", "alertname": "RailtripRequestsRefused", "exp_alerts": [firing[1]]},
        ],
    }
    output = promtool_test(promtool, tmp_path, case)
    assert "SUCCESS" in output
