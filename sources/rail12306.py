"""12306's public left-ticket query (`/otn/leftTicket/query*`) as a ticket source.

The flow, as the live site behaves in 2025–2026 (its pages recorded in tests/fixtures/rail12306/):

- `GET /otn/leftTicket/init` sets the session cookies a query needs and names the current
  query path in its script (`var CLeftTicketUrl = 'leftTicket/queryG';`). The session is
  refreshed after `session_max_age_s` (about 10 minutes), like a browser tab that reloads.
- `GET /otn/leftTicket/{path}?leftTicketDTO.train_date=…&leftTicketDTO.from_station=…&
  leftTicketDTO.to_station=…&purpose_codes=ADULT`, default path `queryG`.
- A stale path is answered with a 302 whose Location is another `leftTicket/query*` path (or
  the older `{"status": false, "c_url": "leftTicket/queryX"}`): a move. The new path is
  adopted, the query retried once, and the path remembered.
- A 302 to `error.html` or an `ntce` page, or HTML instead of JSON, is a block
  (`SourceBlocked`): the adapter drops its session and never retries; its caller opens the
  breaker for minutes.
- A date outside the sale window is refused before any request (`QueryRefused`): the site
  would answer it with an HTML page that reads like a block.

Every request beyond an attempt's first (init, session refresh, the hop to a moved path)
goes through the `RequestPacer`, so it waits for the source's limiter and is counted.
Rows are decoded by `sources.rail12306_rows` (pure, tested on recorded real rows).

Two optional capabilities (`sources.capabilities`), decoded by `sources.rail12306_extras`:
`stops(train_number, date)` finds the train's internal number with the train search
(`search.12306.cn`, `search_base_url`) and reads `/otn/czxx/queryByTrainNo`;
`transfers(query)` reads the transfer search at the path `/otn/lcQuery/init` names,
following `result_index` for at most `MAX_TRANSFER_PAGES` pages.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any, NoReturn
from urllib.parse import urlsplit

import httpx
import orjson

from sources.base import Clock, RequestPacer, Unpaced, shanghai_now
from sources.capabilities import StopList, TransferOffer
from sources.errors import (
    NotFoundAtSource,
    QueryRefused,
    SourceBlocked,
    SourceParseError,
    map_http_errors,
    raise_for_status,
)
from sources.models import TicketQuery, TrainOffer
from sources.rail12306_extras import (
    parse_lc_search_url,
    parse_stop_list,
    parse_train_search,
    parse_transfers,
)
from sources.rail12306_rows import (
    BadRow,
    PriceChunk,
    parse_left_tickets,
    parse_price_chunks,
    parse_prices,
    parse_row,
    parse_seat_cell,
)
from sources.sale_window import in_sale_window, last_sale_day
from sources.stations import StationDirectory

__all__ = [
    "BadRow",
    "PriceChunk",
    "Rail12306Source",
    "parse_init_page",
    "parse_left_tickets",
    "parse_price_chunks",
    "parse_prices",
    "parse_row",
    "parse_seat_cell",
]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://kyfw.12306.cn"
INIT_PATH = "/otn/leftTicket/init"
QUERY_PATH = "/otn/leftTicket/"
DEFAULT_SUFFIX = "queryG"
SESSION_MAX_AGE_S = 600.0
TRAIN_SEARCH_PATH = "/search/v1/train/search"
STOPS_PATH = "/otn/czxx/queryByTrainNo"
LC_INIT_PATH = "/otn/lcQuery/init"
DEFAULT_LC_PATH = "/lcquery/queryG"

Params = list[tuple[str, str | int | float | bool | None]]
"""Query parameters in the order 12306 expects them."""
MAX_TRANSFER_PAGES = 3
STATION_NAMES_PATH = "/otn/resources/js/framework/station_name.js"

USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
)

QUERY_SUFFIX = re.compile(r"leftTicket/(query[A-Za-z]*)$")
INIT_QUERY_URL = re.compile(r"""CLeftTicketUrl\s*=\s*['"]leftTicket/(query[A-Za-z]*)['"]""")


def parse_init_page(html: str) -> str | None:
    """The query path the init page names (`queryG`), or None when it names none."""
    match = INIT_QUERY_URL.search(html)
    return match[1] if match else None


def moved_to(location: str) -> str | None:
    """The query suffix a redirect points at, or None when it points anywhere else."""
    match = QUERY_SUFFIX.search(urlsplit(location).path)
    return match[1] if match else None


