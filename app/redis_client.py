"""The one Redis client of a replica, built from `RAILTRIP_REDIS_URL` (single, Cluster, Sentinel).

URL forms (a password goes before the first host as `:secret@`):

* `redis://h:6379/0`, `rediss://…`, `unix:///run/redis.sock?db=0` — one server;
* `redis+cluster://h1:6379,h2:6379,h3:6379[/0]` — Redis Cluster from any startup nodes
  (Cluster has only database 0);
* `redis+sentinel://s1:26379,s2:26379/mymaster[/0]` — the master Sentinel names `mymaster`.

Every form gets short socket timeouts (a stalled Redis costs a request `timeout_s`, not
seconds) and a bounded number of connections that callers queue for (briefly) instead of the
default pool that raises past its limit. A Cluster client must be `initialize()`d before
traffic: redis-py 8.0.x crashes when many tasks hit a cold async cluster client at once
(`connect()` below does it).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

RedisClient = Redis | RedisCluster
CLUSTER_SCHEME = "redis+cluster"
SENTINEL_SCHEME = "redis+sentinel"


class RedisUrlError(ValueError):
    """`RAILTRIP_REDIS_URL` is not one of the documented forms."""


@dataclass(frozen=True)
class RedisTarget:
    """A parsed `RAILTRIP_REDIS_URL`."""

    kind: str  # "single" | "cluster" | "sentinel"
    url: str
    hosts: tuple[tuple[str, int], ...] = ()
    service: str = ""
    db: int = 0
    password: str | None = field(default=None, repr=False)
    username: str | None = None


def parse_redis_url(url: str) -> RedisTarget:
    """Classify and parse a Redis URL; raises `RedisUrlError` naming what is wrong."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in ("redis", "rediss", "unix"):
        return RedisTarget("single", url)
    if scheme not in (CLUSTER_SCHEME, SENTINEL_SCHEME):
        raise RedisUrlError(
            f"RAILTRIP_REDIS_URL: unknown scheme {scheme!r}; use redis://, rediss://, unix://, "
            f"{CLUSTER_SCHEME}:// or {SENTINEL_SCHEME}://"
        )
    parts = urlsplit(url)
    credentials, _, hostlist = parts.netloc.rpartition("@")
    username, _, password = credentials.partition(":") if credentials else ("", "", "")
    hosts = tuple(_host_port(item, url) for item in hostlist.split(",") if item)
    if not hosts:
        raise RedisUrlError("RAILTRIP_REDIS_URL: no host given")
    path = [p for p in parts.path.split("/") if p]
    service = ""
    if scheme == SENTINEL_SCHEME:
        if not path:
            raise RedisUrlError("RAILTRIP_REDIS_URL: sentinel URL needs /<master name>")
        service, path = path[0], path[1:]
    db = 0
    if path:
        if len(path) > 1 or not path[0].isdigit():
            raise RedisUrlError(f"RAILTRIP_REDIS_URL: bad database in {parts.path!r}")
        db = int(path[0])
    if scheme == CLUSTER_SCHEME and db != 0:
        raise RedisUrlError("RAILTRIP_REDIS_URL: Redis Cluster has only database 0")
    return RedisTarget(
        "cluster" if scheme == CLUSTER_SCHEME else "sentinel",
        url,
        hosts,
        service,
        db,
        unquote(password) or None,
        unquote(username) or None,
    )


def _host_port(item: str, url: str) -> tuple[str, int]:
    host, _, port = item.rpartition(":")
    if not host or not port.isdigit():
        raise RedisUrlError(f"RAILTRIP_REDIS_URL: expected host:port, got {item!r}")
    return host, int(port)


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
