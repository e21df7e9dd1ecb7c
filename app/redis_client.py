"""The one Redis client of a replica, built from `RAILTRIP_REDIS_URL` (single, Cluster, Sentinel;
the URL's forms: app/redis_url.py).

Imported only where Redis is configured (the composition root, app/wiring/core.py): redis-py
costs 0.1–0.3 s and 8 MiB to import. Every form gets short socket timeouts (a stalled Redis
costs a request `timeout_s`, not seconds) and a bounded number of connections that callers
queue for (briefly) instead of the default pool that raises past its limit. A Cluster client
must be `initialize()`d before traffic: redis-py 8.0.x crashes when many tasks hit a cold
async cluster client at once (`connect()` below does it).
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from app.redis_url import parse_redis_url

RedisClient = Redis | RedisCluster


class _BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """Sentinel's master discovery with a pool that queues callers past its bound."""


class BoundedRedisCluster(RedisCluster):
    """A cluster client whose commands queue on a semaphore instead of raising past the bound.

    redis-py's async cluster raises `MaxConnectionsError` when a node's connections run out;
    here at most `max_concurrent` commands are in flight, so a node never runs out.
    """

    def __init__(self, *, max_concurrent: int, **kwargs: Any) -> None:
        # Headroom over the gate for pipelines, which bypass execute_command.
        kwargs["max_connections"] = 2 * max_concurrent
        super().__init__(**kwargs)
        self._gate = asyncio.Semaphore(max_concurrent)

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        if self._initialize:
            # Not initialised at start-up (the cluster was unreachable): initialise once,
            # under redis-py's own lock, before letting concurrent commands through.
            await self.initialize()
        async with self._gate:
            return await super().execute_command(*args, **kwargs)


def pool_wait_s(timeout_s: float) -> float:
    """How long a caller queues for a pooled connection: a burst of commands is not a Redis
    outage, so longer than one command's timeout (a stall still frees connections at that)."""
    return max(0.5, 5 * timeout_s)


def build_redis(url: str, *, timeout_s: float, max_connections: int) -> RedisClient:
    """The client for `url` with short timeouts and a bounded, queueing pool."""
    target = parse_redis_url(url)
    common: dict[str, Any] = {
        "socket_connect_timeout": timeout_s,
        "socket_timeout": timeout_s,
        # One quick retry for a pooled connection the server closed; a timeout is not retried
        # (Redis is stalled: waiting again would double the cost).
        "retry": Retry(
            ExponentialBackoff(cap=0.05, base=0.005),
            retries=1,
            supported_errors=(RedisConnectionError,),
        ),
        "health_check_interval": 10,
    }
    if target.kind == "cluster":
        return BoundedRedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in target.hosts],
            password=target.password,
            username=target.username,
            max_concurrent=max_connections,
            **{k: v for k, v in common.items() if k != "health_check_interval"},
        )
    if target.kind == "sentinel":
        sentinel = Sentinel(
            list(target.hosts),
            sentinel_kwargs={"socket_timeout": timeout_s, "socket_connect_timeout": timeout_s},
            **common,
        )
        return sentinel.master_for(
            target.service,
            connection_pool_class=_BlockingSentinelPool,
            db=target.db,
            password=target.password,
            username=target.username,
            max_connections=max_connections,
            timeout=pool_wait_s(timeout_s),
        )
    pool = BlockingConnectionPool.from_url(
        url, max_connections=max_connections, timeout=pool_wait_s(timeout_s), **common
    )
    return Redis(connection_pool=pool)


async def connect(client: RedisClient) -> None:
    """Warm the client up before traffic: a Cluster learns its slots once, here."""
    if isinstance(client, RedisCluster):
        await client.initialize()
