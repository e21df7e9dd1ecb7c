"""`Annotated` dependency aliases shared by the routers."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.services import Services


async def get_services(request: Request) -> Services:
    # async: FastAPI runs a plain `def` dependency in the thread pool, a thread hop per request.
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]
