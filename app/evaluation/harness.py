"""The shared harness of the plan suites: the real app in-process on the embedded default,
its clock set to each case's `today` (no real sleeps), spoken to over httpx's ASGI transport.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from app.settings import Settings
from sources.models import SHANGHAI

PLANS_DIR = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "plans"


@dataclass(frozen=True)
class PlanCase:
    """One sentence of a plan suite and what its suite knows about it."""

    id: str
    today: dt.date
    text: str
    data: dict[str, Any]


def load_plan_cases(path: Path) -> list[PlanCase]:
    """The cases of one JSONL suite (`{"id", "today", "text", …}` per line)."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            cases.append(PlanCase(raw["id"], dt.date.fromisoformat(raw["today"]), raw["text"], raw))
    return cases


class StillClock:
    """A wall clock fixed at a day's start and a monotonic clock; sleeps advance both."""

    def __init__(self, day: dt.date) -> None:
        self._start = dt.datetime.combine(day, dt.time(0, 0), tzinfo=SHANGHAI)
        self._elapsed = 0.0

    def now(self) -> dt.datetime:
        return self._start + dt.timedelta(seconds=self._elapsed)

    def monotonic(self) -> float:
        return 1000.0 + self._elapsed

    async def sleep(self, seconds: float) -> None:
        self._elapsed += seconds


@asynccontextmanager
async def app_on(
    day: dt.date, settings: Settings | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    """The app (embedded default unless `settings`) whose clock reads `day` 00:00 Shanghai."""
    from app.main import create_app
    from app.runtime import Runtime

    clock = StillClock(day)
    # The suites print tables on stdout: the app's own logs only for warnings, unless asked.
    settings = settings or Settings(_env_file=None).with_defaults(log_level="WARNING")
    app = create_app(
        settings, Runtime(clock=clock.now, monotonic=clock.monotonic, sleep=clock.sleep)
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            yield client
