"""Station lists from elsewhere: a file or URL (`load_directory`), and 12306's current list
refreshed at start-up with a copy on disk (`refresh_directory`), both bounded and falling back
to the bundled list rather than failing; then re-read while the service runs
(`StationRefresher`), so a station opened after start-up is known without a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path

import httpx
from pydantic import ValidationError

from sources.base import RequestPacer, Unpaced
from sources.stations.directory import StationDirectory, default_directory

log = logging.getLogger("railtrip.stations")

# A list much shorter than the official one is a broken answer, not a new railway.
MIN_OFFICIAL_STATIONS = 3000


class StationListError(Exception):
    """The station list at `location` could not be fetched, read or parsed."""

    def __init__(self, location: str, reason: str) -> None:
        super().__init__(f"cannot load station list from {location}: {reason}")
        self.location = location
        self.reason = reason


async def refresh_directory(
    url: str,
    cache_path: Path,
    client: httpx.AsyncClient,
    timeout_s: float = 5.0,
    headers: Mapping[str, str] | None = None,
) -> tuple[StationDirectory, str]:
    """12306's current list, else the copy cached on disk, else the bundled one.

    Bounded by `timeout_s`; a good answer is written to `cache_path` for the next start.
    Returns the directory and where it came from (`live`, `disk cache`, `bundled`), so the
    caller can warn when it fell back.
    """
    try:
        async with asyncio.timeout(timeout_s):
            text = await _fetch(url, client, headers)
        directory = _official(url, text)
    except (StationListError, TimeoutError) as exc:
        reason = str(exc) or "timed out"
        try:
            text = await asyncio.to_thread(cache_path.read_text, encoding="utf-8")
            cached = StationDirectory.from_station_name_js(text)
        except (OSError, UnicodeDecodeError):
            cached = None
        if cached is not None and len(cached) >= MIN_OFFICIAL_STATIONS:
            return cached, f"disk cache ({reason})"
        return default_directory(), f"bundled ({reason})"
    await _keep_on_disk(cache_path, text)
    return directory, "live"


class StationRefresher:
    """Re-reads 12306's station list every `interval_s` while the service runs.

    A good list (the official size, parsed) that differs from the one in use is adopted in
    place (`StationDirectory.adopt`: every holder sees it at once), written to the disk copy,
    and `on_change` callbacks run (caches derived from the old list). A failure, a timeout or a
    truncated list keeps the copy in use and is logged; the next round tries again. Each fetch
    waits for the source's limiter (`pacer`) and is counted with its requests.
    """

    def __init__(
        self,
        directory: StationDirectory,
        url: str,
        cache_path: Path,
        client: httpx.AsyncClient,
        *,
        interval_s: float,
        timeout_s: float = 5.0,
        headers: Mapping[str, str] | None = None,
        pacer: RequestPacer | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_change: Iterable[Callable[[], None]] = (),
    ) -> None:
        self.directory = directory
        self._url = url
        self._cache_path = cache_path
        self._client = client
        self._interval_s = interval_s
        self._timeout_s = timeout_s
        self._headers = headers
        self._pacer = pacer or Unpaced()
        self._sleep = sleep
        self._on_change = list(on_change)

    async def run(self) -> None:
        """Refresh every `interval_s`, for ever (cancel to stop)."""
        while True:
            await self._sleep(self._interval_s)
            await self.refresh_once()

    async def refresh_once(self) -> str:
        """One round: `updated`, `unchanged` or `kept (<reason>)`."""
        try:
            async with asyncio.timeout(self._timeout_s), self._pacer.extra_request():
                text = await _fetch(self._url, self._client, self._headers)
            newer = _official(self._url, text)
        except (StationListError, TimeoutError) as exc:
            reason = str(exc) or "timed out"
            log.warning("station list not refreshed, keeping the copy in use: %s", reason)
            return f"kept ({reason})"
        before, after = _records(self.directory), _records(newer)
        if before == after:
            return "unchanged"
        self.directory.adopt(newer)
        for callback in self._on_change:
            callback()
        await _keep_on_disk(self._cache_path, text)
        log.info(
            "station list refreshed: %d stations (%d new, %d gone)",
            len(newer),
            len(after - before),
            len(before - after),
        )
        return "updated"


def _official(url: str, text: str) -> StationDirectory:
    directory = StationDirectory.from_station_name_js(text)
    if len(directory) < MIN_OFFICIAL_STATIONS:
        raise StationListError(url, f"only {len(directory)} stations")
    return directory


def _records(directory: StationDirectory) -> frozenset[tuple[str, str, str]]:
    return frozenset((s.telecode, s.name, s.city) for s in directory)


async def _keep_on_disk(cache_path: Path, text: str) -> None:
    try:
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(cache_path.write_text, text, encoding="utf-8")
    except OSError:
        pass  # a read-only disk only costs the next start its fallback copy


def is_url(location: str | None) -> bool:
    """Whether a station list's location is fetched (http or https), not read from disk."""
    return location is not None and location.startswith(("http://", "https://"))


async def load_directory(
    location: str | None, client: httpx.AsyncClient | None = None
) -> StationDirectory:
    """The default directory for None, else the list at a file path or http(s) URL.

    A `.csv` file is read as the curated format, anything else as `station_name.js`. A URL is
    fetched with `client` (a short-lived one when None). Raises `StationListError`.
    """
    if not location:
        return default_directory()
    if is_url(location):
        text = await _fetch(location, client)
    else:
        path = Path(location.removeprefix("file://"))
        try:
            if path.suffix == ".csv":
                return await asyncio.to_thread(StationDirectory.from_csv, path)
            text = await asyncio.to_thread(path.read_text, encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError, ValidationError, TypeError) as exc:
            raise StationListError(location, str(exc) or type(exc).__name__) from exc
    directory = StationDirectory.from_station_name_js(text)
    if not len(directory):
        raise StationListError(location, "no station records found")
    return directory


async def _fetch(
    url: str, client: httpx.AsyncClient | None, headers: Mapping[str, str] | None = None
) -> str:
    try:
        if client is None:
            async with httpx.AsyncClient(timeout=10.0, follow_redirects=True) as own:
                response = await own.get(url, headers=headers)
        else:
            response = await client.get(url, headers=headers)
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise StationListError(url, str(exc) or type(exc).__name__) from exc
    try:
        return response.content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StationListError(url, "response is not UTF-8 text") from exc
