"""Serve one sandbox vendor standalone: `python -m sources.sandbox --vendor 12306 --port 9001`."""

from __future__ import annotations

import argparse
import json
import os
import time

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from sources.sandbox.faults import FaultConfig
from sources.sandbox.vendor12306 import create_12306_app
from sources.sandbox.vendor_juhe import create_juhe_app

COUNTERS_PATH = "/_sandbox/counters"


class ExposedCounters:
    """`GET /_sandbox/counters`: the vendor's own request counters, plus when each request
    arrived (wall-clock seconds), so a test in another process can count what this vendor
    received. The counters route itself is not counted."""

    def __init__(self, app: ASGIApp, faults: FaultConfig) -> None:
        self.app = app
        self.faults = faults
        self.arrivals: dict[str, list[float]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == COUNTERS_PATH:
            body = json.dumps({**self.faults.counters(), "arrivals": self.arrivals}).encode()
            headers = [(b"content-type", b"application/json")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] == "http":
            self.arrivals.setdefault(scope["path"], []).append(time.time())
        await self.app(scope, receive, send)


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve the chosen vendor with uvicorn until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m sources.sandbox", description=__doc__)
    parser.add_argument("--vendor", choices=("12306", "juhe"), required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9001)
    parser.add_argument(
        "--no-cookie-check",
        action="store_true",
        help="12306 only: answer queries without the init cookies",
    )
    parser.add_argument(
        "--expose-counters",
        action="store_true",
        help=f"serve the request counters and arrival times at GET {COUNTERS_PATH}",
    )
    args = parser.parse_args(argv)
    faults = FaultConfig.from_env(args.vendor, os.environ)  # this program's own settings
    app: ASGIApp
    if args.vendor == "12306":
        app = create_12306_app(faults=faults, require_cookies=not args.no_cookie_check)
    else:
        app = create_juhe_app(faults=faults)
    if args.expose_counters:
        app = ExposedCounters(app, faults)
    print(f"sandbox {args.vendor} on http://{args.host}:{args.port} ({faults!r})")
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
