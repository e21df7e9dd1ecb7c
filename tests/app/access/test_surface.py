"""What the app exposes: the sandbox fault endpoint only on an all-sandbox setup that asks
for it, CORS closed unless origins are configured, and request ids that are plain tokens."""

from __future__ import annotations

import pytest

from app.main import create_app
from app.settings import Settings
from tests.app.apps import running

PREFLIGHT = {
    "Origin": "https://trip.example.cn",
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type,x-api-key",
}


def fault_paths(settings: Settings) -> set[str]:
    app = create_app(settings)
    routes = {getattr(r, "path", "") for r in app.routes}
    listed = set(app.openapi()["paths"])
    return {p for p in routes | listed if p.startswith("/sandbox")}


def test_sandbox_faults_are_mounted_on_the_embedded_default():
    assert fault_paths(Settings()) == {"/sandbox/{vendor}/faults", "/sandbox/faults"}


@pytest.mark.parametrize(
    "settings",
    [
        Settings(sandbox_admin=False),
        Settings(sources=["sandbox-12306", "rail12306"]),
        Settings(sources=["rail12306"]),
    ],
    ids=["admin-off", "one-real-source", "production"],
)
def test_sandbox_faults_are_neither_mounted_nor_listed_otherwise(settings):
    assert fault_paths(settings) == set()


async def test_cors_is_closed_by_default():
    async with running() as (client, _):
        r = await client.options("/v1/plan", headers=PREFLIGHT)
        assert "access-control-allow-origin" not in r.headers
        r = await client.get("/healthz", headers={"Origin": "https://trip.example.cn"})
        assert "access-control-allow-origin" not in r.headers


async def test_cors_preflight_is_allowed_for_a_configured_origin_and_refused_for_others():
    settings = Settings(cors_origins="https://trip.example.cn, https://m.trip.example.cn")
    async with running(settings) as (client, _):
        allowed = await client.options("/v1/plan", headers=PREFLIGHT)
        assert allowed.status_code == 200
        assert allowed.headers["access-control-allow-origin"] == "https://trip.example.cn"
        assert "x-api-key" in allowed.headers["access-control-allow-headers"].lower()

        refused = await client.options(
            "/v1/plan", headers={**PREFLIGHT, "Origin": "https://evil.example.com"}
        )
        assert refused.status_code == 400
        assert "access-control-allow-origin" not in refused.headers

        simple = await client.get("/healthz", headers={"Origin": "https://m.trip.example.cn"})
        assert simple.headers["access-control-allow-origin"] == "https://m.trip.example.cn"


async def test_a_plain_client_request_id_is_kept_and_anything_else_replaced():
    async with running() as (client, _):
        kept = await client.get("/healthz", headers={"X-Request-ID": "req-42.a_b:c"})
        assert kept.headers["x-request-id"] == "req-42.a_b:c"
        for hostile in ('"><script>alert(1)</script>', "a b", "x" * 65, "id\u00e9"):
            r = await client.get("/healthz", headers={"X-Request-ID": hostile.encode("utf-8")})
            replaced = r.headers["x-request-id"]
            assert replaced != hostile and len(replaced) == 32 and int(replaced, 16) >= 0


async def test_error_messages_quote_client_input_only_as_a_short_escaped_excerpt():
    async with running() as (client, _):
        payload = "<script>" + "x" * 500
        r = await client.get(
            "/v1/tickets",
            params={
                "origin": "北京",
                "destination": "上海",
                "date": "2026-12-04",
                "refresh": payload,
            },
        )
        assert r.status_code == 422 and r.json()["field"] == "refresh"
        assert payload not in r.text and "x" * 30 not in r.text
        body = {
            "train_number": "G1",
            "date": "2026-12-04",
            "origin": "北京",
            "destination": "上海",
            "seat_class": payload,
        }
        r = await client.post("/v1/bookings/precheck", json=body)
        assert r.status_code == 422 and r.json()["field"] == "seat_class"
        assert "x" * 30 not in r.text
