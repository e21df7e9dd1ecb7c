"""The partner aggregator's JSON REST API (`sources/PARTNER_API.md`) as a ticket source.

`parse_partner_trains` is pure: the body is validated against pydantic wire models (extra
fields allowed, so the vendor can add fields without breaking us) and mapped to offers; any
schema violation is a `SourceParseError`, as the contract says. Within a valid body, a fare of
an unknown class or inventory status is skipped rather than fatal: losing one class beats
losing the whole source when the vendor extends an enum. `PartnerSource.search` is the IO.
"""

from __future__ import annotations

import datetime as dt
import logging
from decimal import Decimal, InvalidOperation

import httpx
import orjson
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, field_validator

from sources.base import Clock, shanghai_now
from sources.errors import SourceError, SourceParseError, map_http_errors, raise_for_status
from sources.models import Seat, SeatClass, SeatStatus, Station, TicketQuery, TrainOffer
from sources.stations import StationDirectory

log = logging.getLogger(__name__)

SEARCH_PATH = "/v2/trains/search"

FARE_CLASSES: dict[str, SeatClass] = {
    "business": SeatClass.BUSINESS,
    "premium": SeatClass.PREMIUM,
    "first_class": SeatClass.FIRST,
    "second_class": SeatClass.SECOND,
    "deluxe_soft_sleeper": SeatClass.PREMIUM_SLEEPER,
    "soft_sleeper": SeatClass.SOFT_SLEEPER,
    "emu_sleeper": SeatClass.EMU_SLEEPER,
    "hard_sleeper": SeatClass.HARD_SLEEPER,
    "soft_seat": SeatClass.SOFT_SEAT,
    "hard_seat": SeatClass.HARD_SEAT,
    "standing": SeatClass.NO_SEAT,
}
INVENTORY_STATUSES: dict[str, SeatStatus] = {
    "available": SeatStatus.AVAILABLE,
    "limited": SeatStatus.AVAILABLE,
    "sold_out": SeatStatus.SOLD_OUT,
    "waitlist": SeatStatus.WAITLIST,
}


# -- wire schema ----------------------------------------------------------------------------


