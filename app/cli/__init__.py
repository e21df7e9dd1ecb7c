"""The command line (`python -m app …`): serve the API, or use the same use cases from a
terminal.

The settings are read once, here, and passed down. `tickets`, `stops` and `plan` open the
services in-process (the embedded default unless the environment says otherwise), call the
use case and print readable tables (app/cli/commands.py); `mcp` serves the tools over stdio
on them. `serve --check-config` prints the effective configuration, secrets hidden.

Each command imports and builds only what it needs: `tickets` and `stops` open the ticket
side alone (app/wiring/core.py: no agent, parser, access control, model client, MCP or HTTP
server stack), `stations` not even that.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from app import __version__
from app.cli import commands
from app.cli.render import render_config
from app.observability.logs import configure_logging
from app.settings import Settings
from sources.stations import default_directory

if TYPE_CHECKING:
    from app.services import Services, TicketServices


def _arguments() -> argparse.ArgumentParser:
    # `railtrip …` once installed, `python -m app …` from a checkout: the same commands.
    prog = "python -m app" if sys.argv[0].endswith("__main__.py") else "railtrip"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--check-config",
        action="store_true",
        help="print the effective configuration (secrets hidden) and exit",
    )
    stations = sub.add_parser("stations", help="search the station directory")
    stations.add_argument("query")
    tickets = sub.add_parser("tickets", help="left tickets between two places on a date")
    tickets.add_argument("origin")
    tickets.add_argument("destination")
    tickets.add_argument("date", help="YYYY-MM-DD")
    tickets.add_argument("--types", default=None, help="train types, e.g. G,D")
    tickets.add_argument("--refresh", action="store_true")
    stops = sub.add_parser("stops", help="a train's stops on a date")
    stops.add_argument("train_number")
    stops.add_argument("date", help="YYYY-MM-DD: the day the train leaves its origin")
    stops.add_argument("--origin", default=None)
    stops.add_argument("--destination", default=None)
    plan = sub.add_parser("plan", help="plan a trip from a sentence")
    plan.add_argument("text")
    plan.add_argument("--today", default=None, help="YYYY-MM-DD (default: today in Shanghai)")
    sub.add_parser("mcp", help="serve the tools over MCP on stdin/stdout")
    sub.add_parser("eval-intent", help="score the intent parser: eval-intent [--parser rules|llm]")
    sub.add_parser("eval-plans", help="plan suites: eval-plans [--suite S] [--verbose]")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; `argv` None: this process's own arguments (`python -m app`, the
    `railtrip` script), and the process ends when it returns."""
    code = _run(list(sys.argv[1:] if argv is None else argv))
    if argv is None:
        # Everything is closed and printed; what is left is the interpreter's exit, whose
        # final collection walks every object the command made (the station list, the
        # network, the compiled patterns): 100-300 ms on this machine, more than the
        # baseline's import spends on it. Frozen objects are skipped by it and the operating
        # system takes the memory back; `atexit` handlers (logging's flush) still run.
        gc.freeze()
    return code


def _run(argv: list[str]) -> int:
    if argv[:1] == ["eval-plans"]:
        from app.evaluation.plans import main as eval_plans

        return eval_plans(argv[1:])
    if argv[:1] == ["eval-intent"]:
        from app.evaluation.intent import main as eval_intent

        return eval_intent(argv[1:])
    args = _arguments().parse_args(argv)
    try:
        settings = Settings()
    except ValueError as exc:
        print(f"invalid configuration: {exc}", file=sys.stderr)
        return 2
    if args.command == "serve":
        if args.check_config:
            print(render_config(settings.describe(), settings.unknown_variables()))
            return 0
        return _serve(settings, args.host, args.port)
    if args.command == "mcp":
        from app.mcp.stdio import serve_stdio

        return _on_services(settings, serve_stdio)
    # The other commands print tables on stdout: logs only for warnings, unless asked.
    settings = settings.with_defaults(log_level="WARNING")
    if args.command == "stations":
        text, code = commands.stations(default_directory(), args.query)
        print(text)
        return code

    async def run_tickets(services: TicketServices) -> int:
        if args.command == "tickets":
            command = commands.tickets(
                services,
                args.origin,
                args.destination,
                args.date,
                types=args.types,
                refresh=args.refresh,
            )
        else:
            command = commands.stops(
                services, args.train_number, args.date, args.origin, args.destination
            )
        return await commands.answer(command, print, _to_stderr)

    async def run_plan(services: Services) -> int:
        command = commands.plan(services, args.text, args.today)
        return await commands.answer(command, print, _to_stderr)

    if args.command in ("tickets", "stops"):
        return _on_ticket_services(settings, run_tickets)
    # A plan asks 12306 after parsing its sentence, and its first query there loads the
    # session page first, 200 ms (the source's rate) before the query itself. The page is
    # loaded as soon as the sources exist instead, so the rest of the wiring and the parse
    # run while that pacing runs: the same requests, as far apart; one that a plan without
    # a query (a question back) leaves unused.
    return _on_services(settings, run_plan, begin_sessions=True)


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr)


def _on_services(
    settings: Settings,
    run: Callable[[Services], Awaitable[int | None]],
    *,
    begin_sessions: bool = False,
) -> int:
    """Open every service on `settings` (the composition root), run `run` on them, close."""
    from app.wiring import open_services

    async def on_services() -> int | None:
        configure_logging(settings.log_level)
        async with open_services(settings, begin_sessions=begin_sessions) as services:
            return await run(services)

    return asyncio.run(on_services()) or 0


def _on_ticket_services(
    settings: Settings, run: Callable[[TicketServices], Awaitable[int | None]]
) -> int:
    """Open the ticket side alone on `settings`, run `run` on it, close."""
    from app.wiring.core import open_ticket_services

    async def on_services() -> int | None:
        configure_logging(settings.log_level)
        async with open_ticket_services(settings) as services:
            return await run(services)

    return asyncio.run(on_services()) or 0


def _serve(settings: Settings, host: str, port: int) -> int:
    """Serve the API; JSON request lines at INFO (RAILTRIP_LOG_LEVEL), uvicorn's lines too."""
    from app import serving
    from app.observability.logs import uvicorn_log_config

    level = settings.log_level
    # uvicorn with bounded connections (README "Security").
    serving.serve(
        host,
        port,
        settings,
        log_config=uvicorn_log_config(level),
        log_level=level.lower(),
        access_log=False,
    )
    return 0
