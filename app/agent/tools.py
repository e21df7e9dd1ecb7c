"""Tool-calling mode: the model picks read-only tools; code fetches, plans, validates and speaks.

Tools (JSON-schema declared, OpenAI tool calling): `search_tickets` (the query service),
`find_transfers` (hub legs + the rule engine), `build_itinerary` (the rule engine on what was
fetched). Every `tool_call_id` is answered by a `tool` message and the assistant's calls are
written back into the history. The step bound is checked before every model request, with
room kept for the state machine to finish: the itinerary always comes from QUERY_TICKETS →
EVALUATE_OPTIONS → GENERATE_PLAN, and the model's final text is used only when every train
number in it is in this request's results. A failing model hands the turn to the state machine.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import httpx
import openai

from app.agent import texts
from app.agent.fetch import fetch_legs
from app.agent.states import State
from app.agent.trip import TripProblem, city_of
from app.metrics import Metrics
from rules import MAJOR_HUBS, Itinerary, LegKey, TripRequest, plan, required_legs, transfer_legs
from sources.models import SHANGHAI, TrainOffer
from sources.sale_window import in_sale_window, last_sale_day

if TYPE_CHECKING:
    from app.agent.machine import PlanningAgent
    from app.agent.model import Run

log = logging.getLogger("railtrip.agent")

TOOL_STATE = "LLM_TOOLS"
"""How a model request appears in the trace and in `railtrip_agent_state_total`."""

FINISH_RESERVE = 3
"""Steps kept for QUERY_TICKETS → EVALUATE_OPTIONS → GENERATE_PLAN after the model stops."""

MAX_OFFERS_SHOWN = 12
"""Offers per leg shown to the model: enough to choose, small enough for its context."""

_PLACE = {"type": "string", "description": "城市或车站名，如 北京、上海虹桥"}
_DATE = {"type": "string", "description": "YYYY-MM-DD"}


def _route_tool(name: str, description: str) -> dict[str, Any]:
    """A read-only tool over one route and date (origin, destination, date)."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {"origin": _PLACE, "destination": _PLACE, "date": _DATE},
                "required": ["origin", "destination", "date"],
                "additionalProperties": False,
            },
        },
    }


TOOLS: list[dict[str, Any]] = [
    _route_tool("search_tickets", "查询两地之间某天的车次、时刻、余票和票价（只读）。"),
    _route_tool("find_transfers", "没有直达车时，查询经枢纽城市一次中转的方案（只读）。"),
    {
        "type": "function",
        "function": {
            "name": "build_itinerary",
            "description": "用规则引擎根据已查询的余票为本次行程生成并校验行程（只读）。",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
        },
    },
]
TOOL_NAMES = tuple(tool["function"]["name"] for tool in TOOLS)

SYSTEM_PROMPT = (
    "你是铁路出行规划助手。只能通过提供的工具获取车次和余票信息，绝不编造车次、时间或票价。"
    "先用 search_tickets 查询需要的区间（没有直达时用 find_transfers），"
    "然后调用 build_itinerary 生成行程，最后用一两句中文简要说明推荐方案。"
)


class ToolError(ValueError):
    """A tool call the model got wrong; the message goes back to the model as the result."""


