"""Exact counts for Claude models through Anthropic's counting endpoint, against a local
server on 127.0.0.1 that speaks POST /v1/messages/count_tokens (these machines reach no
provider): the official SDK sends the request, the count is the server's, and it is said to be
exact only then."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

import cleveragents
from cleveragents.domain.errors import InvalidInputError, TokenCountingError
from cleveragents.proxy.server import BackgroundServer


def _generated_key() -> str:
    chooser = random.Random(29)  # a key made here, never a real one
    return "test-" + "".join(chooser.choice(string.ascii_letters) for _ in range(24))


class CountingStandIn:
    """Answers count_tokens with a figure of its own (so a test can tell it was asked)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.requests: list[dict[str, Any]] = []

    def app(self) -> Starlette:
        async def count(request: Request) -> JSONResponse:
            # The SDK sends the key as x-api-key or as a bearer token, by version.
            given = {
                request.headers.get("x-api-key"),
                request.headers.get("authorization", "").removeprefix("Bearer "),
            }
            if self.key not in given:
                error = {"type": "authentication_error", "message": "invalid x-api-key"}
                return JSONResponse({"type": "error", "error": error}, status_code=401)
            body = await request.json()
            self.requests.append(body)
            return JSONResponse({"input_tokens": 1000 + len(json.dumps(body, sort_keys=True))})

        return Starlette(routes=[Route("/v1/messages/count_tokens", count, methods=["POST"])])


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountingStandIn]:
    server_side = CountingStandIn(_generated_key())
    with BackgroundServer(server_side.app()) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", server_side.key)
        yield server_side


REQUEST = {
    "model": "claude-sonnet-4-5",
    "system": "Answer briefly.",
    "tools": [{"name": "lookup", "input_schema": {"type": "object"}}],
    "messages": [{"role": "user", "content": "What is in README.md?"}],
}


def test_a_request_is_counted_by_the_endpoint_and_called_exact(
    stand_in: CountingStandIn,
) -> None:
    counted = cleveragents.count_tokens(REQUEST, exact=True)
    sent = stand_in.requests[-1]
    assert sent["model"] == "claude-sonnet-4-5"
    assert sent["system"] == "Answer briefly."
    assert sent["tools"] == REQUEST["tools"]
    assert sent["messages"][0]["role"] == "user"
    assert counted == 1000 + len(json.dumps(sent, sort_keys=True))
    assert counted.exact
    assert not counted.estimated
    assert "count_tokens endpoint" in counted.method


def test_without_exact_the_same_request_is_an_estimate_and_nothing_is_sent(
    stand_in: CountingStandIn,
) -> None:
    counted = cleveragents.count_tokens(REQUEST)
    assert stand_in.requests == []
    assert counted.estimated
    assert counted.method.startswith("cl100k_base estimate")


def test_a_text_is_sent_as_one_user_message(stand_in: CountingStandIn) -> None:
    counted = cleveragents.count_tokens("hello", model="claude-opus-4-7", exact=True)
    assert stand_in.requests[-1]["messages"] == [{"role": "user", "content": "hello"}]
    assert counted.exact
    assert "one user message" in counted.method


def test_a_refused_key_is_one_line_naming_the_status(
    stand_in: CountingStandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-wrong")
    with pytest.raises(TokenCountingError, match=r"HTTP 401") as raised:
        cleveragents.count_tokens(REQUEST, exact=True)
    assert "\n" not in str(raised.value)


def test_no_credentials_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(TokenCountingError, match="ANTHROPIC_API_KEY"):
        cleveragents.count_tokens(REQUEST, exact=True)


def test_exact_for_an_openai_model_is_refused_as_already_exact() -> None:
    with pytest.raises(InvalidInputError, match="exact already"):
        cleveragents.count_tokens("hello", model="gpt-4o", exact=True)
