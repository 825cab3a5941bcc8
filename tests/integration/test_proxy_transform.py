"""The proxy's transform as a service (no HTTP): cache-safe by construction (a property),
deterministic across processes, remembered by content, and compaction that sticks."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.ports.secret_scanner import SecretScan, SecretScanner
from cleveragents.application.services.proxy.message_transform import canonical_json
from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.application.services.proxy.proxy_engine import ProxyEngine, ProxySettings
from cleveragents.application.services.proxy.proxy_requests import (
    CLIENT_COMPACTION_PROMPT,
    ForwardedRequest,
)
from cleveragents.container import Container, build_container
from cleveragents.container.proxy_engine import proxy_engine
from cleveragents.domain.errors import ProjectNotFoundError
from cleveragents.domain.policy import ContextPolicyChanges
from tests.secret_recall_set import credentials

API = ProviderApi.ANTHROPIC_MESSAGES
SYSTEM = "You are a careful coding agent. Work in the repository the user names."
TOOLS = [{"name": "bash", "description": "Run a command", "input_schema": {"type": "object"}}]
SMALL = ProxySettings(compress_over=600, tool_budget=300)


@pytest.fixture
def container(tmp_path: Path) -> Iterator[Container]:
    built = build_container(f"sqlite:///{tmp_path / 'proxy.db'}", home=tmp_path / "home")
    yield built
    built.store().dispose()


def _body(messages: list[Any], system: str = SYSTEM) -> bytes:
    request = {"model": "claude-sonnet-4-5", "max_tokens": 512, "system": system}
    request |= {"tools": TOOLS, "messages": messages}
    return json.dumps(request).encode()


def _forwarded_messages(forwarded: ForwardedRequest) -> list[str]:
    """Each forwarded message as its JSON text (what the provider's cache compares)."""
    return [canonical_json(message) for message in json.loads(forwarded.body)["messages"]]


def _output(rng: random.Random, lines: int, secret: str | None) -> str:
    rows = [
        f"{index:05d} {rng.choice(['INFO', 'DEBUG', 'WARN'])} task {rng.randrange(10**6)} done"
        for index in range(lines)
    ]
    if secret is not None:
        rows[rng.randrange(lines)] = secret
    return "\n".join(rows)


def _conversation(
    rng: random.Random, turns: int, *, lines: tuple[int, int] = (2, 400)
) -> list[Any]:
    """A coding session: a request, then tool calls and their results (some large, some with
    a credential in them), some assistant text."""
    secrets = [credential.text for credential in credentials()[:12]]
    messages: list[Any] = [{"role": "user", "content": "Fix the failing build, please."}]
    for turn in range(turns):
        call = f"toolu_{turn:04d}"
        secret = rng.choice(secrets) if rng.random() < 0.3 else None
        messages.append(
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": f"Step {turn}: running the next command."},
                    {
                        "type": "tool_use",
                        "id": call,
                        "name": "bash",
                        "input": {"command": f"make {turn}"},
                    },
                ],
            }
        )
        result = _output(rng, rng.randint(*lines), secret)
        messages.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call, "content": result}],
            }
        )
    return messages


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(1, 6))
def test_each_request_extends_the_previous_one_byte_for_byte(
    container: Container, seed: int, turns: int
) -> None:
    """Request k+1's forwarded messages start with request k's, and the system prompt and
    tools go byte-identical: the provider's prompt cache keeps matching."""
    engine = proxy_engine(container, SMALL)
    messages = _conversation(random.Random(seed), turns)
    previous: list[str] | None = None
    for count in range(1, len(messages) + 1):
        forwarded = engine.requests.forwarded(API, _body(messages[:count]))
        now = _forwarded_messages(forwarded)
        sent = json.loads(forwarded.body)
        assert sent["system"] == SYSTEM
        assert sent["tools"] == TOOLS
        if previous is not None:
            assert now[: len(previous)] == previous
        previous = now
    # A fresh engine (another process: nothing remembered) forwards the same bytes.
    again = proxy_engine(container, SMALL).requests.forwarded(API, _body(messages))
    assert again.body == forwarded.body


