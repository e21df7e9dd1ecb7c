"""The LLM parser: any OpenAI-compatible chat endpoint in JSON mode, validated and bounded.

    LlmParseError               retries exhausted or the endpoint failed; caller falls back
     ├── reason="invalid"        the model never produced a valid intent
     ├── reason="timeout"        no answer within `timeout_s`
     ├── reason="rate_limited"   HTTP 429
     └── reason="error"          any other API or connection failure

A reply that cannot be used is retried up to `max_retries` times with the error fed back; an
API failure is not retried: the offline parser answers at once instead of queueing behind a
struggling endpoint. Each call is timed, its tokens counted, and one audit line logged with
the model, tokens, latency and outcome (never the key, never the traveller's text).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError

from app.intent.model import TravelIntent
from app.intent.prompt import build_messages, retry_message
from app.observability.metrics import Metrics
from sources.stations import StationDirectory

if TYPE_CHECKING:  # the SDK is imported only where a model is configured (start-up time)
    import openai
    from openai.types.chat import ChatCompletionMessageParam

audit_log = logging.getLogger("railtrip.llm")

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


class LlmParseError(Exception):
    """The LLM gave no usable intent; `reason` says why, `attempts` how many calls were made."""

    def __init__(self, reason: str, message: str, attempts: int) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.attempts = attempts


class InvalidReply(ValueError):
    """A reply that is not one JSON object matching the intent schema."""


@dataclass(frozen=True)
class LlmResult:
    """A validated intent and the number of calls it took (1 = no retry)."""

    intent: TravelIntent
    attempts: int


def extract_json_object(reply: str) -> dict[str, Any]:
    """The first complete JSON object in a reply, after stripping code fences and prose."""
    fenced = _FENCE.search(reply)
    candidates = [fenced.group(1), reply] if fenced else [reply]
    decoder = json.JSONDecoder()
    for text in candidates:
        for start in (i for i, c in enumerate(text) if c == "{"):
            try:
                value, _ = decoder.raw_decode(text, start)
            except json.JSONDecodeError:
                continue
            if isinstance(value, dict):
                return value
    raise InvalidReply("no JSON object found in the reply")


def validate_reply(reply: str) -> TravelIntent:
    """Clean and validate one model reply into a lenient `TravelIntent`."""
    data = extract_json_object(reply)
    try:
        return TravelIntent.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'reply'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        raise InvalidReply(problems) from exc


class LlmIntentParser:
    """Parse travel requests with an OpenAI-compatible model, bounded in time and retries."""

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        *,
        metrics: Metrics,
        directory: StationDirectory,
        timeout_s: float = 15,
        max_retries: int = 2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self.model = model
        self._metrics = metrics
        self._directory = directory
        self._timeout_s = timeout_s
        self._max_retries = max_retries
        self._clock = clock

    async def parse(self, text: str, today: dt.date) -> TravelIntent:
        """A validated intent, or `LlmParseError` once retries are exhausted."""
        return (await self.parse_detailed(text, today)).intent

    async def parse_detailed(self, text: str, today: dt.date) -> LlmResult:
        """`parse`, also saying how many calls it took (for the retried outcome)."""
        messages: list[dict[str, str]] = build_messages(text, today)
        last_error = ""
        for attempt in range(1, self._max_retries + 2):
            reply, tokens, elapsed = await self._call(messages, attempt)
            try:
                intent = validate_reply(reply)
            except InvalidReply as exc:
                last_error = str(exc)
                self._record(attempt, "invalid", tokens, elapsed)
                messages = [
                    *messages,
                    {"role": "assistant", "content": reply[:2000]},
                    retry_message(last_error),
                ]
                continue
            self._record(attempt, "ok", tokens, elapsed)
            return LlmResult(intent=intent, attempts=attempt)
        raise LlmParseError("invalid", last_error, self._max_retries + 1)

    async def _call(
        self, messages: list[dict[str, str]], attempt: int
    ) -> tuple[str, tuple[int, int], float]:
        import openai  # loaded already: the client this parser holds came from it
        from openai.types.chat import ChatCompletion

        started = self._clock()
        try:
            response = await self._client.chat.completions.create(
                model=self.model,
                messages=cast("list[ChatCompletionMessageParam]", messages),
                response_format={"type": "json_object"},
                temperature=0,
                timeout=self._timeout_s,
            )
        except openai.APITimeoutError as exc:
            raise self._failed("timeout", exc, attempt, started) from exc
        except openai.RateLimitError as exc:
            raise self._failed("rate_limited", exc, attempt, started) from exc
        except (openai.OpenAIError, ValueError) as exc:
            # ValueError: a truncated JSON body (json.JSONDecodeError) from a broken proxy.
            raise self._failed("error", exc, attempt, started) from exc
        if not isinstance(response, ChatCompletion):
            # A 200 that is not JSON (an HTML error page) comes back from the SDK as a str.
            raise self._failed("error", TypeError(type(response).__name__), attempt, started)
        elapsed = self._clock() - started
        usage = response.usage
        tokens = (usage.prompt_tokens, usage.completion_tokens) if usage else (0, 0)
        self._metrics.llm_tokens.labels(model=self.model, kind="prompt").inc(tokens[0])
        self._metrics.llm_tokens.labels(model=self.model, kind="completion").inc(tokens[1])
        content = response.choices[0].message.content if response.choices else None
        return content or "", tokens, elapsed

    def _failed(self, reason: str, exc: Exception, attempt: int, started: float) -> LlmParseError:
        self._record(attempt, reason, None, self._clock() - started)
        return LlmParseError(reason, type(exc).__name__, attempt)

    def _record(
        self, attempt: int, outcome: str, tokens: tuple[int, int] | None, seconds: float
    ) -> None:
        """Time one call and write its audit line (never key or text); its fields are the
        line's own JSON keys, not a JSON string inside `msg`."""
        self._metrics.llm_duration.labels(model=self.model, outcome=outcome).observe(seconds)
        fields = {
            "event": "llm_call",
            "model": self.model,
            "prompt_tokens": tokens[0] if tokens else None,
            "completion_tokens": tokens[1] if tokens else None,
            "latency_ms": round(seconds * 1000, 1),
            "outcome": outcome,
            "attempt": attempt,
        }
        audit_log.info("llm call", extra=fields)
