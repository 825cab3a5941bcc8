"""A local stand-in for the Anthropic and OpenAI APIs, for the proxy's tests and benchmark.

It records every request it receives (method, path, headers, body) and answers in each API's
documented shape: Anthropic Messages (a message, or the stream of ``message_start``,
``content_block_*``, ``message_delta``, ``message_stop`` events), OpenAI Chat Completions (a
completion, or ``chat.completion.chunk`` events ending in ``[DONE]``, with a usage chunk when
``stream_options.include_usage`` asks for it) and OpenAI Responses (a response, or
``response.created``, ``response.output_text.delta``, ``response.completed`` events). Every
answer reports the same usage figures (`USAGE`), so a test can check what the proxy recorded.

A request with an ``x-test-status`` header gets that status and an error body in the API's
shape. A streamed request whose model is ``gated`` sends its first event, then waits for
`gate` before the rest: a test that reads the first event through the proxy before opening
the gate shows the proxy passes events on as they come.
"""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

USAGE = {"input": 11, "cache_read": 7, "cache_write": 5, "output": 3}
REPLY = "Hello from the test upstream."
GATE_LIMIT_SECONDS = 30.0
"""How long a gated stream waits for its gate before giving up (a failing test's bound)."""


@dataclass
class ReceivedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class ProviderStandIn:
    """The app and what it received."""

    received: list[ReceivedRequest] = field(default_factory=list)
    gate: threading.Event = field(default_factory=threading.Event)
    gate_timed_out: bool = False

    def app(self) -> Starlette:
        routes = [
            Route("/v1/messages", self._messages, methods=["POST"]),
            Route("/v1/chat/completions", self._chat, methods=["POST"]),
            Route("/v1/responses", self._responses, methods=["POST"]),
            Route("/{path:path}", self._echo, methods=["GET", "POST", "PUT", "DELETE"]),
        ]
        return Starlette(routes=routes)

    async def _record(self, request: Request) -> ReceivedRequest:
        received = ReceivedRequest(
            request.method,
            request.url.path + (f"?{request.url.query}" if request.url.query else ""),
            {key.lower(): value for key, value in request.headers.items()},
            await request.body(),
        )
        self.received.append(received)
        return received

    async def _wait_for_gate(self) -> None:
        if not await anyio.to_thread.run_sync(self.gate.wait, GATE_LIMIT_SECONDS):
            self.gate_timed_out = True

    async def _messages(self, request: Request) -> Response:
        received = await self._record(request)
        status = received.headers.get("x-test-status")
        if status is not None:
            body = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
            return JSONResponse(body, status_code=int(status))
        document = received.json()
        usage = {
            "input_tokens": USAGE["input"],
            "cache_creation_input_tokens": USAGE["cache_write"],
            "cache_read_input_tokens": USAGE["cache_read"],
            "output_tokens": USAGE["output"],
        }
        message = {
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": document.get("model", "unknown"),
            "content": [{"type": "text", "text": REPLY}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": usage,
        }
        if not document.get("stream"):
            return JSONResponse(message)
        start = {
            **message,
            "content": [],
            "stop_reason": None,
            "usage": {**usage, "output_tokens": 1},
        }
        events = [
            ("message_start", {"type": "message_start", "message": start}),
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
            ),
            ("ping", {"type": "ping"}),
            *[
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": word},
                    },
                )
                for word in _words(REPLY)
            ],
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": USAGE["output"]},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        return self._stream(events, gated=document.get("model") == "gated")

    async def _chat(self, request: Request) -> Response:
        received = await self._record(request)
        status = received.headers.get("x-test-status")
        if status is not None:
            body = {"error": {"message": "busy", "type": "server_error", "code": None}}
            return JSONResponse(body, status_code=int(status))
        document = received.json()
        model = document.get("model", "unknown")
        usage = {
            "prompt_tokens": USAGE["input"] + USAGE["cache_read"],
            "completion_tokens": USAGE["output"],
            "total_tokens": USAGE["input"] + USAGE["cache_read"] + USAGE["output"],
            "prompt_tokens_details": {"cached_tokens": USAGE["cache_read"]},
        }
        base = {"id": "chatcmpl-test", "created": 1_700_000_000, "model": model}
        if not document.get("stream"):
            return JSONResponse(
                {
                    **base,
                    "object": "chat.completion",
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": REPLY, "refusal": None},
                            "finish_reason": "stop",
                            "logprobs": None,
                        }
                    ],
                    "usage": usage,
                }
            )
        chunk = {**base, "object": "chat.completion.chunk"}
        events: list[tuple[str | None, Any]] = [
            (
                None,
                {
                    **chunk,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"role": "assistant", "content": ""},
                            "finish_reason": None,
                        }
                    ],
                },
            ),
            *[
                (
                    None,
                    {
                        **chunk,
                        "choices": [
                            {"index": 0, "delta": {"content": word}, "finish_reason": None}
                        ],
                    },
                )
                for word in _words(REPLY)
            ],
            (None, {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        ]
        options = document.get("stream_options") or {}
        if options.get("include_usage"):
            events.append((None, {**chunk, "choices": [], "usage": usage}))
        events.append((None, "[DONE]"))
        return self._stream(events, gated=model == "gated")

    async def _responses(self, request: Request) -> Response:
        received = await self._record(request)
        status = received.headers.get("x-test-status")
        if status is not None:
            body = {"error": {"message": "busy", "type": "server_error", "code": None}}
            return JSONResponse(body, status_code=int(status))
        document = received.json()
        model = document.get("model", "unknown")
        usage = {
            "input_tokens": USAGE["input"] + USAGE["cache_read"],
            "input_tokens_details": {"cached_tokens": USAGE["cache_read"]},
            "output_tokens": USAGE["output"],
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": USAGE["input"] + USAGE["cache_read"] + USAGE["output"],
        }
        item = {
            "type": "message",
            "id": "msg_test",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": REPLY, "annotations": []}],
        }
        response = {
            "id": "resp_test",
            "object": "response",
            "created_at": 1_700_000_000,
            "status": "completed",
            "model": model,
            "output": [item],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": usage,
        }
        if not document.get("stream"):
            return JSONResponse(response)
        created = {**response, "status": "in_progress", "output": [], "usage": None}
        events: list[tuple[str | None, Any]] = [
            (
                "response.created",
                {"type": "response.created", "sequence_number": 0, "response": created},
            ),
            *[
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "sequence_number": index + 1,
                        "item_id": "msg_test",
                        "output_index": 0,
                        "content_index": 0,
                        "delta": word,
                        "logprobs": [],
                    },
                )
                for index, word in enumerate(_words(REPLY))
            ],
            (
                "response.completed",
                {"type": "response.completed", "sequence_number": 99, "response": response},
            ),
        ]
        return self._stream(events, gated=model == "gated")

    async def _echo(self, request: Request) -> Response:
        received = await self._record(request)
        return JSONResponse({"method": received.method, "path": received.path, "echo": True})

    def _stream(self, events: Sequence[tuple[str | None, Any]], *, gated: bool) -> Response:
        async def body() -> AsyncIterator[bytes]:
            for index, (name, data) in enumerate(events):
                text = data if isinstance(data, str) else json.dumps(data)
                prefix = f"event: {name}\n" if name is not None else ""
                yield f"{prefix}data: {text}\n\n".encode()
                if gated and index == 0:
                    await self._wait_for_gate()

        return StreamingResponse(body(), media_type="text/event-stream")


def _words(text: str) -> list[str]:
    words = text.split(" ")
    return [word if index == 0 else f" {word}" for index, word in enumerate(words)]
