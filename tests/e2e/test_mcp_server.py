"""`agents mcp serve` end to end: the SDK's own client spawns the server over stdio, lists its
tools, calls each, and gets bad arguments back as tool errors while the server goes on."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from cleveragents.container import build_container, build_token_counter
from cleveragents.container.models import build_model_profiles
from cleveragents.domain.event import CONTEXT_COMPACTED
from cleveragents.domain.policy import ContextPolicyChanges
from cleveragents.domain.transcript import TranscriptFormat

pytestmark = pytest.mark.slow

TOOLS = {
    "store_output",
    "read_artifact",
    "compress",
    "count_tokens",
    "compact_transcript",
    "plan_status",
    "spawn_child_plan",
    "gate",
    "plan_context_budget",
}
# A made-up AWS access key id, put together here so the file itself holds none.
FAKE_KEY = "AKIA" + "QX7MZ2VW4RT9BN3K"
UNKNOWN_ID = "01J0000000000000000000000Z"

Scenario = Callable[[ClientSession], Awaitable[None]]


def serve(home: Path, scenario: Scenario, *arguments: str) -> None:
    """Run `scenario` against a server spawned as a client would, with its home in `home`."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "cleveragents.cli", *arguments, "mcp", "serve"],
        # The workspace holds the home: the files a test gives by path lie beside it.
        env={"CLEVERAGENTS_HOME": str(home), "CLEVERAGENTS_WORKSPACE": str(home.parent)},
    )

    async def session() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            await scenario(client)

    anyio.run(session)


def text_of(result: CallToolResult) -> str:
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


