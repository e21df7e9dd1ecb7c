"""Structured JSON logs: one line per event, with the request id carried through contextvars
(so a source attempt logged deep in a fan-out still names the request that caused it)."""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
import re
import sys
from typing import Any

import orjson

from app.observability.redaction import redact

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

# A client's X-Request-ID is kept only when it is a plain token; anything else is replaced.
_PLAIN_TOKEN = re.compile(rb"^[A-Za-z0-9._:-]{1,64}$")


def request_id_from(given: bytes) -> str | None:
    """The client's request id when it is a plain token (1-64 of A-Z a-z 0-9 . _ : -)."""
    value = given.strip()
    return value.decode("ascii") if _PLAIN_TOKEN.match(value) else None


# Attributes every LogRecord has; anything else was passed through `extra=` and is logged.
# uvicorn adds `color_message` (the same text with ANSI colours) to its own records.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}


class JsonFormatter(logging.Formatter):
    """Render a record as one JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = request_id.get()
        if rid:
            payload["request_id"] = rid
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                payload[key] = value
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        # orjson: the request log line is on every request's path (10% of an L1 hit with json).
        # Every line is masked as a whole (message, extras, traceback): a key never leaves.
        return redact(orjson.dumps(payload, default=str).decode())


def configure_logging(level: str = "INFO") -> None:
    """Route railtrip's loggers to stderr as JSON (idempotent)."""
    logger = logging.getLogger("railtrip")
    logger.setLevel(level.upper())
    if not any(isinstance(h.formatter, JsonFormatter) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
    logger.propagate = True


def uvicorn_log_config(level: str = "INFO") -> dict[str, Any]:
    """A `logging.dictConfig` for `uvicorn.run`: its own lines as JSON too, on stderr.

    uvicorn's access log is off (`access_log=False` at the call site): railtrip's request
    middleware already writes one JSON line per request, with the route template and the
    request id.
    """
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"json": handler},
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
        },
    }
