"""API keys at the HTTP boundary: missing, invalid and valid keys; the precheck alone; admin
routes; and no configured key ever reaching a log line."""

from __future__ import annotations

import logging

import pytest

from app.access import hash_key
from app.observability.logs import JsonFormatter
from app.settings import Settings
from tests.app.apps import running, sample

FRONTEND_KEY = "rt_frontend_6b1f0e9a77c4"
OPS_KEY = "rt_ops_02d8c3aa5e11"
KEYS = [f"frontend:{hash_key(FRONTEND_KEY)}", f"ops:{hash_key(OPS_KEY)}:admin"]
STATIONS = "/v1/stations?q=北京"
TICKETS = {"origin": "北京", "destination": "上海", "date": "2026-12-04"}


def keyed(**overrides: object) -> Settings:
    return Settings(api_keys=KEYS, **overrides)


async def test_without_a_key_the_api_answers_401_and_counts_it():
    async with running(keyed()) as (client, state):
        r = await client.get(STATIONS)
        assert r.status_code == 401
        assert r.json()["code"] == "unauthorized"
        assert r.headers["www-authenticate"].startswith("Bearer")
        assert sample(state, "railtrip_rejections_total", reason="unauthorized") == 1


async def test_an_invalid_key_is_401_and_never_echoed():
    async with running(keyed()) as (client, state):
        r = await client.get(STATIONS, headers={"Authorization": "Bearer not-a-real-key-123"})
        assert r.status_code == 401
        assert "not-a-real-key-123" not in r.text
        r = await client.get(STATIONS, headers={"X-API-Key": FRONTEND_KEY + "x"})
        assert r.status_code == 401
        assert sample(state, "railtrip_rejections_total", reason="unauthorized") == 2


@pytest.mark.parametrize(
    "headers",
    [{"Authorization": f"Bearer {FRONTEND_KEY}"}, {"X-API-Key": FRONTEND_KEY}],
    ids=["bearer", "x-api-key"],
)
async def test_a_valid_key_in_either_header_is_served(headers):
    async with running(keyed()) as (client, state):
        r = await client.get("/v1/tickets", params=TICKETS, headers=headers)
        assert r.status_code == 200 and r.json()["offers"]
        assert sample(state, "railtrip_rejections_total", reason="unauthorized") == 0


async def test_probes_and_docs_stay_open_with_keys_on():
    async with running(keyed()) as (client, _):
        for path in ("/healthz", "/readyz", "/openapi.json", "/", "/docs"):
            assert (await client.get(path)).status_code == 200, path
        assert (await client.get("/metrics")).status_code == 401


async def test_the_precheck_can_require_a_key_while_the_rest_is_open():
    settings = keyed(api_keys_required=False, precheck_requires_key=True)
    async with running(settings) as (client, _):
        assert (await client.get(STATIONS)).status_code == 200
        body = {**TICKETS, "train_number": "G9999", "seat_class": "second"}
        assert (await client.post("/v1/bookings/precheck", json=body)).status_code == 401
        r = await client.post(
            "/v1/bookings/precheck", json=body, headers={"X-API-Key": FRONTEND_KEY}
        )
        assert r.status_code == 409 and r.json()["reason"] == "not_found"


async def test_sandbox_faults_need_an_admin_key_when_keys_are_on():
    async with running(keyed()) as (client, _):
        knobs = {"latency_ms": 0}
        r = await client.post("/sandbox/12306/faults", json=knobs)
        assert r.status_code == 401
        r = await client.post(
            "/sandbox/12306/faults", json=knobs, headers={"X-API-Key": FRONTEND_KEY}
        )
        assert r.status_code == 403 and r.json()["code"] == "forbidden"
        r = await client.post("/sandbox/12306/faults", json=knobs, headers={"X-API-Key": OPS_KEY})
        assert r.status_code == 200


async def test_logs_never_contain_a_configured_key(caplog):
    caplog.set_level(logging.DEBUG)
    async with running(keyed(log_level="DEBUG")) as (client, _):
        for headers in (
            {"Authorization": f"Bearer {FRONTEND_KEY}"},
            {"X-API-Key": OPS_KEY},
            {"X-API-Key": "wrong-key-value"},
            {},
        ):
            await client.get("/v1/tickets", params=TICKETS, headers=headers)
            await client.post("/v1/plan", json={"text": "后天北京到上海"}, headers=headers)
    formatter = JsonFormatter()
    lines = [formatter.format(record) for record in caplog.records]
    assert any('"msg":"request"' in line for line in lines), "request lines were captured"
    captured = "\n".join(lines) + caplog.text
    for secret in (FRONTEND_KEY, OPS_KEY, "wrong-key-value"):
        assert secret not in captured


async def test_mcp_passes_through_the_same_gate():
    async with running(keyed()) as (client, _):
        r = await client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert r.status_code == 401 and r.json()["code"] == "unauthorized"
