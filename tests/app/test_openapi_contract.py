"""The OpenAPI document as served tells the truth: named operations, every refusal documented
with the body and headers really sent, examples that validate against their own schemas, and
no trace of FastAPI's `{detail: [...]}`, which the server never sends."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest

from app.access import hash_key
from app.errors import Overloaded
from app.settings import Settings
from tests.app.apps import running

OPERATION_IDS = {
    ("get", "/healthz"): "getHealth",
    ("get", "/readyz"): "getReadiness",
    ("get", "/metrics"): "getMetrics",
    ("get", "/v1/stations"): "searchStations",
    ("get", "/v1/tickets"): "getTickets",
    ("post", "/v1/bookings/precheck"): "precheckBooking",
    ("get", "/v1/trains/{train_number}/stops"): "getTrainStops",
    ("post", "/v1/intent/parse"): "parseIntent",
    ("post", "/v1/plan"): "planTrip",
    ("post", "/v1/chat"): "chat",
    ("post", "/v1/plan/stream"): "planTripStream",
    ("post", "/v1/chat/stream"): "chatStream",
    ("post", "/sandbox/{vendor}/faults"): "setSandboxFaults",
    ("get", "/sandbox/faults"): "listSandboxFaults",
}
KEY = "rt_contract_test_7a2e"


async def served_document(settings: Settings | None = None) -> dict[str, Any]:
    async with running(settings) as (client, _):
        response = await client.get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def validator(document: dict[str, Any], schema: dict[str, Any]) -> jsonschema.Validator:
    """A validator for `schema` whose `#/components/...` references resolve in `document`."""
    return jsonschema.Draft202012Validator({**schema, "components": document["components"]})


def response_schema(document: dict[str, Any], path: str, method: str, status: int) -> Any:
    response = document["paths"][path][method]["responses"][str(status)]
    return response["content"]["application/json"]["schema"]


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    ]


async def test_every_operation_has_its_camel_case_name() -> None:
    document = await served_document()
    named = {(method, path): op["operationId"] for method, path, op in operations(document)}
    assert named == OPERATION_IDS
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", name) for name in named.values())


async def test_fastapis_validation_error_model_is_nowhere_in_the_document() -> None:
    document = await served_document()
    text = json.dumps(document)
    assert "HTTPValidationError" not in text
    for method, path, operation in operations(document):
        if operation.get("parameters") or operation.get("requestBody"):
            schema = response_schema(document, path, method, 422)
            assert schema == {"$ref": "#/components/schemas/InvalidInputError"}, (method, path)


async def test_every_operation_documents_the_gate_with_its_headers() -> None:
    document = await served_document()
    headers = document["components"]["headers"]
    assert {"Retry-After", "RateLimit-Limit", "WWW-Authenticate", "X-Request-ID"} <= set(headers)
    for method, path, operation in operations(document):
        responses = operation["responses"]
        assert "WWW-Authenticate" in responses["401"]["headers"], (method, path)
        if path not in ("/healthz", "/readyz"):  # open routes have no quota
            assert {"Retry-After", "RateLimit-Reset"} <= set(responses["429"]["headers"])
            assert "RateLimit-Remaining" in responses["200"]["headers"]
        if "requestBody" in operation:
            assert "413" in responses
        for status, response in responses.items():
            if status != "200" or path != "/metrics":
                assert "application/json" in response.get("content", {}) or status == "200", (
                    method,
                    path,
                    status,
                )
    overloaded = ("get", "/v1/tickets"), ("post", "/v1/plan"), ("post", "/v1/bookings/precheck")
    for method, path in overloaded:
        assert "Retry-After" in document["paths"][path][method]["responses"]["503"]["headers"]


async def test_every_example_in_the_document_validates_against_its_schema() -> None:
    document = await served_document()
    checked = 0
    for _, _, operation in operations(document):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        values = [body["example"]] if "example" in body else []
        values += [e["value"] for e in body.get("examples", {}).values()]
        for value in values:
            validator(document, body["schema"]).validate(value)
            checked += 1
        for response in operation["responses"].values():
            content = response.get("content", {}).get("application/json", {})
            if "example" in content:
                validator(document, content["schema"]).validate(content["example"])
                checked += 1
        for parameter in operation.get("parameters", []):
            for value in [parameter.get("example"), *parameter.get("examples", [])]:
                if value is not None:
                    validator(document, parameter["schema"]).validate(value)
                    checked += 1
    assert checked >= 40


async def test_plan_request_examples_are_chinese_sentences_and_the_reply_names_a_real_train():
    document = await served_document()
    plan = document["paths"]["/v1/plan"]["post"]
    examples = plan["requestBody"]["content"]["application/json"]["examples"]
    assert examples["sentence"]["value"]["text"] == "下周五从北京去上海玩三天，预算两千左右"
    reply = plan["responses"]["200"]["content"]["application/json"]["example"]
    async with running() as (client, _):
        tickets = await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": "2026-12-04"}
        )
    leg = reply["itinerary"]["legs"][0]
    offers = {(o["train_number"], o["depart_at"]) for o in tickets.json()["offers"]}
    assert (leg["train_number"], leg["depart_at"]) in offers  # the sandbox runs it


async def test_the_stream_documents_each_event_type_with_the_schema_of_its_data() -> None:
    document = await served_document()
    stream = document["paths"]["/v1/plan/stream"]["post"]["responses"]["200"]["content"]
    events = {
        option["properties"]["event"]["const"]: option["properties"]["data"]["contentSchema"]
        for option in stream["text/event-stream"]["itemSchema"]["oneOf"]
    }
    assert events == {
        "progress": {"$ref": "#/components/schemas/ProgressEvent"},
        "plan": {"$ref": "#/components/schemas/PlanReply"},
        "error": {"$ref": "#/components/schemas/ErrorBody"},
        "done": {"$ref": "#/components/schemas/StreamDone"},
    }


@pytest.mark.parametrize(
    ("status", "path"),
    [(401, "/v1/stations"), (429, "/v1/stations"), (413, "/v1/plan"), (422, "/v1/tickets")],
)
async def test_refusals_before_the_handler_are_sent_as_documented(status: int, path: str) -> None:
    settings = Settings(api_keys=[f"web:{hash_key(KEY)}"], client_rate_per_s=0.001, client_burst=1)
    shown = {"X-API-Key": KEY}
    async with running(settings) as (client, _):
        document = (await client.get("/openapi.json")).json()
        if status == 401:
            response = await client.get(path, params={"q": "北京"})
        elif status == 429:
            await client.get(path, params={"q": "北京"}, headers=shown)
            response = await client.get(path, params={"q": "北京"}, headers=shown)
        elif status == 413:
            big = json.dumps({"text": "北京" * 40_000}).encode()
            response = await client.post(path, content=big, headers=shown)
        else:
            query = {"origin": "北景", "destination": "上海", "date": "2026-12-04"}
            response = await client.get(path, params=query, headers=shown)
    assert response.status_code == status
    method = "post" if path == "/v1/plan" else "get"
    validator(document, response_schema(document, path, method, status)).validate(response.json())
    documented = document["paths"][path][method]["responses"][str(status)].get("headers", {})
    for name in documented:
        if name not in ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset") or (
            status == 429
        ):
            assert name.lower() in response.headers, (status, name)


async def test_the_overloaded_body_is_the_documented_one() -> None:
    document = await served_document()
    body = Overloaded("服务当前繁忙", retry_after_s=1.2).body()
    for method, path in (("get", "/v1/tickets"), ("post", "/v1/bookings/precheck")):
        validator(document, response_schema(document, path, method, 503)).validate(body)


async def test_the_stream_cap_and_the_authentication_throttle_are_documented_as_sent() -> None:
    document = await served_document()
    for path in ("/v1/plan/stream", "/v1/chat/stream"):
        refused = document["paths"][path]["post"]["responses"]["503"]
        assert "Retry-After" in refused["headers"]
        assert refused["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/OverloadedError"
        }
    settings = Settings(api_keys=[f"web:{hash_key(KEY)}"])
    wrong = {"X-API-Key": "rt_not_a_key_of_ours"}
    async with running(settings) as (client, _):
        document = (await client.get("/openapi.json")).json()
        statuses = [(await client.get("/healthz", headers=wrong)).status_code for _ in range(12)]
        response = await client.get("/healthz", headers=wrong)
    assert statuses[0] == 401 and response.status_code == 429, statuses
    assert response.json()["code"] == "auth_throttled"
    validator(document, response_schema(document, "/healthz", "get", 429)).validate(response.json())
    assert "retry-after" in response.headers
