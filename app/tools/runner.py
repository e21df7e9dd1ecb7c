"""Tool-calling mode: the model picks read-only tools; code fetches, plans, validates and speaks.

The tools are the registry's (app/tools: one definition each, shared with the MCP server):
`search_tickets` (the query service), `find_transfers` (the sources' transfer search, then
hub legs, planned by the rule engine), `build_itinerary` (the rule engine on what was
fetched), offered as OpenAI tool calling with their input models' JSON schemas. What a tool
fetches is kept in the run. Every `tool_call_id` is answered by a `tool` message and the
assistant's calls are written back into the history.

`ToolMode.step` is the agent's LLM_TOOLS handler (app/agent/states.py): one model request per
step, so the agent's driver checks its step bound before each one, like any other state's;
the handler keeps room for the state machine to finish. The itinerary always comes from
QUERY_TICKETS → EVALUATE_OPTIONS → GENERATE_PLAN, and the model's final text is used only
when every train number in it is in this request's results. A failing model hands the turn
to the state machine.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

import httpx

from app.agent import texts
from app.agent.fetch import fetch_legs
from app.agent.machine import MAX_LEG_QUERIES, PlanningAgent
from app.agent.model import Run
from app.agent.states import State
from app.observability.metrics import Metrics
from app.tickets.breaker import CircuitBreaker
from app.tickets.model import ResolvedQuery, TicketResult
from app.tools.context import ToolContext, ToolFailure
from app.tools.registry import call_tool, tools_for
from rules import LegKey, PlanResult, plan, required_legs

if TYPE_CHECKING:  # the SDK is imported only where a model is configured (start-up time)
    import openai

log = logging.getLogger("railtrip.agent")

FINISH_RESERVE = 3
"""Steps kept for QUERY_TICKETS → EVALUATE_OPTIONS → GENERATE_PLAN after the model stops."""

OPENAI_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.input_schema(),
        },
    }
    for spec in tools_for("agent")
]
"""The registry's agent tools as OpenAI tool calling offers them (their input schemas)."""

SYSTEM_PROMPT = (
    "你是铁路出行规划助手。只能通过提供的工具获取车次和余票信息，绝不编造车次、时间或票价。"
    "先用 search_tickets 查询需要的区间（没有直达时用 find_transfers），"
    "然后调用 build_itinerary 生成行程，最后用一两句中文简要说明推荐方案。"
)


class ModelUnavailable(Exception):
    """The model is not asked at all: its breaker is open."""


class ToolMode:
    """The LLM_TOOLS state's handler: one model request per step, within the agent's bound."""

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        *,
        metrics: Metrics,
        timeout_s: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        self._breaker = breaker  # the intent parser's: one model, one view of its health
        self._client = client
        self.model = model
        self._metrics = metrics
        self._timeout_s = timeout_s
        self._clock = clock

    async def step(self, agent: PlanningAgent, run: Run) -> State:
        """Ask the model once and answer its tool calls; LLM_TOOLS to ask again, else hand the
        turn to QUERY_TICKETS (the model's final text, its failure, or no room left)."""
        import openai  # loaded already: the client this mode holds came from it

        assert run.request is not None
        if run.decisions + FINISH_RESERVE > agent.max_steps:
            run.warn(texts.LLM_STEP_BOUND)
            run.detail = "bound"
            return _hand_over(run)
        if not run.tool_messages:
            run.tool_messages = [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": _brief(run)},
            ]
        try:
            if self._breaker is not None and not self._breaker.allow():
                raise ModelUnavailable("the LLM breaker is open")
            message = await self._ask(run.tool_messages)
        except (openai.OpenAIError, httpx.HTTPError, ValueError, ModelUnavailable) as exc:
            if self._breaker is not None and not isinstance(exc, ModelUnavailable):
                self._breaker.record_failure()
            run.step_error = f"{type(exc).__name__}: {exc}"[:300]
            run.detail = "model failed"
            self._metrics.degradations.labels(kind="llm_fallback").inc()
            run.warn(texts.LLM_FAILED)
            run.mode = "state_machine"
            return _hand_over(run)
        except asyncio.CancelledError:
            # Cut short (its client left, or a deadline) while it may be the breaker's one
            # half-open probe: the slot must come back, or the model is never asked again.
            # Counted as the intent parser counts it (app/intent/llm_guard.py).
            if self._breaker is not None:
                self._breaker.record_failure()
            raise
        if self._breaker is not None:
            self._breaker.record_success()
        calls = list(message.tool_calls or [])
        run.tool_messages.append(_assistant_entry(message))
        if not calls:
            run.llm_text = (message.content or "").strip() or None
            run.detail = "final text"
            return _hand_over(run)
        names = []
        for call in calls:
            names.append(call.function.name)
            content = await self._answer(agent, run, call.function.name, call.function.arguments)
            run.tool_messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
        run.detail = ",".join(names)
        if run.decisions + 1 + FINISH_RESERVE > agent.max_steps:
            # No room for another request: the state machine finishes on what was fetched.
            run.warn(texts.LLM_STEP_BOUND)
            return _hand_over(run)
        return State.LLM_TOOLS

    async def _ask(self, messages: list[dict[str, Any]]) -> Any:
        started = self._clock()
        response = await self._client.chat.completions.create(
            model=self.model,
            messages=cast("Any", messages),
            tools=cast("Any", OPENAI_TOOLS),
            tool_choice="auto",
            temperature=0,
            timeout=self._timeout_s,
        )
        usage = response.usage
        if usage is not None:
            self._metrics.llm_tokens.labels(model=self.model, kind="prompt").inc(
                usage.prompt_tokens
            )
            self._metrics.llm_tokens.labels(model=self.model, kind="completion").inc(
                usage.completion_tokens
            )
        self._metrics.llm_duration.labels(model=self.model, outcome="ok").observe(
            self._clock() - started
        )
        if not response.choices:
            raise ValueError("the model returned no choices")
        return response.choices[0].message

    async def _answer(self, agent: PlanningAgent, run: Run, name: str, arguments: str) -> str:
        """The tool's result as JSON text; a wrong call gets an error the model can read."""
        try:
            args = json.loads(arguments or "{}")
            if not isinstance(args, dict):
                raise ToolFailure("invalid_input", "arguments must be a JSON object")
            answer = await call_tool(AgentToolContext(agent, run), "agent", name, args)
            result: dict[str, Any] = answer.model_dump(mode="json")
        except (ToolFailure, json.JSONDecodeError) as exc:
            log.info("tool call refused", extra={"tool": name, "error": str(exc)[:200]})
            result = {"error": str(exc)}
        return json.dumps(result, ensure_ascii=False, default=str)


