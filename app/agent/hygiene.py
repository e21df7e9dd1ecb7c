"""Reply text for travellers: one notice per fact, no source names or internal codes, and
nothing that contradicts the plan beside it.

The query service words its warnings for the tickets endpoint (which names the source that
failed, since that list is per source there). In a plan those facts are already in
`sources`, so the reply says them once, in the traveller's terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.agent import texts
from app.tickets import texts as ticket_texts
from rules import texts as rule_texts


def _prefix(template: str) -> str:
    return template.split("{", 1)[0]


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[^}]*\}", template)
    return re.compile("^" + ".*?".join(re.escape(p) for p in parts) + "$", re.DOTALL)


_CACHED = [
    _pattern(t)
    for t in (
        ticket_texts.STALE_COPY,
        ticket_texts.CACHED_COPY,
        rule_texts.NOTE_CACHED,
        texts.CACHED_PLAN,
    )
]
_SOURCE_FAILED = _pattern(ticket_texts.SOURCE_FAILED)
_INTERNAL = re.compile(r"^[\x00-\x7f]+$")  # an English, developer-facing line


def traveller_warnings(warnings: Iterable[str], *, returns: bool) -> list[str]:
    """The warnings a traveller reads: deduplicated, one cached notice, no source names."""
    out: list[str] = []
    cached = source_failed = False
    for warning in warnings:
        if any(p.match(warning) for p in _CACHED):
            cached = True
            continue
        if _SOURCE_FAILED.match(warning):
            source_failed = True
            continue
        if _INTERNAL.match(warning) or warning.startswith("unknown place dropped"):
            continue
        if returns and warning == rule_texts.NOTE_ONE_WAY:
            continue  # the plan has a ride home: "only one way" would contradict it
        if warning not in out:
            out.append(warning)
    if source_failed:
        out.append(texts.SOME_SOURCES_FAILED)
    if cached:
        out.append(texts.CACHED_PLAN)
    return out
