"""`redis+sentinel://` against a real Sentinel (a throwaway `redis-server --sentinel`)."""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from app.redis_client import build_redis
from tests.redis_server import RedisServer, free_port, redis_server_binary


@pytest.fixture
def sentinel_port(own_redis: RedisServer) -> Iterator[int]:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="railtrip-sentinel-"))
    conf = folder / "sentinel.conf"
    conf.write_text(
        f"port {port}\nbind 127.0.0.1\ndir {folder}\n"
        f"sentinel monitor mymaster 127.0.0.1 {own_redis.port} 1\n"
    )
    proc = subprocess.Popen(
        [redis_server_binary(), str(conf), "--sentinel"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:  # polling a process we just started, bounded
            try:
                probe = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
                if probe.sentinel_get_master_addr_by_name("mymaster"):
                    break
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("sentinel did not start")
            time.sleep(0.05)
        yield port
    finally:
        proc.kill()
        proc.wait(timeout=10)


async def test_sentinel_url_reaches_the_master_it_names(
    own_redis: RedisServer, sentinel_port: int
) -> None:
    client = build_redis(
        f"redis+sentinel://127.0.0.1:{sentinel_port}/mymaster/0",
        timeout_s=1.0,
        max_connections=4,
    )
    try:
        await client.set("railtrip:probe", b"via-sentinel")
    finally:
        await client.aclose()
    direct = redis.Redis(host="127.0.0.1", port=own_redis.port)
    assert direct.get("railtrip:probe") == b"via-sentinel"
