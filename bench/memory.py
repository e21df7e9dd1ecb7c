"""Resident memory: the ticket cache stays bounded, and chat sessions live in Redis, not here.

Part 1 — 20,000 distinct cached queries. The real `TicketService` and `MemoryTier` (L1 plus
its stale copy, both bounded by `memory_max_entries`, default 4096) are fed by two fake
sources that build a fresh list of 12 offers per query (as an adapter parsing a payload
would); HTTP is bypassed. L1's TTL is set to 600 s so that the bound, not expiry, is what
limits it. RSS (VmRSS) and len(L1) are read after 0 (warm-up), 5,000, 10,000 and 20,000
queries in one process; a plateau means the 5,000 → 20,000 growth is a small part of the
0 → 5,000 growth.

Part 2 (run first, in the same process) — 1,000 chat sessions. The real app with a
throwaway `redis-server` (tests/redis_server.py) answers `POST /v1/chat` for 1,000 new
sessions (a few sentences in turn) through httpx's ASGI transport; RSS of this process and
Redis's `used_memory` and session-key count are read before and after.

Part 0 (first, in a child process) — a served replica after start-up: `python -m uvicorn
app.main:app` on the embedded default in a clean environment, RSS (VmRSS of the child) once
`/healthz` answers (target, issue 27: ≤ 100 MiB), again after one ticket query, and after
one plan whose place is typed by its sound (郑洲: the reading tables and the agent loaded).

Run from the repository root: `.venv/bin/python bench/memory.py [--queries 20000]
[--sessions 1000] [--startup-only]`.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import itertools
import os
import re
import string
import subprocess
import sys
import time
from pathlib import Path

import httpx
from harness import ROOT, rss_kib

from app.main import create_app
from app.observability.metrics import Metrics
from app.settings import Settings
from app.tickets.cache import MemoryTier
from app.tickets.model import ResolvedQuery
from app.tickets.service import TicketService
from sources.models import SHANGHAI, Seat, SeatClass, SeatStatus, Station, TicketQuery, TrainOffer
from sources.stations import Place

OFFERS_PER_QUERY = 12
CHAT_SENTENCES = (
    "下周五从北京去上海玩三天，预算两千左右",
    "这个周末从杭州去上海玩",
    "我想去成都玩",
    "一家三口下周六从上海去杭州玩两天",
)


class FakeSource:
    """Duck-types a guarded source: a name and `search`, answering fresh offers each time."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def search(self, query: TicketQuery) -> list[TrainOffer]:
        origin = Station(telecode=query.origin, name=query.origin + "站", city=query.origin)
        destination = Station(
            telecode=query.destination, name=query.destination + "站", city=query.destination
        )
        start = dt.datetime.combine(query.date, dt.time(6), SHANGHAI)
        offers = []
        for index in range(OFFERS_PER_QUERY):
            depart = start + dt.timedelta(minutes=70 * index)
            offers.append(
                TrainOffer(
                    train_number=f"G{100 + index}",
                    origin_station=origin,
                    destination_station=destination,
                    depart_at=depart,
                    arrive_at=depart + dt.timedelta(minutes=278),
                    duration_min=278,
                    seats=(
                        Seat(
                            seat_class=SeatClass.SECOND,
                            status=SeatStatus.AVAILABLE,
                            available=index + 3,
                            price=553.0,
                        ),
                        Seat(
                            seat_class=SeatClass.FIRST,
                            status=SeatStatus.AVAILABLE,
                            available=None,
                            price=933.0,
                        ),
                        Seat(
                            seat_class=SeatClass.BUSINESS,
                            status=SeatStatus.SOLD_OUT,
                            available=0,
                            price=1748.0,
                        ),
                    ),  # fmt: skip
                    fetched_at=dt.datetime.now(SHANGHAI),
                    sources=(self.name,),
                )
            )
        return offers


def distinct_queries() -> itertools.chain[TicketQuery]:
    """Endless distinct queries: made-up telecode pairs × 15 days."""
    codes = ("".join(c) for c in itertools.product(string.ascii_uppercase, repeat=3))
    today = dt.date(2026, 12, 1)
    return itertools.chain.from_iterable(
        (
            TicketQuery(origin=code, destination="SHH", date=today + dt.timedelta(days=d))
            for d in range(15)
        )
        for code in codes
        if code != "SHH"
    )


async def cache_part(total: int) -> list[tuple[int, int, int, int]]:
    """(queries, RSS KiB, len L1, len stale) at each checkpoint."""
    settings = Settings()
    memory = MemoryTier(600, settings.stale_ttl_s, settings.memory_max_entries)
    service = TicketService([FakeSource("fake-a"), FakeSource("fake-b")], Metrics(), memory)
    queries = distinct_queries()
    echo = Station(telecode="SHH", name="上海", city="上海")
    city = Place(name="上海", city="上海", telecode="SHH", is_city=True, stations=(echo,))
    checkpoints = sorted({0, 5_000, 10_000, total} - {q for q in (10_000,) if q >= total})
    rows = []
    done = 0
    for target in checkpoints:
        while done < target:
            query = next(queries)
            result = await service.search(ResolvedQuery(query, city, city))
            assert result.freshness == "realtime"
            done += 1
        if target == 0:
            for _ in range(200):  # warm-up: imports, first allocations; not counted
                await service.search(ResolvedQuery(next(queries), city, city))
        gc.collect()
        rows.append((done, rss_kib(), len(memory), len(memory._stale)))
    return rows


