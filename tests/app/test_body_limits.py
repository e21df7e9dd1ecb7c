"""Hostile bodies are refused before parsing: 413 for size, 422 for nesting."""

from __future__ import annotations

from app.http.body_limits import json_depth_exceeds
from tests.app.apps import running


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert json_depth_exceeds(b"[" * 40 + b"]" * 40, 32)
    assert not json_depth_exceeds(b'{"text": "' + b"[" * 100 + b'"}', 32)
    assert not json_depth_exceeds(b'{"a": "\\"[[[[", "b": [[1]]}', 3)


async def test_oversized_and_deeply_nested_bodies_are_refused_with_json_errors() -> None:
    async with running() as (client, state):
        big = await client.post(
            "/v1/intent/parse",
            content=b'{"text": "' + b"a" * 200_000 + b'"}',
            headers={"content-type": "application/json"},
        )
        deep = await client.post(
            "/v1/intent/parse",
            content=b"[" * 10_000 + b"]" * 10_000,
            headers={"content-type": "application/json"},
        )
        fine = await client.post("/v1/intent/parse", json={"text": "明天北京到上海"})
    assert big.status_code == 413 and big.json()["code"] == "payload_too_large"
    assert deep.status_code == 422 and deep.json()["field"] == "body"
    assert big.headers["x-request-id"]
    assert fine.status_code == 200
    # Refused before its handler: labelled with the route it was for, not "unmatched" (that
    # is for unknown paths).
    for status in ("413", "422"):
        labels = {"endpoint": "/v1/intent/parse", "method": "POST", "status": status}
        assert state.metrics.registry.get_sample_value("railtrip_http_requests_total", labels) == 1
    assert (
        state.metrics.registry.get_sample_value(
            "railtrip_http_requests_total",
            {"endpoint": "/v1/intent/parse", "method": "POST", "status": "200"},
        )
        == 1
    )
