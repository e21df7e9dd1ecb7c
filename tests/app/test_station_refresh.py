"""With rail12306 enabled, start-up refreshes the station list from 12306 (bounded, cached)."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from app.settings import Settings
from app.wiring.services import station_directory
from sources.stations import default_directory

OFFICIAL_JS = Path(__file__).parents[3] / "shared" / "data" / "station_name.js"


def settings(tmp_path: Path, **values: object) -> Settings:
    return Settings(
        sources=["rail12306"],
        stations_cache_path=str(tmp_path / "station_name.js"),
        source_overrides={"rail12306": {"base_url": "https://kyfw.12306.test"}},
        **values,
    )


@pytest.mark.skipif(not OFFICIAL_JS.exists(), reason="official station list not present")
async def test_start_up_takes_12306s_current_station_list(tmp_path: Path) -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, content=OFFICIAL_JS.read_bytes())

    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        directory = await station_directory(settings(tmp_path), client)
    assert seen == ["https://kyfw.12306.test/otn/resources/js/framework/station_name.js"]
    assert directory.resolve("北京通州").telecode == "BUI"
    assert (tmp_path / "station_name.js").exists()


async def test_start_up_falls_back_to_the_bundled_list_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(302))
    with caplog.at_level(logging.WARNING, logger="railtrip.http"):
        async with httpx.AsyncClient(transport=transport) as client:
            directory = await station_directory(settings(tmp_path), client)
    assert directory is default_directory()
    assert any("bundled" in r.getMessage() for r in caplog.records)


async def test_without_rail12306_no_request_is_made(tmp_path: Path) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"unexpected request to {request.url}")

    async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as client:
        directory = await station_directory(Settings(sources=["sandbox-12306"]), client)
    assert directory is default_directory()
