"""Intent parsing: free text → a validated `TravelIntent` (LLM or offline rules)."""

from app.intent.llm import LlmIntentParser, LlmParseError
from app.intent.merge import merge_intent
from app.intent.model import StrictIntentIn, TimeWindow, TravelIntent, ViaStop
from app.intent.offline import parse_offline
from app.intent.parser import IntentParser, ParseOutcome

__all__ = [
    "IntentParser",
    "LlmIntentParser",
    "LlmParseError",
    "ParseOutcome",
    "StrictIntentIn",
    "TimeWindow",
    "TravelIntent",
    "ViaStop",
    "merge_intent",
    "parse_offline",
]
