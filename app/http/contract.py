"""The HTTP contract as served (`/openapi.json`): every status an operation returns, with the
error body really sent and its headers, named operations, examples, and the SSE event types.

Each route declares the errors its handler raises (`errors(NOT_FOUND, OVERLOADED)` in its
`responses=`). What every route meets before its handler is added here from the route's
declared policy (app/policy.py), the one place that says what the gate does:

    every route       401 an unknown key shown (and no key where one is needed)
    not open          429 over the client's quota (Retry-After, RateLimit-*); RateLimit-* on 2xx
    admin             403 not an admin key
    with a JSON body  413 over the size limit; 422 nested too deep (with the route's own 422)

The error models mirror what app/http/errors.py, app/http/access.py and app/http/body_limits.py
send; tests/app/test_openapi_contract.py and the schemathesis run check them against the app.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from app.agent.progress import ProgressEvent
from app.http import examples
from app.policy import RouteTable

# -- the error bodies ----------------------------------------------------------------------


class ErrorBody(BaseModel):
    """What every error carries: a machine-readable `code` and a human `message`."""

    code: str = Field(description="machine-readable, stable")
    message: str = Field(description="for people; quotes client input only as a short excerpt")


class FieldProblem(BaseModel):
    field: str
    message: str


class InvalidInputError(ErrorBody):
    """422: bad input, naming the offending field (an unknown station with suggestions)."""

    code: Literal["invalid_input", "unknown_station"]
    field: str = Field(description="the offending field: a query parameter or a body path")
    suggestions: list[str] | None = Field(
        default=None, description="names the station directory suggests (unknown_station)"
    )
    errors: list[FieldProblem] | None = Field(
        default=None, description="every problem found, when the body had several"
    )


class RefusalError(ErrorBody):
    """401, 403, 429: refused by the access gate before any work."""

    code: Literal["unauthorized", "forbidden", "quota_exceeded", "auth_throttled"]
    reason: Literal["unauthorized", "quota"]


class OverloadedError(ErrorBody):
    """503: this service's own queue is full (not the sources' failure); retry later."""

    code: Literal["overloaded"]
    reason: Literal["overloaded"]
    retry_after_s: int = Field(ge=1, description="as the Retry-After header")


class NoLiveAnswerError(ErrorBody):
    """503 from the precheck: no live answer could be had (it never answers from a cache)."""

    code: Literal["no_live_answer"]
    sources: list[dict[str, Any]] = Field(
        default_factory=list, description="how each source fared (name, status, error)"
    )


class NotFoundError(ErrorBody):
    code: Literal["not_found"]


class PayloadTooLargeError(ErrorBody):
    code: Literal["payload_too_large"]
    field: Literal["body"]


class BookingConflict(ErrorBody):
    """409: the train cannot be booked as asked; `reason` says why (the same as `code`)."""

    code: Literal["not_found", "not_on_sale", "sold_out", "price_changed"]
    reason: Literal["not_found", "not_on_sale", "sold_out", "price_changed"]
    train_number: str
    on_sale_at: str | None = Field(default=None, description="not_on_sale: when sale opens")
    status: str | None = Field(default=None, description="sold_out: the seat's status")
    available: int | None = Field(default=None, description="sold_out: seats left")
    expected_price: float | None = Field(default=None, description="price_changed: asked")
    price: float | None = Field(default=None, description="price_changed: the live price")


class StreamDone(BaseModel):
    """The `done` event's data: `{}`, nothing follows."""

    model_config = ConfigDict(extra="forbid")


ERROR_MODELS: tuple[type[BaseModel], ...] = (
    ProgressEvent,
    StreamDone,
    ErrorBody,
    InvalidInputError,
    RefusalError,
    OverloadedError,
    NoLiveAnswerError,
    NotFoundError,
    PayloadTooLargeError,
    BookingConflict,
)


def sse_events(reply: str) -> dict[str, Any]:
    """OpenAPI 3.2's `itemSchema` of a planning stream: one schema per event type, its
    `data` a JSON text of the named component."""

    def event(name: str, schema: str) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["event", "data"],
            "properties": {
                "event": {"const": name},
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": {"$ref": f"#/components/schemas/{schema}"},
                },
            },
        }

    return {
        "oneOf": [
            event("progress", "ProgressEvent"),
            event("plan", reply),
            event("error", "ErrorBody"),
            event("done", "StreamDone"),
        ]
    }


