"""The body of a cache-hit answer, made once per cache entry and query; each hit splices in
only its age.

Two hits on one entry differ in two places only: `age_s` and the first warning, the cached
copy's age in words (`texts.cached_copy`); everything else is the entry's and the query's.
So the answer `TicketService.search` gives for the hit is rendered once, by its own
serialiser (`TicketResult.to_json`), with a probe in each of those two places (and where the
entry's offers go), and cut at the probes. A hit then costs two small JSON encodings and a
join instead of building and serialising a model, and the bytes are the serialiser's by
construction.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from app.tickets.model import TicketResult
from app.tickets.texts import cached_copy

# Probes no real answer contains: an age of about 31 years, a warning of control bytes, and
# (raw, not JSON: JSON escapes control bytes) where the entry's offers are spliced in.
_AGE_PROBE = 987654321.125
_WARNING_PROBE = "\x00age\x00"
_OFFERS_PROBE = b"\x00offers\x00"


class NotAHit(ValueError):
    """The answer is not shaped like a cache hit (no age, or no cached-copy warning first)."""


class HitBody:
    """The bytes of one entry's answer to one query at any age, and what its log line says.

    When the answer splices in the entry's own offers (`CacheEntry.offers_json`, a city-wide
    query) they are kept by reference, not copied: a body then costs about a kilobyte beside
    the entry it came from."""

    __slots__ = ("_pieces", "_offers", "freshness", "log_fields")

    def __init__(self, answer: TicketResult) -> None:
        if answer.age_s is None or answer.warnings[:1] != (cached_copy(answer.age_s),):
            raise NotAHit("a cache hit's answer carries its age and the cached-copy warning")
        offers = answer._offers_json
        probe = answer.model_copy(
            update={"age_s": _AGE_PROBE, "warnings": (_WARNING_PROBE, *answer.warnings[1:])}
        )
        marks = [to_json(_AGE_PROBE), to_json(_WARNING_PROBE)]
        if offers is not None:
            probe._offers_json = _OFFERS_PROBE
            marks.append(_OFFERS_PROBE)
        raw = probe.to_json()
        if any(raw.count(mark) != 1 for mark in marks):
            raise NotAHit("each probe must appear once")
        pieces, rest = [], raw
        for mark in marks:  # in the order the serialiser writes them, or split() fails
            before, found, rest = rest.partition(mark)
            if not found:
                raise NotAHit("the probes appear out of order")
            pieces.append(before)
        pieces.append(rest)
        self._pieces = tuple(pieces)
        self._offers = offers
        self.freshness = answer.freshness
        self.log_fields: dict[str, Any] = log_fields(answer)

    def render(self, age_s: float) -> bytes:
        """The answer's body when the entry is `age_s` seconds old."""
        p = self._pieces
        age, warning = to_json(age_s), to_json(cached_copy(age_s))
        if self._offers is None:
            return b"".join((p[0], age, p[1], warning, p[2]))
        return b"".join((p[0], age, p[1], warning, p[2], self._offers, p[3]))


def log_fields(answer: TicketResult) -> dict[str, Any]:
    """What the request log line says about a ticket answer (its freshness, each source's
    status)."""
    return {
        "freshness": answer.freshness,
        "sources": {s.name: s.status for s in answer.sources},
    }
