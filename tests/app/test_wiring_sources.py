"""Sources are built from settings; sandbox fault knobs come from the environment or `.env`."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.observability.metrics import Metrics
from app.runtime import Runtime
from app.settings import Settings
from app.wiring.sources import build_sandbox, build_sources
from sources.stations import curated_directory


def test_fault_knobs_are_read_from_dotenv_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text(
        "RAILTRIP_SANDBOX_JUHE_ERROR_RATE=1\nRAILTRIP_SANDBOX_12306_LATENCY_MS=50\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_LATENCY_MS", "7")
    # The suite reads no `.env` unless a test asks for one, as this one does.
    mounts = build_sandbox(Settings(_env_file=".env"), curated_directory(), Runtime())
    assert mounts.faults["juhe"].knobs()["error_rate"] == 1
    assert mounts.faults["12306"].knobs()["latency_ms"] == 7


def test_only_enabled_sandbox_vendors_are_mounted() -> None:
    mounts = build_sandbox(
        Settings(sources=["sandbox-12306"]),
        curated_directory(),
        Runtime(),
    )
    assert list(mounts.faults) == ["12306"]
    assert list(mounts.transports) == ["http://sandbox-12306.internal"]


async def test_juhe_without_an_api_key_is_refused_at_start_up(monkeypatch) -> None:
    monkeypatch.delenv("RAILTRIP_JUHE_API_KEY", raising=False)
    async with httpx.AsyncClient() as client:
        with pytest.raises(ValueError, match="RAILTRIP_JUHE_API_KEY"):
            build_sources(
                Settings(sources=["juhe"]), client, curated_directory(), Metrics(), Runtime()
            )
