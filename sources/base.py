"""The one protocol every ticket source implements."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
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
