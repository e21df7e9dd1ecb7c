"""The CLI's face: each command translates its arguments to a use case and its answer to a
table (app/cli/render.py), on services the dispatcher opened. A refusal prints as the HTTP
API says it: `错误 <status>: <message>`, exit code 1."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pydantic import ValidationError

from app.cli.render import render_plan, render_stations, render_stops, render_tickets
from app.errors import InvalidInput, ServiceError
from app.services import Services, TicketServices
from app.usecases.stops import train_stops
from app.usecases.tickets import find_stations, search_tickets
from sources.stations import StationDirectory

Print = Callable[[str], None]


async def tickets(
    services: TicketServices,
    origin: str,
    destination: str,
    date: str,
    *,
    types: str | None = None,
    refresh: bool = False,
) -> str:
    """`tickets 北京 上海 2026-12-04`: offers with their freshness and each source's status."""
    result = await search_tickets(
        services, origin, destination, date, train_types=types, refresh=refresh
    )
    return render_tickets(result.model_dump(mode="json"))


async def stops(
    services: TicketServices,
    train_number: str,
    date: str,
    origin: str | None = None,
    destination: str | None = None,
) -> str:
    """`stops G1 2026-12-04`: a train's stops with times."""
    result = await train_stops(services, train_number, date, origin, destination)
    return render_stops(result.model_dump(mode="json"))


async def plan(services: Services, text: str, today: str | None = None) -> str:
    """`plan "<sentence>"`: the itinerary as tables, through the planning use case."""
    from app.usecases import planning  # the agent and the parser: loaded for `plan` only

    try:
        request = planning.PlanRequest.model_validate({"text": text, "today": today})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "body"
        raise InvalidInput(field, f"{field}: {first['msg']}") from exc
    reply = await planning.plan(services, planning.plan_input(services, request))
    return render_plan(reply.model_dump(mode="json"))


def stations(directory: StationDirectory, query: str) -> tuple[str, int]:
    """`stations 北京`: the station search (exit 1 when nothing matched)."""
    found = find_stations(directory, query, limit=50)
    return render_stations(found.stations, query, found.suggestions), 0 if found.stations else 1


async def answer(command: Awaitable[str], out: Print, err: Print) -> int:
    """Run one command: its table on `out` and 0, or the refusal on `err` and 1."""
    try:
        text = await command
    except ServiceError as exc:
        err(f"错误 {exc.status_code}: {exc.message}")
        return 1
    out(text)
    return 0