class Rail12306Source:
    """The 12306 left-ticket query at `base_url`, with its own session cookies.

    Instance state: the session cookies (kept here, not on the shared client, and sent as an
    explicit Cookie header so they win over anything in the client's jar), when the session
    began, and the query path learnt from the init page or a move. A block drops the session.
    """

    def __init__(
        self,
        name: str,
        client: httpx.AsyncClient,
        base_url: str,
        directory: StationDirectory,
        clock: Clock = shanghai_now,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        pacer: RequestPacer | None = None,
        session_max_age_s: float = SESSION_MAX_AGE_S,
        search_base_url: str | None = None,
    ) -> None:
        self.name = name
        self._client = client
        self._base_url = base_url.rstrip("/")
        self._search_base_url = (search_base_url or base_url).rstrip("/")
        self._lc_path: str | None = None
        self._directory = directory
        self._clock = clock
        self._monotonic = monotonic
        self.pacer: RequestPacer = pacer or Unpaced()
        self._session_max_age_s = session_max_age_s
        self._cookies = httpx.Cookies()
        self._session_started: float | None = None
        self._init_lock = asyncio.Lock()
        self.query_suffix = DEFAULT_SUFFIX  # public for readiness reports and tests
        self.sessions_started = 0

    async def search(self, query: TicketQuery) -> list[TrainOffer]:
        """Query 12306 (plus init and one hop to a moved path if needed) and parse the offers."""
        today = self._clock().date()
        if not in_sale_window(query.date, today):
            raise QueryRefused(
                self.name,
                f"{query.date} is not on sale (sale window {today}..{last_sale_day(today)})",
            )
        payload = await self._fetch(query)
        offers = parse_left_tickets(payload, self._directory, self._clock(), self.name, query.date)
        return [offer for offer in offers if query.admits(offer)]

    async def stops(self, train_number: str, date: dt.date) -> StopList:
        """The stops of `train_number` leaving its origin on `date` (train search, then
        queryByTrainNo); `NotFoundAtSource` when 12306 knows no such train that day."""
        found = await self._get_json(
            self._search_base_url + TRAIN_SEARCH_PATH,
            [("keyword", train_number), ("date", date.strftime("%Y%m%d"))],
        )
        hit = parse_train_search(found, train_number)
        if hit is None:
            raise NotFoundAtSource(self.name, f"no train {train_number} on {date}")
        ends = [self._directory.by_name(hit.get(key, "")) for key in ("from_station", "to_station")]
        params: Params = [
            ("train_no", hit["train_no"]),
            ("from_station_telecode", ends[0].telecode if ends[0] else ""),
            ("to_station_telecode", ends[1].telecode if ends[1] else ""),
            ("depart_date", date.isoformat()),
        ]
        async with self.pacer.extra_request():
            body = await self._get_json(self._base_url + STOPS_PATH, params)
        return parse_stop_list(
            body,
            self._directory,
            train_number=train_number,
            train_no=hit["train_no"],
            date=date,
            fetched_at=self._clock(),
            source_name=self.name,
        )

    async def transfers(
        self, query: TicketQuery, pages: int = MAX_TRANSFER_PAGES
    ) -> list[TransferOffer]:
        """The official transfer search for `query`, at most `pages` of it (ranked best first,
        so a planner that only needs a few good plans asks one page and saves requests)."""
        today = self._clock().date()
        if not in_sale_window(query.date, today):
            raise QueryRefused(self.name, f"{query.date} is not on sale")
        # The attempt's first request goes as admitted: the init page when it is due (once per
        # adapter), else the first page; every request after it is paced and counted.
        first = self._lc_path is not None
        if not first:
            page = await self._get_text(self._base_url + LC_INIT_PATH)
            self._lc_path = parse_lc_search_url(page) or DEFAULT_LC_PATH
        assert self._lc_path is not None
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
                ("purpose_codes", "00"),
                ("channel", "E"),
            ]
            async with self._paced(first):
                body = await self._get_json(self._base_url + self._lc_path, params)
            first = False
            found, index = parse_transfers(body, self._directory, self._clock(), self.name)
            offers += [o for o in found if query.admits(o.first) and query.admits(o.second)]
            if index is None:
                break
        return offers

    def _paced(self, first: bool) -> AbstractAsyncContextManager[None]:
        """The attempt's first request goes as admitted; every later one is paced."""
        return nullcontext() if first else self.pacer.extra_request()

    async def _get_text(self, url: str) -> str:
        headers = {"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml"}
        with map_http_errors(self.name):
            response = await self._client.get(url, headers=headers, follow_redirects=False)
        raise_for_status(self.name, response)
        return response.text

    async def _xhr_get(
        self, url: str, params: Params, *, referer: str | None = None
    ) -> httpx.Response:
        """A GET as the site's own page script sends it: XHR headers and the session cookies."""
        headers = {
            "User-Agent": USER_AGENT,
            "X-Requested-With": "XMLHttpRequest",
            "Accept": "application/json, text/javascript, */*; q=0.01",
        }
        if referer is not None:
            headers["Referer"] = referer
        cookie = self._cookie_header(url)
        if cookie:
            headers["Cookie"] = cookie
        with map_http_errors(self.name):
            return await self._client.get(
                url, params=params, headers=headers, follow_redirects=False
            )

    async def _get_json(self, url: str, params: Params) -> dict[str, Any]:
        response = await self._xhr_get(url, params)
        if response.is_redirect:
            self._block(
                f"redirected ({response.status_code}) to {response.headers.get('Location')}"
            )
        raise_for_status(self.name, response)
        return self._json_object(response)

    def _json_object(self, response: httpx.Response) -> dict[str, Any]:
        """The body as a JSON object; anything else is the site blocking us (a page, a list)."""
        try:
            body = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            self._block(f"not JSON ({response.headers.get('content-type', 'no content-type')})")
        if not isinstance(body, dict):
            self._block(f"JSON {type(body).__name__} instead of an object")
        return body

    async def _fetch(self, query: TicketQuery) -> dict[str, Any]:
        first = await self._ensure_session()
        if first:
            async with self.pacer.extra_request():
                answer = await self._query(self.query_suffix, query)
        else:
            answer = await self._query(self.query_suffix, query)
        if isinstance(answer, str):
            log.info("%s: query path moved %s -> %s", self.name, self.query_suffix, answer)
            self.query_suffix = answer
            async with self.pacer.extra_request():
                answer = await self._query(answer, query)
            if isinstance(answer, str):
                self._block(f"moved again after following the move to {self.query_suffix}")
        if answer.get("status") is False:
            self._block(f"status false: {answer.get('messages')!r}")
        if not isinstance(answer.get("data"), Mapping):
            self._block("JSON body without data")
        return answer

    async def _ensure_session(self) -> bool:
        """Init when there is no session or it is old; True when this call sent the init."""
        if not self._session_stale():
            return False
        # Concurrent first queries (a fan-out over several legs) share one init request.
        async with self._init_lock:
            if not self._session_stale():
                return False
            await self._init()
            return True

    def _session_stale(self) -> bool:
        started = self._session_started
        return started is None or self._monotonic() - started >= self._session_max_age_s

    async def _init(self) -> None:
        # The attempt's own slot of the limiter goes to this request; the query that follows
        # waits for another (see `_fetch`).
        url = self._base_url + INIT_PATH
        headers = {"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml"}
        with map_http_errors(self.name):
            response = await self._client.get(url, headers=headers, follow_redirects=False)
        try:
            raise_for_status(self.name, response)
        except SourceBlocked:
            self._reset_session()
            raise
        cookies = httpx.Cookies()
        cookies.extract_cookies(response)
        self._cookies = cookies
        suffix = parse_init_page(response.text)
        if suffix is not None and suffix != self.query_suffix:
            log.info("%s: init page names %s", self.name, suffix)
            self.query_suffix = suffix
        self._session_started = self._monotonic()
        self.sessions_started += 1

    async def _query(self, suffix: str, query: TicketQuery) -> dict[str, Any] | str:
        """The JSON body, or the suffix the query moved to."""
        url = self._base_url + QUERY_PATH + suffix
        # 12306 expects this parameter order.
        params: Params = [
            ("leftTicketDTO.train_date", query.date.isoformat()),
            ("leftTicketDTO.from_station", query.origin),
            ("leftTicketDTO.to_station", query.destination),
            ("purpose_codes", "ADULT"),
        ]
        response = await self._xhr_get(url, params, referer=self._base_url + INIT_PATH)
        if response.is_redirect:
            location = response.headers.get("Location", "")
            moved = moved_to(location)
            if moved is not None and moved != suffix:
                return moved
            self._block(f"redirected ({response.status_code}) to {location or 'nowhere'}")
        raise_for_status(self.name, response)
        self._cookies.extract_cookies(response)
        body = self._json_object(response)
        c_url = body.get("c_url")
        if body.get("status") is False and c_url:
            moved = moved_to(str(c_url))
            if moved is None:
                raise SourceParseError(self.name, f"unexpected c_url {c_url!r}")
            if moved != suffix:
                return moved
        return body

    def _cookie_header(self, url: str) -> str | None:
        # Let the cookie jar apply its domain/path rules to a probe request.
        probe = httpx.Request("GET", url)
        self._cookies.set_cookie_header(probe)
        return probe.headers.get("Cookie")

    def _reset_session(self) -> None:
        self._cookies = httpx.Cookies()
        self._session_started = None

    def _block(self, message: str) -> NoReturn:
        self._reset_session()
        log.warning("%s: blocked (%s)", self.name, message)
        raise SourceBlocked(self.name, message)
