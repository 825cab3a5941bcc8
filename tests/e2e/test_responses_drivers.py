"""OpenAI Responses input through every driver: the CLI (`--format openai-responses`, and
detected), the Python API on the caller's own list and dict, and the MCP tool over stdio. Each
gives back the same kind of document, every function call with its output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

import cleveragents
from tests.e2e.cli_runner import run
from tests.e2e.test_mcp_server import call, serve


def agent_request(turns: int) -> dict[str, Any]:
    """A Responses request of an agent's session: each turn a request, reasoning, a call and
    its long output, and an answer."""
    items: list[dict[str, Any]] = []
    for turn in range(turns):
        call_id = f"call_{turn:03d}"
        items += [
            {"role": "user", "content": f"Request {turn}: fix the bug in src/module_{turn}.py"},
            {
                "type": "reasoning",
                "id": f"rs_{turn:03d}",
                "summary": [{"type": "summary_text", "text": f"Run the tests of module {turn}."}],
                "encrypted_content": f"gAAAAB{turn:03d}==",
            },
            {
                "type": "function_call",
                "id": f"fc_{turn:03d}",
                "call_id": call_id,
                "name": "bash",
                "arguments": json.dumps({"command": f"pytest tests/test_module_{turn}.py"}),
                "status": "completed",
            },
            {
                "type": "function_call_output",
                "call_id": call_id,
                "output": f"collected {turn} items\n" + "PASSED test\n" * 80,
            },
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": f"Fixed module {turn}."}],
            },
        ]
    return {"model": "gpt-5", "instructions": "You fix bugs.", "input": items, "store": False}


def assert_paired(items: list[dict[str, Any]]) -> None:
    calls = [item["call_id"] for item in items if item.get("type") == "function_call"]
    outputs = [item["call_id"] for item in items if item.get("type") == "function_call_output"]
    assert calls == outputs
    assert calls  # the last turn is kept
    for index, item in enumerate(items):
        if item.get("type") == "reasoning":
            assert items[index + 1]["type"] == "function_call"  # with the call it led to


@pytest.mark.parametrize("named", [["--format", "openai-responses"], []], ids=["named", "detected"])
def test_the_cli_compacts_responses_input_into_the_same_kind_of_request(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path, named: list[str]
) -> None:
    source = tmp_path / "request.json"
    request = agent_request(12)
    source.write_text(json.dumps(request, indent=2), encoding="utf-8")
    out = tmp_path / "out.json"
    result = run(
        capsys,
        "context",
        "compact",
        str(source),
        *named,
        "--force",
        "--keep-recent-tokens",
        "1000",
        "--out",
        str(out),
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["status"] == "compacted"
    written = json.loads(out.read_text(encoding="utf-8"))
    assert list(written) == list(request)
    assert written["instructions"] == request["instructions"]
    assert len(written["input"]) < len(request["input"])
    assert written["input"][-5:] == request["input"][-5:]  # the last turn as it was
    assert_paired(written["input"])
    checked = run(capsys, "context", "validate", str(out), "--json")
    assert checked.exit_code == 0, checked.stderr
    assert checked.json()["format"] == "openai-responses"


def test_the_cli_refuses_a_chat_document_named_as_responses_in_one_line(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([{"role": "tool", "tool_call_id": "t", "content": "x"}]))
    result = run(capsys, "context", "validate", str(source), "--format", "openai-responses")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: transcript looks like OpenAI Chat Completions JSON (messages[0] has role "
        "'tool'), not OpenAI Responses JSON; read it as 'openai' or let the format be detected"
    ]


def test_the_python_api_gives_back_a_list_for_a_list_and_a_dict_for_a_dict() -> None:
    request = agent_request(12)
    compacted = cleveragents.compact(request, force=True, keep_recent_tokens=1000)
    assert compacted.status == "compacted", compacted.reason
    assert compacted.format.value == "openai-responses"
    assert isinstance(compacted.messages, dict)
    assert_paired(compacted.messages["input"])
    items = request["input"]
    listed = cleveragents.compact(
        items, format="openai-responses", force=True, keep_recent_tokens=1000
    )
    assert isinstance(listed.messages, list)
    assert_paired(listed.messages)
    assert listed.messages[-5:] == items[-5:]
    unchanged = cleveragents.compact(items)
    assert unchanged.status == "not-needed"
    assert unchanged.messages == items


@pytest.mark.slow
def test_the_mcp_tool_compacts_responses_input(tmp_path: Path) -> None:
    answers: dict[str, dict[str, Any]] = {}
    request = agent_request(12)

    async def scenario(client: ClientSession) -> None:
        answers["named"] = await call(
            client,
            "compact_transcript",
            transcript=request,
            format="openai-responses",
            force=True,
            keep_recent_tokens=1000,
        )
        answers["detected"] = await call(
            client, "compact_transcript", transcript=request["input"], force=True
        )

    serve(tmp_path / "home", scenario)
    named = answers["named"]
    assert named["format"] == "openai-responses"
    assert named["report"]["status"] == "compacted"
    assert_paired(named["transcript"]["input"])
    assert answers["detected"]["format"] == "openai-responses"
    assert isinstance(answers["detected"]["transcript"], list)
