"""The command line: serve the API, or use the same services from a terminal.

`tickets` and `plan` run the app in-process (through its lifespan, on the embedded default
unless the environment says otherwise) and print readable tables.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import Any

import httpx

from app import __version__
from sources.models import SeatClass
from sources.stations import default_directory


def main(argv: Sequence[str] | None = None) -> int:
    # `railtrip …` once installed, `python -m app …` from a checkout: the same commands.
    prog = "python -m app" if sys.argv[0].endswith("__main__.py") else "railtrip"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
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
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["eval-plans"]:
        from app.evaluation.plans import main as eval_plans

        # The suites print tables on stdout: the app's own logs only for warnings.
        os.environ.setdefault("RAILTRIP_LOG_LEVEL", "WARNING")
        return eval_plans(argv[1:])
    if argv[:1] == ["eval-intent"]:
        from app.intent.evaluate import main as evaluate

        return evaluate(argv[1:])
    args = parser.parse_args(argv)

    if args.command == "serve":
        return _serve(args.host, args.port)
    if args.command == "mcp":
        from app.mcp.stdio import main as serve_mcp_stdio

        return serve_mcp_stdio()
    # The other commands print tables on stdout: logs only for warnings, unless asked.
    os.environ.setdefault("RAILTRIP_LOG_LEVEL", "WARNING")
    if args.command == "stations":
        return _stations(args.query)
    if args.command == "tickets":
        params = {"origin": args.origin, "destination": args.destination, "date": args.date}
        if args.types:
            params["train_types"] = args.types
        if args.refresh:
            params["refresh"] = "true"
        return asyncio.run(_call("GET", "/v1/tickets", params=params, render=render_tickets))
    if args.command == "stops":
        params = {"date": args.date}
        for name in ("origin", "destination"):
            if getattr(args, name):
                params[name] = getattr(args, name)
        path = f"/v1/trains/{args.train_number}/stops"
        return asyncio.run(_call("GET", path, params=params, render=render_stops))
    body: dict[str, Any] = {"text": args.text}
    if args.today:
        body["today"] = args.today
    from app.render import render_plan

    return asyncio.run(_call("POST", "/v1/plan", json=body, render=render_plan))


def _serve(host: str, port: int) -> int:
    """Serve the API; JSON request lines at INFO (RAILTRIP_LOG_LEVEL), uvicorn's lines too."""
    from app import serving
    from app.logs import uvicorn_log_config
    from app.settings import Settings

    level = Settings().log_level
    # uvicorn with bounded connections (README "Security").
    serving.serve(
        host,
        port,
        log_config=uvicorn_log_config(level),
        log_level=level.lower(),
        access_log=False,
    )
    return 0


def _stations(query: str) -> int:
    directory = default_directory()
    rows = directory.search(query, limit=50)
    if not rows:
        print(f"没有找到「{query}」。您是不是要找：{'、'.join(directory.suggest(query)) or '—'}")
        return 1
    print(
        table(
            ["电报码", "站名", "城市", "拼音"],
            [[s.telecode, s.name, s.city, s.pinyin] for s in rows],
        )
    )
    return 0


async def _call(method: str, path: str, render: Any, **kwargs: Any) -> int:
    """Run one request through the real app (lifespan included) in this process."""
    from app.main import create_app

    app = create_app()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://railtrip") as client:
            response = await client.request(method, path, **kwargs)
    payload = response.json()
    if response.status_code >= 400:
        print(f"错误 {response.status_code}: {payload.get('message')}", file=sys.stderr)
        return 1
    print(render(payload))
    return 0


def render_tickets(payload: dict[str, Any]) -> str:
    """Offers as a table, with the answer's freshness and each source's status."""
    q = payload["query"]
    head = (
        f"{q['origin']['name']} → {q['destination']['name']}  {q['date']}  "
        f"freshness={payload['freshness']}"
        + (f" (age {payload['age_s']:.0f}s)" if payload.get("age_s") else "")
    )
    srcs = "  ".join(
        f"{s['name']}: {s['status']}/{s['freshness']}"
        + (f" {s['latency_ms']}ms" if s.get("latency_ms") is not None else "")
        for s in payload["sources"]
    )
    rows = []
    for o in payload["offers"]:
        seats = "  ".join(_seat_text(seat) for seat in o["seats"])
        rows.append(
            [
                o["train_number"],
                f"{o['origin_station']['name']}→{o['destination_station']['name']}",
                o["depart_at"][11:16],
                o["arrive_at"][11:16]
                + ("+1" if o["arrive_at"][:10] != o["depart_at"][:10] else ""),
                f"{o['duration_min'] // 60}:{o['duration_min'] % 60:02d}",
                seats,
                ",".join(o["sources"]),
            ]
        )
    lines = [
        head,
        f"sources  {srcs}",
        table(["车次", "区间", "出发", "到达", "历时", "席位", "来源"], rows),
    ]
    lines += [f"! {w}" for w in payload.get("warnings", [])]
    lines.append(f"{len(payload['offers'])} trains")
    return "\n".join(lines)


def render_stops(payload: dict[str, Any]) -> str:
    """A stop list as a table, with the answer's freshness."""
    head = f"{payload['train_number']}  {payload['date']}  freshness={payload['freshness']}" + (
        f" (age {payload['age_s']:.0f}s)" if payload.get("age_s") else ""
    )
    rows = [
        [
            str(stop["number"]),
            stop["name"],
            (stop.get("arrive_at") or "----")[11:16] or "----",
            (stop.get("depart_at") or "----")[11:16] or "----",
            "" if stop.get("stopover_min") is None else f"{stop['stopover_min']}分",
        ]
        for stop in payload["stops"]
    ]
    lines = [head, table(["站序", "站名", "到达", "出发", "停留"], rows)]
    lines += [f"! {w}" for w in payload.get("warnings", [])]
    return "\n".join(lines)


def _seat_text(seat: dict[str, Any]) -> str:
    label = SeatClass(seat["seat_class"]).label
    status = {
        "available": "有" if seat["available"] is None else str(seat["available"]),
        "sold_out": "无",
        "waitlist": "候补",
        "not_on_sale": "未开售",
    }[seat["status"]]
    price = f"¥{seat['price']:g}" if seat.get("price") is not None else "¥?"
    return f"{label}{status}{price}"


def _width(text: str) -> int:
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def table(header: list[str], rows: list[list[str]]) -> str:
    """A plain-text table aligned for CJK (double-width) characters."""
    widths = [max(_width(str(c)) for c in col) for col in zip(header, *rows, strict=False)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            str(c) + " " * (w - _width(str(c))) for c, w in zip(cells, widths, strict=False)
        ).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])
