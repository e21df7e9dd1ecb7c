"""Settings are one validated snapshot: per-source values (environment, `.env`, overrides)
are validated when the snapshot is built, and nothing bypasses that validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings import Settings


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
