"""The sale window, defined once: 12306 sells today through today + 14 (15 dates).

Every check (query validation, the agent's date bounds, the adapters' guard before an
upstream call, the sandbox's presale) reads it from here. A train goes on sale
`SALE_WINDOW_DAYS` days before its date at its own on-sale time of day (12306 prints it as
the row's `sale_time`, e.g. 202512061245 for a train on 2025-12-20).
"""

from __future__ import annotations

import datetime as dt

SALE_WINDOW_DAYS = 14
SALE_DATES = SALE_WINDOW_DAYS + 1  # how many dates are on sale at once


def last_sale_day(today: dt.date) -> dt.date:
    """The last date on sale today."""
    return today + dt.timedelta(days=SALE_WINDOW_DAYS)


def in_sale_window(day: dt.date, today: dt.date) -> bool:
    """True when `day` is one of the 15 dates on sale `today`."""
    return today <= day <= last_sale_day(today)


def sale_opens_on(day: dt.date) -> dt.date:
    """The date tickets for `day` go on sale."""
    return day - dt.timedelta(days=SALE_WINDOW_DAYS)