async def call(client: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """The structured answer of a call that must succeed."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    structured: dict[str, Any] = result.structured_content
    assert json.loads(text_of(result)) == structured  # the same, as text
    return structured


async def refused(client: ClientSession, tool: str, **arguments: Any) -> str:
    """The one-line message of a call that must come back as a tool error."""
    result = await client.call_tool(tool, arguments)
    message = text_of(result)
    assert result.is_error, message
    assert "\n" not in message
    return message


def conversation(turns: int) -> dict[str, Any]:
    """An Anthropic Messages request: each turn a request, an edit and its result."""
    messages: list[dict[str, Any]] = []
    for turn in range(turns):
        call_id = f"toolu_{turn:03d}"
        messages += [
            {"role": "user", "content": f"Request {turn}: fix the bug in src/module_{turn}.py"},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": "Edit",
                        "input": {"file_path": f"src/module_{turn}.py"},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": call_id, "content": "ok " * 200}
                ],
            },
            {"role": "assistant", "content": f"Done with request {turn}."},
        ]
    return {"model": "claude-sonnet-4-5", "system": "Be careful.", "messages": messages}


def test_the_tools_are_listed_with_described_parameters_and_nothing_is_opened(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    listed: dict[str, Any] = {}

    async def scenario(client: ClientSession) -> None:
        for tool in (await client.list_tools()).tools:
            listed[tool.name] = tool
        counted = await call(client, "count_tokens", text="hello world, hello tokens")
        assert counted == {
            "input_tokens": build_token_counter().count("hello world, hello tokens"),
            "encoding": "cl100k_base",
            "estimated": False,  # an exact count in the encoding (no model named)
            "method": "cl100k_base",
            "model": None,
        }
        other = await call(client, "count_tokens", text="hello world", encoding="o200k_base")
        assert other["input_tokens"] == build_token_counter("o200k_base").count("hello world")

    serve(home, scenario)
    assert set(listed) == TOOLS
    for tool in listed.values():
        assert len(tool.description or "") > 40, tool.name
        assert tool.output_schema is not None, tool.name
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{tool.name}.{name}"
    assert listed["compress"].input_schema["properties"]["budget"]["minimum"] == 1
    # Listing the tools and counting tokens need no store: no database was created.
    assert not (home / "cleveragents.db").exists()


def test_store_read_and_compress_an_output(tmp_path: Path) -> None:
    home = tmp_path / "home"
    log = "".join(f"2024-05-01 12:00:{i % 60:02d} INFO step {i} done\n" for i in range(2000))
    log += "2024-05-01 12:01:00 ERROR test_login failed: expected 200, got 500\n"

    async def scenario(client: ClientSession) -> None:
        stored = await call(client, "store_output", text=log, label="pytest-run")
        artifact_id = stored["artifact_id"]
        preview = stored["preview"]
        assert preview["byte_count"] == len(log.encode())
        assert preview["workspace_path"] == "tool-output/pytest-run"
        assert preview["tail"].endswith("got 500\n")  # the end, where failures are
        assert preview["omitted_bytes"] > 0
        assert f"offset {preview['omitted_offset']}" in stored["read_more"]

        # What the preview left out, read back exactly: by bytes, then by lines.
        start, length = preview["omitted_offset"], 100
        by_bytes = await call(
            client, "read_artifact", artifact_id=artifact_id, offset=start, length=length
        )
        assert by_bytes["text"] == log.encode()[start : start + length].decode()
        assert by_bytes["next_offset"] == start + length
        assert by_bytes["artifact_bytes"] == len(log.encode())
        by_lines = await call(
            client, "read_artifact", artifact_id=artifact_id, first_line=2001, last_line=2001
        )
        assert by_lines["text"] == log.splitlines(keepends=True)[2000]
        end = await call(
            client, "read_artifact", artifact_id=artifact_id, offset=len(log) - 10, length=100
        )
        assert end["byte_count"] == 10
        assert end["next_offset"] is None

        # Stored twice, kept once.
        again = await call(client, "store_output", text=log, label="pytest-run")
        assert again["artifact_id"] == artifact_id

        counter = build_token_counter()
        fitted = await call(
            client,
            "compress",
            artifact_id=artifact_id,
            budget=200,
            task="why does login fail",
            mode="smart",
        )
        result = fitted["result"]
        assert result["raw_tokens"] == counter.count(log)
        assert result["truncated"] is True
        assert counter.count(result["content"]) == result["compacted_tokens"] <= 200
        assert "test_login failed" in result["content"]
        assert artifact_id in result["content"]  # its markers name the stored artifact

        tiered = await call(client, "compress", text=log, name="build.log", budget=150)
        assert tiered["result"]["artifact_name"] == "build.log"
        assert counter.count(tiered["result"]["content"]) <= 150
        assert tiered["result"]["content"].startswith("2024-05-01 12:00:00 INFO step 0")
        # Said to be a log, text without a name keeps its last ERROR line; source needs a name.
        as_log = await call(client, "compress", text=log, kind="log", budget=150, mode="smart")
        assert "test_login failed" in as_log["result"]["content"]
        no_name = await refused(
            client, "compress", text="def f():\n    pass\n", kind="source", budget=50
        )
        assert "kind source needs a file name" in no_name
        whole = await call(client, "compress", text="short text", budget=50)
        assert whole["result"]["content"] == "short text"
        assert whole["result"]["truncated"] is False

    serve(home, scenario)


def test_output_with_a_credential_is_refused_or_stored_redacted(tmp_path: Path) -> None:
    async def scenario(client: ClientSession) -> None:
        # A credential: refused, with where it is, and nothing kept.
        secret = f"deploying\nAWS_ACCESS_KEY_ID={FAKE_KEY}\ndone\n"
        message = await refused(client, "store_output", text=secret, label="deploy")
        assert "blocked" in message
        assert "on line(s) 2" in message
        assert "nothing was stored" in message
        assert FAKE_KEY not in message

        # The same output with secrets=redact: stored, the key replaced, the rest kept.
        redacted = await call(client, "store_output", text=secret, label="deploy", secrets="redact")
        kept = await call(client, "read_artifact", artifact_id=redacted["artifact_id"])
        assert FAKE_KEY not in kept["text"]
        assert "[REDACTED:" in kept["text"]
        assert kept["text"].startswith("deploying\n")
        assert kept["text"].endswith("done\n")
        wrong = await refused(client, "store_output", text=secret, label="x", secrets="hide")
        assert "secrets" in wrong

    serve(tmp_path / "home", scenario)


def test_compact_a_transcript_given_as_a_file_or_as_text(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = tmp_path / "conversation.json"
    path.write_text(json.dumps(conversation(6)), encoding="utf-8")
    openai = {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "Be brief."},
            *[
                message
                for turn in range(8)
                for message in (
                    {"role": "user", "content": f"Question {turn}: " + "why " * 150},
                    {"role": "assistant", "content": f"Answer {turn}: " + "because " * 150},
                )
            ],
        ],
    }

    async def scenario(client: ClientSession) -> None:
        from_file = await call(client, "compact_transcript", path=str(path), force=True)
        assert from_file["format"] == "anthropic"
        report = from_file["report"]
        assert report["status"] == "compacted"
        assert report["tokens_after"] < report["tokens_before"]
        assert report["folded_messages"] + report["kept_messages"] == 24
        assert report["summary_sections"]["files_modified"] >= 1
        written = json.loads(from_file["transcript"])
        assert written["model"] == "claude-sonnet-4-5"  # the request's other fields kept
        assert written["messages"][-1] == {"role": "assistant", "content": "Done with request 5."}
        codec = build_container(home=home).transcript_codec()
        assert codec.detect(from_file["transcript"]) is TranscriptFormat.ANTHROPIC

        # Given as a document (the request body an orchestrator holds): one comes back.
        from_text = await call(
            client,
            "compact_transcript",
            transcript=openai,
            context_window=3000,
            reserve_tokens=500,
            keep_recent_tokens=600,
        )
        assert from_text["format"] == "openai"
        assert from_text["report"]["status"] == "compacted"  # over 2500 tokens: compacted
        assert from_text["report"]["tokens_after"] <= 2500
        assert from_text["transcript"]["model"] == "gpt-4o"
        assert from_text["transcript"]["messages"][-1] == openai["messages"][-1]

        # JSON text is read as its document (the SDK parses it), and comes back unchanged.
        under = await call(client, "compact_transcript", transcript=json.dumps(openai))
        assert under["report"]["status"] == "not-needed"
        assert under["transcript"] == openai

    serve(home, scenario)


def test_compact_a_transcript_with_a_projects_policy(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'projects.db'}"
    container = build_container(url, home=tmp_path / "home")
    try:
        shop = container.project_service().create("shop")
        container.project_service().set_context(
            "shop",
            ContextPolicyChanges(context_window=3000, reserve_tokens=500, keep_recent_tokens=600),
        )
    finally:
        container.store().dispose()
    document = conversation(20)  # about 5000 tokens

    async def scenario(client: ClientSession) -> None:
        # The project's window: over its threshold, so compacted without force.
        by_project = await call(client, "compact_transcript", transcript=document, project="shop")
        assert by_project["report"]["threshold"] == 2500
        assert by_project["report"]["status"] == "compacted"
        assert by_project["report"]["tokens_after"] <= 2500
        # The settings given go over the project's.
        wider = await call(
            client, "compact_transcript", transcript=document, project="shop", reserve_tokens=1000
        )
        assert wider["report"]["threshold"] == 2000
        # Without the project, nothing to do
        alone = await call(client, "compact_transcript", transcript=document)
        assert alone["report"]["status"] == "not-needed"
        # (the request's own model, claude-sonnet-4-5, sets the window: docs/models.md)
        sonnet = build_model_profiles().profile("claude-sonnet-4-5")
        assert alone["report"]["threshold"] == sonnet.budget_window - sonnet.budget_reserve
        message = await refused(client, "compact_transcript", transcript=document, project="nope")
        assert "unknown project 'nope'" in message
        # The project's policy can still be made to leave no room: one line, nothing done.
        message = await refused(
            client, "compact_transcript", transcript=document, project="shop", reserve_tokens=2900
        )
        assert "keep_recent_tokens (600)" in message

    serve(tmp_path / "home", scenario, "--db", url)
    container = build_container(url, home=tmp_path / "home")
    try:
        recorded = container.event_sink().recorded(CONTEXT_COMPACTED)
        # The two compactions the project decided, counted for it.
        assert [event.payload.get("project_id") for event in recorded] == [shop.id, shop.id]
    finally:
        container.store().dispose()


def test_plan_status_and_a_child_spawned_with_its_skeleton(tmp_path: Path) -> None:
    database = tmp_path / "plans.db"
    url = f"sqlite:///{database}"
    container = build_container(url, home=tmp_path / "home")
    try:
        container.project_service().create("checkout")
        plan = container.plan_service().create("checkout", "Refactor payments")
        for text, relevance in [
            ("Use Stripe webhooks for refunds", 0.9),
            ("Keep the legacy gateway until May", 0.2),
            ("Idempotency keys on every charge", 0.8),
        ]:
            container.plan_service().decide(plan.id, text, relevance=relevance, token_count=100)
    finally:
        container.store().dispose()

    async def scenario(client: ClientSession) -> None:
        status = await call(client, "plan_status", plan_id=plan.id)
        assert status["title"] == "Refactor payments"
        assert status["project"] == "checkout"
        assert status["decisions"] == 3
        assert status["own_tokens"] == 300
        assert status["skeleton"] is None

        child = await call(
            client, "spawn_child_plan", parent_id=plan.id, title="Refunds", skeleton_ratio=0.5
        )
        assert child["parent_id"] == plan.id
        skeleton = child["skeleton"]
        assert skeleton["ratio"] == 0.5
        assert skeleton["original_tokens"] == 300
        assert skeleton["compressed_tokens"] <= 150
        kept = [piece["content"] for piece in child["context"]]
        assert "Use Stripe webhooks for refunds" in kept  # the most relevant
        assert "Keep the legacy gateway until May" not in kept

        parent = await call(client, "plan_status", plan_id=plan.id)
        assert parent["children"] == [child["id"]]
        inherited = await call(client, "plan_status", plan_id=child["id"])
        assert inherited["skeleton"] == skeleton
        assert inherited["inherited_tokens"] == skeleton["compressed_tokens"]

    serve(tmp_path / "home", scenario, "--db", url)


def test_bad_arguments_come_back_as_tool_errors_and_the_server_goes_on(tmp_path: Path) -> None:
    home = tmp_path / "home"
    missing = tmp_path / "no-such-session.jsonl"

    async def scenario(client: ClientSession) -> None:
        bad: list[tuple[str, dict[str, Any], str]] = [
            ("read_artifact", {"artifact_id": UNKNOWN_ID}, f"unknown artifact {UNKNOWN_ID}"),
            ("read_artifact", {"artifact_id": "not-an-id"}, "artifact id"),
            ("read_artifact", {"artifact_id": UNKNOWN_ID, "offset": -1}, "offset"),
            (
                "read_artifact",
                {"artifact_id": UNKNOWN_ID, "offset": 0, "first_line": 1},
                "not both",
            ),
            ("compress", {"budget": -5, "text": "x"}, "budget"),
            ("compress", {"budget": "many", "text": "x"}, "budget: Input should be a valid"),
            ("compress", {"budget": 10}, "exactly one of text or artifact_id"),
            ("compress", {"budget": 10, "text": "x", "kind": "yaml"}, "kind"),
            ("compress", {"budget": 10, "artifact_id": UNKNOWN_ID}, "unknown artifact"),
            ("count_tokens", {"text": 5}, "text: Input should be a valid string"),
            ("count_tokens", {}, "text: Field required"),
            ("count_tokens", {"text": "x", "encoding": "p50k"}, "encoding"),
            ("compact_transcript", {"transcript": "{not json"}, "JSON"),
            ("compact_transcript", {"transcript": '{"messages": 3}'}, "messages"),
            (
                "compact_transcript",
                {"path": str(missing)},
                f"no readable file {missing} in the server's workspace",
            ),
            ("compact_transcript", {}, "exactly one of transcript"),
            (
                "compact_transcript",
                {
                    "transcript": json.dumps(conversation(1)),
                    "context_window": 100,
                    "reserve_tokens": 100,
                },
                "reserve",
            ),
            ("compact_transcript", {"transcript": "[]", "format": "yaml"}, "format"),
            ("plan_status", {"plan_id": UNKNOWN_ID}, f"unknown plan {UNKNOWN_ID}"),
            ("spawn_child_plan", {"parent_id": UNKNOWN_ID, "title": "x"}, "unknown plan"),
            (
                "spawn_child_plan",
                {"parent_id": UNKNOWN_ID, "title": "x", "skeleton_ratio": 1.5},
                "skeleton_ratio",
            ),
            ("no_such_tool", {}, "no_such_tool"),
        ]
        for tool, arguments, expected in bad:
            message = await refused(client, tool, **arguments)
            assert expected in message, (tool, arguments, message)
            assert "Traceback" not in message
        # Still serving, and answering right.
        assert (await call(client, "count_tokens", text="still here"))["input_tokens"] > 0

    serve(home, scenario)


LAZY_PROBE = """
import sys, anyio
from pathlib import Path
from cleveragents.container import build_container
from cleveragents.mcp.server import build_server

server = build_server(build_container(home=Path(sys.argv[1])))
anyio.run(server.list_tools)
anyio.run(server.call_tool, "count_tokens", {"text": "hello"})
print("sqlalchemy" in sys.modules, "tree_sitter" in sys.modules)
anyio.run(server.call_tool, "plan_status", {"plan_id": "01J0000000000000000000000Z"})
"""


def test_no_database_library_is_loaded_until_a_tool_needs_the_store(tmp_path: Path) -> None:
    import subprocess

    completed = subprocess.run(
        [sys.executable, "-c", LAZY_PROBE, str(tmp_path / "home")],
        capture_output=True,
        text=True,
        check=False,
    )
    # The unknown plan is the store's answer, raised as the tool error it is.
    assert "unknown plan" in completed.stderr
    assert completed.stdout.split() == ["False", "False"]
