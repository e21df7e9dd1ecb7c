"""Station search."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.http.contract import INVALID, errors, ok
from app.http.deps import ServicesDep
from app.usecases.tickets import find_stations

router = APIRouter(prefix="/v1", tags=["stations"])


@router.get(
    "/stations",
    operation_id="searchStations",
    responses={200: ok("Matching stations, best first."), **errors(INVALID)},
)
async def search_stations(
    services: ServicesDep,
    q: Annotated[
        str,
        Query(
            min_length=1, max_length=50, description="名称、拼音、首字母或电报码", examples=["杭州"]
        ),
    ],
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, object]:
    """Stations matching a Chinese name, pinyin, initials or telecode."""
    found = find_stations(services.directory, q, limit)
    return {"query": q, "stations": found.stations, "suggestions": found.suggestions}
