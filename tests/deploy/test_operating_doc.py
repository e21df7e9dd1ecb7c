"""README's "Operating railtrip": the section every alert's runbook link points to."""

from __future__ import annotations

import re
from typing import Any

from prometheus_client.metrics import MetricWrapperBase

from app.observability.metrics import Metrics
from tests.deploy.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
# The section runs from its heading to the next second-level heading.
DOC = README[README.index("## Operating railtrip\n") :]
DOC = DOC[: DOC.find("\n## ", 1) + 1 or None]


def test_section_heading_gives_the_runbook_anchor(rules: dict[str, Any]) -> None:
    # GitHub turns "## Operating railtrip" into the anchor #operating-railtrip.
    assert DOC.startswith("## Operating railtrip\n")
    runbooks = {
        r["annotations"]["runbook"] for g in rules["groups"] for r in g["rules"] if "alert" in r
    }
    assert {link.split("#")[1] for link in runbooks} == {"operating-railtrip"}


def test_every_alert_has_a_runbook_entry(rules: dict[str, Any]) -> None:
    for group in rules["groups"]:
        for rule in group["rules"]:
            if "alert" in rule:
                assert f"**{rule['alert']}**" in DOC, rule["alert"]


def test_every_metric_and_recording_rule_is_explained(rules: dict[str, Any]) -> None:
    metrics = Metrics()
    # The wrappers (railtrip_redis_up is registered only with Redis) and the registry (the
    # circuit-state and admission gauges are collectors read at scrape time).
    wrappers = [m for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)]
    found = [f for m in wrappers for f in m.describe()] + list(metrics.registry.collect())
    families = {f.name + ("_total" if f.type == "counter" else "") for f in found}
    assert len(families) == 19
    records = {r["record"] for g in rules["groups"] for r in g["rules"] if "record" in r}
    table_rows = set(re.findall(r"^\| `([\w:]+)` \|", DOC, flags=re.MULTILINE))
    assert families | records <= table_rows
