"""The one protocol every ticket source implements."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

from sources.models import SHANGHAI, TicketQuery, TrainOffer

Clock = Callable[[], dt.datetime]


def shanghai_now() -> dt.datetime:
    return dt.datetime.now(SHANGHAI)


class TicketSource(Protocol):
    """A vendor of left-ticket data.

    `search` performs the IO for one query and returns the parsed offers (possibly empty).
    It raises only `sources.errors.SourceError` subclasses; limits, retries, breakers and
    caching are the caller's business (app/), so an adapter stays a thin IO method around a
    pure parse function.
    """

    name: str

    async def search(self, query: TicketQuery) -> list[TrainOffer]: ...


class RequestPacer(Protocol):
    """Paces the upstream requests an adapter makes beyond the first one of an attempt.

    An attempt (one `search`) is admitted and counted by its caller's limits; a session
    refresh or a hop to a moved path inside it is another request to the same site, so it
    waits for the same limiter and is counted the same way: `async with pacer.extra_request():`.
    """

    def extra_request(self) -> AbstractAsyncContextManager[None]: ...


class Unpaced:
    """No pacing (an adapter used on its own, e.g. in tests of its IO)."""

    @asynccontextmanager
    async def extra_request(self) -> AsyncIterator[None]:
        yield