class Wire(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class WireStation(Wire):
    code: str
    name: str


class WirePrice(Wire):
    amount: str
    currency: str = "CNY"

    @field_validator("amount")
    @classmethod
    def _decimal(cls, value: str) -> str:
        try:
            amount = Decimal(value)
        except InvalidOperation as exc:
            raise ValueError(f"amount {value!r} is not a decimal") from exc
        if not amount.is_finite() or amount < 0:
            raise ValueError(f"amount {value!r} is not a price")
        return value


class WireInventory(Wire):
    status: str
    remaining: int | None = Field(default=None, ge=0)


class WireFare(Wire):
    fare_class: str = Field(alias="class")
    price: WirePrice | None = None
    inventory: WireInventory


class WireTrain(Wire):
    train_id: str
    code: str
    from_station: WireStation = Field(alias="from")
    to_station: WireStation = Field(alias="to")
    departure: AwareDatetime
    arrival: AwareDatetime
    duration_minutes: int = Field(ge=0)
    fares: list[WireFare] = Field(default_factory=list)


class WireSearch(Wire):
    request_id: str | None = None
    as_of: AwareDatetime | None = None
    trains: list[WireTrain]


# -- pure parsing ---------------------------------------------------------------------------


def parse_partner_trains(
    payload: object,
    directory: StationDirectory,
    fetched_at: dt.datetime,
    source_name: str,
) -> list[TrainOffer]:
    """Offers from a 200 search body; a body off the schema is a `SourceParseError`."""
    try:
        body = WireSearch.model_validate(payload)
        return [_offer(train, directory, fetched_at, source_name) for train in body.trains]
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        raise SourceParseError(source_name, f"off schema at {where}: {first['msg']}") from exc
    except ValueError as exc:
        raise SourceParseError(source_name, str(exc)) from exc


def _offer(
    train: WireTrain, directory: StationDirectory, fetched_at: dt.datetime, source_name: str
) -> TrainOffer:
    if train.arrival < train.departure:
        raise ValueError(f"{train.code}: arrives before it departs")
    try:
        return _build_offer(train, directory, fetched_at, source_name)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ValueError(f"{train.code}: {first['loc'][0]}: {first['msg']}") from exc


def _build_offer(
    train: WireTrain, directory: StationDirectory, fetched_at: dt.datetime, source_name: str
) -> TrainOffer:
    return TrainOffer(
        train_number=train.code,
        train_no=train.train_id,
        origin_station=_station(train.from_station, directory),
        destination_station=_station(train.to_station, directory),
        depart_at=train.departure,
        arrive_at=train.arrival,
        duration_min=train.duration_minutes,
        seats=tuple(seat for fare in train.fares if (seat := _seat(fare, train.code)) is not None),
        sources=(source_name,),
        fetched_at=fetched_at,
    )


def _seat(fare: WireFare, code: str) -> Seat | None:
    seat_class = FARE_CLASSES.get(fare.fare_class)
    status = INVENTORY_STATUSES.get(fare.inventory.status)
    if seat_class is None or status is None:
        log.info("%s: skipped fare %s/%s", code, fare.fare_class, fare.inventory.status)
        return None
    available: int | None = None
    if status is SeatStatus.AVAILABLE:
        available = fare.inventory.remaining  # null for "limited": some left, count unknown
        if available == 0:
            status = SeatStatus.SOLD_OUT
    elif status is SeatStatus.SOLD_OUT:
        available = 0
    price = None
    # A price in another currency would be wrong in yuan; unknown beats wrong.
    if fare.price is not None and fare.price.currency == "CNY":
        price = float(Decimal(fare.price.amount))
    return Seat(seat_class=seat_class, status=status, available=available, price=price)


def _station(wire: WireStation, directory: StationDirectory) -> Station:
    known = directory.get(wire.code)
    # Unknown to our directory: keep the ride with the vendor's name; the city is a best guess.
    return known or Station(telecode=wire.code, name=wire.name, city=wire.name)


def error_detail(response: httpx.Response) -> str | None:
    """`CODE: message` from the contract's error body, if the body is one."""
    try:
        body = orjson.loads(response.content)
    except orjson.JSONDecodeError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return None
    return f"{error.get('code', '?')}: {error.get('message', '')}".strip()


# -- IO -------------------------------------------------------------------------------------


class PartnerSource:
    """The partner search endpoint at `base_url` (with `X-Api-Key` when one is configured)."""

    def __init__(
        self,
        name: str,
        client: httpx.AsyncClient,
        base_url: str,
        directory: StationDirectory,
        clock: Clock = shanghai_now,
        api_key: str | None = None,
    ) -> None:
        self.name = name
        self._client = client
        self._base_url = base_url.rstrip("/")
        self._directory = directory
        self._clock = clock
        self._api_key = api_key

    async def search(self, query: TicketQuery) -> list[TrainOffer]:
        """One search request, parsed and filtered by the query's train types."""
        params: dict[str, str] = {
            "from": query.origin,
            "to": query.destination,
            "date": query.date.isoformat(),
        }
        if query.train_types:
            params["types"] = ",".join(sorted(query.train_types))
        headers = {"Accept": "application/json"}
        if self._api_key:
            headers["X-Api-Key"] = self._api_key
        with map_http_errors(self.name):
            response = await self._client.get(
                self._base_url + SEARCH_PATH, params=params, headers=headers
            )
        self._raise_for_status(response)
        try:
            payload = orjson.loads(response.content)
        except orjson.JSONDecodeError as exc:
            raise SourceParseError(self.name, "200 body is not JSON") from exc
        offers = parse_partner_trains(payload, self._directory, self._clock(), self.name)
        return [offer for offer in offers if query.admits(offer)]

    def _raise_for_status(self, response: httpx.Response) -> None:
        try:
            raise_for_status(self.name, response)
        except SourceError as exc:
            # Keep the classification, add the vendor's own code and message to the text.
            detail = error_detail(response)
            if detail:
                exc.message = f"{exc.message} {detail}"
                exc.args = (f"{self.name}: {exc.message}",)
            raise
