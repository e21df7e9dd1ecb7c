"""The one registry of railtrip's read-only tools, served to the agent's tool mode and to MCP.

A tool is defined once: its name, a one-line description, a pydantic input model (the JSON
schema a model sees), a structured output model (the schema its answer follows) and the
executor. `call_tool` validates the arguments, runs the executor on a `ToolContext`, and turns
anything the caller can correct into a `ToolFailure` (an MCP tool error, an agent tool reply).

    tool             agent  mcp   over
    get_current_date         ✓    the runtime's clock and the sale window
    search_tickets     ✓     ✓    the query service (as GET /v1/tickets)
    find_transfers     ✓     ✓    the transfer search, then hub legs + the rule engine
    build_itinerary    ✓          the rule engine on what this agent run fetched
    train_stops              ✓    the stop-list service
    plan_trip                ✓    the planning use case (as POST /v1/plan)
    check_booking            ✓    the precheck use case (as POST /v1/bookings/precheck)
    find_stations            ✓    the station directory (as GET /v1/stations)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from app.agent.trip import TripProblem
from app.errors import ServiceError
from app.tools import model, planning, tickets
from app.tools.context import ToolContext, ToolFailure
from app.usecases.planning import PlanRequest
from app.usecases.precheck import PrecheckRequest

Surface = Literal["agent", "mcp"]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input: type[BaseModel]
    output: type[BaseModel]
    execute: Callable[[ToolContext, Any], Awaitable[BaseModel]]
    surfaces: frozenset[Surface]
    bears_tickets: bool = False  # its MCP answers count in railtrip_responses_total

    def input_schema(self) -> dict[str, Any]:
        return self.input.model_json_schema()

    def output_schema(self) -> dict[str, Any]:
        return self.output.model_json_schema(mode="serialization")


BOTH: frozenset[Surface] = frozenset({"agent", "mcp"})
MCP: frozenset[Surface] = frozenset({"mcp"})
AGENT: frozenset[Surface] = frozenset({"agent"})

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "get_current_date",
        "获取今天的日期（北京时间）、星期几和可购票的最后一天；把“明天”“下周五”换算成日期前先调用它。",
        model.CurrentDateIn,
        model.CurrentDateOut,
        tickets.current_date,
        MCP,
    ),
    ToolSpec(
        "search_tickets",
        "查询两地之间某天的车次、时刻、余票和票价（只读），可按车型、席别、列车特征（复兴号、智能动车组）、出发时段筛选，按出发、到达、历时或票价排序。",
        model.SearchTicketsIn,
        model.SearchTicketsOut,
        tickets.search_tickets,
        BOTH,
        bears_tickets=True,
    ),
    ToolSpec(
        "find_transfers",
        "没有直达车时，查询中转方案：先查铁路官方中转，再经枢纽城市查询；也可指定中转城市或车站（只读）。",
        model.FindTransfersIn,
        model.FindTransfersOut,
        tickets.find_transfers,
        BOTH,
        bears_tickets=True,
    ),
    ToolSpec(
        "build_itinerary",
        "用规则引擎根据已查询的余票为本次行程生成并校验行程（只读）。",
        model.BuildItineraryIn,
        model.BuildItineraryOut,
        planning.build_itinerary,
        AGENT,
    ),
    ToolSpec(
        "train_stops",
        "查询某趟列车某天的经停站和到发时刻（只读）。",
        model.TrainStopsIn,
        model.TrainStopsOut,
        tickets.train_stops,
        MCP,
        bears_tickets=True,
    ),
    ToolSpec(
        "plan_trip",
        "根据一句中文出行需求（或结构化意图）用实时余票规划并校验完整行程（只读）。",
        PlanRequest,
        model.PlanTripOut,
        planning.plan_trip,
        MCP,
        bears_tickets=True,
    ),
    ToolSpec(
        "check_booking",
        "下单前实时核验某趟车某席别是否仍可预订、票价是否变化（只读，从不使用缓存）。",
        PrecheckRequest,
        model.CheckBookingOut,
        planning.check_booking,
        MCP,
    ),
    ToolSpec(
        "find_stations",
        "按中文名、拼音、首字母或电报码查找车站（只读）。",
        model.FindStationsIn,
        model.FindStationsOut,
        tickets.find_stations,
        MCP,
    ),
)


def ticket_endpoints() -> tuple[str, ...]:
    """`railtrip_responses_total{endpoint}` of the MCP tools whose answers carry tickets."""
    return tuple(f"mcp:{spec.name}" for spec in tools_for("mcp") if spec.bears_tickets)


def tools_for(surface: Surface) -> tuple[ToolSpec, ...]:
    """The tools one surface offers, in registry order."""
    return tuple(spec for spec in TOOLS if surface in spec.surfaces)


def _first_error(exc: ValidationError) -> ToolFailure:
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "arguments"
    return ToolFailure("invalid_input", f"{field}: {first['msg']}", field)


async def call_tool(
    ctx: ToolContext, surface: Surface, name: str, arguments: Mapping[str, Any] | None
) -> BaseModel:
    """Validate, execute, and return the structured answer; `ToolFailure` when the caller
    can correct the call (unknown tool, bad arguments, unknown station, date off sale)."""
    offered = tools_for(surface)
    spec = next((s for s in offered if s.name == name), None)
    if spec is None:
        names = ", ".join(s.name for s in offered)
        raise ToolFailure("unknown_tool", f"unknown tool {name!r}; available: {names}")
    try:
        args = spec.input.model_validate(dict(arguments or {}))
    except ValidationError as exc:
        raise _first_error(exc) from exc
    try:
        return await spec.execute(ctx, args)
    except ServiceError as exc:
        raise ToolFailure.from_service(exc) from exc
    except TripProblem as exc:
        raise ToolFailure("invalid_input", exc.question) from exc