# -- headers -------------------------------------------------------------------------------

HEADERS: dict[str, dict[str, Any]] = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 1},
    },
    "RateLimit-Limit": {
        "description": "the client's burst (IETF draft RateLimit fields; when quotas are on)",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Remaining": {
        "description": "requests left in the burst",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Reset": {
        "description": "seconds until the burst is whole again",
        "schema": {"type": "integer", "minimum": 0},
    },
    "WWW-Authenticate": {
        "description": 'the scheme to authenticate with: `Bearer realm="railtrip"`',
        "schema": {"type": "string"},
    },
    "X-Request-ID": {
        "description": "this request's id (the client's, when a plain token, else a new one)",
        "schema": {"type": "string"},
    },
}


def _headers(*names: str) -> dict[str, Any]:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


RATE_LIMIT = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")

# -- the errors a handler raises, declared on its route ------------------------------------


class Declared:
    """One status a handler may answer, as FastAPI's `responses=` entry."""

    def __init__(
        self,
        status: int,
        model: Any,
        description: str,
        headers: Iterable[str] = (),
    ) -> None:
        self.status = status
        self.model = model
        self.description = description
        self.headers = tuple(headers)

    def entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"model": self.model, "description": self.description}
        if self.headers:
            entry["headers"] = _headers(*self.headers)
        return entry


INVALID = Declared(
    422,
    InvalidInputError,
    "Bad input, naming the field (unknown stations with `suggestions`).",
)
NOT_FOUND = Declared(404, NotFoundError, "Not found.")
OVERLOADED = Declared(
    503,
    OverloadedError,
    "Overloaded: this service's own queue is full; retry after `Retry-After` seconds.",
    headers=("Retry-After",),
)
PRECHECK_UNAVAILABLE = Declared(
    503,
    NoLiveAnswerError | OverloadedError,
    "No live answer could be had (`no_live_answer`: the precheck never answers from a "
    "cache), or overloaded (`overloaded`, with `Retry-After`).",
    headers=("Retry-After",),
)
CONFLICT = Declared(
    409,
    BookingConflict,
    "Not bookable as asked: `not_found`, `not_on_sale` (with `on_sale_at`), `sold_out`, "
    "`price_changed` (with the live `price`).",
)
SANDBOX_OFF = Declared(404, NotFoundError, "That sandbox vendor is not mounted.")


def errors(*declared: Declared) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route whose handler raises these (422 is every input route's)."""
    return {d.status: d.entry() for d in declared}


def ok(description: str) -> dict[str, Any]:
    """The 200 entry with its description (its example is added by operation id)."""
    return {"description": description}


# -- what the gate adds to every operation, from the route's policy ------------------------


def _refusal(description: str, *headers: str) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RefusalError"}}},
    }
    response["headers"] = _headers(*headers, "X-Request-ID")
    return response


def _gate_responses(method: str, operation: dict[str, Any], policy: Any) -> dict[str, Any]:
    """The statuses a request meets before this operation's handler."""
    added: dict[str, Any] = {
        "401": _refusal(
            "A key was shown but is not known, or none was shown where one is needed "
            "(with API keys configured).",
            "WWW-Authenticate",
        )
    }
    throttled = (
        "`auth_throttled`: this address showed too many unknown keys; no key is looked at "
        "until `Retry-After` (with API keys configured)."
    )
    if not policy.open:
        added["429"] = _refusal(
            f"Over the client's request quota, or its `refresh=true` budget; or {throttled}",
            "Retry-After",
            *RATE_LIMIT,
        )
    else:
        added["429"] = _refusal(throttled[0].upper() + throttled[1:], "Retry-After")
    if policy.admin:
        added["403"] = _refusal("Not an admin key (with API keys configured).")
    if policy.streams:
        added["503"] = {
            "description": "Every stream slot is taken (`RAILTRIP_MAX_STREAMS`): refused before "
            "the body is read; retry after `Retry-After` seconds.",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/OverloadedError"}}
            },
            "headers": _headers("Retry-After", "X-Request-ID"),
        }
    if "requestBody" in operation:
        added["413"] = {
            "description": "The body is over 64 KiB.",
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/PayloadTooLargeError"},
                }
            },
            "headers": _headers("X-Request-ID"),
        }
    return added


