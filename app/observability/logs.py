"""Structured JSON logs: one line per event, with the request id carried through contextvars
(so a source attempt logged deep in a fan-out still names the request that caused it)."""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
import re
import sys
import threading
import time
from typing import Any, TextIO

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
        fields = {
            key: value
            for key, value in record.__dict__.items()
            if key not in _STANDARD and not key.startswith("_")
        }
        if record.exc_info:
            fields["exc"] = self.formatException(record.exc_info)
        return json_line(record.created, record.levelname, record.name, record.getMessage(), fields)


def json_line(created: float, level: str, logger: str, message: str, fields: dict[str, Any]) -> str:
    """One log line: time, level, logger, message, the request id, then `fields`."""
    payload: dict[str, Any] = {
        "ts": dt.datetime.fromtimestamp(created, dt.UTC).isoformat(timespec="milliseconds"),
        "level": level.lower(),
        "logger": logger,
        "msg": message,
    }
    rid = request_id.get()
    if rid:
        payload["request_id"] = rid
    payload.update(fields)
    # orjson: the request log line is on every request's path (10% of an L1 hit with json).
    # Every line is masked as a whole (message, extras, traceback): a key never leaves.
    return redact(orjson.dumps(payload, default=str).decode())


def log_fields(logger: logging.Logger, level: int, message: str, fields: dict[str, Any]) -> None:
    """`logger.log(level, message, extra=fields)` for a line logged on every request: when
    railtrip's own writer is the only handler that would see the record, the line goes to it
    as its formatter would write it, without making the record (a third of a hit's logging);
    otherwise (a test's handler, pytest's capture, another handler added) through logging."""
    if not logger.isEnabledFor(level):
        return
    writer = _only_writer(logger, level)
    if writer is None:
        logger.handle(logger.makeRecord(logger.name, level, "", 0, message, (), None, extra=fields))
        return
    level_name = logging.getLevelName(level)
    writer.write_line(json_line(time.time(), level_name, logger.name, message, fields))


def _only_writer(logger: logging.Logger, level: int) -> OffLoopWriter | None:
    """The `OffLoopWriter` with a `JsonFormatter`, if it is the one handler, with no filter
    anywhere, that a record of `level` logged on `logger` would reach; else None."""
    found: list[logging.Handler] = []
    current: logging.Logger | None = logger
    while current is not None:
        if current.filters or current.disabled:
            return None
        found.extend(current.handlers)
        if len(found) > 1 or not current.propagate:
            break
        current = current.parent
    if len(found) != 1:
        return None
    writer = found[0]
    if (
        not isinstance(writer, OffLoopWriter)
        or writer.filters
        or level < writer.level
        or type(writer.formatter) is not JsonFormatter
    ):
        return None
    return writer


class OffLoopWriter(logging.Handler):
    """Formats a record where it is logged (the request id is read there) and leaves the
    writing to a thread of its own, which writes what has gathered in one call.

    A request's log line then costs the event loop no system call, and a stderr that stops
    draining (a stalled log collector) stalls the writer thread, not every request. The
    thread starts with the first line and writes at least every `interval_s`; `flush()`
    (logging's at exit, a test's) writes what is pending at once. Beyond `max_pending`
    unwritten lines new ones are dropped and counted, and the count is logged when the
    writer catches up: memory stays bounded whatever the stream does.
    """

    def __init__(
        self, stream: TextIO, *, interval_s: float = 0.05, max_pending: int = 10_000
    ) -> None:
        super().__init__()
        self.stream = stream
        self._interval = interval_s
        self._max_pending = max_pending
        self._pending: list[str] = []
        self._dropped = 0
        self._wake = threading.Condition(threading.Lock())
        self._writing = threading.Lock()  # one writer at a time: the thread, or a flush
        self._thread: threading.Thread | None = None
        self._closed = False

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record)
        except Exception:  # noqa: BLE001 - logging must never raise into the caller
            self.handleError(record)
            return
        self.write_line(line)

    def write_line(self, line: str) -> None:
        """Queue one formatted line for the writer thread (dropped, and counted, when full)."""
        with self._wake:
            if len(self._pending) >= self._max_pending:
                self._dropped += 1
                return
            self._pending.append(line)
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(
                    target=self._run, name="railtrip-log-writer", daemon=True
                )
                self._thread.start()

    def flush(self) -> None:
        """Write every pending line now, in the caller's thread."""
        with self._writing:
            with self._wake:
                lines, self._pending = self._pending, []
                dropped, self._dropped = self._dropped, 0
            if dropped:
                lines.append(_dropped_line(dropped))
            if lines:
                try:
                    self.stream.write("\n".join(lines) + "\n")
                    self.stream.flush()
                except (OSError, ValueError):
                    pass  # a closed or broken stream: nothing left to tell

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        self.flush()
        super().close()

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._closed:
                    return
                self._wake.wait(self._interval)
            self.flush()


def _dropped_line(count: int) -> str:
    payload = {
        "ts": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
        "level": "warning",
        "logger": "railtrip.logs",
        "msg": "log lines dropped: the log stream did not drain",
        "dropped": count,
    }
    return orjson.dumps(payload).decode()


def configure_logging(level: str = "INFO") -> None:
    """Route railtrip's loggers to stderr as JSON, written off the event loop (idempotent)."""
    logger = logging.getLogger("railtrip")
    logger.setLevel(level.upper())
    if not any(isinstance(h, OffLoopWriter) for h in logger.handlers):
        handler = OffLoopWriter(sys.stderr)
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
