"""The OpenAI chat-completions wire format, for scripting a model with pytest-httpx."""

from __future__ import annotations

import json
from typing import Any

from app.intent.prompt import FIELD_ORDER

LLM_URL = "http://llm.test/v1/chat/completions"


def completion(
    content: Any,
    *,
    model: str = "test-model",
    prompt_tokens: int = 900,
    completion_tokens: int = 80,
) -> dict[str, Any]:
    """A chat-completions response body exactly as the wire carries it."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1764460800,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


_EMPTY: dict[str, Any] = {
    "kind": "plan_trip",
    "via": [],
    "passengers": 1,
    "preferences": [],
    "train_types": [],
    "train_numbers": [],
    "action": "create",
}


def intent_json(**fields: Any) -> str:
    """A model reply: a complete intent object (every field, in prompt order) with `fields` set."""
    body = {name: _EMPTY.get(name) for name in FIELD_ORDER} | fields
    return json.dumps(body, ensure_ascii=False)
