"""Text → validated `TravelIntent`."""

from __future__ import annotations

from fastapi import APIRouter

from app.deps import ServicesDep
from app.intent.model import StrictIntentIn
from app.intent.parser import ParseOutcome
from app.queries import accepted_today

router = APIRouter(prefix="/v1", tags=["intent"])


@router.post("/intent/parse", response_model=ParseOutcome)
async def parse_intent(state: ServicesDep, body: StrictIntentIn) -> ParseOutcome:
    """Parse a travel request (LLM when configured, else the offline rules)."""
    today = accepted_today(body.today, state.runtime.today())
    return await state.intent_parser.parse(body.text, today)
