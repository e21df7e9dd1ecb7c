"""Who is asking, carried through contextvars from the access middleware to deep callers
(the intent parser's daily LLM budget) without threading it through every signature."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass


@dataclass(frozen=True)
class Caller:
    """The quota owner (`key:<name>` or `addr:<ip>`) and the API key name, if one was shown."""

    client_id: str
    key_name: str | None = None
    admin: bool = False


current_caller: contextvars.ContextVar[Caller | None] = contextvars.ContextVar(
    "current_caller", default=None
)
