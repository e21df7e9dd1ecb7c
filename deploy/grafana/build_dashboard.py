"""Build deploy/grafana/railtrip.json, the railtrip Grafana dashboard.

The JSON is committed (import it as is); this script is its source, so panels are edited
here and the file regenerated: `python deploy/grafana/build_dashboard.py`. A test fails when
the two drift apart. Ratios come from the recording rules in deploy/prometheus/rules.yml;
everything else is a raw expression over the metrics of app/observability/metrics.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("railtrip.json")
DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}
RATE = "$__rate_interval"
# Every raw series is narrowed to the replicas picked in the `job` and `instance` variables
# (all of them by default) and summed over them, or split by `instance` in the Replicas row.
# Recording rules are fleet-wide already (rules.yml sums over instances): their panels say so.
FLEET = 'job=~"$job", instance=~"$instance"'
FLEET_WIDE = " Fleet-wide (a recording rule): the job and instance pickers do not apply."
# Grafana lays panels on a 24-column grid.
WIDTH, HEIGHT = 8, 8

Panel = dict[str, Any]


def target(expr: str, legend: str, ref: str, **extra: Any) -> dict[str, Any]:
    """One PromQL query of a panel."""
    return {"datasource": DATASOURCE, "refId": ref, "expr": expr, "legendFormat": legend} | extra


def series(name: str, matchers: str = "") -> str:
    """A raw railtrip series on the picked replicas, with any further label matchers."""
    return f"{name}{{{FLEET}{', ' + matchers if matchers else ''}}}"


def summed(by: str, name: str, matchers: str = "") -> str:
    """Per-second rate of a counter on the picked replicas, summed by `by`."""
    return f"sum by ({by}) (rate({series(name, matchers)}[{RATE}]))"


def quantiles(metric: str, by: str, qs: tuple[float, ...]) -> list[dict[str, Any]]:
    """histogram_quantile targets, one per quantile, grouped by `by`."""
    return [
        target(
            f"histogram_quantile({q}, sum by ({by}, le) "
            f"(rate({series(metric + '_bucket')}[{RATE}])))",
            f"{{{{{by}}}}} p{round(q * 100)}",
            chr(ord("A") + i),
        )
        for i, q in enumerate(qs)
    ]


def panel(
    kind: str,
    title: str,
    description: str,
    targets: list[dict[str, Any]],
    *,
    unit: str = "short",
    stack: bool = False,
    thresholds: list[tuple[str, float | None]] | None = None,
    mappings: list[dict[str, Any]] | None = None,
    overrides: list[dict[str, Any]] | None = None,
    max_value: float | None = None,
) -> Panel:
    """A panel without id or position (see `layout`)."""
    steps = [
        {"color": color, "value": value}
        for color, value in (thresholds or [("green", None), ("red", 80.0)])
    ]
    defaults: dict[str, Any] = {
        "unit": unit,
        "thresholds": {"mode": "absolute", "steps": steps},
        "mappings": mappings or [],
    }
    if max_value is not None:
        defaults["min"] = 0
        defaults["max"] = max_value
    if kind == "timeseries":
        defaults["custom"] = {
            "drawStyle": "line",
            "lineWidth": 1,
            "fillOpacity": 25 if stack else 0,
            "showPoints": "never",
            "spanNulls": False,
            "stacking": {"mode": "normal" if stack else "none"},
            "thresholdsStyle": {"mode": "line" if thresholds else "off"},
        }
        defaults["color"] = {"mode": "palette-classic"}
        options: dict[str, Any] = {
            "legend": {"displayMode": "table", "placement": "bottom", "calcs": ["mean", "max"]},
            "tooltip": {"mode": "multi", "sort": "desc"},
        }
    elif kind == "stat":
        defaults["color"] = {"mode": "thresholds"}
        options = {
            "reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
            "colorMode": "background",
            "graphMode": "area",
            "textMode": "value_and_name",
            "orientation": "auto",
        }
    elif kind == "state-timeline":
        defaults["color"] = {"mode": "thresholds"}
        options = {"showValue": "auto", "mergeValues": True, "rowHeight": 0.9}
    elif kind == "heatmap":
        defaults = {"custom": {"scaleDistribution": {"type": "linear"}}}
        options = {
            "calculate": False,
            "yAxis": {"unit": unit},
            "color": {"mode": "scheme", "scheme": "Oranges", "steps": 64},
            "cellGap": 1,
            "rowsFrame": {"layout": "le"},
            "tooltip": {"show": True, "yHistogram": True},
        }
    else:
        raise ValueError(f"unknown panel type {kind}")
    if any("railtrip:" in t["expr"] for t in targets):
        description += FLEET_WIDE
    return {
        "type": kind,
        "title": title,
        "description": description,
        "datasource": DATASOURCE,
        "targets": targets,
        "fieldConfig": {"defaults": defaults, "overrides": overrides or []},
        "options": options,
    }


def color_by_name(colors: dict[str, str]) -> list[dict[str, Any]]:
    """Overrides that pin a series' color by its legend name."""
    return [
        {
            "matcher": {"id": "byName", "options": name},
            "properties": [{"id": "color", "value": {"mode": "fixed", "fixedColor": color}}],
        }
        for name, color in colors.items()
    ]


