"""Shape of the two plan suites (tests/fixtures/plans): they are data other code is measured on,
so a malformed line, a duplicate id or an unknown constraint must fail here, not in a run."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sources.models import SeatClass
from sources.stations import curated_directory

PLANS = Path(__file__).resolve().parents[1] / "fixtures" / "plans"
CONSTRAINTS = {
    "origin",
    "destination",
    "date_start",
    "date_end",
    "return_window",
    "depart_window",
    "arrive_window",
    "arrive_date",
    "passengers",
    "budget",
    "budget_per_person",
    "exclude_seat_classes",
    "exclude_train_types",
    "seat_class",
    "seat_classes",
    "train_types",
    "train_numbers",
    "invalid_train_numbers",
    "order",
    "via",
}
DELIVERY_KINDS = {
    "direct": 10,
    "round_trip": 10,
    "multi_city": 10,
    "transfer": 10,
    "two_transfer": 6,
    "sleeper": 10,
    "budget": 10,
    "time_window": 10,
    "named_train": 10,
    "small_city": 10,
}
SPAN = re.compile(r"^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$")
SEATS = [c.value for c in SeatClass]
TYPES = ["G", "D", "C", "Z", "T", "K"]


def _lines(name: str) -> list[dict[str, Any]]:
    text = (PLANS / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def honesty() -> list[dict[str, Any]]:
    return _lines("honesty.jsonl")


@pytest.fixture(scope="module")
def delivery() -> list[dict[str, Any]]:
    return _lines("delivery.jsonl")


def test_honesty_suite_size_ids_and_keys(honesty):
    assert len(honesty) >= 110
    assert len({item["id"] for item in honesty}) == len(honesty)
    for item in honesty:
        assert set(item) == {"id", "today", "text", "constraints"}, item["id"]
        assert item["text"].strip() and item["constraints"], item["id"]
        assert set(item["constraints"]) <= CONSTRAINTS, item["id"]
        assert {"origin", "destination", "date_start"} <= set(item["constraints"]), item["id"]


def test_honesty_constraints_are_well_formed(honesty):
    directory = curated_directory()
    for item in honesty:
        c, today = item["constraints"], dt.date.fromisoformat(item["today"])
        for name in ("date_start", "date_end", "arrive_date"):
            if name in c:  # inside the sale window of the server clock set to `today`
                assert today <= dt.date.fromisoformat(c[name]) <= today + dt.timedelta(14)
        if "date_end" in c:
            assert c["date_end"] >= c["date_start"], item["id"]
        for name in ("depart_window", "arrive_window", "return_window"):
            if name in c:
                assert SPAN.match(c[name]), item["id"]
        for name in ("exclude_seat_classes", "seat_classes"):
            if name in c:
                assert c[name] == sorted(c[name], key=SEATS.index), item["id"]
        for name in ("exclude_train_types", "train_types"):
            if name in c:
                assert c[name] == sorted(c[name], key=TYPES.index), item["id"]
        if "seat_class" in c:
            assert c["seat_class"] in SEATS
        if "budget_per_person" in c:  # the whole party's budget is always derived
            assert c["budget"] == c["budget_per_person"] * c.get("passengers", 1), item["id"]
        assert c.get("order") in (None, "earliest", "latest", "cheapest", "fastest")
        places = [c["origin"], c["destination"], *(v["city"] for v in c.get("via", []))]
        for place in places:
            directory.resolve(place)  # raises on a name the directory does not know


def test_delivery_suite_size_kinds_and_feasibility(delivery):
    assert len(delivery) >= 110
    assert len({item["id"] for item in delivery}) == len(delivery)
    for item in delivery:
        assert set(item) == {"id", "kind", "today", "text", "feasible", "why"}, item["id"]
        assert item["kind"] in DELIVERY_KINDS and isinstance(item["feasible"], bool)
        assert item["text"].strip() and item["why"].strip(), item["id"]
        dt.date.fromisoformat(item["today"])
    kinds = Counter(item["kind"] for item in delivery)
    assert all(kinds[kind] >= least for kind, least in DELIVERY_KINDS.items()), kinds
    infeasible = sum(not item["feasible"] for item in delivery)
    assert 0.05 <= infeasible / len(delivery) <= 0.15
