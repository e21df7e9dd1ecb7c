"""Shared fixtures for the operator artefacts under deploy/."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.deploy.packaging import Installed, build_and_install

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
RULES = DEPLOY / "prometheus" / "rules.yml"
RULES_TEST = DEPLOY / "prometheus" / "rules_test.yml"
DASHBOARD = DEPLOY / "grafana" / "railtrip.json"


@pytest.fixture(scope="session")
def promtool() -> str:
    """Path of promtool; a missing one fails the test, never skips it (`make test` installs it)."""
    path = shutil.which("promtool")
    assert path is not None, (
        "promtool is not on PATH: `make test` installs it (or run .ci/install-test-tools)"
    )
    return path


def run_promtool(
    promtool: str, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run promtool with a time bound, capturing its output as text."""
    return subprocess.run(
        [promtool, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.fixture(scope="session")
def rules() -> dict[str, Any]:
    """deploy/prometheus/rules.yml, parsed."""
    return yaml.safe_load(RULES.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def rules_test() -> dict[str, Any]:
    """deploy/prometheus/rules_test.yml, parsed."""
    return yaml.safe_load(RULES_TEST.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def dashboard() -> dict[str, Any]:
    """deploy/grafana/railtrip.json, parsed."""
    return json.loads(DASHBOARD.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """railtrip's wheel, built offline from a copy of the checkout, in a fresh venv."""
    return build_and_install(tmp_path_factory.mktemp("wheel"))
