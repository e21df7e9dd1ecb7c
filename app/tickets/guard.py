"""One source behind its own gentleness: breaker, semaphore, rate limit, timeout, retries.

Every attempt is counted in `railtrip_source_requests_total` (a call refused by an open
breaker counts as `circuit_open` without reaching the source).

Each capability (the left-ticket `search`, `stops`, `transfers`) has a breaker of its own:
a transfer search failing on its own path, or a stop list the site refuses, says nothing
about the left-ticket query, so it never opens the breaker that guards direct searches.
The semaphore, the limiter and the queue stay the source's: they are what the site sees.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TypeVar

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential_jitter,
)

from app.observability.metrics import Metrics
from app.settings import SourceSettings
from app.tickets.admission import LatencyEstimate, SourceAdmission, SourceOverloaded
from app.tickets.breaker import BreakerState, CircuitBreaker
from app.tickets.deadline import sources_share_s
from app.tickets.rate_limit import SourceRateLimit
from app.tickets.shared_block import SharedBlock
from sources.base import TicketSource
from sources.errors import (
    NotFoundAtSource,
    QueryRefused,
    SourceBlocked,
    SourceError,
    SourceRateLimited,
    SourceTimeout,
    TransientSourceError,
)
from sources.models import TicketQuery, TrainOffer

log = logging.getLogger("railtrip.sources")

Sleep = Callable[[float], Awaitable[None]]
T = TypeVar("T")

ABANDONED = "abandoned: no caller waits for this query any more"
"""The message a flight is cancelled with when its last caller left (a client disconnected)."""

SEARCH = "search"
"""The capability `search` (the left-ticket query) runs under: its breaker is `breaker`."""


_ATTEMPT: contextvars.ContextVar[tuple[CircuitBreaker, int] | None] = contextvars.ContextVar(
    "railtrip_attempt", default=None
)
"""The breaker of the attempt under way and the generation it was let out in."""


class CircuitOpenError(SourceError):
    """Refused without reaching the source: its breaker is open."""

    outcome = "circuit_open"


@dataclass(frozen=True)
class RetryPolicy:
    """How a source is retried: transient errors only, exponential backoff with jitter."""

    retries: int = 2
    initial_s: float = 0.2
    max_s: float = 2.0
    jitter_s: float = 0.1

    def retrying(self, sleep: Sleep) -> AsyncRetrying:
        """A fresh retry controller: one per call, never shared between concurrent tasks."""
        backoff = wait_exponential_jitter(
            multiplier=self.initial_s, max=self.max_s, jitter=self.jitter_s
        )

        def wait(state: RetryCallState) -> float:
            exc = state.outcome.exception() if state.outcome else None
            delay = backoff(state)
            if isinstance(exc, SourceRateLimited) and exc.retry_after is not None:
                delay = max(delay, min(exc.retry_after, self.max_s * 2))
            return delay

        return AsyncRetrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=wait,
            retry=retry_if_exception_type(TransientSourceError),
            sleep=sleep,
            reraise=True,
        )


class GuardedSource:
    """A `TicketSource` wrapped with the limits README "Ticket sources" and "Security" describe."""

    def __init__(
        self,
        source: TicketSource,
        settings: SourceSettings,
        metrics: Metrics,
        *,
        sleep: Sleep = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        queue_limit: int | None = None,
        deadline_s: float | None = None,
        limiter: SourceRateLimit | None = None,
        shared_block: SharedBlock | None = None,
    ) -> None:
        self.source = source
        self.name = source.name
        self.settings = settings
        self._metrics = metrics
        self._sleep = sleep
        self._monotonic = monotonic
        self._semaphore = asyncio.Semaphore(settings.concurrency)
        # Fleet-wide when built with Redis (registry), else this process's own limiter.
        self.limiter = limiter or SourceRateLimit(self.name, settings.rate_per_s, sleep=sleep)
        self._policy = RetryPolicy(retries=settings.retries)
        self._breakers: dict[str, CircuitBreaker] = {}
        self._shared_block = shared_block  # the fleet's view of a block (Redis), if any
        self.breaker = self.breaker_for(SEARCH)
        metrics.breaker_state.watch(self.name, lambda: self.breaker.state)
        # What this source's attempts take now; it sizes the admission bound.
        self.latency = LatencyEstimate(settings.timeout_s)
        # Bounded from the latency within the sources' share of the query deadline
        # `deadline_s` (app/tickets/deadline.py), or fixed by `queue_limit`; neither:
        # unbounded (unit tests of the guard alone). The registry always sets a bound.
        self.admission = (
            SourceAdmission(
                self.name,
                settings.concurrency,
                # This process's share: a fleet that lost Redis splits the rate (rate_limit.py).
                self.limiter.fallback_rate_per_s,
                latency=self.latency,
                deadline_s=sources_share_s(deadline_s) if deadline_s is not None else math.inf,
                queue_limit=queue_limit,
            )
            if queue_limit is not None or deadline_s is not None
            else None
        )
        if self.admission is not None:
            admission, latency = self.admission, self.latency
            metrics.admission.watch(self.name, lambda: admission.capacity, lambda: latency.seconds)

    def breaker_for(self, capability: str) -> CircuitBreaker:
        """The breaker of one capability (`search`, `stops`, `transfers` …), made on first use."""
        breaker = self._breakers.get(capability)
        if breaker is None:
            breaker = CircuitBreaker(
                self.settings.breaker_failures,
                self.settings.breaker_cooldown_s,
                clock=self._monotonic,
                on_change=lambda state: self._breaker_changed(capability, state),
            )
            self._breakers[capability] = breaker
        return breaker

    def readiness(self) -> str:
        """`ok`, `open-circuit` or `half-open-circuit` (the gauge reads the same state) of the
        left-ticket search, which every answer rests on."""
        state = self.breaker.state
        return "ok" if state is BreakerState.CLOSED else f"{state.replace('_', '-')}-circuit"

    async def search(self, query: TicketQuery, *, left_s: float | None = None) -> list[TrainOffer]:
        """Query the source with retries; raises the last `SourceError` when all attempts fail.

        `left_s`: what the query's deadline leaves the sources now (None: all of it)."""
        return await self.call(lambda: self.source.search(query), left_s=left_s)

    async def call(
        self,
        operation: Callable[[], Awaitable[T]],
        capability: str = SEARCH,
        *,
        left_s: float | None = None,
    ) -> T:
        """Run one of the adapter's calls (`search`, or a capability such as `stops`) under
        the same limits and retries, and the capability's own breaker; raises the last
        `SourceError` when all attempts fail, or `SourceOverloaded` at once, without an
        attempt, when the source's queue holds more than it answers in `left_s`."""
        breaker = self.breaker_for(capability)
        if self.admission is None:
            return await self._with_retries(operation, breaker)
        # When the query's time for the sources ends: checked again at this request's turn.
        end = None if left_s is None else self._monotonic() + left_s
        with self.admission.enter(left_s):
            return await self._with_retries(operation, breaker, end)

    async def warm(self, operation: Callable[[], Awaitable[object]]) -> bool:
        """One attempt of `operation` ahead of the queries that need it (a session's init
        page): under the left-ticket search's limits and breaker, counted like any attempt,
        never retried (a query after a failed one makes its own); True when it answered."""
        try:
            await self._attempt(operation, self.breaker)
        except SourceError:
            return False
        return True

    async def _with_retries(
        self,
        operation: Callable[[], Awaitable[T]],
        breaker: CircuitBreaker,
        end: float | None = None,
    ) -> T:
        async for attempt in self._policy.retrying(self._sleep):
            with attempt:
                # The turn check is the admission's (its forecast of the queue), for the
                # first attempt: a retry follows the source's own failure, which it reports.
                first = attempt.retry_state.attempt_number == 1
                return await self._attempt(operation, breaker, end if first else None)
        raise AssertionError("unreachable: tenacity reraises")  # pragma: no cover

    async def _attempt(
        self,
        operation: Callable[[], Awaitable[T]],
        breaker: CircuitBreaker,
        end: float | None = None,
    ) -> T:
        """One attempt, its slot and turn taken; `end`: when the query's time for the sources
        ends (on this guard's clock), None: no end of its own."""
        if not breaker.allow():
            self._count("circuit_open")
            raise CircuitOpenError(self.name, "circuit open: failing fast")
        generation = breaker.generation
        probe, blocked = breaker.probing, breaker.blocked
        fleet_probe = False
        try:
            async with self._semaphore:
                await self.limiter.acquire()
                if breaker.generation != generation:
                    # The site blocked us (or the breaker opened) while this one waited for
                    # its turn: it is not sent at all, never after the block.
                    self._count("circuit_open")
                    raise CircuitOpenError(self.name, "circuit opened while queued: not sent")
                if (
                    end is not None
                    and self.admission is not None
                    and self.admission.too_late(end - self._monotonic())
                ):
                    # Admitted, but its turn came too late for an answer in time (the source
                    # slowed down under the burst): not sent, refused as our queue's doing.
                    raise SourceOverloaded(self.name, self.admission.retry_after_s())
                # Asked at the last moment, not before queueing: a block another replica met
                # while this one waited for its turn stops it here too.
                fleet_probe = await self._consult_fleet(breaker, generation)
                return await self._send(operation, breaker, generation)
        finally:
            if probe:
                await self._probe_concluded(breaker, generation, blocked, fleet_probe)

    async def _consult_fleet(self, breaker: CircuitBreaker, generation: int) -> bool:
        """Ask the fleet (app/tickets/shared_block.py) before an attempt is sent: refuse it
        while a block or another replica's probe stands; True when it is the fleet's probe."""
        if self._shared_block is None:
            return False
        probe = breaker.probing
        claim = probe and breaker.blocked  # half-open after a block: one probe for the fleet
        view = await self._shared_block.view(claim_probe=claim)
        if view.verdict == "blocked":  # another replica was blocked, or its probe failed
            breaker.trip(view.left_s)
            self._count("circuit_open")
            raise CircuitOpenError(self.name, "blocked (seen by another replica)")
        if view.verdict == "probing":
            if probe:
                breaker.stand_down(generation)  # the next attempt asks again
            self._count("circuit_open")
            raise CircuitOpenError(self.name, "blocked: another replica probes the site")
        if view.verdict == "clear" and claim:
            breaker.record_success(generation)  # the fleet's probe answered: closed, unsent
        return view.verdict == "probe"

    async def _probe_concluded(
        self, breaker: CircuitBreaker, generation: int, blocked: bool, fleet_probe: bool
    ) -> None:
        """Publish what a half-open probe found, whichever way its attempt ended."""
        if breaker.generation == generation:
            if breaker.state is BreakerState.CLOSED:  # it answered
                if fleet_probe:
                    assert self._shared_block is not None
                    await self._shared_block.probe_answered()
            elif breaker.probing:
                # No verdict (refused before sending, or its caller left): never leave the
                # breaker half-open with a probe out that will not come back.
                breaker.stand_down(generation)
                if fleet_probe:
                    assert self._shared_block is not None
                    await self._shared_block.probe_abandoned()
        elif blocked and not breaker.blocked:
            # The probe of a block failed (not blocked again: that published itself): the
            # site is not back, so the block is renewed for a whole cool-down, fleet-wide.
            breaker.trip(self.settings.block_cooldown_s)
            if self._shared_block is not None:
                await self._shared_block.publish(self.settings.block_cooldown_s)

    async def _send(
        self, operation: Callable[[], Awaitable[T]], breaker: CircuitBreaker, generation: int
    ) -> T:
        """Send the attempt (its slot and turn taken) and record its outcome."""
        started = self._monotonic()
        token = _ATTEMPT.set((breaker, generation))
        try:
            async with asyncio.timeout(self.settings.timeout_s):
                answer = await operation()
        except TimeoutError as exc:
            timeout = SourceTimeout(self.name, f"no answer in {self.settings.timeout_s}s")
            self.latency.observe(self.settings.timeout_s)
            self._failed(started, timeout, breaker, generation)
            raise timeout from exc
        except QueryRefused:
            raise  # refused before reaching the source: not an attempt, not a failure
        except NotFoundAtSource:
            self._answered(started)  # it answered, correctly: "no such train"
            breaker.record_success(generation)
            raise
        except CircuitOpenError:
            # An extra request of this attempt (a fresh init) refused after a block: it
            # never reached the site, so it is neither a failure nor an answer.
            self._count("circuit_open")
            raise
        except SourceBlocked as exc:
            # Never retried (not transient); the breaker stays open for the block cool-down.
            self._failed(started, exc, breaker, generation)
            breaker.trip(self.settings.block_cooldown_s)
            if self._shared_block is not None:
                await self._shared_block.publish(self.settings.block_cooldown_s)
            log.warning(
                "source blocked us: backing off",
                extra={"source": self.name, "cooldown_s": self.settings.block_cooldown_s},
            )
            raise
        except SourceError as exc:
            self._failed(started, exc, breaker, generation)
            raise
        except asyncio.CancelledError as exc:
            if ABANDONED in exc.args:
                # The caller went away: the attempt reached the source (counted), but the
                # source did nothing wrong, so the breaker does not hear of it.
                self._observe(started, SourceTimeout.outcome)
                raise
            # The query deadline cancelled us mid-attempt: it reached the source and failed.
            self._failed(
                started,
                SourceTimeout(self.name, "cancelled by the query deadline"),
                breaker,
                generation,
            )
            raise
        finally:
            _ATTEMPT.reset(token)
        self._answered(started)
        breaker.record_success(generation)
        return answer

    @asynccontextmanager
    async def extra_request(self) -> AsyncIterator[None]:
        """Pace and count a request an adapter makes inside an attempt (`RequestPacer`).

        It waits for the same limiter; answered, it counts as `ok`. A failure propagates and
        is counted once, as the attempt's outcome.
        """
        await self.limiter.acquire()
        attempt = _ATTEMPT.get()
        if attempt is not None and attempt[0].generation != attempt[1]:
            # Blocked since this attempt began: its next request (an init, a moved path) stays.
            raise CircuitOpenError(self.name, "circuit opened during the attempt: not sent")
        if attempt is not None and self._shared_block is not None:
            # ... and so it does when another replica was blocked meanwhile. (A probe out,
            # this attempt's own or not, is no reason: a probe needs its init.)
            view = await self._shared_block.view()
            if view.verdict == "blocked":
                attempt[0].trip(view.left_s)
                raise CircuitOpenError(self.name, "blocked (seen by another replica): not sent")
        started = self._monotonic()
        yield
        self._observe(started, "ok")

    def _answered(self, started: float) -> None:
        # Only answers (and timeouts, above) teach the latency estimate: an error says nothing
        # of how long an answer takes, and an attempt cut short by the deadline or a caller
        # leaving is a bound, not a measurement.
        self.latency.observe(self._monotonic() - started)
        self._observe(started, "ok")

    def _failed(
        self, started: float, exc: SourceError, breaker: CircuitBreaker, generation: int
    ) -> None:
        self._observe(started, exc.outcome)
        breaker.record_failure(generation)
        log.warning(
            "source attempt failed",
            extra={"source": self.name, "outcome": exc.outcome, "error": exc.message},
        )

    def _observe(self, started: float, outcome: str) -> None:
        self._metrics.source_duration.labels(source=self.name).observe(
            max(0.0, self._monotonic() - started)
        )
        self._count(outcome)

    def _count(self, outcome: str) -> None:
        self._metrics.source_requests.labels(source=self.name, outcome=outcome).inc()

    def _breaker_changed(self, capability: str, state: BreakerState) -> None:
        log.info(
            "circuit breaker changed",
            extra={"source": self.name, "capability": capability, "state": str(state)},
        )


async def start_sessions(sources: Iterable[GuardedSource]) -> list[asyncio.Task[bool]]:
    """Begin each session-keeping source's session now (`start_session`, the 12306 init
    page), in the background; returned once each has taken its slot of the source's rate, so
    the caller's own work runs while the next request of that source waits for its turn.
    Await the tasks before closing the sources."""
    tasks = [
        asyncio.create_task(source.warm(start), name=f"{source.name}-session")
        for source in sources
        if (start := getattr(source.source, "start_session", None)) is not None
    ]
    if tasks:
        await asyncio.sleep(0)  # each takes its slot before the caller goes on
    return tasks
