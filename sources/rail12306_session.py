"""How the 12306 adapter talks to the site: as one browser tab with its own cookies.

- **Its own cookies, never the shared client's jar.** The shared `httpx.AsyncClient`
  collects every `Set-Cookie` it sees into its jar and would send that jar with any request
  that carries no `Cookie` header of its own, so after a block the re-init sent the blocked
  `JSESSIONID` back, and a servlet-style server that is handed a session id never issues a
  new one. Every request here is built with its `Cookie` header set from the session's own
  jar, or removed: nothing of the shared jar ever leaves.
- **Pages look like page loads, the rest like the page's own script.** `leftTicket/init`,
  `lcQuery/init` (and the station list, `PAGE_HEADERS`) go with the header set a browser
  sends for a page (`Accept: text/html…`, `Accept-Language: zh-CN,zh;q=0.9`, …); queries go
  as XHRs with the page as Referer. drfccv/mcp-server-12306 (src/mcp_12306/server.py,
  HTTP_HEADERS) sends this header set; a public note on the site (find_string id
  70155965850) records that a request without a User-Agent is sent to error.html.
- **One attempt, one admitted request.** The caller's limits admit an attempt (one search,
  stop list or transfer search); every further request inside it (an init page, a moved
  path, the next page) waits for the source's limiter and is counted (`Attempt.slot`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass

import httpx

from sources.base import RequestPacer
from sources.errors import PageUnavailable, map_http_errors

Params = list[tuple[str, str | int | float | bool | None]]
"""Query parameters in the order 12306 expects them."""

USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
)
ACCEPT_LANGUAGE = "zh-CN,zh;q=0.9"
PAGE_HEADERS: dict[str, str] = {
    "User-Agent": USER_AGENT,
    "Accept": (
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
        "image/apng,*/*;q=0.8"
    ),
    "Accept-Language": ACCEPT_LANGUAGE,
    "Upgrade-Insecure-Requests": "1",
}
"""What a browser sends when it loads a page (init pages, the station list)."""
XHR_HEADERS: dict[str, str] = {
    "User-Agent": USER_AGENT,
    "Accept": "application/json, text/javascript, */*; q=0.01",
    "Accept-Language": ACCEPT_LANGUAGE,
    "X-Requested-With": "XMLHttpRequest",
}
"""What the page's own script sends for a query."""


@dataclass
class Attempt:
    """The requests of one admitted call: the first goes as the caller admitted it, every
    later one waits for the pacer (the source's limiter) and is counted."""

    pacer: RequestPacer
    first: bool = True

    def slot(self) -> AbstractAsyncContextManager[None]:
        if self.first:
            self.first = False
            return nullcontext()
        return self.pacer.extra_request()


class SiteSession:
    """One browser-like session: its cookies, when it began, and how requests are sent."""

    def __init__(
        self,
        name: str,
        client: httpx.AsyncClient,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        max_age_s: float = 600.0,
    ) -> None:
        self.name = name
        self._client = client
        self._monotonic = monotonic
        self._max_age_s = max_age_s
        self.cookies = httpx.Cookies()
        self._started: float | None = None
        self.started_count = 0

    @property
    def stale(self) -> bool:
        """No session yet, or one older than its max age (a tab reloads every ~10 minutes)."""
        started = self._started
        return started is None or self._monotonic() - started >= self._max_age_s

    def begin(self) -> None:
        """Start afresh: every cookie of the old session goes, so the next request (an init
        page) carries none and the server issues a new session."""
        self.cookies = httpx.Cookies()
        self._started = None

    def established(self) -> None:
        """The init page answered: the session counts from now."""
        self._started = self._monotonic()
        self.started_count += 1

    def drop(self) -> None:
        """Shed the whole session (a block): nothing of it is ever sent again."""
        self.begin()

    async def send(
        self, url: str, params: Params | None = None, *, page: bool, referer: str | None = None
    ) -> httpx.Response:
        """One GET with this session's cookies (and only those), redirects not followed."""
        headers = dict(PAGE_HEADERS if page else XHR_HEADERS)
        if referer is not None:
            headers["Referer"] = referer
        request = self._client.build_request("GET", url, params=params, headers=headers)
        cookie = self._cookie_header(request.url)
        if cookie:
            request.headers["Cookie"] = cookie
        else:
            request.headers.pop("Cookie", None)  # whatever the shared jar put there
        with map_http_errors(self.name):
            response = await self._client.send(request, follow_redirects=False)
        self.cookies.extract_cookies(response)
        return response

    async def load_page(
        self, url: str, attempt: Attempt, *, referer: str | None = None
    ) -> httpx.Response:
        """A page load in its attempt's slot; a 5xx is `PageUnavailable` (never retried at
        once: a browser shows the error, it does not reload in a loop)."""
        async with attempt.slot():
            response = await self.send(url, page=True, referer=referer)
        if response.status_code >= 500:
            path = httpx.URL(url).path
            raise PageUnavailable(self.name, f"{path} answered HTTP {response.status_code}")
        return response

    def _cookie_header(self, url: httpx.URL) -> str | None:
        # Let the session's jar apply its domain and path rules to a probe request.
        probe = httpx.Request("GET", url)
        self.cookies.set_cookie_header(probe)
        return probe.headers.get("Cookie")
