"""Sessions never roll back: a version per session, Redis the authority, every write a
compare-and-set. Two stores on the suite's real Redis stand for two replicas."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from app.intent.model import TravelIntent, end_said, with_end_said
from app.observability.metrics import Metrics
from app.redis_client import build_redis
from app.redis_health import RedisHealth
from app.sessions import SESSION_KEY, SessionRead, SessionStore, decode_record, encode_record


def intent(destination: str, passengers: int = 1) -> TravelIntent:
    return TravelIntent(origin="北京", destination=destination, passengers=passengers)


@pytest.fixture
async def replicas(redis_server):
    clients = [build_redis(redis_server.url, timeout_s=1.0, max_connections=4) for _ in range(2)]
    stores = [SessionStore(c, 1800, health=RedisHealth(Metrics())) for c in clients]
    yield stores, clients[0]
    for client in clients:
        await client.aclose()


def new_id() -> str:
    return "s-" + uuid.uuid4().hex[:16]


async def test_a_turn_built_on_an_older_version_never_overwrites_a_newer_one(replicas) -> None:
    (a, b), redis = replicas
    sid = new_id()
    assert await a.save(sid, intent("上海")) is True  # turn 1 on A
    assert await b.load(sid) == intent("上海")
    assert await b.save(sid, intent("上海", 6)) is True  # turn 2 on B: 6 passengers
    # A still holds turn 1 and builds a turn on it without reading: refused, not saved.
    assert await a.save(sid, intent("杭州")) is False
    version, stored = decode_record(await redis.get(SESSION_KEY.format(session_id=sid)))
    assert (version, stored) == (2, intent("上海", 6))
    # A's next turn reads the newer version from Redis, the authority.
    assert await a.load(sid) == intent("上海", 6)


async def test_after_redis_lost_the_record_the_newest_copy_wins_and_every_restore_is_told(
    replicas,
) -> None:
    (a, b), redis = replicas
    sid = new_id()
    await a.save(sid, intent("上海"))  # v1, held by A
    await b.load(sid)
    await b.save(sid, intent("上海", 6))  # v2, held by B
    await redis.delete(SESSION_KEY.format(session_id=sid))  # a Redis restart lost it
    # A holds only v1: put back (nothing else is there), and the turn is told so.
    assert await a.load_checked(sid) == (intent("上海"), SessionRead.RESTORED)
    # B holds v2, newer than what came back: B's copy wins over the older one, told too.
    assert await b.load_checked(sid) == (intent("上海", 6), SessionRead.RESTORED)
    version, stored = decode_record(await redis.get(SESSION_KEY.format(session_id=sid)))
    assert (version, stored) == (2, intent("上海", 6))
    # A's turn built on the v1 it restored is refused rather than roll B's turn back.
    assert await a.save(sid, intent("杭州")) is False
    assert await a.load(sid) == intent("上海", 6)


async def test_a_write_back_after_an_outage_never_overwrites_a_newer_version(replicas) -> None:
    (a, b), redis = replicas
    sid = new_id()
    await a.save(sid, intent("上海"))  # v1
    a._health.went_down(ConnectionError("stall"))  # A alone lost Redis for a while
    assert await a.save(sid, intent("南京")) is False  # v2 kept in A's memory for write-back
    assert a.pending_write_back == 1
    await b.load(sid)
    await b.save(sid, intent("上海", 3))  # v2 from B
    await b.save(sid, intent("上海", 4))  # v3 from B
    await a.write_back()
    version, stored = decode_record(await redis.get(SESSION_KEY.format(session_id=sid)))
    assert (version, stored) == (3, intent("上海", 4))
    assert a.pending_write_back == 0


async def test_the_write_back_set_is_bounded_by_the_memory_store() -> None:
    health = RedisHealth(Metrics())
    redis = build_redis("redis://127.0.0.1:1/0", timeout_s=0.1, max_connections=2)
    store = SessionStore(redis, 1800, health=health, max_local=16)
    health.went_down(ConnectionError("down"))
    for n in range(1000):
        await store.save(f"session-{n:04d}", intent("上海"))
    assert store.pending_write_back <= 2 * 16
    await redis.aclose()


def test_an_old_bare_record_reads_as_version_zero() -> None:
    assert decode_record(intent("上海").model_dump_json()) == (0, intent("上海"))
    assert decode_record(encode_record(5, intent("上海"))) == (5, intent("上海"))
    assert decode_record(b"not json") is None


async def test_a_turn_read_from_this_replicas_copy_while_redis_is_down_says_so(replicas) -> None:
    (a, b), _ = replicas
    sid = new_id()
    await a.save(sid, intent("上海"))  # v1, held by A
    await b.load(sid)
    await b.save(sid, intent("上海", 6))  # v2 on B: A's copy is now older
    a._health.went_down(ConnectionError("stall"))  # A cannot read Redis
    # A's copy is all A has: used, and never passed off as the session itself.
    assert await a.load_checked(sid) == (intent("上海"), SessionRead.COPY)


async def test_after_an_outage_a_newer_version_in_redis_wins_over_a_turn_not_written_back(
    replicas,
) -> None:
    (a, b), _ = replicas
    sid = new_id()
    await a.save(sid, intent("上海"))  # v1
    a._health.went_down(ConnectionError("stall"))
    assert await a.save(sid, intent("南京")) is False  # v2 on A's copy only, told not saved
    await b.load(sid)
    await b.save(sid, intent("上海", 3))  # v2 on B
    await b.save(sid, intent("上海", 4))  # v3 on B
    a._health.came_back()  # Redis is back before A's write-back ran
    # A reads Redis, the authority: B's later turn, not A's older unwritten one.
    assert await a.load_checked(sid) == (intent("上海", 4), SessionRead.AUTHORITY)
    assert a.pending_write_back == 0, "the older turn is never written over the newer one"


def test_a_day_home_said_survives_the_record() -> None:
    # 周日回 said beside 住两晚: the next turn must still know the Sunday was named.
    said = with_end_said(
        TravelIntent(origin="南京", destination="合肥", date_end=dt.date(2026, 12, 6)), True
    )
    decoded = decode_record(encode_record(3, said))
    assert decoded is not None and end_said(decoded[1]) is True
    plain = decode_record(encode_record(3, intent("合肥")))
    assert plain is not None and end_said(plain[1]) is False