def _security(policy: Any) -> list[dict[str, list[str]]] | None:
    if policy.open:
        return None
    # Optional unless the deployment requires keys ({} = anonymous is allowed).
    return [{}, {"bearer": []}, {"apiKey": []}]


def contract_openapi(app: FastAPI, routes: RouteTable) -> dict[str, Any]:
    """The app's OpenAPI document with the gate's statuses, headers and error models added."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    document = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
        tags=app.openapi_tags,
    )
    components = document.setdefault("components", {})
    _, definitions = models_json_schema(
        [(model, "serialization") for model in ERROR_MODELS],
        ref_template="#/components/schemas/{model}",
    )
    schemas = components.setdefault("schemas", {})
    for name, schema in definitions.get("$defs", {}).items():
        schemas.setdefault(name, schema)
    components["headers"] = HEADERS
    components["securitySchemes"] = {
        "bearer": {"type": "http", "scheme": "bearer", "description": "an API key"},
        "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    }
    policies = {match.template: match.policy for match in routes.routes()}
    for path, operations in document.get("paths", {}).items():
        policy = policies.get(path)
        if policy is None:
            continue
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status, response in responses.items():
                if not status.startswith("2") and "content" in response:
                    # FastAPI files an error model under the route's media type (a stream's
                    # text/event-stream); every error leaves as JSON.
                    media = next(iter(response["content"].values()))
                    response["content"] = {"application/json": media}
            for status, response in _gate_responses(method, operation, policy).items():
                responses.setdefault(status, response)
            for status, response in responses.items():
                headers = response.setdefault("headers", {})
                headers.setdefault("X-Request-ID", {"$ref": "#/components/headers/X-Request-ID"})
                if status.startswith("2") and not policy.open:
                    for name in RATE_LIMIT:
                        headers.setdefault(name, {"$ref": f"#/components/headers/{name}"})
            security = _security(policy)
            if security is not None:
                operation["security"] = security
    _drop_fastapi_validation_error(document)
    _add_examples(document)
    app.openapi_schema = document
    return document


def _add_examples(document: dict[str, Any]) -> None:
    """Examples by operation id and by error model, added after FastAPI's encoding (which
    drops every None, so an example with a `null` would no longer match its schema)."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            name = operation.get("operationId", "")
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None and name in examples.REQUESTS:
                body["examples"] = examples.REQUESTS[name]
            for status, response in operation.get("responses", {}).items():
                content = response.get("content", {}).get("application/json")
                if content is None:
                    continue
                if status.startswith("2") and name in examples.REPLIES:
                    content["example"] = examples.REPLIES[name]
                    continue
                model = _model_of(content.get("schema", {}))
                if status in examples.ERRORS_BY_STATUS:
                    content["example"] = examples.ERRORS_BY_STATUS[status]
                elif model in examples.ERRORS:
                    content["example"] = examples.ERRORS[model]


def _model_of(schema: dict[str, Any]) -> str:
    """The component a schema names (the first of an anyOf)."""
    ref = schema.get("$ref") or next(
        (s.get("$ref") for s in schema.get("anyOf", []) if s.get("$ref")), ""
    )
    return str(ref).rsplit("/", 1)[-1]


def _drop_fastapi_validation_error(document: dict[str, Any]) -> None:
    """FastAPI's `{detail: [...]}` is never sent (errors.py answers `{code, message, field}`)."""
    schemas = document.get("components", {}).get("schemas", {})
    text = repr(document.get("paths", {}))
    if "HTTPValidationError" not in text:
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)


def install_contract(app: FastAPI, routes: RouteTable) -> None:
    """Serve the contract document as `/openapi.json` (and to `/docs`)."""

    def openapi() -> dict[str, Any]:
        return contract_openapi(app, routes)

    app.openapi = openapi  # type: ignore[method-assign]
