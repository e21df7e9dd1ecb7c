"""The query parameters of `GET /v1/tickets`, read once for the route and its hit path.

They are read directly (each refusal naming its field) instead of through FastAPI's
per-parameter machinery, which was a third of a cache hit's cost (bench/hit_profile.py); the
route documents them in OpenAPI by hand (app/http/routers/tickets.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.errors import InvalidInput, excerpt


@dataclass(frozen=True, slots=True)
class TicketArgs:
    """What a caller asked `GET /v1/tickets` for, its lengths checked; not yet resolved."""

    origin: str
    destination: str
    date: str
    train_types: str | None
    refresh: bool
    fare: str | None


def read_ticket_args(params: Mapping[str, str]) -> TicketArgs:
    """The parameters of a ticket query; a missing, overlong or malformed one is refused by
    name (422)."""
    return TicketArgs(
        origin=_text(params, "origin", 40),
        destination=_text(params, "destination", 40),
        date=_text(params, "date", 10),
        train_types=_text(params, "train_types", 20, required=False) or None,
        refresh=_flag(params, "refresh"),
        fare=_text(params, "fare", 10, required=False) or None,
    )


def _text(params: Mapping[str, str], name: str, max_length: int, *, required: bool = True) -> str:
    value = params.get(name)
    if value is None or value == "":
        if required:
            raise InvalidInput(name, f"{name}: field required")
        return ""
    if len(value) > max_length:
        raise InvalidInput(name, f"{name}: at most {max_length} characters")
    return value


def _flag(params: Mapping[str, str], name: str) -> bool:
    value = params.get(name, "false").lower()
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off", ""):
        return False
    raise InvalidInput(name, f"{name}: expected true or false, got {excerpt(value)}")
