"""The JSON log is formatted where a line is logged and written by a thread of its own
(`OffLoopWriter`): a stream that stops draining never blocks the caller (the event loop)."""

from __future__ import annotations

import io
import json
import logging
import threading

from app.observability.logs import JsonFormatter, OffLoopWriter, log_fields, request_id

WAIT_BOUND_S = 10  # a bound for a loaded machine; each wait ends as soon as its event is set


class StalledStream(io.StringIO):
    """A stream whose first write blocks until released (a log collector that stopped)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def write(self, text: str) -> int:
        self.entered.set()
        assert self.release.wait(WAIT_BOUND_S)
        return super().write(text)


def record(message: str) -> logging.LogRecord:
    return logging.LogRecord("railtrip.test", logging.INFO, "", 0, message, (), None)


def test_lines_keep_their_order_and_the_request_id_of_where_they_were_logged() -> None:
    stream = io.StringIO()
    writer = OffLoopWriter(stream, interval_s=3600)  # only flush() writes here
    writer.setFormatter(JsonFormatter())
    token = request_id.set("req-7")
    try:
        for n in range(5):
            writer.handle(record(f"line {n}"))
    finally:
        request_id.reset(token)
    assert stream.getvalue() == ""  # nothing written by the caller
    writer.flush()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [x["msg"] for x in lines] == [f"line {n}" for n in range(5)]
    assert {x["request_id"] for x in lines} == {"req-7"}
    writer.close()


def test_a_stalled_stream_never_blocks_the_caller_and_lines_beyond_the_bound_are_counted() -> None:
    stream = StalledStream()
    writer = OffLoopWriter(stream, interval_s=0.001, max_pending=3)
    writer.setFormatter(JsonFormatter())
    writer.handle(record("first"))
    assert stream.entered.wait(WAIT_BOUND_S)  # the writer thread is stuck in write()
    for n in range(8):  # returns at once every time: the caller never touches the stream
        writer.handle(record(f"later {n}"))
    stream.release.set()
    writer.close()  # writes what waited, then says how many were dropped
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [x["msg"] for x in lines[:4]] == ["first", "later 0", "later 1", "later 2"]
    assert lines[4]["logger"] == "railtrip.logs" and lines[4]["dropped"] == 5
    assert len(lines) == 5


def test_a_line_logged_by_fields_is_the_formatters_line_whoever_else_listens() -> None:
    logger = logging.getLogger("railtrip.test-fields")
    logger.propagate = False  # a logger of its own: pytest's capture sits on the root
    logger.setLevel(logging.INFO)
    stream = io.StringIO()
    writer = OffLoopWriter(stream, interval_s=3600)
    writer.setFormatter(JsonFormatter())
    logger.addHandler(writer)
    fields = {"endpoint": "/v1/tickets", "status": 200, "sources": {"a": "ok"}}
    token = request_id.set("req-9")
    try:
        log_fields(logger, logging.INFO, "request", fields)  # the writer alone: no record made
        seen: list[logging.LogRecord] = []
        listener = logging.Handler()
        listener.emit = seen.append  # type: ignore[method-assign]
        logger.addHandler(listener)
        log_fields(logger, logging.INFO, "request", fields)  # someone else listens: a record
        log_fields(logger, logging.DEBUG, "request", fields)  # below the level: nothing
    finally:
        request_id.reset(token)
        logger.handlers.clear()
    writer.flush()
    direct, through_logging = (json.loads(line) for line in stream.getvalue().splitlines())
    assert len(seen) == 1 and seen[0].endpoint == "/v1/tickets"  # type: ignore[attr-defined]
    for line in (direct, through_logging):
        assert line.pop("ts")
    assert (
        direct
        == through_logging
        == {
            "level": "info",
            "logger": "railtrip.test-fields",
            "msg": "request",
            "request_id": "req-9",
            **fields,
        }
    )
