"""Serve one sandbox vendor standalone: `python -m sources.sandbox --vendor 12306 --port 9001`."""

from __future__ import annotations

import argparse

import uvicorn

from sources.sandbox.faults import FaultConfig
from sources.sandbox.vendor12306 import create_12306_app
from sources.sandbox.vendor_juhe import create_juhe_app


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
    args = parser.parse_args(argv)
    faults = FaultConfig.from_env(args.vendor)
    if args.vendor == "12306":
        app = create_12306_app(faults=faults, require_cookies=not args.no_cookie_check)
    else:
        app = create_juhe_app(faults=faults)
    print(f"sandbox {args.vendor} on http://{args.host}:{args.port} ({faults!r})")
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")


if __name__ == "__main__":
    main()
