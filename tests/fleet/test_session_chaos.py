"""Chat across two real replicas (two uvicorn processes, non-sticky: each turn goes to either)
on one Redis this module owns, while Redis is (a) killed and restarted at once, (b) stalled for
5 s (SIGSTOP … SIGCONT), (c) killed and left down, then restarted empty.

Each session's turns say 再加个同学 (one more passenger), so the party in a reply tells which
version of the session the turn was built on. A turn built on an older version than the last
turn the traveller was shown as saved is a rollback; it is *told* only when the reply says the
session was read from a copy, was lost or is single-turn (`SESSION_RESTORED`,
`SESSION_FROM_COPY`, `SESSION_SINGLE_TURN`, `SESSION_EXPIRED`), never by `SESSION_NOT_SAVED`
alone (which speaks of this turn's write, not of what it was built on). The figures are
printed (`-s`) for the report.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from app.agent import texts
from tests.fleet.processes import Process, start_replicas
from tests.redis_server import RedisServer

pytestmark = pytest.mark.chaos

SESSIONS = 12
ROUND_S = 0.5  # one turn per session per round: 17 turns at most keep the party under 20
READ_TOLD = {
    texts.SESSION_RESTORED,
    texts.SESSION_FROM_COPY,
    texts.SESSION_SINGLE_TURN,
    texts.SESSION_EXPIRED,
}
NOT_SAVED = {texts.SESSION_NOT_SAVED, texts.SESSION_SINGLE_TURN}
OPENING = "我们1个人去上海"  # a trip with no origin or date yet: each turn is a cheap question
ONE_MORE = "再加个同学"


@dataclass
class Session:
    session_id: str | None  # None: the next turn opens a new trip
    saved: int  # the party of the last turn shown as saved


@dataclass
class Tally:
    turns: int = 0
    told: int = 0  # turns whose reply carried a session warning
    rollbacks_told: int = 0
    silent: list[str] = field(default_factory=list)
    bare: int = 0  # of the silent ones: no session warning at all
    failures: list[str] = field(default_factory=list)  # non-200 answers

    def line(self) -> str:
        return (
            f"{self.turns} turns, {self.told} told, rollbacks told {self.rollbacks_told},"
            f" silent {len(self.silent)} ({self.bare} with no session warning at all),"
            f" non-200 {len(self.failures)}"
        )


@dataclass
class Fleet:
    redis: RedisServer
    replicas: list[Process]


@pytest.fixture(scope="module")
def fleet() -> Iterator[Fleet]:
    server = RedisServer()
    server.start()
    started: list[Process] = []
    try:
        env = {"RAILTRIP_REDIS_URL": server.url, "RAILTRIP_LOG_LEVEL": "WARNING"}
        started += start_replicas(env, 2)
        yield Fleet(server, started)
    finally:
        for proc in started:
            proc.stop()
        server.cleanup()


class Traffic:
    """Rounds of one 再加个同学 turn per session, each at a random replica."""

    def __init__(self, fleet: Fleet, client: httpx.AsyncClient, seed: int) -> None:
        self.fleet, self.client = fleet, client
        self.rng = random.Random(seed)
        self.sessions: list[Session] = []
        self.tally = Tally()

    async def open(self) -> None:
        self.sessions = [Session(None, saved=0) for _ in range(SESSIONS)]
        await asyncio.gather(*(self.turn(s) for s in self.sessions))
        assert all(s.session_id is not None for s in self.sessions)

    async def turn(self, session: Session) -> None:
        replica = self.rng.choice(self.fleet.replicas)
        if session.session_id is None:  # a new trip (first, or restated after a loss)
            request = {"text": OPENING}
        else:
            request = {"session_id": session.session_id, "text": ONE_MORE}
        response = await self.client.post(replica.url + "/v1/chat", json=request)
        self.tally.turns += 1
        if response.status_code != 200:
            self.tally.failures.append(f"{response.status_code} {response.text[:200]}")
            return
        body = response.json()
        warnings = set(body["warnings"])
        party = body["intent"]["passengers"]
        if warnings & (READ_TOLD | NOT_SAVED):
            self.tally.told += 1
        if session.session_id is None:
            session.session_id = body["session_id"]
        elif body["session_id"] != session.session_id:
            # The session was lost, and the reply said so: the traveller restates the trip.
            assert texts.SESSION_EXPIRED in warnings, body
            session.session_id, session.saved = None, 0
            return
        elif party - 1 < session.saved:
            if warnings & READ_TOLD:
                self.tally.rollbacks_told += 1
            else:
                self.tally.bare += not warnings & (READ_TOLD | NOT_SAVED)
                self.tally.silent.append(
                    f"{session.session_id[:8]}: built on {party - 1}, saved {session.saved},"
                    f" at {replica.port}, warnings {sorted(warnings)}"
                )
        if not warnings & NOT_SAVED:
            session.saved = party

    async def rounds(self, *, count: int | None = None, until: float | None = None) -> None:
        """`count` rounds, or rounds until `until` (monotonic), one per `ROUND_S` at most."""
        done = 0
        while (count is None or done < count) and (until is None or time.monotonic() < until):
            started = time.monotonic()
            await asyncio.gather(*(self.turn(s) for s in self.sessions))
            done += 1
            # Pacing the traffic (one turn per session per round), not waiting for anything.
            await asyncio.sleep(max(0.0, ROUND_S - (time.monotonic() - started)))


async def redis_back(fleet: Fleet, client: httpx.AsyncClient) -> None:
    """Both replicas see Redis again (bounded: each probes it every 0.5 s)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        states = [(await client.get(r.url + "/readyz")).json()["redis"] for r in fleet.replicas]
        if states == ["ok", "ok"]:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"redis not back on both replicas: {states}")


async def restart_at_once(fleet: Fleet, traffic: Traffic) -> None:
    await asyncio.gather(
        asyncio.to_thread(lambda: (fleet.redis.stop(), fleet.redis.start())),
        traffic.rounds(count=2),
    )


async def stall_5s(fleet: Fleet, traffic: Traffic) -> None:
    fleet.redis.pause()
    try:
        await traffic.rounds(until=time.monotonic() + 5.0)
    finally:
        fleet.redis.resume()


async def down_for_2s(fleet: Fleet, traffic: Traffic) -> None:
    await asyncio.to_thread(fleet.redis.stop)
    try:
        await traffic.rounds(until=time.monotonic() + 2.0)
    finally:
        await asyncio.to_thread(fleet.redis.start)


FAULTS: dict[str, Callable] = {
    "kill-and-restart": restart_at_once,
    "stall-5s": stall_5s,
    "down-2s-then-restart": down_for_2s,
}


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_chat_across_two_replicas_never_rolls_back_silently(fleet: Fleet, fault) -> None:
    async with httpx.AsyncClient(timeout=30.0) as client:
        await redis_back(fleet, client)
        traffic = Traffic(fleet, client, seed=len(fault))
        await traffic.open()
        await traffic.rounds(count=2)
        await FAULTS[fault](fleet, traffic)
        await redis_back(fleet, client)
        await traffic.rounds(count=3)
    tally = traffic.tally
    print(f"{fault}: {tally.line()}")
    assert tally.failures == [], tally.failures[:3]
    assert tally.silent == [], tally.silent[:5]
    assert tally.told > 0, "the fault cost turns: some must have been told"
