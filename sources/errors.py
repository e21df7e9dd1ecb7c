"""Errors raised by ticket sources, classified by what the caller should do about them.

    SourceError
     ├── TransientSourceError          retry with backoff; counts against the breaker
     │    ├── SourceTimeout            no answer in time                    outcome=timeout
     │    ├── SourceConnectionError    could not connect / connection lost  outcome=error
     │    ├── SourceServerError        HTTP 5xx                             outcome=error
     │    ├── SourceMalformed          a 200 body cut off, not an object or without its data
     │    │                            (a gateway's hiccup, not a block)    outcome=error
     │    └── SourceRateLimited        HTTP 429 (with retry_after seconds)  outcome=rate_limited
     ├── SourceBlocked                 302 to an error page, HTML, no data  outcome=rate_limited
     │    │                            never retried at once: the caller backs off for minutes
     │    └── SourceQuotaExceeded      a keyed API's quota or rate refused (Juhe 10011–10013)
     ├── PageUnavailable               a page load (12306's init pages) answered 5xx: not
     │                                 retried at once; counts against the breaker  outcome=error
     └── PermanentSourceError          never retried
          ├── SourceRejected           HTTP 4xx other than 429, a refused key outcome=error
          ├── SourceParseError         a payload we cannot read             outcome=error
          ├── QueryRefused             refused before any upstream call (a date not on sale)
          └── NotFoundAtSource         the source answered: no such thing (an unknown train)

`map_http_errors` turns httpx's exceptions into this tree at the adapter boundary.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx


class SourceError(Exception):
    """Base of every error a ticket source raises."""

    outcome = "error"

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}")
        self.source = source
        self.message = message


class TransientSourceError(SourceError):
    """Worth retrying: the same request may succeed a little later."""


class SourceTimeout(TransientSourceError):
    outcome = "timeout"


class SourceConnectionError(TransientSourceError):
    pass


class SourceServerError(TransientSourceError):
    def __init__(self, source: str, message: str, status_code: int) -> None:
        super().__init__(source, message)
        self.status_code = status_code


class SourceMalformed(TransientSourceError):
    """A 200 answer we cannot read as the site's JSON: cut off, a list, an object without its
    data. A broken gateway body is not the site refusing us (that is HTML or a redirect to its
    error page, `SourceBlocked`): retried with backoff per the source's policy, and counted
    against the breaker with its normal cool-down."""


class SourceRateLimited(TransientSourceError):
    outcome = "rate_limited"

    def __init__(self, source: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(source, message)
        self.retry_after = retry_after


class SourceBlocked(SourceError):
    """A site's way of refusing a client: a redirect to an error page, HTML instead of JSON.

    Not transient: retrying at once only deepens a block, so the caller opens the source's
    breaker for its block cool-down (minutes) instead.
    """

    outcome = "rate_limited"


class SourceQuotaExceeded(SourceBlocked):
    """A keyed API refused us for its quota or rate (Juhe 10011–10013): asking again at once
    spends nothing but the vendor's patience, so it is backed off like a block."""


class PageUnavailable(SourceError):
    """A page a browser loads (12306's `leftTicket/init`, `lcQuery/init`) answered 5xx.

    A browser shows the error and the traveller reloads later; reloading at once in a loop is
    what a scraper does. Not transient, so not retried within the attempt; it still counts
    against the breaker like any failed attempt.
    """


class PermanentSourceError(SourceError):
    """Retrying the same request will fail the same way."""


class SourceRejected(PermanentSourceError):
    def __init__(self, source: str, message: str, status_code: int) -> None:
        super().__init__(source, message)
        self.status_code = status_code


class SourceParseError(PermanentSourceError):
    pass


class QueryRefused(PermanentSourceError):
    """The adapter refused the query before calling upstream (nothing reached the source)."""


class NotFoundAtSource(PermanentSourceError):
    """The source answered, and what was asked for does not exist (not a failure of it)."""

    outcome = "ok"


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header given as a number (HTTP dates are ignored)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def raise_for_status(source: str, response: httpx.Response) -> None:
    """Classify a non-2xx answer; 2xx returns quietly."""
    code = response.status_code
    if code < 300:
        return
    if code == 429:
        raise SourceRateLimited(
            source, "HTTP 429", parse_retry_after(response.headers.get("Retry-After"))
        )
    if 300 <= code < 400:
        raise SourceBlocked(source, f"redirected ({code}) to {response.headers.get('Location')}")
    if code >= 500:
        raise SourceServerError(source, f"HTTP {code}", code)
    raise SourceRejected(source, f"HTTP {code}", code)


def looks_like_html(response: httpx.Response) -> bool:
    """A page (the site's block or notice page) rather than a broken JSON body."""
    if "html" in response.headers.get("content-type", "").lower():
        return True
    return response.content[:512].lstrip().lower().startswith(b"<")


@contextmanager
def map_http_errors(source: str) -> Iterator[None]:
    """Translate httpx transport errors into the tree above."""
    try:
        yield
    except httpx.TimeoutException as exc:
        raise SourceTimeout(source, f"timed out ({type(exc).__name__})") from exc
    except httpx.TransportError as exc:
        raise SourceConnectionError(source, f"{type(exc).__name__}: {exc}") from exc