class ToolRunner:
    """Drives the model's tool calls for one run, within the agent's step bound."""

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        *,
        metrics: Metrics,
        timeout_s: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self.model = model
        self._metrics = metrics
        self._timeout_s = timeout_s
        self._clock = clock

    async def run(self, agent: PlanningAgent, run: Run, steps: int) -> tuple[State, int]:
        """Let the model call tools; return the state the state machine resumes in, and steps."""
        assert run.request is not None
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": _brief(run)},
        ]
        while True:
            if steps + FINISH_RESERVE >= agent.max_steps:
                run.warn(texts.LLM_STEP_BOUND)
                agent.record(run, TOOL_STATE, State.QUERY_TICKETS.value, 0.0, "bound", None, steps)
                break
            steps += 1
            agent.metrics.agent_state.labels(state=TOOL_STATE).inc()
            started = self._clock()
            try:
                message = await self._ask(messages)
            except (openai.OpenAIError, httpx.HTTPError, ValueError) as exc:
                ms = round((self._clock() - started) * 1000, 2)
                error = f"{type(exc).__name__}: {exc}"[:300]
                agent.record(
                    run, TOOL_STATE, State.QUERY_TICKETS.value, ms, "model failed", error, steps
                )
                self._metrics.degradations.labels(kind="llm_fallback").inc()
                run.warn(texts.LLM_FAILED)
                run.mode = "state_machine"
                break
            calls = list(message.tool_calls or [])
            messages.append(_assistant_entry(message))
            if not calls:
                run.llm_text = (message.content or "").strip() or None
                ms = round((self._clock() - started) * 1000, 2)
                agent.record(
                    run, TOOL_STATE, State.QUERY_TICKETS.value, ms, "final text", None, steps
                )
                break
            names = []
            for call in calls:
                name = call.function.name
                names.append(name)
                content = await self._answer(agent, run, name, call.function.arguments)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
            ms = round((self._clock() - started) * 1000, 2)
            agent.record(run, TOOL_STATE, TOOL_STATE, ms, ",".join(names), None, steps)
        run.tools_done = True
        # The itinerary is always the state machine's: fetch what is missing, plan, validate.
        run.wanted_legs = list(dict.fromkeys([*required_legs(run.request), *run.wanted_legs]))
        return State.QUERY_TICKETS, steps

    async def _ask(self, messages: list[dict[str, Any]]) -> Any:
        started = self._clock()
        response = await self._client.chat.completions.create(
            model=self.model,
            messages=cast("Any", messages),
            tools=cast("Any", TOOLS),
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
                raise ToolError("arguments must be a JSON object")
            if name == "search_tickets":
                result: dict[str, Any] = await _search(agent, run, args)
            elif name == "find_transfers":
                result = await _transfers(agent, run, args)
            elif name == "build_itinerary":
                result = _build(agent, run)
            else:
                raise ToolError(f"unknown tool {name!r}; available: {', '.join(TOOL_NAMES)}")
        except (ToolError, TripProblem, json.JSONDecodeError) as exc:
            log.info("tool call refused", extra={"tool": name, "error": str(exc)[:200]})
            result = {"error": str(exc)}
        return json.dumps(result, ensure_ascii=False, default=str)


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


def _leg(agent: PlanningAgent, run: Run, args: dict[str, Any]) -> LegKey:
    for name in ("origin", "destination", "date"):
        if not isinstance(args.get(name), str):
            raise ToolError(f"{name} is required (string)")
    try:
        day = dt.date.fromisoformat(args["date"])
    except ValueError as exc:
        raise ToolError("date must be YYYY-MM-DD") from exc
    last = last_sale_day(run.input.today)
    if not in_sale_window(day, run.input.today):
        raise ToolError(f"date must be between {run.input.today} and {last}")
    origin = city_of(agent.directory, args["origin"])
    destination = city_of(agent.directory, args["destination"])
    if origin == destination:
        raise ToolError("origin and destination are the same city")
    return LegKey(origin, destination, day)


async def _fetch(agent: PlanningAgent, run: Run, keys: list[LegKey]) -> None:
    missing = [key for key in keys if key not in run.results]
    run.results.update(await fetch_legs(agent.tickets, agent.directory, missing))
    run.wanted_legs.extend(k for k in keys if k not in run.wanted_legs)


def _offer_view(offer: TrainOffer) -> dict[str, Any]:
    return {
        "train_number": offer.train_number,
        "from": offer.origin_station.name,
        "to": offer.destination_station.name,
        "depart": offer.depart_at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M"),
        "arrive": offer.arrive_at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M"),
        "seats": {
            s.seat_class.label: {"status": s.status.value, "left": s.available, "price": s.price}
            for s in offer.seats
        },
    }


async def _search(agent: PlanningAgent, run: Run, args: dict[str, Any]) -> dict[str, Any]:
    key = _leg(agent, run, args)
    await _fetch(agent, run, [key])
    result = run.results[key]
    return {
        "freshness": result.freshness,
        "count": len(result.offers),
        "offers": [_offer_view(o) for o in result.offers[:MAX_OFFERS_SHOWN]],
        "warnings": list(result.warnings),
    }


async def _transfers(agent: PlanningAgent, run: Run, args: dict[str, Any]) -> dict[str, Any]:
    key = _leg(agent, run, args)
    await _fetch(agent, run, [key, *transfer_legs(key, MAJOR_HUBS)])
    one_way = TripRequest(
        origin=key.origin, destination=key.destination, depart_date=key.date, return_trip=False
    )
    found = plan(one_way, run.book(), now=agent.now(run), limit=3)
    return {
        "options": [_itinerary_view(it) for it in found.itineraries],
        "failures": [f.message for f in found.failures],
    }


def _build(agent: PlanningAgent, run: Run) -> dict[str, Any]:
    assert run.request is not None
    missing = [k for k in required_legs(run.request) if k not in run.results]
    if missing:
        wanted = ", ".join(f"{k.origin}→{k.destination} {k.date}" for k in missing)
        raise ToolError(f"search these legs first: {wanted}")
    found = plan(run.request, run.book(), now=agent.now(run), limit=3)
    return {
        "itineraries": [_itinerary_view(it) for it in found.itineraries],
        "notes": list(found.notes),
        "failures": [f.message for f in found.failures],
    }


def _itinerary_view(itinerary: Itinerary) -> dict[str, Any]:
    return {
        "trains": list(itinerary.train_numbers),
        "legs": [
            {
                "train_number": leg.train_number,
                "from": leg.origin_station.name,
                "to": leg.destination_station.name,
                "depart": leg.depart_at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M"),
                "arrive": leg.arrive_at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M"),
                "seat": leg.seat_class.label,
                "price": leg.price,
            }
            for leg in itinerary.legs
        ],
        "total_price": itinerary.total_price,
        "within_budget": itinerary.within_budget,
    }
