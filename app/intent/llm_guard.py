"""The LLM behind a circuit breaker, a time cap and the caller's daily budget.

    parse ─ breaker open ──────────────► LlmParseError("circuit_open")  → rules at once
      │ caller's daily budget spent ───► LlmParseError("quota")         → rules, told so
      └ model call, capped at timeout_s ─ timeout / error / 429 ─► breaker counts a failure

The breaker is the sources' `CircuitBreaker` (N consecutive failures open it, one probe after
the cool-down). A reply that merely fails validation is the model talking nonsense, not the
endpoint failing, so it does not count against the breaker.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

from app.access import texts as access_texts
from app.access.context import current_caller
from app.access.quotas import ClientQuotas
from app.intent.llm import LlmIntentParser, LlmParseError, LlmResult
from app.observability.metrics import Metrics
from app.tickets.breaker import BreakerState, CircuitBreaker

log = logging.getLogger("railtrip.llm")

ENDPOINT_FAILURES = frozenset({"timeout", "rate_limited", "error"})

NOTICES = {
    "quota": access_texts.LLM_DAILY_BUDGET_SPENT,
    "circuit_open": access_texts.LLM_CIRCUIT_OPEN,
}
"""The reply's warning when the rules answered because the model was not asked."""


class GuardedLlm:
    """`LlmIntentParser.parse_detailed` behind the breaker, the cap and the daily budget."""

    def __init__(
        self,
        llm: LlmIntentParser,
        breaker: CircuitBreaker,
        metrics: Metrics,
        *,
        timeout_s: float,
        quotas: ClientQuotas | None = None,
    ) -> None:
        self.llm = llm
        self.model = llm.model
        self.breaker = breaker
        self._metrics = metrics
        self.timeout_s = timeout_s
        self._quotas = quotas

    async def parse_detailed(self, text: str, today: dt.date) -> LlmResult:
        """As the wrapped parser; raises `LlmParseError` without calling it when refused."""
        if self.breaker.state is BreakerState.OPEN:
            self._metrics.degradations.labels(kind="llm_circuit_open").inc()
            raise LlmParseError("circuit_open", "the LLM breaker is open", 0)
        caller = current_caller.get()
        if self._quotas is not None and caller is not None:
            if not await self._quotas.take_llm(caller.client_id):
                self._metrics.degradations.labels(kind="llm_quota").inc()
                raise LlmParseError("quota", "the caller's daily LLM budget is spent", 0)
        if not self.breaker.allow():  # half-open with its one probe already out
            self._metrics.degradations.labels(kind="llm_circuit_open").inc()
            raise LlmParseError("circuit_open", "the LLM breaker is probing", 0)
        try:
            async with asyncio.timeout(self.timeout_s):
                result = await self.llm.parse_detailed(text, today)
        except TimeoutError as exc:
            self.breaker.record_failure()
            raise LlmParseError("timeout", f"no answer within {self.timeout_s:g}s", 1) from exc
        except LlmParseError as exc:
            if exc.reason in ENDPOINT_FAILURES:
                self.breaker.record_failure()
            else:
                self.breaker.record_success()  # the endpoint answered, if badly
            raise
        except asyncio.CancelledError:
            # Cancelled by the plan deadline or a gone client: the model did not answer in
            # time for this caller, and a half-open probe slot must not stay taken.
            self.breaker.record_failure()
            raise
        self.breaker.record_success()
        return result


def log_breaker_change(state: BreakerState) -> None:
    """The breaker's transitions, one line each."""
    log.warning("llm circuit breaker changed", extra={"state": str(state)})