FRESHNESS_COLORS = {"realtime": "green", "cached": "yellow", "unavailable": "red"}
BREAKER_MAPPINGS = [
    {
        "type": "value",
        "options": {
            "0": {"text": "closed", "color": "green", "index": 0},
            "1": {"text": "half-open", "color": "yellow", "index": 1},
            "2": {"text": "open", "color": "red", "index": 2},
        },
    }
]
REDIS_MAPPINGS = [
    {
        "type": "value",
        "options": {
            "0": {"text": "down", "color": "red", "index": 0},
            "1": {"text": "up", "color": "green", "index": 1},
        },
    }
]


def sections() -> list[tuple[str, list[Panel]]]:
    """Dashboard rows, top to bottom, each with its panels left to right."""
    traffic = [
        panel(
            "timeseries",
            "Request rate by endpoint",
            "HTTP requests per second by route template.",
            [
                target(
                    summed("endpoint", "railtrip_http_requests_total"),
                    "{{endpoint}}",
                    "A",
                )
            ],
            unit="reqps",
        ),
        panel(
            "timeseries",
            "Latency p50 / p95 / p99 by endpoint",
            "HTTP request latency quantiles per route template.",
            quantiles("railtrip_http_request_duration_seconds", "endpoint", (0.5, 0.95, 0.99)),
            unit="s",
        ),
        panel(
            "timeseries",
            "5xx responses",
            "5xx per second by route and status (alert RailtripHigh5xxRate on "
            "railtrip:http_5xx_ratio:rate5m above 5%). Only the precheck's 503 is designed.",
            [
                target(
                    summed("endpoint, status", "railtrip_http_requests_total", 'status=~"5.."'),
                    "{{endpoint}} {{status}}",
                    "A",
                ),
            ],
            unit="reqps",
        ),
    ]
    replicas = [
        panel(
            "stat",
            "Replicas reporting",
            "railtrip processes with samples among the picked job and instances; keep "
            "RAILTRIP_EXPECTED_REPLICAS equal to it (each takes rate / N of every source while "
            "Redis is down).",
            [
                target(
                    f"count(count by (instance) ({series('railtrip_http_requests_total')}))",
                    "replicas",
                    "A",
                )
            ],
            thresholds=[("green", None)],
        ),
        panel(
            "timeseries",
            "Requests per replica",
            "HTTP requests per second on each replica; an even load balancer keeps the lines "
            "together.",
            [target(summed("instance", "railtrip_http_requests_total"), "{{instance}}", "A")],
            unit="reqps",
        ),
        panel(
            "timeseries",
            "Latency p95 per replica",
            "95th percentile request latency on each replica, all endpoints: one replica apart "
            "from the others is that replica's host, not the sources.",
            quantiles("railtrip_http_request_duration_seconds", "instance", (0.95,)),
            unit="s",
        ),
        panel(
            "timeseries",
            "Ticket answers per replica by freshness",
            "Ticket-bearing answers per second on each replica by freshness; with Redis up a "
            "replica's cached share includes the other replicas' fetches (one fetch per query).",
            [
                target(
                    summed("instance, freshness", "railtrip_responses_total"),
                    "{{instance}} {{freshness}}",
                    "A",
                )
            ],
            unit="reqps",
        ),
        panel(
            "timeseries",
            "Upstream requests per source: fleet and per replica",
            "Requests that reached each source (circuit_open excluded). The fleet line is one "
            "budget for every replica (RAILTRIP_<SOURCE>_RATE_PER_S, shared through Redis): it "
            "stays under that rate, each replica below it.",
            [
                target(
                    summed("source", "railtrip_source_requests_total", 'outcome!="circuit_open"'),
                    "{{source}} fleet",
                    "A",
                ),
                target(
                    summed(
                        "instance, source",
                        "railtrip_source_requests_total",
                        'outcome!="circuit_open"',
                    ),
                    "{{instance}} {{source}}",
                    "B",
                ),
            ],
            unit="reqps",
        ),
        panel(
            "timeseries",
            "Degradations per replica",
            "Times per second each replica degraded instead of failing, by kind: redis_down "
            "on one replica only points at its network path to Redis.",
            [
                target(
                    summed("instance, kind", "railtrip_degradations_total"),
                    "{{instance}} {{kind}}",
                    "A",
                )
            ],
            unit="ops",
            stack=True,
        ),
    ]
    answers = [
        panel(
            "timeseries",
            "Freshness mix of ticket-bearing answers",
            "Share of answers that were realtime, cached (served from a cache, with age) "
            "or unavailable (railtrip:freshness_share:rate5m).",
            [target("railtrip:freshness_share:rate5m", "{{freshness}}", "A")],
            unit="percentunit",
            stack=True,
            max_value=1,
            overrides=color_by_name(FRESHNESS_COLORS),
        ),
        panel(
            "stat",
            "Unavailable answers (5m)",
            "railtrip:unavailable_ratio:rate5m; alert RailtripUnavailableAnswersHigh above 5%.",
            [target("railtrip:unavailable_ratio:rate5m", "unavailable", "A")],
            unit="percentunit",
            thresholds=[("green", None), ("orange", 0.02), ("red", 0.05)],
        ),
        panel(
            "timeseries",
            "Degradations by kind",
            "Times per second the service degraded instead of failing (stale_cache, "
            "redis_down, llm_fallback, source_down, session_single_turn, session_memory_only, "
            "session_lost, unavailable).",
            [
                target(
                    summed("kind", "railtrip_degradations_total"),
                    "{{kind}}",
                    "A",
                )
            ],
            unit="ops",
            stack=True,
        ),
        panel(
            "timeseries",
            "Invented-train rejections by origin",
            "Train numbers rejected because this request's sources did not return them, "
            "by where they came from (user, llm, cache).",
            [
                target(
                    summed("origin", "railtrip_invented_train_rejections_total"),
                    "{{origin}}",
                    "A",
                )
            ],
            unit="ops",
            stack=True,
        ),
        panel(
            "timeseries",
            "Freshness by endpoint",
            "Ticket-bearing answers per second by endpoint and freshness (clarifying "
            "questions, refusals and errors carry no tickets: see the next panel).",
            [
                target(
                    summed("endpoint, freshness", "railtrip_responses_total"),
                    "{{endpoint}} {{freshness}}",
                    "A",
                )
            ],
            unit="reqps",
        ),
        panel(
            "timeseries",
            "Answers by kind",
            "Share of each endpoint's answers that carry tickets, ask a clarifying question, "
            "refuse (out of scope) or fail (railtrip:answer_kind_share:rate5m).",
            [target("railtrip:answer_kind_share:rate5m", "{{endpoint}} {{kind}}", "A")],
            unit="percentunit",
            max_value=1,
        ),
        panel(
            "timeseries",
            "Refusals by reason",
            "Requests refused before any work: overloaded (this service's own source queue was "
            "full, not an upstream failure), quota (the client's own rate), unauthorized.",
            [
                target(
                    summed("reason", "railtrip_rejections_total"),
                    "{{reason}}",
                    "A",
                )
            ],
            unit="reqps",
            stack=True,
        ),
    ]
    caches = [
        panel(
            "timeseries",
            "Cache hit ratio per tier",
            "Fresh hits over all lookups (railtrip:cache_hit_ratio:rate5m); stale is not a hit.",
            [target("railtrip:cache_hit_ratio:rate5m", "{{tier}}", "A")],
            unit="percentunit",
            max_value=1,
        ),
        panel(
            "timeseries",
            "Cache lookups by tier and result",
            "Lookups per second: hit, miss, stale (served past TTL because sources failed).",
            [
                target(
                    summed("tier, result", "railtrip_cache_requests_total"),
                    "{{tier}} {{result}}",
                    "A",
                )
            ],
            unit="ops",
        ),
        panel(
            "stat",
            "Redis",
            "railtrip_redis_up per instance: 1 up, 0 down (memory cache only, single-turn chat).",
            [target(series("railtrip_redis_up"), "{{instance}}", "A")],
            thresholds=[("red", None), ("green", 1.0)],
            mappings=REDIS_MAPPINGS,
        ),
    ]
    sources = [
        panel(
            "timeseries",
            "Upstream attempts by source and outcome",
            "Attempts per second; each retry counts; circuit_open never reached the source.",
            [
                target(
                    summed("source, outcome", "railtrip_source_requests_total"),
                    "{{source}} {{outcome}}",
                    "A",
                )
            ],
            unit="reqps",
            stack=True,
        ),
        panel(
            "timeseries",
            "Upstream error ratio per source",
            "error + timeout + rate_limited over attempts that reached the source "
            "(railtrip:source_error_ratio:rate5m); alert above 20%.",
            [target("railtrip:source_error_ratio:rate5m", "{{source}}", "A")],
            unit="percentunit",
            thresholds=[("green", None), ("red", 0.2)],
            max_value=1,
        ),
        panel(
            "timeseries",
            "Upstream latency p95 per source",
            "95th percentile duration of one attempt at each source.",
            quantiles("railtrip_source_request_duration_seconds", "source", (0.95,)),
            unit="s",
        ),
        panel(
            "state-timeline",
            "Circuit breaker per source",
            "railtrip_source_circuit_state: 0 closed, 1 half-open, 2 open.",
            [
                target(
                    f"max by (source) ({series('railtrip_source_circuit_state')})",
                    "{{source}}",
                    "A",
                )
            ],
            thresholds=[("green", None), ("yellow", 1.0), ("red", 2.0)],
            mappings=BREAKER_MAPPINGS,
        ),
        panel(
            "timeseries",
            "Admission limit per source",
            "Requests each source admits at once before refusing `overloaded`: what it "
            "answers within the query deadline at its latency estimate now (per replica).",
            [
                target(
                    f"min by (source) ({series('railtrip_source_admission_limit')})",
                    "{{source}}",
                    "A",
                )
            ],
        ),
        panel(
            "timeseries",
            "Latency estimate per source",
            "The latency that sizes the admission limit: the 80th percentile of each source's "
            "last attempts (the attempt timeout until it has answered), highest replica.",
            [
                target(
                    f"max by (source) ({series('railtrip_source_latency_seconds')})",
                    "{{source}}",
                    "A",
                )
            ],
            unit="s",
        ),
    ]
    agent = [
        panel(
            "timeseries",
            "Agent steps p50 / p95 by mode",
            "Steps per agent run; the hard bound is RAILTRIP_AGENT_MAX_STEPS (default 10).",
            quantiles("railtrip_agent_steps", "mode", (0.5, 0.95)),
            thresholds=[("green", None), ("orange", 8.0), ("red", 10.0)],
        ),
        panel(
            "heatmap",
            "Agent steps distribution",
            "Runs per steps bucket over time, all modes.",
            [
                target(
                    f"sum by (le) (increase({series('railtrip_agent_steps_bucket')}[{RATE}]))",
                    "{{le}}",
                    "A",
                    format="heatmap",
                )
            ],
        ),
        panel(
            "timeseries",
            "Agent states entered",
            "States per second: PARSE_INTENT, CLARIFY, QUERY_TICKETS, EVALUATE_OPTIONS, "
            "GENERATE_PLAN, FALLBACK, DONE.",
            [
                target(
                    summed("state", "railtrip_agent_state_total"),
                    "{{state}}",
                    "A",
                )
            ],
            unit="ops",
            stack=True,
        ),
        panel(
            "timeseries",
            "Intent parser outcomes",
            "Parses per second by parser (llm, rules) and outcome (ok, retried, fallback, failed).",
            [
                target(
                    summed("parser, outcome", "railtrip_intent_parse_total"),
                    "{{parser}} {{outcome}}",
                    "A",
                )
            ],
            unit="ops",
        ),
        panel(
            "timeseries",
            "LLM fallback rate",
            "Share of LLM parses that fell back to the rule parser "
            "(railtrip:llm_fallback_ratio:rate5m); alert above 20%.",
            [target("railtrip:llm_fallback_ratio:rate5m", "fallback share", "A")],
            unit="percentunit",
            thresholds=[("green", None), ("red", 0.2)],
            max_value=1,
        ),
        panel(
            "timeseries",
            "LLM tokens by kind",
            "Tokens per second by model and kind (prompt, completion).",
            [
                target(
                    summed("model, kind", "railtrip_llm_tokens_total"),
                    "{{model}} {{kind}}",
                    "A",
                )
            ],
            stack=True,
        ),
        panel(
            "timeseries",
            "LLM latency p95 by model",
            "95th percentile duration of one LLM request.",
            quantiles("railtrip_llm_request_duration_seconds", "model", (0.95,)),
            unit="s",
        ),
    ]
    return [
        ("Traffic", traffic),
        ("Replicas", replicas),
        ("Answers and freshness", answers),
        ("Caches and Redis", caches),
        ("Upstream sources", sources),
        ("Agent, intent parsing and LLM", agent),
    ]


