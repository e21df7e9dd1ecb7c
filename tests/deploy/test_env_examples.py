"""deploy/env/*.env.example: valid configuration, every documented variable, no secrets."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from app.settings import Settings, SourceSettings, env_name
from sources.sandbox.faults import KNOBS, VENDOR_ONLY_KNOBS, FaultConfig, env_prefix
from tests.deploy.conftest import DEPLOY

EXAMPLES = sorted((DEPLOY / "env").glob("*.env.example"))
ASSIGNMENT = re.compile(r"^(RAILTRIP_[A-Z0-9_]+)=(.*)$")
COMMENTED = re.compile(r"^#\s*(RAILTRIP_[A-Z0-9_]+)=")
# README "Configuration": the variables every deployment chooses a value for.
DOCUMENTED = {
    "RAILTRIP_SOURCES",
    "RAILTRIP_SANDBOX_ADMIN",
    "RAILTRIP_REDIS_URL",
    "RAILTRIP_MEMORY_TTL_S",
    "RAILTRIP_REDIS_TTL_S",
    "RAILTRIP_LLM_BASE_URL",
    "RAILTRIP_LLM_API_KEY",
    "RAILTRIP_LLM_MODEL",
    "RAILTRIP_AGENT_MODE",
    "RAILTRIP_AGENT_MAX_STEPS",
}
PER_SOURCE = ("CONCURRENCY", "RATE_PER_S", "TIMEOUT_S", "RETRIES")


def assignments(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of an env file (comments and blanks skipped, anything else refused)."""
    values: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = ASSIGNMENT.match(line)
        assert match, f"{path.name}:{number}: not a RAILTRIP_ assignment: {line!r}"
        assert match.group(1) not in values, f"{path.name}:{number}: {match.group(1)} twice"
        values[match.group(1)] = match.group(2)
    return values


def mentioned(path: Path) -> set[str]:
    """Variables set or shown commented out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return set(assignments(path)) | {m.group(1) for line in lines if (m := COMMENTED.match(line))}


@pytest.fixture
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in os.environ if k.startswith("RAILTRIP_")]:
        monkeypatch.delenv(key)


def test_there_is_a_production_and_an_embedded_example() -> None:
    assert {p.name for p in EXAMPLES} == {"production.env.example", "embedded.env.example"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_mentions_every_documented_variable(path: Path) -> None:
    assert DOCUMENTED - mentioned(path) == set()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_sets_no_secret(path: Path) -> None:
    secrets = {k for k in assignments(path) if k.endswith(("_API_KEY", "_PASSWORD", "_TOKEN"))}
    assert secrets == set()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_loads_into_the_service_settings(path: Path, clean_environ: None) -> None:
    values = assignments(path)
    settings = Settings(_env_file=path)  # type: ignore[call-arg]
    assert settings.sources == values["RAILTRIP_SOURCES"].split(",")
    assert settings.agent_max_steps == int(values["RAILTRIP_AGENT_MAX_STEPS"])
    assert settings.llm_enabled is False
    for source in settings.sources:
        prefix = f"RAILTRIP_{env_name(source)}_"
        conf = SourceSettings(_env_file=path, _env_prefix=prefix)  # type: ignore[call-arg]
        for field in PER_SOURCE:
            assert prefix + field in values, f"{path.name} leaves {prefix + field} implicit"
            assert getattr(conf, field.lower()) == float(values[prefix + field])


def test_embedded_example_is_the_embedded_default(clean_environ: None) -> None:
    path = DEPLOY / "env" / "embedded.env.example"
    settings = Settings(_env_file=path)  # type: ignore[call-arg]
    default = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings == default
    values = assignments(path)
    for vendor in ("12306", "juhe"):
        faults = FaultConfig.from_env(vendor, values)
        assert faults.latency_ms == 0


def test_production_example_uses_real_sources_redis_and_no_sandbox(clean_environ: None) -> None:
    settings = Settings(_env_file=DEPLOY / "env" / "production.env.example")  # type: ignore[call-arg]
    assert not any(name.startswith("sandbox-") for name in settings.sources)
    assert settings.redis_url is not None
    assert settings.sandbox_admin is False


def test_the_embedded_example_shows_every_sandbox_fault_knob() -> None:
    values = assignments(DEPLOY / "env" / "embedded.env.example")
    for vendor in ("12306", "juhe"):
        for knob in KNOBS:
            if VENDOR_ONLY_KNOBS.get(knob, vendor) == vendor:
                assert f"{env_prefix(vendor)}{knob.upper()}" in values, (vendor, knob)
