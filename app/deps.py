"""`Annotated` dependency aliases shared by the routers."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.state import AppState


async def get_state(request: Request) -> AppState:
    # async: FastAPI runs a plain `def` dependency in the thread pool, a thread hop per request.
    state: AppState = request.app.state.rt
    return state


State = Annotated[AppState, Depends(get_state)]
