"""Serving railtrip with bounded connections (what `python -m app serve` runs).

uvicorn alone keeps a connection that never completes a request for ever (no header or body
timeout; its keep-alive timer is cancelled by the first byte) and accepts connections until
the process runs out of descriptors. `BoundedH11Protocol` is uvicorn's h11 protocol with two
limits added:

* **read timeout** — a connection waiting for the client (no request yet, headers or body
  still arriving, or idle after a response) for `read_timeout_s` is closed. A request the
  app is working on is never cut: its own deadlines bound it.
* **connection cap** — at most `max_connections` open connections. At the cap, a new
  connection evicts the one that has waited longest for its client (an idle or slow socket),
  so a flood of idle sockets churns itself while real requests, which send their headers at
  once, are served; if every connection is busy with a request, the newcomer is dropped.
  Descriptors stay below the cap plus the process's own, never at the `ulimit`.

Refusals and evictions are logged at most once per `LOG_EVERY_S` with a count, and so are
the event loop's "accept out of resources" errors, so a flood cannot flood the logs too.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.settings import Settings

log = logging.getLogger("railtrip.serving")

LOG_EVERY_S = 10.0
KEEP_ALIVE_S = 5


class EveryInterval(logging.Filter):
    """Let a repeated message through once per `interval_s`, saying how many were dropped."""

    def __init__(self, interval_s: float = LOG_EVERY_S, clock: Any = time.monotonic) -> None:
        super().__init__()
        self._interval = interval_s
        self._clock = clock
        self._last: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"
        now = self._clock()
        seen = self._last.get(key)
        if seen is not None and now - seen[0] < self._interval:
            self._last[key] = (seen[0], seen[1] + 1)
            return False
        suppressed = seen[1] if seen is not None else 0
        self._last[key] = (now, 0)
        if suppressed:
            record.suppressed = suppressed  # shown by the JSON formatter as an extra field
            record.msg = f"{record.msg} (and {suppressed} more like it)"
        return True


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a read timeout and a connection cap (see the module doc)."""

    max_connections = 100
    read_timeout_s = 10.0

    _read_timer: asyncio.TimerHandle | None = None
    waiting_since: float = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.waiting_since = self.loop.time()
        if len(self.connections) > self.max_connections and not self._evict_one():
            log.warning("connection cap reached; new connection dropped")
            transport.abort()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.waiting_since = self.loop.time()
        if not self.transport.is_closing():
            self._arm()

    @property
    def waiting_for_client(self) -> bool:
        """No request yet, its body still arriving, or idle after the last response."""
        cycle = self.cycle
        return cycle is None or cycle.response_complete or cycle.more_body

    def _evict_one(self) -> bool:
        """Drop the connection that has waited longest for its client; False if none waits."""
        idle = [
            c
            for c in self.connections
            if c is not self
            and isinstance(c, BoundedH11Protocol)
            and c.waiting_for_client
            and not c.transport.is_closing()
        ]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.waiting_since)
        log.warning("connection cap reached; the longest-waiting idle connection dropped")
        oldest.transport.abort()  # frees its descriptor now, not after a FIN handshake
        return True

    def _arm(self) -> None:
        self._disarm()
        self._read_timer = self.loop.call_later(self.read_timeout_s, self._timed_out)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _timed_out(self) -> None:
        self._read_timer = None
        if self.waiting_for_client and not self.transport.is_closing():
            log.info("connection closed: no complete request within the read timeout")
            self.transport.close()


def bounded_protocol(max_connections: int, read_timeout_s: float) -> type[BoundedH11Protocol]:
    """A `BoundedH11Protocol` class with these limits (uvicorn instantiates it per socket)."""
    return type(
        "BoundedH11Protocol",
        (BoundedH11Protocol,),
        {"max_connections": max_connections, "read_timeout_s": read_timeout_s},
    )


def quiet_floods() -> None:
    """Rate-limit the log lines a connection flood repeats (ours, uvicorn's, asyncio's)."""
    for name in ("railtrip.serving", "uvicorn.error", "asyncio"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, EveryInterval) for f in logger.filters):
            logger.addFilter(EveryInterval())


def accept_backlog(max_connections: int) -> int:
    """The listen backlog, which is also how many sockets asyncio accepts in one go before
    any of them is checked against the cap. A socket accepted in one loop iteration meets the
    cap two iterations later, and the one it evicts frees its descriptor a third later, so on a
    lagging loop up to three bursts are open at once: descriptors peak at cap + 3 x backlog +
    the process's own (allow `ulimit -n` >= 4 x cap + 64; a loaded CI box hit EMFILE at
    2 x cap + 56). Connections waiting in the kernel queue cost no descriptor; past it, new
    connects are refused until the queue drains."""
    return max(64, max_connections)


def server_config(host: str, port: int, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration `python -m app serve` runs (`options`: more uvicorn ones): the
    app built on the same settings snapshot, not a second one read by `app.main:app`."""
    from app.main import create_app

    options.setdefault("log_level", "info")
    return uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        http=bounded_protocol(settings.max_connections, settings.request_read_timeout_s),
        timeout_keep_alive=KEEP_ALIVE_S,
        backlog=accept_backlog(settings.max_connections),
        # uvicorn would believe any string in X-Forwarded-For from FORWARDED_ALLOW_IPS
        # (127.0.0.1 unless set); the app's ForwardedClient reads those headers instead, from
        # RAILTRIP_TRUSTED_PROXIES only and only well-formed addresses.
        proxy_headers=False,
        forwarded_allow_ips=",".join(settings.trusted_proxies) or "",
        **options,
    )


def serve(host: str, port: int, settings: Settings, **options: Any) -> None:
    """Serve the API with bounded connections until interrupted."""
    config = server_config(host, port, settings, **options)  # configures uvicorn's loggers
    quiet_floods()
    uvicorn.Server(config).run()
