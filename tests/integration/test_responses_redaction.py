"""Every text field of OpenAI Responses input is reached by the compaction's redaction: the
instructions, message texts (input and output parts), a function call's raw arguments, an
output's text parts, a custom tool call's free-text input, a reasoning item's summary and
content, and the items kept whole (a built-in tool's call, an unknown item type). What pairs
and verifies items is left as it came: ids, call ids and encrypted content."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cleveragents
from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner
from tests.secret_recall_set import credentials

SCANNER = make_secret_scanner(name="builtin")
ENCRYPTED = "gAAAAABpZW5jcnlwdGVkLXJlYXNvbmluZw=="
_KINDS = (
    "github-classic",
    "stripe-secret",
    "aws-access-key-id",
    "openai-project",
    "slack-bot-token",
    "anthropic",
    "npm-token",
    "huggingface-token",
    "gitlab-token",
    "private-key",
)


def _request() -> tuple[dict[str, Any], list[str]]:
    found = {credential.name: credential for credential in credentials(11)}
    c = [found[kind] for kind in _KINDS]
    items: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "input_text", "text": f"use {c[1].text}"}]},
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": f"the key is {c[2].text}"}],
            "content": [{"type": "reasoning_text", "text": f"really {c[3].text}"}],
            "encrypted_content": ENCRYPTED,
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "bash",
            "arguments": json.dumps({"command": f"login {c[4].text}"}, indent=1),
        },
        {"type": "custom_tool_call", "call_id": "call_2", "name": "patch", "input": c[5].text},
        {"type": "web_search_call", "id": "ws_1", "action": {"query": c[6].text}},
        {"type": "future_item", "id": "fi_1", "note": c[7].text},
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": [
                {"type": "input_text", "text": f"logged in\n{c[8].text}"},
                {"type": "input_image", "image_url": "https://example.test/a.png"},
            ],
        },
        {"type": "custom_tool_call_output", "call_id": "call_2", "output": f"ok {c[9].text}"},
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "output_text", "text": f"done: {c[1].text}", "annotations": []}],
        },
    ]
    request = {"model": "gpt-5", "instructions": f"Deploy with {c[0].text}", "input": items}
    return request, [credential.secret for credential in c]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


@pytest.mark.parametrize("shape", ["parsed", "text"])
def test_no_credential_comes_back_and_what_pairs_items_is_untouched(shape: str) -> None:
    request, secrets = _request()
    if shape == "parsed":
        result: cleveragents.CompactResult[Any] = cleveragents.compact(request)
        returned = result.messages
    else:
        result = cleveragents.compact(json.dumps(request, indent=2), format="openai-responses")
        returned = json.loads(result.messages)
    assert result.status == "not-needed"
    every = _strings(returned)
    leaked = [secret[:12] for secret in secrets if any(secret in text for text in every)]
    assert leaked == []
    assert SCANNER.scan_text(json.dumps(returned)) == []
    assert result.redacted_secrets >= len(secrets)
    items = returned["input"]
    assert [item.get("type", "message") for item in items] == [
        item.get("type", "message") for item in request["input"]
    ]
    assert [item.get("call_id") for item in items] == [
        item.get("call_id") for item in request["input"]
    ]
    assert [item.get("id") for item in items] == [item.get("id") for item in request["input"]]
    assert items[1]["encrypted_content"] == ENCRYPTED
    assert items[6]["output"][1] == request["input"][6]["output"][1]  # the image part
    assert json.loads(items[2]["arguments"])["command"].startswith("login ")
