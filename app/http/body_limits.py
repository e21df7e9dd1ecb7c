"""Request-body limits enforced before any parsing: size, and JSON nesting depth.

A 2 MB body or 10,000 nested arrays is refused with a 413/422 JSON error instead of being
handed to the JSON parser (whose recursion would otherwise turn it into a 500).
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32


def json_depth_exceeds(raw: bytes, limit: int) -> bool:
    """True when brackets nest deeper than `limit` (strings are skipped, escapes honoured)."""
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class BodyLimitMiddleware:
    """Buffer bodies up to `max_bytes`; refuse larger or too deeply nested ones."""

    def __init__(
        self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES, max_depth: int = MAX_JSON_DEPTH
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await _refuse(
                scope, send, 413, "payload_too_large", f"body over {self.max_bytes} bytes"
            )
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _refuse(
                    scope, send, 413, "payload_too_large", f"body over {self.max_bytes} bytes"
                )
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if json_depth_exceeds(body, self.max_depth):
            await _refuse(
                scope, send, 422, "invalid_input", f"body: JSON nested deeper than {self.max_depth}"
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def send_json(
    send: Send,
    status: int,
    body: dict[str, object],
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """A whole JSON answer from plain ASGI middleware (before any route or FastAPI runs)."""
    payload = json.dumps(body, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


async def _refuse(scope: Scope, send: Send, status: int, code: str, message: str) -> None:
    await send_json(send, status, {"code": code, "message": message, "field": "body"})
