"""Settings are one validated snapshot: per-source values and fault knobs (environment, `.env`,
overrides) are validated when the snapshot is built, nothing bypasses that validation, a
misspelt variable is named, and the effective configuration is shown with secrets hidden."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from app import cli
from app.settings import Settings, known_variables
from app.wiring import open_services

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize(
    "override",
    [
        {"rate_per_s": -5},
        {"concurrency": 0},
        {"timeout_s": 0},
        {"retries": -1},
        {"rate_pers": 5},  # a typo is refused, not ignored
    ],
)
def test_invalid_source_overrides_are_refused_naming_the_source(override: dict) -> None:
    with pytest.raises(ValueError, match="sandbox-12306"):
        Settings(source_overrides={"sandbox-12306": override})


def test_overrides_for_an_unknown_source_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown sources"):
        Settings(source_overrides={"sandbox-12307": {"rate_per_s": 5}})


def test_an_invalid_per_source_variable_refuses_the_whole_snapshot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RAILTRIP_SANDBOX_JUHE_RATE_PER_S", "-5")
    with pytest.raises(ValueError, match="sandbox-juhe"):
        Settings()


def test_valid_overrides_are_applied_on_top_of_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_RETRIES", "4")
    settings = Settings(source_overrides={"sandbox-12306": {"rate_per_s": 50}})
    conf = settings.source("sandbox-12306")
    assert (conf.rate_per_s, conf.retries, conf.base_url) == (
        50,
        4,
        "http://sandbox-12306.internal",
    )
    # The snapshot was taken at construction: a later change of the environment is not seen.
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_RETRIES", "1")
    assert settings.source("sandbox-12306").retries == 4


def test_the_suite_reads_no_dotenv_unless_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("RAILTRIP_LLM_API_KEY=sk-live-1234\nRAILTRIP_MEMORY_TTL_S=7\n")
    monkeypatch.chdir(tmp_path)
    assert not Settings().llm_enabled and Settings().memory_ttl_s == 30
    asked = Settings(_env_file=".env")
    assert asked.llm_enabled and asked.memory_ttl_s == 7


def test_a_misspelt_variable_is_named_with_the_closest_known_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("RAILTRIP_MEMROY_TTL_S=7\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_ERROR_RTAE", "1")
    monkeypatch.setenv("RAILTRIP_SOMETHING_ELSE", "1")
    settings = Settings(_env_file=".env")
    assert settings.unknown_variables() == (
        ("RAILTRIP_MEMROY_TTL_S", "RAILTRIP_MEMORY_TTL_S"),
        ("RAILTRIP_SANDBOX_12306_ERROR_RTAE", "RAILTRIP_SANDBOX_12306_ERROR_RATE"),
        ("RAILTRIP_SOMETHING_ELSE", None),
    )
    # ... and ignored: the knob it meant to set is not set.
    assert settings.fault_knobs("12306")["error_rate"] == 0


def test_every_documented_variable_is_a_known_one() -> None:
    # The first cell of each row of README's configuration table names its variables.
    cells = [
        line.split("|")[1]
        for line in README.read_text("utf-8").splitlines()
        if line.startswith("| `RAILTRIP_")
    ]
    documented = set(re.findall(r"RAILTRIP_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_])", "".join(cells)))
    assert len(documented) > 40  # the table, not a pattern that finds nothing
    assert documented - known_variables() == set()


def test_fault_knobs_are_read_and_validated_with_the_snapshot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RAILTRIP_SANDBOX_JUHE_LATENCY_MS", "40")
    assert Settings().fault_knobs("juhe")["latency_ms"] == 40
    monkeypatch.setenv("RAILTRIP_SANDBOX_JUHE_PATH_MOVED_RATE", "0.5")  # a 12306 knob
    with pytest.raises(ValueError, match="sandbox vendor juhe"):
        Settings()
    monkeypatch.delenv("RAILTRIP_SANDBOX_JUHE_PATH_MOVED_RATE")
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_ERROR_RATE", "2")
    with pytest.raises(ValueError, match="sandbox vendor 12306"):
        Settings()


def test_the_effective_configuration_hides_every_secret() -> None:
    key = "sk-live-abcdefghijkl"
    settings = Settings(
        llm_api_key=key,
        redis_url="redis://railtrip:hunter2@redis:6379/0",
        api_keys=[f"frontend:{'a' * 64}", f"ops:{'b' * 64}:admin"],
        sources=["sandbox-12306", "juhe"],
        source_overrides={"juhe": {"api_key": "juhe-secret-key"}},
    )
    rows = dict(settings.describe())
    text = "\n".join(f"{k}={v}" for k, v in rows.items())
    for secret in (key, "hunter2", "a" * 64, "juhe-secret-key"):
        assert secret not in text
    assert rows["RAILTRIP_LLM_API_KEY"] == "(set)" and rows["RAILTRIP_JUHE_API_KEY"] == "(set)"
    assert rows["RAILTRIP_REDIS_URL"] == "redis://railtrip:***@redis:6379/0"
    assert rows["RAILTRIP_API_KEYS"] == "frontend,ops"
    assert rows["RAILTRIP_SANDBOX_12306_RATE_PER_S"] == "5.0"
    assert "RAILTRIP_SANDBOX_12306_PATH_MOVED_RATE" in rows
    assert "RAILTRIP_SANDBOX_JUHE_LATENCY_MS" not in rows  # the juhe sandbox is not enabled


def test_check_config_prints_the_snapshot_and_the_unknown_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RAILTRIP_LLM_API_KEY", "sk-live-abcdefghijkl")
    monkeypatch.setenv("RAILTRIP_QUERY_DEADLIN_S", "3")
    assert cli.main(["serve", "--check-config"]) == 0
    out = capsys.readouterr().out
    assert "RAILTRIP_LLM_API_KEY=(set)" in out and "sk-live" not in out
    assert "RAILTRIP_QUERY_DEADLINE_S=5.0" in out
    assert "RAILTRIP_QUERY_DEADLIN_S (did you mean RAILTRIP_QUERY_DEADLINE_S?)" in out


async def test_start_up_names_an_unknown_variable_in_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("RAILTRIP_SANDBOX_JUHE_HANG_RTAE", "1")
    with caplog.at_level(logging.WARNING, logger="railtrip.wiring"):
        async with open_services(Settings()):
            pass
    assert [r.getMessage() for r in caplog.records if r.name == "railtrip.wiring"] == [
        "unknown setting RAILTRIP_SANDBOX_JUHE_HANG_RTAE ignored "
        "(did you mean RAILTRIP_SANDBOX_JUHE_HANG_RATE?)"
    ]


def test_the_fault_knobs_are_one_set_for_the_vendors_the_settings_and_the_admin_endpoint() -> None:
    from app.http.routers.sandbox_admin import FaultKnobs
    from app.settings import FaultSettings
    from sources.sandbox.faults import KNOBS

    assert list(FaultSettings.model_fields) == list(FaultKnobs.model_fields) == list(KNOBS)
