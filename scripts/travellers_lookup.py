"""The outside writers' lookup tool for the travellers suite (tests/fixtures/travellers/BRIEF.md).

It answers from the product's public ticket API only — stations, direct tickets, a train's
stops — on the app in-process with its clock set to the case's `today`, and `check` counts
the direct trains on sale that meet every field a case states. It never plans: a writer who
sees a plan would learn the parser's blind spots and write around them.

    python scripts/travellers_lookup.py stations 平遥 --today 2026-12-09
    python scripts/travellers_lookup.py tickets 太原 平遥 2026-12-12 --today 2026-12-09
    python scripts/travellers_lookup.py stops G79 2026-12-12 --today 2026-12-09 [--from 北京西]
    python scripts/travellers_lookup.py check cases.jsonl [--id CASE]

Ticket answers are kept in a SQLite file beside this script (`.cache/tickets.sqlite`, or
`$LOOKUP_CACHE`) so several writers checking the same pairs do not each pay for them.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.evaluation.expectations import (  # noqa: E402
    JourneySpec,
    Offer,
    journey_dates,
    meeting,
    overnight_bounds,
)
from app.evaluation.harness import app_on  # noqa: E402
from app.evaluation.travellers import eval_settings  # noqa: E402
from app.evaluation.verdicts import party_of  # noqa: E402

CACHE = Path(
    os.environ.get("LOOKUP_CACHE") or Path(__file__).with_name(".cache") / "tickets.sqlite"
)


class TicketCache:
    """`/v1/tickets` bodies by (today, origin, destination, date, types)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=30)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, status INTEGER, body TEXT)"
        )

    def get(self, key: str) -> tuple[int, dict[str, Any]] | None:
        row = self._db.execute("SELECT status, body FROM answers WHERE key = ?", (key,)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def put(self, key: str, status: int, body: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", (key, status, json.dumps(body))
        )
        self._db.commit()


async def _tickets(
    client: Any, cache: TicketCache, today: dt.date, a: str, b: str, day: str, types: str = ""
) -> tuple[int, dict[str, Any]]:
    key = json.dumps([today.isoformat(), a, b, day, types], ensure_ascii=False)
    hit = cache.get(key)
    if hit is not None:
        return hit
    params = {"origin": a, "destination": b, "date": day}
    if types:
        params["train_types"] = types
    response = await client.get("/v1/tickets", params=params)
    body = response.json()
    if response.status_code < 500:
        cache.put(key, response.status_code, body)
    return response.status_code, body


def _seats(raw: dict[str, Any]) -> str:
    parts = []
    for seat in raw.get("seats") or []:
        if seat.get("status") == "available":
            count = seat.get("available")
            left = count if count is not None else "有"
            parts.append(f"{seat['seat_class']} ¥{seat.get('price')} ({left})")
        else:
            parts.append(f"{seat['seat_class']} {seat.get('status')}")
    return ", ".join(parts)


async def cmd_stations(args: argparse.Namespace) -> None:
    async with app_on(args.today, eval_settings()) as client:
        response = await client.get("/v1/stations", params={"q": args.name, "limit": 100})
        body = response.json()
        if response.status_code != 200:
            print(f"{response.status_code}: {body.get('message')}")
            return
        rows = body.get("stations") or body.get("items") or []
        if not rows:
            print("no station found")
        for row in rows:
            extra = " ".join(str(row.get(k)) for k in ("city", "pinyin") if row.get(k))
            print(f"{row.get('name')}  {row.get('telecode', '')}  {extra}")


async def cmd_tickets(args: argparse.Namespace) -> None:
    cache = TicketCache(CACHE)
    async with app_on(args.today, eval_settings()) as client:
        status, body = await _tickets(
            client, cache, args.today, args.origin, args.destination, args.date, args.types or ""
        )
    if status != 200:
        print(f"{status}: {body.get('message')}")
        return
    offers = body.get("offers") or []
    print(f"{len(offers)} direct trains, freshness {body.get('freshness')}")
    for raw in offers:
        offer = Offer.from_api(raw)
        print(f"  {offer.describe()}  {offer.minutes} min | {_seats(raw)}")


async def cmd_stops(args: argparse.Namespace) -> None:
    async with app_on(args.today, eval_settings()) as client:
        params = {"date": args.date}
        # A number run on several routes (one writer saw another route's stops): the stations
        # it is ridden between pick the one meant.
        if args.origin:
            params["origin"] = args.origin
        if args.destination:
            params["destination"] = args.destination
        response = await client.get(f"/v1/trains/{args.train}/stops", params=params)
        body = response.json()
    if response.status_code != 200:
        print(f"{response.status_code}: {body.get('message')}")
        return
    for stop in body.get("stops") or []:
        print(
            f"  {stop.get('station', {}).get('name', stop.get('name'))}"
            f"  arr {stop.get('arrive_at') or '-'}  dep {stop.get('depart_at') or '-'}"
        )


def _return_fields(expect: dict[str, Any]) -> dict[str, Any] | None:
    """The return's fields with its dates made explicit (stated, else outbound + nights)."""
    raw = expect.get("return")
    if raw is False:
        return None
    fields = dict(raw) if isinstance(raw, dict) else {}
    out = expect.get("outbound") or {}
    if journey_dates(fields) is None:
        nights = expect.get("nights_at_destination")
        out_dates = journey_dates(out)
        if nights is None or not out_dates:
            return None if not fields else {**fields, "_undated": True}
        later = {(day + dt.timedelta(days=int(nights))).isoformat() for day in out_dates}
        fields["dates"] = sorted(later)
    fields.setdefault("from", out.get("to"))
    fields.setdefault("to", out.get("from"))
    return fields


async def _check_expect(
    client: Any, cache: TicketCache, today: dt.date, expect: dict[str, Any]
) -> list[str]:
    outcome = expect.get("outcome", "plan")
    lines = []
    if "plan" not in (outcome if isinstance(outcome, list) else [outcome]):
        return [f"outcome {outcome}: nothing to look up"]
    party = party_of(expect)
    seats = party.seats if party else 1
    journeys = [("outbound", dict(expect.get("outbound") or {}))]
    back = _return_fields(expect)
    if back is not None:
        journeys.append(("return", back))
    for role, fields in journeys:
        if fields.pop("_undated", False):
            lines.append(f"{role}: no date stated or derivable; not checked")
            continue
        fields = overnight_bounds(fields)
        origins, destinations = fields.get("from") or [], fields.get("to") or []
        dates = journey_dates(fields)
        if not origins or not destinations or not dates:
            lines.append(f"{role}: needs from, to and a date to be checked")
            continue
        spec = JourneySpec(role, fields, tuple(origins), tuple(destinations), dates, dates, seats)
        offers: dict[tuple[str, str, dt.datetime], Offer] = {}
        errors = []
        for a in origins:
            for b in destinations:
                for day in dates:
                    status, body = await _tickets(client, cache, today, a, b, day.isoformat())
                    if status != 200:
                        errors.append(f"{a}→{b} {day}: {status} {body.get('message', '')}")
                        continue
                    for raw in body.get("offers") or []:
                        offer = Offer.from_api(raw)
                        offers.setdefault((offer.train_number, offer.origin, offer.depart), offer)
        good = sorted(meeting(spec, offers.values()), key=lambda o: o.depart)
        lines.append(
            f"{role}: {len(good)} of {len(offers)} direct trains meet every stated field"
            + (f"; e.g. {'; '.join(o.describe() for o in good[:4])}" if good else "")
        )
        for error in dict.fromkeys(errors):
            if "no train" not in error:
                lines.append(f"  ({error})")
    return lines


async def cmd_check(args: argparse.Namespace, cases: list[dict[str, Any]]) -> None:
    cache = TicketCache(CACHE)
    for case in cases:
        if args.id and case.get("id") != args.id:
            continue
        today = dt.date.fromisoformat(case["today"])
        print(f"== {case['id']} (today {today}, {today:%a})")
        async with app_on(today, eval_settings()) as client:
            if "turns" in case:
                for number, turn in enumerate(case["turns"], 1):
                    for line in await _check_expect(client, cache, today, turn.get("expect") or {}):
                        print(f"  turn {number}: {line}")
            else:
                for line in await _check_expect(client, cache, today, case.get("expect") or {}):
                    print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    day = dt.date.fromisoformat
    p = sub.add_parser("stations")
    p.add_argument("name")
    p.add_argument("--today", type=day, required=True)
    p = sub.add_parser("tickets")
    p.add_argument("origin")
    p.add_argument("destination")
    p.add_argument("date")
    p.add_argument("--today", type=day, required=True)
    p.add_argument("--types", default="")
    p = sub.add_parser("stops")
    p.add_argument("train")
    p.add_argument("date")
    p.add_argument("--today", type=day, required=True)
    p.add_argument("--from", dest="origin", default="")
    p.add_argument("--to", dest="destination", default="")
    p = sub.add_parser("check")
    p.add_argument("file")
    p.add_argument("--id", default="")
    args = parser.parse_args()
    if args.command == "check":
        text = Path(args.file).read_text(encoding="utf-8")
        cases = [json.loads(line) for line in text.splitlines() if line.strip()]
        asyncio.run(cmd_check(args, cases))
        return
    handler = {"stations": cmd_stations, "tickets": cmd_tickets, "stops": cmd_stops}
    asyncio.run(handler[args.command](args))


if __name__ == "__main__":
    main()