class _CountingScanner(SecretScanner):
    """The real scanner, counting the bytes it is given."""

    def __init__(self, scanner: SecretScanner) -> None:
        self.inner = scanner
        self.scanned = 0

    @property
    def name(self) -> str:
        return self.inner.name

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        return self.inner.start(honour_allow_markers=honour_allow_markers)

    def match_bytes(self, data: bytes, *, honour_allow_markers: bool = False) -> list[Any]:
        self.scanned += len(data)
        return self.inner.match_bytes(data, honour_allow_markers=honour_allow_markers)


def test_a_request_scans_only_what_is_new_in_it(container: Container) -> None:
    scanner = _CountingScanner(container.secret_scanner())
    with container.secret_scanner.override(scanner):
        engine = proxy_engine(container, SMALL)
    messages = _conversation(random.Random(7), 30, lines=(50, 60))
    engine.requests.forwarded(API, _body(messages[:-1]))
    whole = scanner.scanned
    scanner.scanned = 0
    engine.requests.forwarded(API, _body(messages))
    new = len(json.dumps(messages[-1]))
    assert whole > 20 * new
    assert scanner.scanned <= 4 * new  # the new message (and its stand-ins), not the history


def _compacting_engine(container: Container) -> ProxyEngine:
    settings = ProxySettings(
        compress_over=5_000,
        tool_budget=1_000,
        context_window=6_000,
        reserve_tokens=1_000,
        keep_recent_tokens=1_500,
    )
    return proxy_engine(container, settings)


def test_compaction_is_made_once_and_reused_until_the_next_is_needed(
    container: Container,
) -> None:
    engine = _compacting_engine(container)
    messages = _conversation(random.Random(11), 80, lines=(8, 12))
    threshold = 5_000
    previous: list[str] | None = None
    compactions = 0
    extended = 0
    forwarded = None
    for count in range(1, len(messages) + 1):
        forwarded = engine.requests.forwarded(API, _body(messages[:count]))
        now = _forwarded_messages(forwarded)
        if forwarded.compacted:
            compactions += 1
            assert forwarded.tokens_forwarded <= threshold
        elif previous is not None:
            assert now[: len(previous)] == previous  # the cut sticks: the prefix holds
            extended += 1
        previous = now
    assert forwarded is not None
    assert compactions >= 2
    assert compactions * 4 < len(messages)
    assert extended == len(messages) - 1 - compactions
    assert json.loads(forwarded.body)["system"] == SYSTEM
    # The cut is stored: another engine on the same store (a restarted proxy) forwards the
    # same summary and messages, without compacting again.
    restarted = _compacting_engine(container).requests.forwarded(API, _body(messages))
    assert restarted.body == forwarded.body
    assert not restarted.compacted


def _openai_conversation(rng: random.Random, turns: int) -> list[Any]:
    """The same kind of session in OpenAI Chat Completions' shape, its system prompt first."""
    messages: list[Any] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Fix the failing build, please."},
    ]
    for turn in range(turns):
        call = f"call_{turn:04d}"
        function = {"name": "bash", "arguments": json.dumps({"command": f"make {turn}"})}
        messages.append(
            {
                "role": "assistant",
                "content": f"Step {turn}: running the next command.",
                "tool_calls": [{"id": call, "type": "function", "function": function}],
            }
        )
        output = _output(rng, rng.randint(8, 12), None)
        messages.append({"role": "tool", "tool_call_id": call, "content": output})
    return messages


def test_an_openai_chat_conversation_is_compacted_and_keeps_its_system_prompt(
    container: Container,
) -> None:
    engine = _compacting_engine(container)
    messages = _openai_conversation(random.Random(13), 80)
    api = ProviderApi.OPENAI_CHAT
    previous: list[str] | None = None
    compactions = 0
    for count in range(2, len(messages) + 1):
        body = json.dumps({"model": "gpt-4o", "messages": messages[:count]}).encode()
        forwarded = engine.requests.forwarded(api, body)
        now = _forwarded_messages(forwarded)
        assert json.loads(now[0]) == {"role": "system", "content": SYSTEM}
        if forwarded.compacted:
            compactions += 1
            assert forwarded.tokens_forwarded <= 5_000
        elif previous is not None:
            assert now[: len(previous)] == previous
        previous = now
    assert compactions >= 2


