"""12306's official transfer search (`/lcquery/query*`), behind the adapter's `transfers`.

How the live site behaves, and the public clients that show it:

- **The path drifts.** `/otn/lcQuery/init` (a page) names it: `var lc_search_url =
  '/lcquery/queryG';`. Within 2025 it went queryG → queryU → queryG: Joooook/12306-mcp
  hard-coded `/lcquery/queryU` (commit 5812cfe, 2025-05-18), met issue #16 ("无法查询到中转
  方案", 2025-05-24) and since commit 528a561 (2025-05-30, "动态获取接口路径") reads the path
  from the init page; a public skill (find_string id 59791479270) still documents queryU.
  So a 404, a redirect, a body that is not JSON, or `{"data": "", "errorMsg": "url error"}`
  (what a wrong lcquery path answers, per a public 2026-09 note on the site, find_string id
  69456861912) from the remembered path re-reads `lcQuery/init` once, adopts the path it
  names, retries once and remembers it: never failed until a restart. The same path again,
  or none named, fails as the site answered (a redirect or HTML is a block).
- **"Nothing found" is an answer.** `{"data": "<a string, often empty>", "errorMsg": "…",
  "status": false}` means zero plans (Joooook/12306-mcp src/index.ts treats a string `data`
  as 未查到相关的列车余票): the source answered, nothing failed. `系统忙` is the site being
  busy (the same 2026-09 note), a transient failure.
- **Legs carry fares in `yp_info`** with `seat_discount_info` (Joooook/12306-mcp src/types.ts,
  InterlineTicketData), the chunk format of a row's yp_info_new: the halves are priced from
  the answer itself, with no left-ticket query.
- `purpose_codes=00` for adults, `0X` for students (Joooook/12306-mcp src/index.ts,
  drfccv/mcp-server-12306 src/mcp_12306/server.py), paged by `result_index`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import orjson

from sources.base import Clock
from sources.capabilities import TransferOffer
from sources.errors import (
    SourceBlocked,
    SourceMalformed,
    SourceRejected,
    SourceServerError,
    looks_like_html,
    raise_for_status,
)
from sources.models import FareKind, TicketQuery
from sources.rail12306_extras import parse_lc_search_url, parse_transfers, transfer_refusal
from sources.rail12306_session import Attempt, Params, SiteSession
from sources.stations import StationDirectory

log = logging.getLogger(__name__)

LC_INIT_PATH = "/otn/lcQuery/init"
LEFT_TICKET_INIT_PATH = "/otn/leftTicket/init"
DEFAULT_LC_PATH = "/lcquery/queryG"
MAX_TRANSFER_PAGES = 3
TRANSFER_PURPOSE: dict[FareKind, str] = {FareKind.ADULT: "00", FareKind.STUDENT: "0X"}
URL_ERROR = "url error"
BUSY = ("系统忙", "系统繁忙")


@dataclass(frozen=True)
class _Drift:
    """The remembered path did not answer as the transfer search does."""

    message: str
    blocked: bool  # a redirect or a page: the site refusing us, unless a new path explains it


class TransferSearch:
    """The transfer search on one adapter's session; remembers the path it last found."""

    def __init__(
        self,
        name: str,
        session: SiteSession,
        base_url: str,
        directory: StationDirectory,
        clock: Clock,
        *,
        on_block: Callable[[], None],
    ) -> None:
        self.name = name
        self._session = session
        self._base_url = base_url
        self._directory = directory
        self._clock = clock
        self._on_block = on_block
        self.path: str | None = None

    async def search(self, query: TicketQuery, pages: int, attempt: Attempt) -> list[TransferOffer]:
        """Up to `pages` pages of plans (the session is already set up)."""
        reread = False  # lcQuery/init is read again at most once per search
        if self.path is None:
            self.path = await self._read_path(attempt) or DEFAULT_LC_PATH
        offers: list[TransferOffer] = []
        index: int | None = 0
        for _ in range(max(1, min(pages, MAX_TRANSFER_PAGES))):
            params: Params = [
                ("train_date", query.date.isoformat()),
                ("from_station_telecode", query.origin),
                ("to_station_telecode", query.destination),
                ("middle_station", ""),
                ("result_index", index),
                ("can_query", "Y"),
                ("isShowWZ", "N"),
                ("purpose_codes", TRANSFER_PURPOSE[query.fare]),
                ("channel", "E"),
            ]
            answer = await self._request(params, attempt)
            if isinstance(answer, _Drift):
                if reread:
                    self._fail(answer)
                reread = True
                answer = await self._follow_drift(answer, params, attempt)
            found, index = parse_transfers(
                answer, self._directory, self._clock(), self.name, query.fare
            )
            offers += [o for o in found if query.admits(o.first) and query.admits(o.second)]
            if index is None:
                break
        return offers

    async def _follow_drift(
        self, drift: _Drift, params: Params, attempt: Attempt
    ) -> dict[str, Any]:
        stale = self.path
        fresh = await self._read_path(attempt)
        if fresh is None or fresh == stale:
            self._fail(drift)
        log.info("%s: transfer search moved %s -> %s (%s)", self.name, stale, fresh, drift.message)
        self.path = fresh
        answer = await self._request(params, attempt)
        if isinstance(answer, _Drift):
            self._fail(answer)
        return answer

    async def _request(self, params: Params, attempt: Attempt) -> dict[str, Any] | _Drift:
        """One page from the remembered path, or why it looks moved."""
        assert self.path is not None
        async with attempt.slot():
            response = await self._session.send(
                self._base_url + self.path,
                params,
                page=False,
                referer=self._base_url + LC_INIT_PATH,
            )
        if response.is_redirect:
            where = response.headers.get("Location") or "nowhere"
            return _Drift(f"redirected ({response.status_code}) to {where}", blocked=True)
        if response.status_code == 404:
            return _Drift("HTTP 404", blocked=False)
        raise_for_status(self.name, response)
        try:
            body = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            kind = response.headers.get("content-type", "no content-type")
            if looks_like_html(response):
                return _Drift(f"not JSON ({kind})", blocked=True)
            raise SourceMalformed(self.name, f"a 200 body that is not JSON ({kind})") from None
        if not isinstance(body, dict):
            raise SourceMalformed(self.name, f"JSON {type(body).__name__} instead of an object")
        refusal = transfer_refusal(body)
        if refusal is not None and URL_ERROR in refusal.lower():
            return _Drift(f"errorMsg {refusal!r}", blocked=False)
        if refusal is not None and any(word in refusal for word in BUSY):
            raise SourceServerError(self.name, f"transfer search busy: {refusal!r}", 503)
        return body

    async def _read_path(self, attempt: Attempt) -> str | None:
        """The path `lcQuery/init` names, or None (it redirected, or names none)."""
        response = await self._session.load_page(
            self._base_url + LC_INIT_PATH,
            attempt,
            referer=self._base_url + LEFT_TICKET_INIT_PATH,
        )
        if response.status_code != 200:
            return None
        return parse_lc_search_url(response.text)

    def _fail(self, drift: _Drift) -> NoReturn:
        if drift.blocked:
            self._on_block()
            log.warning("%s: transfer search blocked (%s)", self.name, drift.message)
            raise SourceBlocked(self.name, f"transfer search {drift.message}")
        raise SourceRejected(self.name, f"transfer search at {self.path}: {drift.message}", 404)
