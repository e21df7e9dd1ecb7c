"""The one handler of every error an HTTP request can meet: each leaves as JSON with a
machine-readable `code` and a human `message` (the error tree is app/errors.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.errors import Overloaded, ServiceError, bounded_message

MAX_ERRORS = 20  # per answer: a body of 10,000 bad fields is told about the first few


def _field_of(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def install_error_handlers(app: FastAPI) -> None:
    """Every error leaves as JSON with a machine-readable `code` and a human `message`."""

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        headers = None
        if isinstance(exc, Overloaded):
            services = getattr(request.app.state, "services", None)
            if services is not None:
                services.metrics.rejections.labels(reason="overloaded").inc()
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
                "message": bounded_message(f"{field}: {first.get('msg', 'invalid')}"),
                "field": bounded_message(field, 100),
                "errors": [
                    {
                        "field": bounded_message(_field_of(e.get("loc", ())), 100),
                        "message": bounded_message(e.get("msg", "")),
                    }
                    for e in errors[:MAX_ERRORS]
                ],
            },
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's "There was an error parsing the body" (undecodable bytes, bad JSON).
            return JSONResponse(
                {
                    "code": "invalid_input",
                    "message": bounded_message(f"body: {exc.detail}"),
                    "field": "body",
                },
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