class AgentToolContext(ToolContext):
    """The registry's tools inside one agent run: what they fetch is kept in the run, so the
    state machine plans on exactly what the model saw."""

    surface = "agent"

    def __init__(self, agent: PlanningAgent, run: Run) -> None:
        super().__init__(
            tickets=agent.tickets,
            directory=agent.directory,
            metrics=agent.metrics,
            today=run.input.sale_today,  # the server's date: the sale window is never the client's
            clock=agent.clock,
            transfer_search=agent.transfer_search,
            topology=agent.topology,
        )
        self._agent = agent
        self._run = run

    async def search(self, resolved: ResolvedQuery) -> TicketResult:
        # City to city, as the state machine queries, so the run can plan on it.
        key = LegKey(resolved.origin.city, resolved.destination.city, resolved.query.date)
        found = await self.legs([key])
        if key not in found:  # the plan's query budget is spent
            raise ToolFailure("query_budget", texts.QUERY_BUDGET.format(n=MAX_LEG_QUERIES))
        return found[key]

    async def legs(self, keys: Iterable[LegKey]) -> dict[LegKey, TicketResult]:
        wanted = list(dict.fromkeys(keys))
        run = self._run
        missing = self._agent.budgeted(run, wanted)
        run.results.update(await fetch_legs(self.tickets, self.directory, missing, run.refused))
        run.wanted_legs.extend(k for k in wanted if k not in run.wanted_legs)
        return {key: run.results[key] for key in wanted if key in run.results}

    async def official_transfers(self, key: LegKey) -> dict[LegKey, TicketResult]:
        # Counted in the run's budget and kept in its book, as the FALLBACK stage keeps them.
        search = self.transfer_search
        if search is None or not search.available:
            return {}
        if not self._agent.budgeted(self._run, [key], transfer=True):
            return {}
        halves = await super().official_transfers(key)
        self._run.transfer_legs.update(halves)
        return halves

    def plan_run(self) -> tuple[PlanResult, list[TicketResult]]:
        request = self._run.request
        assert request is not None
        missing = [k for k in required_legs(request) if k not in self._run.results]
        if missing:
            wanted = ", ".join(f"{k.origin}→{k.destination} {k.date}" for k in missing)
            raise ToolFailure("invalid_input", f"search these legs first: {wanted}")
        found = plan(request, self._run.book(), now=self._agent.now(self._run), limit=3)
        return found, [self._run.results[k] for k in required_legs(request)]

    def answered(self, tool: str, freshness: str) -> None:
        """Not counted here: the plan reply the run ends in is the answer."""


def _hand_over(run: Run) -> State:
    """The itinerary is always the state machine's: fetch what is missing, plan, validate."""
    assert run.request is not None
    run.wanted_legs = list(dict.fromkeys([*required_legs(run.request), *run.wanted_legs]))
    return State.QUERY_TICKETS


def _brief(run: Run) -> str:
    request = run.request
    assert request is not None
    trip = request.model_dump(mode="json", exclude_defaults=True)
    return json.dumps(
        {"request": run.input.text or "", "trip": trip, "today": run.input.today.isoformat()},
        ensure_ascii=False,
    )


def _assistant_entry(message: Any) -> dict[str, Any]:
    """The assistant's turn as history: its text and every tool call it made, verbatim."""
    entry: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        entry["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments},
            }
            for call in message.tool_calls
        ]
    return entry