def layout(rows: list[tuple[str, list[Panel]]]) -> list[Panel]:
    """Give every panel an id and a grid position, with a row header per section."""
    panels: list[Panel] = []
    y = 0
    next_id = 1
    for title, members in rows:
        panels.append(
            {
                "type": "row",
                "title": title,
                "id": next_id,
                "collapsed": False,
                "gridPos": {"h": 1, "w": 24, "x": 0, "y": y},
                "panels": [],
            }
        )
        next_id += 1
        y += 1
        for i, member in enumerate(members):
            x = (i * WIDTH) % 24
            if i and x == 0:
                y += HEIGHT
            member["id"] = next_id
            member["gridPos"] = {"h": HEIGHT, "w": WIDTH, "x": x, "y": y}
            panels.append(member)
            next_id += 1
        y += HEIGHT
    return panels


def replica_variable(name: str, query: str) -> dict[str, Any]:
    """A `job` or `instance` picker: several or all (the default, any value), from the series."""
    return {
        "name": name,
        "label": name,
        "type": "query",
        "datasource": DATASOURCE,
        "definition": query,
        "query": {"qryType": 1, "query": query, "refId": f"{name}-values"},
        "refresh": 2,  # on time range change: replicas come and go
        "multi": True,
        "includeAll": True,
        "allValue": ".*",
        "current": {"selected": True, "text": ["All"], "value": ["$__all"]},
        "sort": 1,
        "hide": 0,
        "regex": "",
        "options": [],
    }


def dashboard() -> dict[str, Any]:
    """The whole dashboard model, ready to import."""
    return {
        "uid": "railtrip",
        "title": "railtrip",
        "description": "railtrip: traffic, replicas, freshness, caches, sources, agent and LLM.",
        "tags": ["railtrip"],
        "schemaVersion": 39,
        "version": 1,
        "editable": True,
        "graphTooltip": 1,
        "refresh": "30s",
        "time": {"from": "now-6h", "to": "now"},
        "timezone": "browser",
        "annotations": {"list": []},
        "links": [],
        "templating": {
            "list": [
                {
                    "name": "datasource",
                    "label": "Prometheus",
                    "type": "datasource",
                    "query": "prometheus",
                    "current": {},
                    "hide": 0,
                    "refresh": 1,
                    "regex": "",
                    "options": [],
                },
                replica_variable("job", "label_values(railtrip_http_requests_total, job)"),
                replica_variable(
                    "instance", 'label_values(railtrip_http_requests_total{job=~"$job"}, instance)'
                ),
            ]
        },
        "panels": layout(sections()),
    }


def render() -> str:
    """The dashboard as the committed JSON text."""
    return json.dumps(dashboard(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT}")
