"""The composition root: the app is wired here, in one place, from one settings snapshot.

core.py       the ticket side (directory, vendors, Redis, sources, query services): what
              the CLI's `tickets` and `stops` open alone (`open_ticket_services`)
services.py   `open_services`: every service, opened and closed together
sources.py    the ticket sources (adapters, sandbox vendors, guards) and the query service
access.py     API keys and per-client quotas
llm.py        the model, when one is configured: client, guarded parser, tool mode
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.wiring.services import open_services

__all__ = ["open_services"]


def __getattr__(name: str) -> Any:
    # Imported on first use: importing app.wiring.core must not build the whole app's imports.
    if name == "open_services":
        from app.wiring.services import open_services

        return open_services
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
