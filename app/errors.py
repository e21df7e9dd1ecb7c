"""Service errors and the one handler that turns them into `{code, message}` JSON.

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
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

EXCERPT_CHARS = 24


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, escaped quote of client input for an error message (never the whole input)."""
    text = str(value)
    cut = text[:limit]
    return repr(cut) + ("…" if len(text) > limit else "")


class ServiceError(Exception):
    status_code = 500
    code = "internal"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.details}


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


def _field_of(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def install_error_handlers(app: FastAPI) -> None:
    """Every error leaves as JSON with a machine-readable `code` and a human `message`."""

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        headers = None
        if isinstance(exc, Overloaded):
            state = getattr(request.app.state, "services", None)
            if state is not None:
                state.metrics.rejections.labels(reason="overloaded").inc()
            headers = exc.headers
        return JSONResponse(exc.body(), status_code=exc.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": ("body",), "msg": "invalid request"}
        field = _field_of(first.get("loc", ()))
        return JSONResponse(
            {
                "code": "invalid_input",
                "message": f"{field}: {first.get('msg', 'invalid')}",
                "field": field,
                "errors": [
                    {"field": _field_of(e.get("loc", ())), "message": e.get("msg", "")}
                    for e in errors
                ],
            },
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's "There was an error parsing the body" (undecodable bytes, bad JSON).
            return JSONResponse(
                {"code": "invalid_input", "message": f"body: {exc.detail}", "field": "body"},
                status_code=422,
            )
        code = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}.get(
            exc.status_code, "http_error"
        )
        return JSONResponse(
            {"code": code, "message": str(exc.detail)},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )
