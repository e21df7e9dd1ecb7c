"""Fault knobs of one sandbox vendor, the seeded dice that apply them, and its request counter.

One `FaultConfig` per vendor app (`app.state.faults`). It is mutable on purpose: the main
app's admin endpoint (`POST /sandbox/{vendor}/faults`) calls `update()` at run time so a
frontend or a test can show every degraded state. The app reads the knobs with its settings
(app/settings.py); the standalone vendor (`python -m sources.sandbox`) from its environment:

    RAILTRIP_SANDBOX_<VENDOR>_LATENCY_MS       added delay per request, ms (>= 0)
    RAILTRIP_SANDBOX_<VENDOR>_ERROR_RATE       share of queries answered 5xx
    RAILTRIP_SANDBOX_<VENDOR>_RATE_LIMIT_RATE  share answered 429 (12306: blocked)
    RAILTRIP_SANDBOX_<VENDOR>_MALFORMED_RATE   share answered 200 with a broken body
    RAILTRIP_SANDBOX_<VENDOR>_HANG_RATE        share never answered
    RAILTRIP_SANDBOX_12306_PATH_MOVED_RATE     share answered 302 to the current query path,
                                               as if the caller's path had gone stale
    RAILTRIP_SANDBOX_12306_PATH_BOUNCE_RATE    share where the query path moves and the stale
                                               one bounces to the error page (not to the new
                                               path): only the init page tells where it went
    RAILTRIP_SANDBOX_12306_LC_PATH_MOVED_RATE  share of transfer searches whose path moves
                                               (queryG ↔ queryU): the old one answers 404, a
                                               302, HTML or "url error", lcQuery/init names
                                               the new one
    RAILTRIP_SANDBOX_12306_TRANSFER_ERROR_RATE share of transfer searches answered 502
    RAILTRIP_SANDBOX_12306_PAGE_ERROR_RATE     share of page loads (leftTicket/init,
                                               lcQuery/init) answered 500
    RAILTRIP_SANDBOX_JUHE_ODD_TRAIN_RATE       share of answers in which trains come off the
                                               format (price "--" / "" / "627.50", train_flags
                                               null, a station code missing, a train without
                                               times)

`<VENDOR>` is `12306` or `JUHE`; every knob defaults to 0. The first five (and the path
knobs) apply to left-ticket queries, rolled by `decide()`; the others are rolled where their
request is answered (`roll(knob)`).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

VENDORS = ("12306", "juhe")
QUERY_KNOBS = (
    "error_rate",
    "rate_limit_rate",
    "malformed_rate",
    "hang_rate",
    "path_moved_rate",
    "path_bounce_rate",
)
"""Rolled by `decide()` for a data request (a left-ticket query, a Juhe query)."""
ENDPOINT_KNOBS = ("lc_path_moved_rate", "transfer_error_rate", "page_error_rate", "odd_train_rate")
"""Rolled by `roll(knob)` where their own request is answered."""
RATE_KNOBS = (*QUERY_KNOBS, *ENDPOINT_KNOBS)
VENDOR_ONLY_KNOBS = {
    "path_moved_rate": "12306",
    "path_bounce_rate": "12306",
    "lc_path_moved_rate": "12306",
    "transfer_error_rate": "12306",
    "page_error_rate": "12306",
    "odd_train_rate": "juhe",
}
KNOBS = ("latency_ms", *RATE_KNOBS)


class Fault(StrEnum):
    """What the dice decided for one request; checked in this order."""

    NONE = "none"
    HANG = "hang"
    ERROR = "error"
    RATE_LIMIT = "rate_limit"
    MALFORMED = "malformed"
    PATH_MOVED = "path_moved"
    PATH_BOUNCE = "path_bounce"
    LC_PATH_MOVED = "lc_path_moved"
    TRANSFER_ERROR = "transfer_error"
    PAGE_ERROR = "page_error"
    ODD_TRAIN = "odd_train"


_FAULT_OF_KNOB = {
    "hang_rate": Fault.HANG,
    "error_rate": Fault.ERROR,
    "rate_limit_rate": Fault.RATE_LIMIT,
    "malformed_rate": Fault.MALFORMED,
    "path_moved_rate": Fault.PATH_MOVED,
    "path_bounce_rate": Fault.PATH_BOUNCE,
}
_FAULT_OF_ENDPOINT_KNOB = {
    "lc_path_moved_rate": Fault.LC_PATH_MOVED,
    "transfer_error_rate": Fault.TRANSFER_ERROR,
    "page_error_rate": Fault.PAGE_ERROR,
    "odd_train_rate": Fault.ODD_TRAIN,
}


def env_prefix(vendor: str) -> str:
    """`RAILTRIP_SANDBOX_12306_` or `RAILTRIP_SANDBOX_JUHE_`."""
    return f"RAILTRIP_SANDBOX_{_vendor(vendor).upper()}_"


class FaultConfig:
    """Per-vendor fault knobs, a seeded RNG deciding faults, and request counters."""

    def __init__(
        self,
        vendor: str,
        *,
        latency_ms: float = 0.0,
        error_rate: float = 0.0,
        rate_limit_rate: float = 0.0,
        malformed_rate: float = 0.0,
        hang_rate: float = 0.0,
        path_moved_rate: float = 0.0,
        seed: int | str | None = None,
        **endpoint_knobs: float,
    ) -> None:
        self.vendor = _vendor(vendor)
        self.latency_ms = 0.0
        self.error_rate = 0.0
        self.rate_limit_rate = 0.0
        self.malformed_rate = 0.0
        self.hang_rate = 0.0
        self.path_moved_rate = 0.0
        self.path_bounce_rate = 0.0
        self.lc_path_moved_rate = 0.0
        self.transfer_error_rate = 0.0
        self.page_error_rate = 0.0
        self.odd_train_rate = 0.0
        self.update(
            latency_ms=latency_ms,
            error_rate=error_rate,
            rate_limit_rate=rate_limit_rate,
            malformed_rate=malformed_rate,
            hang_rate=hang_rate,
            path_moved_rate=path_moved_rate,
            **endpoint_knobs,
        )
        # A fixed default seed: the same run of requests meets the same faults.
        self._rng = random.Random(f"sandbox-{self.vendor}" if seed is None else seed)
        self.requests_total = 0
        self.requests_by_path: Counter[str] = Counter()
        self.faults_injected: Counter[Fault] = Counter()

    @classmethod
    def from_env(
        cls,
        vendor: str,
        environ: Mapping[str, str],
        *,
        seed: int | str | None = None,
    ) -> FaultConfig:
        """Read the knobs from `RAILTRIP_SANDBOX_<VENDOR>_…` in `environ`."""
        env = environ
        prefix = env_prefix(vendor)
        knobs: dict[str, float] = {}
        for knob in KNOBS:
            name = prefix + knob.upper()
            raw = env.get(name, "").strip()
            if not raw:
                continue
            try:
                knobs[knob] = float(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number, got {raw!r}") from None
        try:
            return cls(vendor, seed=seed, **knobs)
        except ValueError as exc:
            raise ValueError(f"{prefix}…: {exc}") from None

    # -- knobs -----------------------------------------------------------------------------

    def update(self, **knobs: float | None) -> dict[str, float]:
        """Change some knobs (None leaves one as it is); all are checked before any changes."""
        unknown = sorted(set(knobs) - set(KNOBS))
        if unknown:
            raise ValueError(f"unknown fault knob(s): {', '.join(unknown)}")
        checked: dict[str, float] = {}
        for knob, value in knobs.items():
            if value is None:
                continue
            number = float(value)
            if not math.isfinite(number) or number < 0:
                raise ValueError(f"{knob} must be a finite number >= 0, got {value!r}")
            if knob in RATE_KNOBS and number > 1:
                raise ValueError(f"{knob} must be between 0 and 1, got {value!r}")
            only = VENDOR_ONLY_KNOBS.get(knob)
            if only is not None and only != self.vendor and number > 0:
                raise ValueError(f"{knob} is a {only} knob; the {self.vendor} vendor has none")
            checked[knob] = number
        for knob, number in checked.items():
            setattr(self, knob, number)
        return self.knobs()

    def knobs(self) -> dict[str, float]:
        """The current knob values by name."""
        return {knob: getattr(self, knob) for knob in KNOBS}

    def seed(self, seed: int | str) -> None:
        """Restart the dice from `seed` (tests pin a sequence of faults this way)."""
        self._rng.seed(seed)

    # -- per request -----------------------------------------------------------------------

    @property
    def latency_s(self) -> float:
        return self.latency_ms / 1000

    def record(self, path: str) -> None:
        """Count one request received (every path, faulty or not)."""
        self.requests_total += 1
        self.requests_by_path[path] += 1

    def decide(self) -> Fault:
        """Roll the dice for one data request; a knob of 1 always fires, 0 never does."""
        for knob, fault in _FAULT_OF_KNOB.items():
            rate = getattr(self, knob)
            # Skip the draw for a zero knob so turning one knob on does not reshuffle others.
            if rate > 0 and self._rng.random() < rate:
                self.faults_injected[fault] += 1
                return fault
        return Fault.NONE

    def roll(self, knob: str) -> bool:
        """Roll one endpoint knob (`lc_path_moved_rate` …) for the request it governs."""
        fault = _FAULT_OF_ENDPOINT_KNOB[knob]
        rate = getattr(self, knob)
        if rate > 0 and self._rng.random() < rate:
            self.faults_injected[fault] += 1
            return True
        return False

    def variant(self, fault: Fault, choices: int) -> int:
        """Which of `choices` renderings of `fault` to use: they alternate deterministically."""
        return (self.faults_injected[fault] - 1) % choices

    def counters(self) -> dict[str, Any]:
        """A JSON-ready snapshot of the request and fault counters."""
        return {
            "requests_total": self.requests_total,
            "requests_by_path": dict(self.requests_by_path),
            "faults_injected": {f.value: n for f, n in self.faults_injected.items()},
        }

    def __repr__(self) -> str:
        knobs = ", ".join(f"{k}={v:g}" for k, v in self.knobs().items())
        return f"FaultConfig({self.vendor!r}, {knobs})"


def _vendor(vendor: str) -> str:
    name = vendor.strip().lower()
    if name not in VENDORS:
        raise ValueError(f"unknown sandbox vendor {vendor!r}; expected one of {VENDORS}")
    return name
