"""The playground at `/`: one HTML page, a stylesheet and a script, no build step and nothing
loaded from outside. It shows what the API gives a frontend: the streamed progress, the
itinerary, freshness per source, warnings, clarifying questions and the sandbox's faults."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).parent / "static"
ASSETS_URL = "/playground"


def install_playground(app: FastAPI) -> None:
    """Serve the page at `/` and its assets under `/playground/`."""
    app.mount(ASSETS_URL, StaticFiles(directory=STATIC_DIR), name="playground")

    @app.get("/", include_in_schema=False)
    async def playground() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html; charset=utf-8")
