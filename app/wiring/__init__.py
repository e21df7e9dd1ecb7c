"""The composition root: the app is wired here, in one place, from one settings snapshot.

services.py   `open_services`: every service, opened and closed together
sources.py    the ticket sources (adapters, sandbox vendors, guards) and the query service
access.py     API keys and per-client quotas
llm.py        the model, when one is configured: client, guarded parser, tool mode
"""

from app.wiring.services import open_services

__all__ = ["open_services"]
