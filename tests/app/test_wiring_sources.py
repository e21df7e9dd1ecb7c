"""Sources are built from settings; sandbox fault knobs come from the environment or `.env`."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.observability.metrics import Metrics
from app.runtime import Runtime
from app.settings import Settings
from app.wiring.sources import DeferredTransport, build_http_client, build_sandbox, build_sources
from sources.stations import curated_directory


def test_fault_knobs_are_read_from_dotenv_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text(
        "RAILTRIP_SANDBOX_JUHE_ERROR_RATE=1\nRAILTRIP_SANDBOX_12306_LATENCY_MS=50\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_LATENCY_MS", "7")
    # The suite reads no `.env` unless a test asks for one, as this one does.
    mounts = build_sandbox(Settings(_env_file=".env"), curated_directory(), Runtime())
    assert mounts.faults["juhe"].knobs()["error_rate"] == 1
    assert mounts.faults["12306"].knobs()["latency_ms"] == 7


def test_only_enabled_sandbox_vendors_are_mounted() -> None:
    mounts = build_sandbox(
        Settings(sources=["sandbox-12306"]),
        curated_directory(),
        Runtime(),
    )
    assert list(mounts.faults) == ["12306"]
    assert list(mounts.transports) == ["http://sandbox-12306.internal"]


async def test_juhe_without_an_api_key_is_refused_at_start_up(monkeypatch) -> None:
    monkeypatch.delenv("RAILTRIP_JUHE_API_KEY", raising=False)
    async with httpx.AsyncClient() as client:
        with pytest.raises(ValueError, match="RAILTRIP_JUHE_API_KEY"):
            build_sources(
                Settings(sources=["juhe"]), client, curated_directory(), Metrics(), Runtime()
            )


async def test_the_network_transport_is_built_by_the_first_request_that_leaves_the_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        for variable in (name, name.lower()):
            monkeypatch.delenv(variable, raising=False)
    mounts = build_sandbox(Settings(), curated_directory(), Runtime())
    client = build_http_client(mounts, in_process=True)
    deferred = client._transport
    assert isinstance(deferred, DeferredTransport) and deferred.built is None
    day = Runtime().clock().date().isoformat()
    answer = await client.get(
        "http://sandbox-juhe.internal/fapigw/train/query",
        params={"key": "sandbox", "search_type": 1, "departure_station": "BJP",
                "arrival_station": "SHH", "date": day},
    )  # fmt: skip
    assert answer.status_code == 200 and deferred.built is None  # served in-process
    # Off the sandbox: the first request builds the transport, once.
    seen = []
    deferred._factory = lambda: httpx.MockTransport(lambda r: seen.append(r) or httpx.Response(204))
    await client.get("https://example.invalid/a")
    first = deferred.built
    await client.get("https://example.invalid/b")
    assert deferred.built is first and len(seen) == 2
    await client.aclose()


def test_where_requests_leave_the_process_the_transport_is_built_at_start_up() -> None:
    client = build_http_client(build_sandbox(Settings(), curated_directory(), Runtime()))
    assert isinstance(client._transport, httpx.AsyncHTTPTransport)


def test_with_a_proxy_in_the_environment_httpx_builds_its_own_transports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.internal:3128")
    sandbox = build_sandbox(Settings(), curated_directory(), Runtime())
    client = build_http_client(sandbox, in_process=True)
    assert isinstance(client._transport, httpx.AsyncHTTPTransport)
    proxied = [t for pattern, t in client._mounts.items() if pattern.pattern == "https://"]
    assert proxied and "HTTPProxy" in type(proxied[0]._pool).__name__  # type: ignore[union-attr]
