"""The playground at `/`: one HTML page, a stylesheet and a script, no build step and nothing
loaded from outside. It shows what the API gives a frontend: the streamed progress, the
itinerary, freshness per source, warnings, clarifying questions and the sandbox's faults.
With API keys required it takes a key (kept in the tab's sessionStorage, sent as `X-API-Key`);
the page and its assets are open routes (app/policy.py), so it loads without one."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from app.policy import OPEN, declare, route_policy
from sources.models import SEAT_LABELS

STATIC_DIR = Path(__file__).parent / "static"
ASSETS_URL = "/playground"


def install_playground(app: FastAPI) -> None:
    """Serve the page at `/` and its assets under `/playground/`."""

    @app.get("/", include_in_schema=False)
    @route_policy(open=True)
    async def playground() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html; charset=utf-8")

    # Registered before the mount, which would otherwise answer for the whole prefix.
    @app.get(f"{ASSETS_URL}/labels.json", include_in_schema=False)
    @route_policy(open=True)
    async def labels() -> dict[str, dict[str, str]]:
        """The Chinese names the page prints, said once in Python."""
        return {"seat_classes": {str(cls): label for cls, label in SEAT_LABELS.items()}}

    app.mount(ASSETS_URL, StaticFiles(directory=STATIC_DIR), name="playground")
    declare(app.router.routes[-1], OPEN)
