"""Station lists from elsewhere: a file or URL (`load_directory`), and 12306's current list
refreshed at start-up with a copy on disk (`refresh_directory`), both bounded and falling back
to the bundled list rather than failing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from pydantic import ValidationError

from sources.stations.directory import StationDirectory, default_directory

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
) -> tuple[StationDirectory, str]:
    """12306's current list, else the copy cached on disk, else the bundled one.

    Bounded by `timeout_s`; a good answer is written to `cache_path` for the next start.
    Returns the directory and where it came from (`live`, `disk cache`, `bundled`), so the
    caller can warn when it fell back.
    """
    try:
        async with asyncio.timeout(timeout_s):
            text = await _fetch(url, client)
        directory = StationDirectory.from_station_name_js(text)
        if len(directory) < MIN_OFFICIAL_STATIONS:
            raise StationListError(url, f"only {len(directory)} stations")
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
    try:
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(cache_path.write_text, text, encoding="utf-8")
    except OSError:
        pass  # a read-only disk only costs the next start its fallback copy
    return directory, "live"


async def load_directory(
    location: str | None, client: httpx.AsyncClient | None = None
) -> StationDirectory:
    """The default directory for None, else the list at a file path or http(s) URL.

    A `.csv` file is read as the curated format, anything else as `station_name.js`. A URL is
    fetched with `client` (a short-lived one when None). Raises `StationListError`.
    """
    if not location:
        return default_directory()
    if location.startswith(("http://", "https://")):
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


async def _fetch(url: str, client: httpx.AsyncClient | None) -> str:
    try:
        if client is None:
            async with httpx.AsyncClient(timeout=10.0, follow_redirects=True) as own:
                response = await own.get(url)
        else:
            response = await client.get(url)
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise StationListError(url, str(exc) or type(exc).__name__) from exc
    try:
        return response.content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StationListError(url, "response is not UTF-8 text") from exc
