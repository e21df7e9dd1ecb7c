"""A client's fleet-wide request rate without a Redis round trip per request: cells are taken
from the fleet's budget (the GCRA on Redis, app/gcra.py) as many at a time as the client
spent at this replica in the last `HOLD_S`, and spent here.

    request ─ cells held here, taken < HOLD_S ago ─────────────────► allowed, one spent
        │ refused lately, and no cell frees before its Retry-After ───► refused (no script)
        │ a grant for this client under way here ─────────────────────► wait for it, again
        └ take n from the fleet's budget (one script) ─ n ≥ 1 ─────────► allowed, n - 1 held
                                                      └ none ─────────► refused, Retry-After

n is what the client spent here in the last window of `HOLD_S` (1 when it spent nothing),
at most a tenth of its burst: a client at a human pace takes one cell per request, exactly
as before; one sending thousands a second asks Redis about ten times a second. One grant at
a time per client and replica, so a client's concurrent requests share it. Cells are charged
to the fleet's budget when taken, so the replicas together never allow more than the budget;
cells not spent within `HOLD_S` are dropped, which can refuse a client a little early, never
late (by at most one window's spending at each replica it is busy at). A refusal is
remembered until its Retry-After: the budget frees no cell sooner (a GCRA frees them in
order), so a client hammering past its quota costs no script either.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.gcra import Decision, Gcra

HOLD_S = 0.1
"""How long cells taken from the fleet's budget may be spent here; the window they are
sized on."""
GRANT_SHARE = 10
"""A grant takes at most burst // GRANT_SHARE cells (at least 1)."""
_MAX_CLIENTS = 100_000


@dataclass(slots=True)
class _Client:
    """One client's cells at this replica, and what it spent here lately."""

    window_start: float
    window_spent: int = 0
    last_window_spent: int = 0
    taken_at: float = float("-inf")
    cells: int = 0  # taken from the fleet's budget at `taken_at`, not yet spent
    remaining: int = 0  # what the fleet's budget had left after that grant
    refused_until: float = float("-inf")  # the budget had no cell before then
    taking: asyncio.Event | None = field(default=None)  # a grant under way

    def count(self, now: float) -> None:
        """Count one request in the current window (starting a new one when it is over)."""
        if now - self.window_start >= HOLD_S:
            recent = now - self.window_start < 2 * HOLD_S
            self.last_window_spent = self.window_spent if recent else 0
            self.window_start, self.window_spent = now, 0
        self.window_spent += 1


class GrantedCells:
    """Per-client grants of cells from one fleet-wide GCRA (Redis errors propagate)."""

    def __init__(self, gcra: Gcra, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._gcra = gcra
        self._monotonic = monotonic
        self._clients: dict[str, _Client] = {}

    async def check(self, name: str, rate: float, burst: int) -> Decision:
        """Spend a cell of `name` held here, or take more from the fleet's budget."""
        client = self._client(name)
        client.count(self._monotonic())
        while True:
            now = self._monotonic()
            if client.cells > 0 and now - client.taken_at < HOLD_S:
                client.cells -= 1
                return Decision(True, 0.0, client.remaining + client.cells)
            if now < client.refused_until:
                return Decision(False, client.refused_until - now, 0)
            if client.taking is None:
                break
            await client.taking.wait()  # another request of this client is taking cells
        size = min(max(1, client.last_window_spent), max(1, burst // GRANT_SHARE))
        client.taking = taking = asyncio.Event()
        try:
            taken, decision = await self._gcra.take(name, rate, burst, size)
        finally:
            client.taking = None
            taking.set()
        if not taken:
            client.cells, client.refused_until = 0, now + decision.retry_after_s
            return decision
        client.taken_at, client.cells, client.remaining = now, taken - 1, decision.remaining
        return Decision(True, 0.0, decision.remaining + taken - 1)

    def _client(self, name: str) -> _Client:
        client = self._clients.get(name)
        if client is None:
            now = self._monotonic()
            if len(self._clients) >= _MAX_CLIENTS:  # forget the idle ones
                self._clients = {
                    k: c
                    for k, c in self._clients.items()
                    if now - c.window_start < 2 * HOLD_S or now < c.refused_until
                }
            client = self._clients[name] = _Client(now)
        return client
