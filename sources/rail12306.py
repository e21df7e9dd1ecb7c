"""12306's public left-ticket query (`/otn/leftTicket/query*`) as a ticket source.

The flow, as the live site behaves in 2025–2026 (its pages recorded in tests/fixtures/rail12306/):

- `GET /otn/leftTicket/init`, loaded as a browser loads a page, sets the session cookies a
  query needs and names the current query path in its script (`var CLeftTicketUrl =
  'leftTicket/queryG';`). The session is renewed after `session_max_age_s` (about 10
  minutes), like a tab that reloads. The adapter keeps its own cookies
  (`sources.rail12306_session`): nothing of the shared client's jar is ever sent.
- `GET /otn/leftTicket/{path}?leftTicketDTO.train_date=…&leftTicketDTO.from_station=…&
  leftTicketDTO.to_station=…&purpose_codes=ADULT` (`0X00` for student fares), path `queryG`.
- A stale path is answered with a 302 whose Location is another `leftTicket/query*` path (or
  the older `{"status": false, "c_url": "leftTicket/queryX"}`): a move. The new path is
  adopted, the query retried once, and the path remembered.
- A stale path may also bounce to the error page (pjialin/py12306#121: the "302 to
  error.html" its users met was the path gone from queryX to queryZ; its fix, commit 365453e,
  and testerSunshine/12306 PR #496 read `CLeftTicketUrl` from the init page). So a 302 to
  `error.html` or an `ntce` page first re-reads the init page (same session): when it names
  another path, that path is adopted and the query retried once, and the search succeeds in
  the same request. Only the same path again is a block.
- A block (that bounce with no new path, HTML instead of JSON) is `SourceBlocked`: the whole
  session is shed, every cookie with it, and never retried; the caller's breaker stays open
  for minutes, and the next session starts from an init page that carries no cookie at all.
- A date outside the sale window is refused before any request (`QueryRefused`): the site
  would answer it with an HTML page that reads like a block.

Every request beyond an attempt's first (init, a moved path, the next page) goes through the
`RequestPacer`, so it waits for the source's limiter and is counted. Rows are decoded by
`sources.rail12306_rows` (pure, tested on recorded real rows).

Two optional capabilities (`sources.capabilities`), decoded by `sources.rail12306_extras`,
each setting up the session first as the left-ticket query does (Joooook/12306-mcp, commit
eedf4ce: the stop list and the transfer search take their cookies from `leftTicket/init`):
`stops(train_number, date)` finds the train's internal number with the train search
(`search.12306.cn`, `search_base_url`) and reads `/otn/czxx/queryByTrainNo` (an empty
`data.data` is "no such train that day"); `transfers(query)` is `sources.rail12306_transfers`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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
    SourceMalformed,
    SourceParseError,
    looks_like_html,
    raise_for_status,
)
from sources.models import FareKind, TicketQuery, TrainOffer
from sources.rail12306_extras import parse_stop_list, parse_train_search
from sources.rail12306_rows import (
    BadRow,
    PriceChunk,
    parse_left_tickets,
    parse_price_chunks,
    parse_prices,
    parse_row,
    parse_seat_cell,
)
from sources.rail12306_session import (
    PAGE_HEADERS,
    USER_AGENT,
    Attempt,
    Params,
    SiteSession,
)
from sources.rail12306_transfers import DEFAULT_LC_PATH, MAX_TRANSFER_PAGES, TransferSearch
from sources.sale_window import in_sale_window, last_sale_day
from sources.stations import StationDirectory

__all__ = [
    "DEFAULT_LC_PATH",
    "MAX_TRANSFER_PAGES",
    "PAGE_HEADERS",
    "USER_AGENT",
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
STATION_NAMES_PATH = "/otn/resources/js/framework/station_name.js"
# purpose_codes of the left-ticket query: ADULT, or 0X00 for student fares (the public
# clients collected by find_string "purpose_codes=0X" query 0X00).
LEFT_TICKET_PURPOSE: dict[FareKind, str] = {FareKind.ADULT: "ADULT", FareKind.STUDENT: "0X00"}

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


@dataclass(frozen=True)
class _Moved:
    """The query path moved (a 302 to another `leftTicket/query*`, or the c_url answer)."""

    suffix: str


@dataclass(frozen=True)
class _Bounced:
    """A 302 anywhere else (the error page, a notice page): a stale path or a block."""

    status: int
    location: str


class Rail12306Source:
    """The 12306 left-ticket query at `base_url`, with its own session (`SiteSession`).

    Instance state: the session (its cookies, never the shared client's, and its age), the
    query path learnt from the init page or a move, and the transfer search's own path. A
    block sheds the session.
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
        self._base_url = base_url.rstrip("/")
        self._search_base_url = (search_base_url or base_url).rstrip("/")
        self._directory = directory
        self._clock = clock
        self.pacer: RequestPacer = pacer or Unpaced()
        self.session = SiteSession(name, client, monotonic=monotonic, max_age_s=session_max_age_s)
        self._init_lock = asyncio.Lock()
        self.query_suffix = DEFAULT_SUFFIX  # public for readiness reports and tests
        self._transfers = TransferSearch(
            name, self.session, self._base_url, directory, clock, on_block=self._shed
        )

    @property
    def sessions_started(self) -> int:
        return self.session.started_count

    @property
    def lc_path(self) -> str | None:
        """The transfer search's path, once learnt from `lcQuery/init` (None before)."""
        return self._transfers.path

    async def search(self, query: TicketQuery) -> list[TrainOffer]:
        """Query 12306 (plus init and one hop to a moved path if needed) and parse the offers."""
        self._refuse_off_sale(query.date)
        attempt = Attempt(self.pacer)
        payload = await self._fetch(query, attempt)
        offers = parse_left_tickets(
            payload, self._directory, self._clock(), self.name, query.date, query.fare
        )
        return [offer for offer in offers if query.admits(offer)]

    async def start_session(self) -> None:
        """Load the init page now when there is no fresh session: what the next search, stop
        list or transfer search would load first, in its caller's slot like any attempt's
        first request. A caller that knows a query follows after work of its own (the CLI's
        `plan` parses its sentence first) lets the source's pacing run during that work."""
        await self._ensure_session(Attempt(self.pacer))

    async def stops(self, train_number: str, date: dt.date) -> StopList:
        """The stops of `train_number` leaving its origin on `date` (train search, then
        queryByTrainNo); `NotFoundAtSource` when 12306 knows no such train that day."""
        attempt = Attempt(self.pacer)
        async with attempt.slot():
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
        await self._ensure_session(attempt)
        async with attempt.slot():
            body = await self._get_json(
                self._base_url + STOPS_PATH, params, referer=self._base_url + INIT_PATH
            )
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
        self._refuse_off_sale(query.date)
        attempt = Attempt(self.pacer)
        await self._ensure_session(attempt)
        return await self._transfers.search(query, pages, attempt)

    def _refuse_off_sale(self, date: dt.date) -> None:
        today = self._clock().date()
        if not in_sale_window(date, today):
            raise QueryRefused(
                self.name, f"{date} is not on sale (sale window {today}..{last_sale_day(today)})"
            )

    # -- the left-ticket query ---------------------------------------------------------------

    async def _fetch(self, query: TicketQuery, attempt: Attempt) -> dict[str, Any]:
        await self._ensure_session(attempt)
        answer = await self._query(self.query_suffix, query, attempt)
        if isinstance(answer, _Moved):
            log.info("%s: query path moved %s -> %s", self.name, self.query_suffix, answer.suffix)
            self.query_suffix = answer.suffix
            answer = await self._query(answer.suffix, query, attempt)
            if isinstance(answer, _Moved):
                self._block(f"moved again after following the move to {self.query_suffix}")
        elif isinstance(answer, _Bounced):
            answer = await self._after_bounce(answer, query, attempt)
        if isinstance(answer, _Bounced):
            self._block(f"redirected ({answer.status}) to {answer.location}")
        if isinstance(answer, _Moved):
            self._block(f"moved again after re-reading the init page ({self.query_suffix})")
        if answer.get("status") is False:
            self._block(f"status false: {answer.get('messages')!r}")
        if not isinstance(answer.get("data"), Mapping):
            raise SourceMalformed(self.name, "JSON body without data")
        return answer

    async def _after_bounce(
        self, bounce: _Bounced, query: TicketQuery, attempt: Attempt
    ) -> dict[str, Any] | _Moved | _Bounced:
        """A bounce may be a stale path: the init page (same session) names the current one."""
        stale = self.query_suffix
        await self._load_init_page(attempt)
        if self.query_suffix == stale:
            return bounce  # the same path again: a block
        log.info(
            "%s: %s bounced to %s; init names %s",
            self.name,
            stale,
            bounce.location,
            self.query_suffix,
        )
        return await self._query(self.query_suffix, query, attempt)

    async def _query(
        self, suffix: str, query: TicketQuery, attempt: Attempt
    ) -> dict[str, Any] | _Moved | _Bounced:
        """The JSON body, the suffix the query moved to, or where it bounced."""
        url = self._base_url + QUERY_PATH + suffix
        # 12306 expects this parameter order.
        params: Params = [
            ("leftTicketDTO.train_date", query.date.isoformat()),
            ("leftTicketDTO.from_station", query.origin),
            ("leftTicketDTO.to_station", query.destination),
            ("purpose_codes", LEFT_TICKET_PURPOSE[query.fare]),
        ]
        async with attempt.slot():
            response = await self.session.send(
                url, params, page=False, referer=self._base_url + INIT_PATH
            )
        if response.is_redirect:
            location = response.headers.get("Location", "")
            moved = moved_to(location)
            if moved is not None and moved != suffix:
                return _Moved(moved)
            return _Bounced(response.status_code, location or "nowhere")
        raise_for_status(self.name, response)
        body = self._json_object(response)
        c_url = body.get("c_url")
        if body.get("status") is False and c_url:
            moved = moved_to(str(c_url))
            if moved is None:
                raise SourceParseError(self.name, f"unexpected c_url {c_url!r}")
            if moved != suffix:
                return _Moved(moved)
        return body

    # -- the session -------------------------------------------------------------------------

    async def _ensure_session(self, attempt: Attempt) -> None:
        """Start a session when there is none or it is old (in the attempt's next slot)."""
        if not self.session.stale:
            return
        # Concurrent first calls (a fan-out over several legs) share one init request.
        async with self._init_lock:
            if not self.session.stale:
                return
            self.session.begin()
            await self._load_init_page(attempt)
            self.session.established()

    async def _load_init_page(self, attempt: Attempt) -> None:
        """Load `leftTicket/init` as a page (the session's cookies, if any, go with it) and
        adopt the query path it names."""
        response = await self.session.load_page(self._base_url + INIT_PATH, attempt)
        try:
            raise_for_status(self.name, response)
        except SourceBlocked:
            self._shed()
            raise
        suffix = parse_init_page(response.text)
        if suffix is not None and suffix != self.query_suffix:
            log.info("%s: init page names %s", self.name, suffix)
            self.query_suffix = suffix

    # -- JSON and blocks ---------------------------------------------------------------------

    async def _get_json(
        self, url: str, params: Params, *, referer: str | None = None
    ) -> dict[str, Any]:
        response = await self.session.send(url, params, page=False, referer=referer)
        if response.is_redirect:
            self._block(
                f"redirected ({response.status_code}) to {response.headers.get('Location')}"
            )
        raise_for_status(self.name, response)
        return self._json_object(response)

    def _json_object(self, response: httpx.Response) -> dict[str, Any]:
        """The body as a JSON object. A page instead is the site blocking us; anything else
        unreadable (cut off, a list) is a broken answer, retried like any transient failure."""
        try:
            body = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            kind = response.headers.get("content-type", "no content-type")
            if looks_like_html(response):
                self._block(f"not JSON ({kind})")
            raise SourceMalformed(self.name, f"a 200 body that is not JSON ({kind})") from None
        if not isinstance(body, dict):
            raise SourceMalformed(self.name, f"JSON {type(body).__name__} instead of an object")
        return body

    def _shed(self) -> None:
        """A block sheds the whole session: the next one starts from a cookieless init."""
        self.session.drop()

    def _block(self, message: str) -> NoReturn:
        self._shed()
        log.warning("%s: blocked (%s)", self.name, message)
        raise SourceBlocked(self.name, message)
