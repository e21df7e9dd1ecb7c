"""`/docs` that works offline: Swagger UI served by the app itself.

FastAPI's own page loads its scripts from a CDN, so it is blank without the internet. The
assets come from the pinned `fastapi-offline` package (only its static files are used: the
app stays a plain `FastAPI`). ReDoc is not offered: its page fetches its logo from a CDN.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from app.policy import OPEN, declare, route_policy

ASSETS_URL = "/docs-assets"
ASSETS_DIR = Path(fastapi_offline.__file__).parent / "static"


def install_docs(app: FastAPI) -> None:
    """Serve Swagger UI at `/docs` from local assets.

    The app must be built with `docs_url=None, redoc_url=None` (FastAPI's CDN pages). The
    pages, their assets and the schema are open routes (no key: they hold no data).
    """
    openapi_url = app.openapi_url or "/openapi.json"
    oauth2_redirect_url = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"
    for route in app.router.routes:
        if getattr(route, "path", None) == openapi_url:
            declare(route, OPEN)  # FastAPI's own route: its endpoint is not ours to mark
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS_DIR), name="docs-assets")
    declare(app.router.routes[-1], OPEN)

    @app.get("/docs", include_in_schema=False)
    @route_policy(open=True)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}",
            title=f"{app.title} — API",
            oauth2_redirect_url=f"{root}{oauth2_redirect_url}",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            swagger_ui_parameters=app.swagger_ui_parameters,
        )

    @app.get(oauth2_redirect_url, include_in_schema=False)
    @route_policy(open=True)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()
