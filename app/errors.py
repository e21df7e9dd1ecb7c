"""The service errors, raised by domain code and use cases, mapped at each face: to `{code,
message}` JSON by the HTTP handler (app/http/errors.py), to a tool error by the tool registry.

    ServiceError                  status   code
     ├── InvalidInput             422      invalid_input (names the offending `field`)
     │    └── UnknownStation      422      unknown_station (with `suggestions`)
     ├── NotFound                 404      not_found
     ├── Conflict                 409      the reason (not_found | not_on_sale | sold_out |
     │                                     price_changed)
     ├── NoLiveAnswer             503      no_live_answer
     └── Overloaded               503      overloaded (with Retry-After; not the sources' failure)

Domain code raises these; it never raises HTTPException.

"""

from __future__ import annotations

import math
from typing import Any

EXCERPT_CHARS = 24


MESSAGE_CHARS = 300


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, escaped quote of client input for an error message (never the whole input):
    repr() escapes what is not printable (controls, U+202E and the other bidi overrides)."""
    text = str(value)
    cut = text[:limit]
    return repr(cut) + ("…" if len(text) > limit else "")


def bounded_message(message: str, limit: int = MESSAGE_CHARS) -> str:
    """The last net under every error message that leaves: non-printable characters escaped
    (a bidi override quoted from the input would reorder the reader's screen) and at most
    `limit` characters, whatever a validator quoted."""
    if not message.isprintable():
        message = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in message)
    return message if len(message) <= limit else message[: limit - 1] + "…"


class ServiceError(Exception):
    status_code = 500
    code = "internal"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": bounded_message(self.message), **self.details}


class InvalidInput(ServiceError):
    status_code = 422
    code = "invalid_input"

    def __init__(self, field: str, message: str, **details: Any) -> None:
        super().__init__(message, field=field, **details)


class UnknownStation(InvalidInput):
    code = "unknown_station"


class NotFound(ServiceError):
    status_code = 404
    code = "not_found"


class Conflict(ServiceError):
    status_code = 409

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message, reason=reason, **details)
        self.code = reason


class NoLiveAnswer(ServiceError):
    status_code = 503
    code = "no_live_answer"


class Overloaded(ServiceError):
    """Refused at once: this service's own queue is full (counted as a rejection)."""

    status_code = 503
    code = "overloaded"

    def __init__(self, message: str, retry_after_s: float) -> None:
        self.retry_after_s = max(1, math.ceil(retry_after_s))
        super().__init__(message, reason="overloaded", retry_after_s=self.retry_after_s)

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}
