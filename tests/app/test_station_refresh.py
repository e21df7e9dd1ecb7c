"""With rail12306 enabled, start-up refreshes the station list from 12306 (bounded, cached),
and the running service re-reads it (issue 23 item 11)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from app.runtime import Runtime
from app.settings import Settings
from app.wiring.services import station_directory, station_refresher
from sources.rail12306 import PAGE_HEADERS
from sources.stations import (
    StationDirectory,
    StationRefresher,
    UnknownStationError,
    default_directory,
)

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


# -- re-read while running ------------------------------------------------------------------

# The bundled directory as 12306 writes it (real rows), and the same list as it stood before
# 北京通州 opened: the refresh must bring the station in without a restart.
FULL_JS = (
    "var station_names ='"
    + "".join(
        f"@{s.initials}|{s.name}|{s.telecode}|{s.pinyin}|{s.initials}|{i}|0000|{s.city}|||"
        for i, s in enumerate(default_directory())
    )
    + "';"
)
BEFORE_TONGZHOU_JS = "@".join(r for r in FULL_JS.split("@") if "|北京通州|" not in r)


class CountingPacer:
    """Stands for the source's limiter: counts the requests it admits."""

    def __init__(self) -> None:
        self.admitted = 0

    @asynccontextmanager
    async def extra_request(self) -> AsyncIterator[None]:
        self.admitted += 1
        yield


def answering(*bodies: httpx.Response) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    replies = iter(bodies)

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return next(replies)

    return httpx.MockTransport(answer), seen


def refresher_for(
    client: httpx.AsyncClient, tmp_path: Path, **kwargs: Any
) -> tuple[StationRefresher, StationDirectory]:
    directory = StationDirectory.from_station_name_js(BEFORE_TONGZHOU_JS)
    refresher = StationRefresher(
        directory,
        "https://kyfw.12306.test/otn/resources/js/framework/station_name.js",
        tmp_path / "station_name.js",
        client,
        interval_s=86_400,
        headers=PAGE_HEADERS,
        **kwargs,
    )
    return refresher, directory


async def test_a_station_opened_after_start_up_is_known_after_the_refresh(tmp_path: Path) -> None:
    transport, seen = answering(
        httpx.Response(200, text=FULL_JS), httpx.Response(200, text=FULL_JS)
    )
    pacer, changed = CountingPacer(), []
    async with httpx.AsyncClient(transport=transport) as client:
        refresher, directory = refresher_for(
            client, tmp_path, pacer=pacer, on_change=[lambda: changed.append(True)]
        )
        with pytest.raises(UnknownStationError):
            directory.resolve("北京通州")
        assert await refresher.refresh_once() == "updated"
        assert directory.resolve("北京通州").telecode == "BUI"  # the same object, in place
        assert directory.generation == 1 and changed == [True]
        assert (tmp_path / "station_name.js").read_text(encoding="utf-8") == FULL_JS
        assert await refresher.refresh_once() == "unchanged"
    assert directory.generation == 1 and changed == [True]
    assert pacer.admitted == 2  # every fetch waited for the source's limiter
    assert seen[0].headers["accept"].startswith("text/html")  # fetched as a browser's page
    assert seen[0].headers["accept-language"] == "zh-CN,zh;q=0.9"


@pytest.mark.parametrize(
    "reply",
    [
        httpx.Response(503),
        httpx.Response(
            302, headers={"location": "https://www.12306.cn/mormhweb/logFiles/error.html"}
        ),
        httpx.Response(
            200, text="var station_names ='@bjb|北京北|VAP|beijingbei|bjb|0|0357|北京|||';"
        ),
        httpx.Response(200, content=b"\xff\xfe not text"),
    ],
    ids=["unavailable", "redirected", "truncated", "not-utf8"],
)
async def test_a_failed_refresh_keeps_the_copy_in_use(
    reply: httpx.Response, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    transport, _ = answering(reply)
    changed: list[bool] = []
    with caplog.at_level(logging.WARNING, logger="railtrip.stations"):
        async with httpx.AsyncClient(transport=transport) as client:
            refresher, directory = refresher_for(
                client, tmp_path, on_change=[lambda: changed.append(True)]
            )
            size = len(directory)
            outcome = await refresher.refresh_once()
    assert outcome.startswith("kept (")
    assert len(directory) == size and directory.generation == 0 and not changed
    assert not (tmp_path / "station_name.js").exists()
    assert any("keeping the copy in use" in r.getMessage() for r in caplog.records)


async def test_the_refresher_reads_again_every_interval_until_cancelled(tmp_path: Path) -> None:
    transport, seen = answering(httpx.Response(503), httpx.Response(200, text=FULL_JS))
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        if len(pauses) == 2:
            raise asyncio.CancelledError
        pauses.append(seconds)

    async with httpx.AsyncClient(transport=transport) as client:
        refresher, directory = refresher_for(client, tmp_path, sleep=sleep)
        with pytest.raises(asyncio.CancelledError):
            await refresher.run()
    assert pauses == [86_400, 86_400] and len(seen) == 2
    assert directory.resolve("北京通州").telecode == "BUI"  # the failed round was tried again


def test_the_refresh_runs_only_where_the_list_comes_from_12306(tmp_path: Path) -> None:
    client = httpx.AsyncClient()
    directory = default_directory()
    guarded = tuple(
        SimpleNamespace(name=name) for name in ("juhe", "rail12306")
    )  # stands for the guarded sources: only their names are read
    on = station_refresher(settings(tmp_path), directory, client, guarded, Runtime())  # type: ignore[arg-type]
    assert on is not None and on.directory is directory
    off = [
        settings(tmp_path, stations_refresh_interval_s=0),
        settings(tmp_path, stations_url="file:///stations.csv"),
        Settings(sources=["sandbox-12306"]),
    ]
    for each in off:
        assert station_refresher(each, directory, client, guarded, Runtime()) is None  # type: ignore[arg-type]
