"""The model, when one is configured: its client, the intent parser behind its breaker and
time cap, and tool mode."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from app.access.quotas import ClientQuotas
from app.intent.llm import LlmIntentParser
from app.intent.llm_guard import GuardedLlm, log_breaker_change
from app.observability.metrics import Metrics
from app.runtime import Runtime
from app.settings import Settings
from app.tickets.breaker import CircuitBreaker
from app.tools.runner import ToolMode
from sources.stations import StationDirectory

if TYPE_CHECKING:  # imported only when a model is configured (start-up time)
    import openai


def openai_client(settings: Settings, http: httpx.AsyncClient) -> openai.AsyncOpenAI | None:
    """One client for the configured OpenAI-compatible endpoint, or None without a key.

    Client retries are off: the intent parser retries (bounded, with the error fed back) and
    a failing model ends tool mode, where the state machine finishes the turn.
    """
    if not settings.llm_enabled:
        return None
    import openai

    return openai.AsyncOpenAI(
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key,
        max_retries=0,
        timeout=settings.llm_timeout_s,
        http_client=http,
    )


def llm_parser(
    settings: Settings,
    client: openai.AsyncOpenAI | None,
    metrics: Metrics,
    directory: StationDirectory,
) -> LlmIntentParser | None:
    """The LLM intent parser when a model is configured; None means the offline rules."""
    if client is None:
        return None
    return LlmIntentParser(
        client,
        settings.llm_model,
        metrics=metrics,
        directory=directory,
        timeout_s=settings.llm_timeout_s,
    )


def guarded_llm(
    settings: Settings,
    llm: LlmIntentParser | None,
    metrics: Metrics,
    runtime: Runtime,
    quotas: ClientQuotas,
) -> GuardedLlm | None:
    """The parser behind its breaker, capped so a hanging model leaves the plan deadline
    room for the ticket queries (half of it, at most `llm_timeout_s`)."""
    if llm is None:
        return None
    breaker = CircuitBreaker(
        settings.llm_breaker_failures,
        settings.llm_breaker_cooldown_s,
        clock=runtime.monotonic,
        on_change=log_breaker_change,
    )
    cap = min(settings.llm_timeout_s, settings.plan_deadline_s / 2)
    return GuardedLlm(llm, breaker, metrics, timeout_s=cap, quotas=quotas)


def tool_mode(
    settings: Settings,
    client: openai.AsyncOpenAI | None,
    metrics: Metrics,
    llm: GuardedLlm | None = None,
) -> ToolMode | None:
    """Tool-calling mode (`RAILTRIP_AGENT_MODE=llm_tools` with a model configured), else None;
    behind the intent parser's breaker and time cap when there is one."""
    if settings.agent_mode != "llm_tools" or client is None:
        return None
    if llm is None:
        return ToolMode(client, settings.llm_model, metrics=metrics)
    return ToolMode(
        client, settings.llm_model, metrics=metrics, timeout_s=llm.timeout_s, breaker=llm.breaker
    )
