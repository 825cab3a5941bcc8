"""The proxy with the official SDKs as its clients and a local provider stand-in behind it:
each API streamed and not, headers passed through, errors passed back, other paths forwarded,
streams passed on event by event, the access token, and the figures recorded."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import anthropic
import httpx
import openai
import pytest

from cleveragents.container.proxy_engine import proxy_exchanges
from cleveragents.proxy.app import ACCESS_TOKEN_HEADER
from tests.proxy_harness import running_proxy
from tests.proxy_upstream import REPLY, USAGE

MODEL = "claude-sonnet-4-5"


def _key(seed: int) -> str:
    """A client key made at run time (never a literal that looks like a credential)."""
    rng = random.Random(seed)
    return "test-client-key-" + "".join(rng.choice(string.ascii_letters) for _ in range(24))


def test_anthropic_messages_plain_and_streamed(tmp_path: Path) -> None:
    key = _key(1)
    with running_proxy(tmp_path) as proxy:
        client = anthropic.Anthropic(base_url=proxy.url, api_key=key, max_retries=0)
        reply = client.messages.create(
            model=MODEL,
            max_tokens=16,
            messages=[{"role": "user", "content": "hello"}],
            extra_headers={"anthropic-beta": "test-beta-2025"},
        )
        with client.messages.stream(
            model=MODEL, max_tokens=16, messages=[{"role": "user", "content": "hello again"}]
        ) as stream:
            streamed_text = "".join(stream.text_stream)
            final = stream.get_final_message()
        proxy.stop()
        received = proxy.upstream.received
        stats = proxy_exchanges(proxy.container).stats()
    assert reply.content[0].type == "text"
    assert reply.content[0].text == REPLY
    assert streamed_text == REPLY
    assert final.usage.cache_read_input_tokens == USAGE["cache_read"]
    assert [request.path for request in received] == ["/v1/messages", "/v1/messages"]
    first = received[0]
    # The SDK sends its key as x-api-key or as a bearer token, by version: either passes.
    sent = first.headers.get("x-api-key") or first.headers["authorization"].removeprefix("Bearer ")
    assert sent == key
    assert first.headers["anthropic-version"]
    assert first.headers["anthropic-beta"] == "test-beta-2025"
    assert first.json()["messages"] == [{"role": "user", "content": "hello"}]
    assert received[1].json()["stream"] is True
    total = stats.total
    assert total.requests == 2
    assert total.responses_with_usage == 2
    assert total.input_tokens == 2 * USAGE["input"]
    assert total.cache_read_tokens == 2 * USAGE["cache_read"]
    assert total.cache_write_tokens == 2 * USAGE["cache_write"]
    assert total.output_tokens == 2 * USAGE["output"]
    assert len(stats.conversations) == 2  # two first messages: two conversations


def test_openai_chat_and_responses_plain_and_streamed(tmp_path: Path) -> None:
    key = _key(2)
    with running_proxy(tmp_path) as proxy:
        client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0)
        chat = client.chat.completions.create(
            model="gpt-4o", messages=[{"role": "user", "content": "hi"}]
        )
        chunks = list(
            client.chat.completions.create(
                model="gpt-4o",
                messages=[{"role": "user", "content": "hi"}],
                stream=True,
                stream_options={"include_usage": True},
            )
        )
        response = client.responses.create(model="gpt-4o", input="hi")
        events = list(client.responses.create(model="gpt-4o", input="hi", stream=True))
        proxy.stop()
        received = proxy.upstream.received
        stats = proxy_exchanges(proxy.container).stats()
    assert chat.choices[0].message.content == REPLY
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == REPLY
    assert chunks[-1].usage is not None
    assert response.output_text == REPLY
    assert events[-1].type == "response.completed"
    assert [r.path for r in received] == ["/v1/chat/completions"] * 2 + ["/v1/responses"] * 2
    assert all(r.headers["authorization"] == f"Bearer {key}" for r in received)
    total = stats.total
    assert total.requests == 4
    assert total.responses_with_usage == 4
    # OpenAI's input counts the cached tokens; the uncached part is the provider's total less
    # its cached figure, and OpenAI reports no cache writes.
    assert total.input_tokens == 4 * USAGE["input"]
    assert total.cache_read_tokens == 4 * USAGE["cache_read"]
    assert total.cache_write_tokens is None
    assert total.output_tokens == 4 * USAGE["output"]


def test_upstream_errors_come_back_with_their_status_and_body(tmp_path: Path) -> None:
    with running_proxy(tmp_path) as proxy:
        client = anthropic.Anthropic(base_url=proxy.url, api_key=_key(3), max_retries=0)
        with pytest.raises(anthropic.APIStatusError) as raised:
            client.messages.create(
                model=MODEL,
                max_tokens=16,
                messages=[{"role": "user", "content": "hello"}],
                extra_headers={"x-test-status": "529"},
            )
        chat = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=_key(4), max_retries=0)
        with pytest.raises(openai.APIStatusError) as chat_raised:
            chat.chat.completions.create(
                model="gpt-4o",
                messages=[{"role": "user", "content": "hi"}],
                extra_headers={"x-test-status": "503"},
            )
    assert raised.value.status_code == 529
    assert raised.value.body == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "busy"},
    }
    assert chat_raised.value.status_code == 503


def test_every_other_path_is_forwarded_unchanged(tmp_path: Path) -> None:
    with running_proxy(tmp_path) as proxy, httpx.Client(base_url=proxy.url) as client:
        models = client.get("/v1/models?limit=5", headers={"x-api-key": _key(5)})
        counted = client.post(
            "/v1/messages/count_tokens",
            content=b'{"model":"m","messages":[]}',
            headers={"anthropic-version": "2023-06-01"},
        )
        health = client.get("/healthz")
        received = list(proxy.upstream.received)
    assert models.json() == {"method": "GET", "path": "/v1/models?limit=5", "echo": True}
    assert counted.json()["path"] == "/v1/messages/count_tokens"
    assert received[1].body == b'{"model":"m","messages":[]}'
    assert health.json() == {"status": "ok"}
    assert len(received) == 2  # /healthz is the proxy's own


def test_a_stream_is_passed_on_event_by_event(tmp_path: Path) -> None:
    """The stand-in sends its first event and holds the rest until the gate opens; the test
    reads that first event through the proxy before it opens the gate. A proxy that buffered
    the stream would show nothing until the stand-in gave up waiting."""
    body = {
        "model": "gated",
        "max_tokens": 8,
        "stream": True,
        "messages": [{"role": "user", "content": "x"}],
    }
    with running_proxy(tmp_path) as proxy, httpx.Client(base_url=proxy.url, timeout=60) as client:
        upstream = proxy.upstream
        with client.stream(
            "POST", "/v1/messages", json=body, headers={"x-api-key": _key(6)}
        ) as response:
            lines = response.iter_lines()
            first = next(lines)
            gate_was_closed = not upstream.gate.is_set()
            upstream.gate.set()
            rest = list(lines)
    assert first == "event: message_start"
    assert gate_was_closed
    assert not upstream.gate_timed_out
    assert "event: message_stop" in rest


def test_an_access_token_is_required_and_not_forwarded(tmp_path: Path) -> None:
    token = _key(7)
    body = {"model": MODEL, "max_tokens": 8, "messages": [{"role": "user", "content": "x"}]}
    with (
        running_proxy(tmp_path, access_token=token) as proxy,
        httpx.Client(base_url=proxy.url) as client,
    ):
        refused = client.post("/v1/messages", json=body)
        wrong = client.post("/v1/messages", json=body, headers={ACCESS_TOKEN_HEADER: token + "x"})
        accepted = client.post("/v1/messages", json=body, headers={ACCESS_TOKEN_HEADER: token})
        received = list(proxy.upstream.received)
    assert refused.status_code == 401
    assert ACCESS_TOKEN_HEADER in refused.json()["error"]["message"]
    assert wrong.status_code == 401
    assert accepted.status_code == 200
    assert len(received) == 1
    assert ACCESS_TOKEN_HEADER not in received[0].headers


def test_a_body_that_is_not_json_is_refused_in_one_line(tmp_path: Path) -> None:
    with running_proxy(tmp_path) as proxy, httpx.Client(base_url=proxy.url) as client:
        answer = client.post("/v1/messages", content=b"{not json")
        received = list(proxy.upstream.received)
    assert answer.status_code == 400
    message = answer.json()["error"]["message"]
    assert "\n" not in message
    assert "not JSON" in message
    assert received == []


def test_no_header_is_logged_or_stored(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    key = _key(8)
    with running_proxy(tmp_path) as proxy:
        client = anthropic.Anthropic(base_url=proxy.url, api_key=key, max_retries=0)
        client.messages.create(
            model=MODEL, max_tokens=8, messages=[{"role": "user", "content": "hello"}]
        )
        proxy.stop()
        events = proxy.container.event_sink().recorded()
    printed = capfd.readouterr()
    assert key not in printed.out + printed.err
    assert all(key not in json.dumps(event.payload) for event in events)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path


def test_a_request_over_the_limit_is_refused_and_others_stream_through(tmp_path: Path) -> None:
    large = {"model": MODEL, "max_tokens": 8, "messages": [{"role": "user", "content": "x" * 5000}]}
    upload = b"y" * 50_000
    with (
        running_proxy(tmp_path, max_request_bytes=4096) as proxy,
        httpx.Client(base_url=proxy.url) as client,
    ):
        refused = client.post("/v1/messages", json=large)
        uploaded = client.post("/v1/files", content=upload, headers={"authorization": "Bearer k"})
        received = list(proxy.upstream.received)
    assert refused.status_code == 413
    assert "over 4,096 bytes" in refused.json()["error"]["message"]
    assert uploaded.status_code == 200
    assert [request.path for request in received] == ["/v1/files"]
    assert received[0].body == upload  # passed through whole: the limit is the transform's
