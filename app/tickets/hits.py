"""The body of a cache-hit answer, made once per cache entry and query; each hit splices in
only its age.

Two hits on one entry differ in two places only: `age_s` and the first warning, the cached
copy's age in words (`texts.cached_copy`); everything else is the entry's and the query's.
So the answer `TicketService.search` gives for the hit is rendered once, by its own
serialiser (`TicketResult.to_json`), with a probe in each of those two places, and cut at the
probes. A hit then costs two small JSON encodings and a join instead of building and
serialising a model, and the bytes are the serialiser's by construction.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from app.tickets.model import TicketResult
from app.tickets.texts import cached_copy

# Probes no real answer contains: an age of about 31 years, and a warning of control bytes.
_AGE_PROBE = 987654321.125
_WARNING_PROBE = "\x00age\x00"


class NotAHit(ValueError):
    """The answer is not shaped like a cache hit (no age, or no cached-copy warning first)."""


class HitBody:
    """The bytes of one entry's answer to one query at any age, and what its log line says."""

    __slots__ = ("_head", "_middle", "_tail", "freshness", "log_fields")

    def __init__(self, answer: TicketResult) -> None:
        if answer.age_s is None or answer.warnings[:1] != (cached_copy(answer.age_s),):
            raise NotAHit("a cache hit's answer carries its age and the cached-copy warning")
        probe = answer.model_copy(
            update={"age_s": _AGE_PROBE, "warnings": (_WARNING_PROBE, *answer.warnings[1:])}
        )
        raw = probe.to_json()
        age, warning = to_json(_AGE_PROBE), to_json(_WARNING_PROBE)
        if raw.count(age) != 1 or raw.count(warning) != 1 or raw.find(age) > raw.find(warning):
            raise NotAHit("the probes must appear once each, the age first")
        self._head, rest = raw.split(age)
        self._middle, self._tail = rest.split(warning)
        self.freshness = answer.freshness
        self.log_fields: dict[str, Any] = log_fields(answer)

    def render(self, age_s: float) -> bytes:
        """The answer's body when the entry is `age_s` seconds old."""
        return b"".join(
            (self._head, to_json(age_s), self._middle, to_json(cached_copy(age_s)), self._tail)
        )


def log_fields(answer: TicketResult) -> dict[str, Any]:
    """What the request log line says about a ticket answer (its freshness, each source's
    status)."""
    return {
        "freshness": answer.freshness,
        "sources": {s.name: s.status for s in answer.sources},
    }
