"""What the proxy changes in a request: credentials redacted wherever they are, large tool
outputs stored and forwarded as a bounded view that names their handle, and nothing forwarded
when redaction cannot run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from cleveragents.application.ports.secret_scanner import SecretScan, SecretScanner
from cleveragents.application.services.proxy.proxy_engine import ProxySettings
from cleveragents.container import build_container
from cleveragents.container.proxy_engine import proxy_engine, proxy_exchanges
from tests.e2e.cli_runner import run
from tests.proxy_harness import running_proxy
from tests.secret_recall_set import credentials

MODEL = "claude-sonnet-4-5"
HEADER = re.compile(
    r"^\[tool output of [\d,]+ tokens, [\d,]+ lines, stored as sha256:(?P<hex>[0-9a-f]{64}); "
    r"shown compressed; read any omitted range with: "
    r"agents artifact read sha256:(?P=hex) --lines A-B\]$"
)
SETTINGS = ProxySettings(compress_over=2_000, tool_budget=600)


def _secrets() -> dict[str, Any]:
    return {each.name: each for each in credentials()}


def _log(lines: int) -> str:
    """A build log with a few errors in it, large enough to be condensed."""
    out = []
    for index in range(1, lines + 1):
        if index % 997 == 0:
            out.append(f"2026-01-02 10:{index % 60:02d}:00 ERROR step {index} failed: exit 2")
        else:
            out.append(
                f"2026-01-02 10:{index % 60:02d}:00 INFO step {index} compiled module_{index}"
            )
    return "\n".join(out) + "\n"


def _anthropic_conversation(output: str) -> Any:  # the SDK's typed params, as plain JSON
    return [
        {"role": "user", "content": "Build the project and tell me what failed."},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Running the build."},
                {
                    "type": "tool_use",
                    "id": "toolu_build",
                    "name": "bash",
                    "input": {"command": "make"},
                },
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_build", "content": output}],
        },
    ]


def test_a_large_tool_result_is_stored_and_forwarded_as_a_bounded_view(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = _log(3_000)
    conversation = _anthropic_conversation(output)
    with running_proxy(tmp_path, SETTINGS) as proxy:
        client = anthropic.Anthropic(base_url=proxy.url, api_key="k", max_retries=0)
        client.messages.create(model=MODEL, max_tokens=8, messages=conversation)
        followed: Any = [*conversation, {"role": "assistant", "content": "Step 997 failed."}]
        followed.append({"role": "user", "content": "Why?"})
        client.messages.create(model=MODEL, max_tokens=8, messages=followed)
        proxy.stop()
        counter = proxy.container.token_counter()
        first, second = (r.json() for r in proxy.upstream.received)
        stats = proxy_exchanges(proxy.container).stats()
        database = f"sqlite:///{tmp_path / 'proxy.db'}"
    view = first["messages"][2]["content"][0]["content"]
    header = HEADER.match(view.splitlines()[0])
    assert header is not None, view.splitlines()[0]
    assert counter.count(view) <= SETTINGS.tool_budget
    assert "ERROR step 997 failed" in view  # smart compression keeps the log's errors
    # The same output gives the byte-identical view in the next request.
    assert second["messages"][:3] == first["messages"][:3]
    assert stats.total.tool_outputs_stored == 1
    assert stats.total.tokens_forwarded < stats.total.tokens_received
    # The handle reads back: any omitted range, exactly.
    marker = re.search(rf"lines (\d+)-(\d+) of sha256:{header['hex']}", view)
    assert marker is not None, view
    first_line, last_line = int(marker[1]), int(marker[2])
    result = run(
        capsys,
        "--db",
        database,
        "artifact",
        "read",
        f"sha256:{header['hex']}",
        "--lines",
        f"{first_line}-{last_line}",
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "".join(output.splitlines(keepends=True)[first_line - 1 : last_line])


def test_openai_tool_messages_and_function_call_outputs_are_condensed(tmp_path: Path) -> None:
    output = _log(3_000)
    with running_proxy(tmp_path, SETTINGS) as proxy:
        client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key="k", max_retries=0)
        client.chat.completions.create(
            model="gpt-4o",
            messages=[
                {"role": "user", "content": "build"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "bash", "arguments": '{"command":"make"}'},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "call_1", "content": output},
            ],
        )
        client.responses.create(
            model="gpt-4o",
            input=[
                {"role": "user", "content": "build"},
                {"type": "function_call", "call_id": "call_2", "name": "bash", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "call_2", "output": output},
            ],
        )
        proxy.stop()
        chat, responses = (r.json() for r in proxy.upstream.received)
        stats = proxy_exchanges(proxy.container).stats()
    chat_view = chat["messages"][2]["content"]
    responses_view = responses["input"][2]["output"]
    assert HEADER.match(chat_view.splitlines()[0])
    assert chat_view == responses_view  # one output, one view, whichever API carries it
    assert chat["messages"][1]["tool_calls"][0]["id"] == "call_1"
    assert stats.total.tool_outputs_stored == 2  # a request each (the store keeps one copy)


def test_no_credential_is_forwarded_from_any_part_of_a_request(tmp_path: Path) -> None:
    found = _secrets()
    in_system = found["anthropic"]
    in_user = found["github-classic"]
    in_assistant = found["password-in-url"]
    in_tool_input = found["aws-secret-access-key"]
    in_small_result = found["slack-bot-token"]
    in_large_result = found["stripe-secret"]
    output = _log(2_000).replace("step 1500 compiled", f"step 1500 {in_large_result.text}")
    messages: Any = [
        {"role": "user", "content": f"Deploy with {in_user.text}"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": f"Using {in_assistant.text}"},
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "bash",
                    "input": {"command": f"configure {in_tool_input.text}"},
                },
                {
                    "type": "tool_use",
                    "id": "toolu_2",
                    "name": "bash",
                    "input": {"command": "build"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": f"ok {in_small_result.text}",
                },
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": output},
            ],
        },
    ]
    used = [in_system, in_user, in_assistant, in_tool_input, in_small_result, in_large_result]
    with running_proxy(tmp_path, SETTINGS) as proxy:
        client = anthropic.Anthropic(base_url=proxy.url, api_key="k", max_retries=0)
        client.messages.create(
            model=MODEL, max_tokens=8, system=f"Env: {in_system.text}", messages=messages
        )
        proxy.stop()
        [received] = proxy.upstream.received
        stats = proxy_exchanges(proxy.container).stats()
        store = proxy.container.artifact_store()
        stored = b"".join(
            store.read(artifact.id) for artifact in store.list() if artifact.sha256 is not None
        )
    body = received.body.decode()
    for credential in used:
        assert credential.secret not in body, credential.name
        assert credential.secret.encode() not in stored, credential.name
    # The large output's credential line may be one the view leaves out; the others show.
    assert body.count("[REDACTED:") >= len(used) - 1
    assert received.json()["messages"][1]["content"][1]["id"] == "toolu_1"  # ids stay
    assert stats.total.credentials_redacted >= len(used)


class _BrokenScanner(SecretScanner):
    """A scanner that cannot run (its rules failed to load, say)."""

    @property
    def name(self) -> str:
        return "broken"

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        raise RuntimeError("the scanner's rules could not be loaded")


def test_nothing_is_forwarded_when_redaction_cannot_run(tmp_path: Path) -> None:
    container = build_container(f"sqlite:///{tmp_path / 'broken.db'}", home=tmp_path / "home")
    try:
        with container.secret_scanner.override(_BrokenScanner()):
            engine = proxy_engine(container, SETTINGS)
        with running_proxy(tmp_path, engine=engine) as proxy:
            client = anthropic.Anthropic(base_url=proxy.url, api_key="k", max_retries=0)
            with pytest.raises(anthropic.APIStatusError) as raised:
                client.messages.create(
                    model=MODEL, max_tokens=8, messages=[{"role": "user", "content": "hello"}]
                )
            received = list(proxy.upstream.received)
    finally:
        container.store().dispose()
    assert raised.value.status_code == 502
    message = raised.value.body["error"]["message"]  # type: ignore[index]
    assert "\n" not in message
    assert "credential redaction could not run" in message
    assert received == []