def test_the_clients_own_compaction_request_is_not_compacted(container: Container) -> None:
    engine = _compacting_engine(container)
    messages = _conversation(random.Random(12), 40, lines=(8, 12))
    messages.append({"role": "user", "content": f"{CLIENT_COMPACTION_PROMPT}, in detail."})
    forwarded = engine.requests.forwarded(API, _body(messages))
    assert forwarded.client_compaction
    assert not forwarded.compacted
    assert len(json.loads(forwarded.body)["messages"]) == len(messages)


def test_a_projects_policy_sets_the_window_and_its_store_keeps_the_outputs(
    container: Container,
) -> None:
    projects = container.project_service()
    projects.create("checkout")
    changes = ContextPolicyChanges(
        context_window=6_000, reserve_tokens=1_000, keep_recent_tokens=1_500
    )
    projects.set_context("checkout", changes)
    engine = proxy_engine(
        container, ProxySettings(compress_over=600, tool_budget=300, project="checkout")
    )
    messages = _conversation(random.Random(14), 80, lines=(8, 12))
    messages[2]["content"][0]["content"] = _output(random.Random(15), 300, None)  # stored
    compacted = [
        engine.requests.forwarded(API, _body(messages[:count])).compacted
        for count in range(1, len(messages) + 1)
    ]
    assert any(compacted)  # the default window (the catalog's) would hold all of it
    stored = container.artifact_store().list(project="checkout")
    assert len(stored) == 1
    with pytest.raises(ProjectNotFoundError):
        proxy_engine(container, ProxySettings(project="nowhere"))


def _responses_conversation(rng: random.Random, turns: int) -> list[Any]:
    """The same kind of session as OpenAI Responses input items: messages, function calls and
    their outputs paired by call_id, a reasoning item before each call."""
    items: list[Any] = [
        {"type": "message", "role": "user", "content": "Fix the failing build, please."}
    ]
    for turn in range(turns):
        call = f"call_{turn:04d}"
        items.append(
            {"type": "reasoning", "id": f"rs_{turn:04d}", "summary": [], "encrypted_content": "e"}
        )
        items.append(
            {
                "type": "function_call",
                "call_id": call,
                "name": "bash",
                "arguments": json.dumps({"command": f"make {turn}"}),
            }
        )
        output = _output(rng, rng.randint(8, 12), None)
        items.append({"type": "function_call_output", "call_id": call, "output": output})
    return items


def test_a_responses_conversation_is_compacted_and_the_cut_sticks(container: Container) -> None:
    engine = _compacting_engine(container)
    items = _responses_conversation(random.Random(17), 80)
    api = ProviderApi.OPENAI_RESPONSES
    previous: list[str] | None = None
    compactions = 0
    extended = 0
    forwarded = None
    for count in range(1, len(items) + 1):
        request = {"model": "gpt-4o", "instructions": SYSTEM, "input": items[:count]}
        forwarded = engine.requests.forwarded(api, json.dumps(request).encode())
        sent = json.loads(forwarded.body)
        assert sent["instructions"] == SYSTEM
        now = [canonical_json(item) for item in sent["input"]]
        if forwarded.compacted:
            compactions += 1
            assert forwarded.tokens_forwarded <= 5_000
        elif previous is not None:
            assert now[: len(previous)] == previous  # the cut sticks: the prefix holds
            extended += 1
        previous = now
    assert forwarded is not None
    assert compactions >= 2
    assert extended == len(items) - 1 - compactions
    # No function call is forwarded without its output, nor an output without its call.
    sent_items = json.loads(forwarded.body)["input"]
    calls = {item["call_id"] for item in sent_items if item.get("type") == "function_call"}
    outputs = {item["call_id"] for item in sent_items if item.get("type") == "function_call_output"}
    assert calls == outputs
