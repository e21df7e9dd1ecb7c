"""The sandbox vendors: the real network as a deterministic timetable (`network.py`, built by
`scripts/build_network.py`) with live-changing inventory, served as ASGI apps that speak the
12306 and Juhe wire formats, with fault knobs and request counters.

    timetable = Timetable(directory)              # share one between both vendors
    app = create_12306_app(faults=FaultConfig("12306", error_rate=0.2), timetable=timetable)
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://sandbox")

`app.state.faults` is the vendor's `FaultConfig`: `update(**knobs)` changes knobs at run time
(raises ValueError naming a bad knob), `knobs()` and `counters()` report them. Standalone:
`python -m sources.sandbox --vendor 12306|juhe --port 9001 [--host 127.0.0.1]`.

The names below are re-exported lazily (PEP 562): the settings read the fault knobs'
names from `sources.sandbox.faults`, and importing that submodule runs this file first; an
eager re-export would load the timetable, the vendors and Starlette into every process
that only reads its configuration (the command line's `stations`, a replica on real sites).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sources.sandbox.faults import Fault, FaultConfig
    from sources.sandbox.inventory import (
        AGGREGATOR_LAG,
        SaleState,
        SeatInventory,
        ride_inventory,
    )
    from sources.sandbox.timetable import Ride, Stop, Timetable, Train
    from sources.sandbox.vendor12306 import create_12306_app
    from sources.sandbox.vendor_juhe import create_juhe_app

_HOMES = {
    "AGGREGATOR_LAG": "inventory",
    "Fault": "faults",
    "FaultConfig": "faults",
    "Ride": "timetable",
    "SaleState": "inventory",
    "SeatInventory": "inventory",
    "Stop": "timetable",
    "Timetable": "timetable",
    "Train": "timetable",
    "create_12306_app": "vendor12306",
    "create_juhe_app": "vendor_juhe",
    "ride_inventory": "inventory",
}

__all__ = [
    "AGGREGATOR_LAG",
    "Fault",
    "FaultConfig",
    "Ride",
    "SaleState",
    "SeatInventory",
    "Stop",
    "Timetable",
    "Train",
    "create_12306_app",
    "create_juhe_app",
    "ride_inventory",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'sources.sandbox' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"sources.sandbox.{home}"), name)
    globals()[name] = value  # looked up once
    return value
