"""Text → validated `TravelIntent`."""

from __future__ import annotations

from fastapi import APIRouter

from app.http.contract import INVALID, errors
from app.http.deps import ServicesDep
from app.intent.model import StrictIntentIn
from app.intent.parser import ParseOutcome
from app.usecases.planning import understand

router = APIRouter(prefix="/v1", tags=["intent"])


@router.post(
    "/intent/parse",
    response_model=ParseOutcome,
    operation_id="parseIntent",
    responses=errors(INVALID),
)
async def parse_intent(services: ServicesDep, body: StrictIntentIn) -> ParseOutcome:
    """Parse a travel request (LLM when configured, else the offline rules)."""
    return await understand(services, body.text, body.today)
