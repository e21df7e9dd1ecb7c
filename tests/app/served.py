"""The real app served by uvicorn on a free loopback port, in the test's own event loop.

Streams need a real server: httpx's in-process ASGI transport buffers whole responses. The
server runs in the test's loop, so injected clocks and sleeps (asyncio primitives) work.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from app.main import create_app
from app.runtime import Runtime
from app.services import Services
from app.settings import Settings
from tests.clocks import FakeTime


def default_sources() -> list[str]:
    """The sources enabled by default (read from the model, not the environment)."""
    factory: Any = Settings.model_fields["sources"].default_factory
    return list(factory())


def served_settings(**overrides: Any) -> Settings:
    """Embedded-default settings with limits generous enough that no test waits on them."""
    fast = {name: {"rate_per_s": 1000.0, "concurrency": 50} for name in default_sources()}
    values: dict[str, Any] = {"source_overrides": fast, "log_level": "WARNING"}
    values.update(overrides)
    return Settings(**values)


class _Server(uvicorn.Server):
    """uvicorn that says when it is listening, instead of the test polling for it."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = asyncio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.ready.set()

    def install_signal_handlers(self) -> None:  # the test runner owns the signals
        pass


@dataclass
class Served:
    """A running server: its base URL and the app's state (metrics, sandbox faults)."""

    url: str
    app: FastAPI
    state: Services = field(init=False)

    def __post_init__(self) -> None:
        self.state = self.app.state.services


@asynccontextmanager
async def served(
    settings: Settings | None = None, runtime: Runtime | None = None
) -> AsyncIterator[Served]:
    """Serve `create_app(settings, runtime)` on 127.0.0.1 and a free port until exit."""
    if runtime is None:
        time = FakeTime()
        runtime = Runtime(clock=time.now, monotonic=time.monotonic, sleep=time.sleep)
    app = create_app(settings or served_settings(), runtime)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app, lifespan="on", log_config=None, access_log=False, timeout_graceful_shutdown=5
    )
    server = _Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    ready = asyncio.create_task(server.ready.wait())
    await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
    if not ready.done():
        ready.cancel()
        await task  # startup failed: raise its error
        raise RuntimeError("uvicorn stopped before it was ready")
    try:
        yield Served(url=f"http://127.0.0.1:{port}", app=app)
    finally:
        server.should_exit = True
        await task
        sock.close()


@dataclass(frozen=True)
class Event:
    """One Server-Sent Event as a client reads it."""

    event: str
    data: str


async def sse_events(response: httpx.Response) -> AsyncIterator[Event]:
    """Parse `text/event-stream` as it arrives (comments such as keep-alives are skipped)."""
    name, data = "message", []
    async for line in response.aiter_lines():
        if not line:
            if data:
                yield Event(name, "\n".join(data))
            name, data = "message", []
        elif line.startswith(":"):
            continue
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))


class GatedSleep:
    """An injected sleep that waits until the test opens the gate; counts who waited."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.waiting = 0
        self.cancelled = 0
        self.changed = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.waiting += 1
        self.changed.set()
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            self.changed.set()
            raise
        finally:
            self.waiting -= 1

    async def until(self, condition: Any) -> None:
        """Wait (on events, not on the clock) until `condition()` holds."""
        async with asyncio.timeout(60):  # a guard against a hang, not a measurement
            while not condition():
                self.changed.clear()
                await self.changed.wait()


def gated_runtime(sleep: GatedSleep) -> Runtime:
    time = FakeTime()
    return Runtime(clock=time.now, monotonic=time.monotonic, sleep=sleep)