async def chat_part(sessions: int) -> dict[str, float]:
    """RSS and Redis figures before and after `sessions` new chat sessions."""
    sys.path.insert(0, str(ROOT))
    from tests.redis_server import RedisServer

    server = RedisServer()
    server.start()
    try:
        app = create_app(Settings(redis_url=server.url, log_level="WARNING"))
        async with app.router.lifespan_context(app):
            redis = app.state.services.redis
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                for text in CHAT_SENTENCES:  # warm-up: imports, tickets into the caches
                    assert (await client.post("/v1/chat", json={"text": text})).status_code == 200
                await redis.flushdb()
                gc.collect()
                before_rss = rss_kib()
                before_redis = (await redis.info("memory"))["used_memory"]
                ids = set()
                for index in range(sessions):
                    response = await client.post(
                        "/v1/chat", json={"text": CHAT_SENTENCES[index % len(CHAT_SENTENCES)]}
                    )
                    assert response.status_code == 200, response.text[:300]
                    ids.add(response.json()["session_id"])
                gc.collect()
                after_rss = rss_kib()
                after_redis = (await redis.info("memory"))["used_memory"]
                keys = 0
                async for _ in redis.scan_iter(match="railtrip:session:*", count=1000):
                    keys += 1
    finally:
        server.stop()
        server.cleanup()
    return {
        "sessions": len(ids),
        "keys": keys,
        "rss_before": before_rss,
        "rss_after": after_rss,
        "redis_before": before_redis,
        "redis_after": after_redis,
    }


def child_rss_kib(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+)\s+kB", text, re.MULTILINE)
    return int(match[1]) if match else -1


def startup_part() -> tuple[int, int, int]:
    """RSS (KiB) of a served replica once ready, after one ticket query, after one plan."""
    sys.path.insert(0, str(ROOT))
    from tests.redis_server import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}
    argv = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
    proc = subprocess.Popen(
        [*argv, "--log-level", "warning"],
        cwd=ROOT,
        env={**env, "RAILTRIP_LOG_LEVEL": "WARNING"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(url + "/healthz", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)  # a bounded poll of the child we started
        else:
            raise SystemExit("the replica did not start within 60 s")
        ready = child_rss_kib(proc.pid)
        day = dt.datetime.now(SHANGHAI).date() + dt.timedelta(days=3)
        params = {"origin": "北京", "destination": "上海", "date": day.isoformat()}
        assert httpx.get(url + "/v1/tickets", params=params, timeout=30).status_code == 200
        queried = child_rss_kib(proc.pid)
        plan = {"text": "下周五从郑洲去上海玩三天，预算两千左右"}
        assert httpx.post(url + "/v1/plan", json=plan, timeout=60).status_code == 200
        return ready, queried, child_rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=20_000)
    parser.add_argument("--sessions", type=int, default=1_000)
    parser.add_argument("--startup-only", action="store_true")
    args = parser.parse_args()
    ready, queried, planned = startup_part()
    print(
        f"served replica (embedded default): RSS after start-up {ready / 1024:.1f} MiB, "
        f"after one ticket query {queried / 1024:.1f} MiB, after one plan "
        f"{planned / 1024:.1f} MiB (target ≤ 100 MiB after start-up)"
    )
    if args.startup_only:
        return
    # Chat first: the cache part frees ~150 MiB at its end, which would mask growth after it.
    chat = await chat_part(args.sessions) if args.sessions else None
    rows = await cache_part(args.queries)

    print("ticket cache (real TicketService + MemoryTier, max_entries 4096, TTL 600 s):")
    for done, rss, fresh, stale in rows:
        print(f"  after {done:>6} queries: RSS {rss / 1024:7.1f} MiB  len(L1) {fresh:5}  "
              f"len(stale) {stale:5}")  # fmt: skip
    base, at5k, last = rows[0], rows[1], rows[-1]
    print()
    print("== memory ==")
    print(f"L1 entries after {at5k[0]} / {last[0]} queries: {at5k[2]} / {last[2]} (bound 4096)")
    print(
        f"RSS after 0 / {at5k[0]} / {last[0]} queries: {base[1] / 1024:.1f} / "
        f"{at5k[1] / 1024:.1f} / {last[1] / 1024:.1f} MiB"
    )
    grow_first = at5k[1] - base[1]
    grow_rest = last[1] - at5k[1]
    print(
        f"RSS growth {at5k[0]}→{last[0]} over 0→{at5k[0]}: {grow_rest / 1024:.1f} / "
        f"{grow_first / 1024:.1f} MiB = {grow_rest / max(1, grow_first):.2f}  "
        f"(queries ratio {(last[0] - at5k[0]) / at5k[0]:.0f}x; plateau ≈ 0)"
    )
    per_entry = grow_first * 1024 / max(1, at5k[2] - base[2])
    print(
        f"RSS per L1 entry ({OFFERS_PER_QUERY} offers, 3 seat classes each): "
        f"{per_entry / 1024:.1f} KiB, so the 4096-entry bound ≈ "
        f"{per_entry * 4096 / 2**20:.0f} MiB at this offer count"
    )
    if chat is not None:
        per_session_rss = (chat["rss_after"] - chat["rss_before"]) * 1024 / chat["sessions"]
        per_session_redis = (chat["redis_after"] - chat["redis_before"]) / chat["sessions"]
        print(
            f"chat: {chat['sessions']:.0f} sessions, {chat['keys']:.0f} session keys in Redis; "
            f"RSS {chat['rss_before'] / 1024:.1f} → {chat['rss_after'] / 1024:.1f} MiB "
            f"({per_session_rss:.0f} B/session in-process)"
        )
        print(
            f"chat: Redis used_memory {chat['redis_before'] / 1024:.0f} → "
            f"{chat['redis_after'] / 1024:.0f} KiB ({per_session_redis:.0f} B/session)"
        )


if __name__ == "__main__":
    asyncio.run(main())
