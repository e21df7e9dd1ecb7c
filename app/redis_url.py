"""`RAILTRIP_REDIS_URL`, parsed: which kind of Redis and where (no client is built here).

URL forms (a password goes before the first host as `:secret@`):

* `redis://h:6379/0`, `rediss://…`, `unix:///run/redis.sock?db=0` — one server;
* `redis+cluster://h1:6379,h2:6379,h3:6379[/0]` — Redis Cluster from any startup nodes
  (Cluster has only database 0);
* `redis+sentinel://s1:26379,s2:26379/mymaster[/0]` — the master Sentinel names `mymaster`.

Apart from the client (app/redis_client.py) so that the settings validate the URL without
importing redis-py, which costs 0.1–0.3 s and 8 MiB in a process that has no Redis.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

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
