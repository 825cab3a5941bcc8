"""Adversarial regression tests for compaction: each reproduces a bug found in review.

Each was written failing (``xfail(strict=True)``) and unmarked when its fix landed. Fake
credentials are built at run time (see `tests.secret_samples`), never written as literals.
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

import pytest

from cleveragents.adapters.transcripts.claude_code_jsonl import read_claude_code
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.summary.redaction import (
    Redactions,
    redact_line,
)
from cleveragents.container import Container
from cleveragents.domain.transcript import (
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ToolCall,
    ToolResult,
    TranscriptFormat,
)
from tests.e2e.cli_runner import run

SETTINGS = CompactionSettings(
    context_window=60_000, reserve_tokens=4_000, keep_recent_tokens=300, summary_tokens=3_000
)


def _random(length: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(length))


def _github_token(seed: int = 1) -> str:
    return "gh" + "p_" + _random(36, seed)


def _private_key(seed: int = 11) -> str:
    rng = random.Random(seed)
    body = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(600))).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    kind = "RSA PRIVATE" + " KEY"
    return "\n".join([f"-----BEGIN {kind}-----", *lines, f"-----END {kind}-----"])


def _user(text: str) -> Message:
    return Message(role=Role.USER, content=(TextBlock(text=text),))


def _step(call_id: str, command: str, output: str = "ok") -> list[Message]:
    call = ToolCall(id=call_id, name="Bash", input={"command": command})
    return [
        Message(role=Role.ASSISTANT, content=(TextBlock(text="Running it."), call)),
        Message(role=Role.USER, content=(ToolResult(call_id=call_id, content=output),)),
    ]


def _session(request: str, commands: tuple[str, ...] = ()) -> list[Message]:
    """A request, some commands, a large output, then a new request: the head is folded."""
    messages = [_user(request)]
    for index, command in enumerate(commands):
        messages += _step(f"c{index}", command)
    messages += _step("big", "cat big.txt", "x " * 3000)
    messages.append(_user("thanks, now continue"))
    return messages


def _summary_text(container: Container, messages: list[Message]) -> str:
    outcome = container.context_compactor().compact(messages, SETTINGS, force=True)
    assert outcome.status == "compacted", outcome.reason
    summaries = [message for message in outcome.messages if message.is_summary]
    assert len(summaries) == 1
    text: str = summaries[0].text
    return text


def _key_body_lines(key: str) -> list[str]:
    return [line for line in key.split("\n") if not line.startswith("-----")]


# -- credentials in the summary ---------------------------------------------------------------


def test_a_private_key_pasted_in_a_request_never_reaches_the_summary(
    container: Container,
) -> None:
    key = _private_key()
    text = _summary_text(container, _session(f"Install this deploy key:\n{key}\nthen deploy"))
    leaked = [line for line in _key_body_lines(key) if line[:32] in text]
    assert leaked == []


def test_a_private_key_written_by_a_heredoc_never_reaches_the_summary(
    container: Container,
) -> None:
    key = _private_key()
    command = f"cat > ~/.ssh/id_rsa <<'EOF'\n{key}\nEOF"
    text = _summary_text(container, _session("set up ssh", (command,)))
    leaked = [line for line in _key_body_lines(key) if line[:32] in text]
    assert leaked == []


def test_a_credential_cut_by_an_item_limit_leaves_no_part_of_it(container: Container) -> None:
    token = _github_token()
    # 240 characters of command: the clip keeps "ghp_" and about 25 characters of the token.
    command = f"echo {'a' * (240 - 1 - 5 - 30)} {token}"
    text = _summary_text(container, _session("push the release", (command,)))
    assert token[:16] not in text


def test_two_credentials_of_one_kind_on_a_line_keep_the_words_around_them(
    container: Container,
) -> None:
    scanner = container.secret_scanner()
    redactions = Redactions()
    line = (
        f"Rotate the old token {_github_token(1)} and the new token {_github_token(2)} "
        "in the CI settings of the staging cluster"
    )
    redacted = redact_line(line, scanner, redactions)
    assert "CI settings of the staging cluster" in redacted
    assert redactions.count == 2


# -- determinism ----------------------------------------------------------------------------


def _session_with_a_huge_last_result() -> list[Message]:
    log = "\n".join(f"2026-01-01 INFO worker {i} processed batch {i * 7}" for i in range(6000))
    messages = [_user("find out why the nightly job fails")]
    for step in range(10):
        messages += _step(f"c{step}", f"grep -n step{step} run.log", "no match")
    messages += _step("log", "cat /var/log/job.log", log + "\nERROR job 42 failed")
    return messages


def test_the_same_input_compacts_to_the_same_messages_when_a_result_is_shrunk(
    container: Container,
) -> None:
    settings = CompactionSettings(
        context_window=30_000, reserve_tokens=4_000, keep_recent_tokens=6_000, summary_tokens=2_000
    )
    messages = _session_with_a_huge_last_result()
    first = container.context_compactor().compact(messages, settings, force=True)
    second = container.context_compactor().compact(messages, settings, force=True)
    assert first.status == second.status == "compacted"
    assert first.shrunk_results  # the case under test
    assert first.messages == second.messages
    assert first.tokens_after == second.tokens_after


# -- token counting of images ---------------------------------------------------------------


def _image(size: int = 300_000) -> dict[str, object]:
    data = base64.b64encode(random.Random(3).randbytes(size)).decode()
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}


def test_a_screenshot_in_the_latest_request_is_kept(container: Container) -> None:
    settings = CompactionSettings(
        context_window=200_000, reserve_tokens=16_384, keep_recent_tokens=20_000
    )
    question = Message(
        role=Role.USER,
        content=(OtherBlock(data=_image()), TextBlock(text="what is wrong in this screenshot?")),
    )
    messages = [
        _user("hello"),
        Message(role=Role.ASSISTANT, content=(TextBlock(text="hi"),)),
        question,
    ]
    outcome = container.context_compactor().compact(messages, settings)
    kept_images = [b for m in outcome.messages for b in m.content if isinstance(b, OtherBlock)]
    assert kept_images, (outcome.status, outcome.tokens_before)


def test_an_image_costs_about_the_same_in_a_tool_result_as_in_a_message(
    container: Container,
) -> None:
    counter = container.token_counter()
    image = _image(30_000)
    as_block = Message(role=Role.USER, content=(OtherBlock(data=image),))
    in_result = Message(
        role=Role.USER, content=(ToolResult(call_id="shot", content="", parts=(image,)),)
    )
    block_cost, result_cost = message_tokens([as_block, in_result], counter)
    assert result_cost >= block_cost / 2
    assert block_cost >= result_cost / 2


# -- Claude Code's own summary --------------------------------------------------------------


def test_a_claude_code_continuation_summary_is_not_dropped_when_folded(
    container: Container,
) -> None:
    continuation = _user(
        "This session is being continued from a previous conversation that ran out of "
        "context. The conversation is summarized below:\n"
        "1. Primary Request: migrate the billing database to Postgres 16 (ticket ZEBRA-42).\n"
        "2. Never touch the production cluster.\n"
        "3. Pending: run the migration tests."
    )
    messages = [continuation]
    for step in range(10):
        messages += _step(f"c{step}", f"pytest -k t{step}", "passed " * 100)
    messages += [_user("continue")]
    text = _summary_text(container, messages)
    assert "ZEBRA-42" in text


# -- side effects of a failed compaction ----------------------------------------------------


def test_a_failed_compaction_leaves_nothing_in_the_artifact_store(container: Container) -> None:
    settings = CompactionSettings(
        context_window=12_000, reserve_tokens=1_000, keep_recent_tokens=3_000, summary_tokens=1_000
    )
    messages = [Message(role=Role.SYSTEM, content=(TextBlock(text="rules " * 10_990),))]
    messages.append(_user("investigate"))
    for step in range(5):
        output = "\n".join(f"line {j} of log {step} with data {step}" for j in range(3000))
        messages += _step(f"c{step}", f"cat log{step}", output)
    outcome = container.context_compactor().compact(messages, settings, force=True)
    assert outcome.status == "failed"
    assert container.artifact_store().list() == []


# -- Claude Code output of a shrunk result --------------------------------------------------


def test_a_shrunk_claude_code_result_does_not_keep_its_full_output_in_the_record(
    container: Container,
) -> None:
    token = _github_token(5)
    log = "\n".join(f"line {i} deploy step {i % 17} done" for i in range(8000))
    log += f"\nexport GITHUB_TOKEN={token}\nERROR deploy failed"
    session = "11111111-2222-3333-4444-555555555555"
    records = [
        {"type": "user", "message": {"role": "user", "content": "debug the deploy"}},
        {
            "type": "assistant",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "Bash",
                        "input": {"command": "cat deploy.log"},
                    }
                ],
            },
        },
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": log}],
            },
            "toolUseResult": {"stdout": log, "stderr": "", "interrupted": False},
        },
    ]
    for index, record in enumerate(records):
        record.update(
            uuid=f"00000000-0000-4000-8000-{index:012d}",
            sessionId=session,
            timestamp=f"2026-01-01T00:00:0{index}.000Z",
        )
    codec = container.transcript_codec()
    text = "".join(json.dumps(record) + "\n" for record in records)
    transcript = read_claude_code(text)
    settings = CompactionSettings(
        context_window=20_000, reserve_tokens=1_000, keep_recent_tokens=4_000, summary_tokens=1_000
    )
    # Credentials kept: otherwise the output is redacted before it is shrunk, and stored.
    outcome = container.context_compactor().compact(
        transcript.messages, settings, force=True, keep_credentials=True
    )
    assert outcome.status == "compacted", outcome.reason
    [shrunk] = outcome.shrunk_results
    assert shrunk.artifact_id is None  # refused by the store: it holds a credential
    written = codec.write(
        transcript.model_copy(update={"messages": outcome.messages}), TranscriptFormat.CLAUDE_CODE
    )
    assert token not in written


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "document",
    [{"system": "You are helpful.", "messages": []}, {"messages": []}],
    ids=["system-prompt-only", "no-messages"],
)
def test_a_transcript_with_no_conversation_is_bad_input(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path, document: object
) -> None:
    path = tmp_path / "conversation.json"
    path.write_text(json.dumps(document))
    result = run(capsys, "context", "compact", str(path), "--force")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


# -- second review: holes around the fixes --------------------------------------------------


def _failed_call(call_id: str, name: str, arguments: dict[str, object]) -> list[Message]:
    call = ToolCall(id=call_id, name=name, input=arguments)
    return [
        Message(role=Role.ASSISTANT, content=(TextBlock(text="Calling it."), call)),
        Message(
            role=Role.USER,
            content=(ToolResult(call_id=call_id, content="Error: refused", is_error=True),),
        ),
    ]


def test_a_credential_named_by_its_argument_key_never_reaches_the_summary(
    container: Container,
) -> None:
    token = _random(20, 21) + "9"
    # An MCP call that failed is named in the summary by its arguments as JSON, clipped at
    # 120 characters: here the clip falls right after the value, before its closing quote.
    arguments: dict[str, object] = {"a": "y" * 78, "token": token}
    messages = _session("call the API")
    messages[1:1] = _failed_call("api", "mcp__svc__call", arguments)
    text = _summary_text(container, messages)
    assert token[:12] not in text


def test_a_private_key_split_across_two_text_blocks_never_reaches_the_summary(
    container: Container,
) -> None:
    key = _private_key(14)
    lines = key.split("\n")
    pasted = Message(
        role=Role.USER,
        content=(
            TextBlock(text="Install this key:\n" + "\n".join(lines[:4])),
            TextBlock(text="\n".join(lines[4:]) + "\nthen deploy"),
        ),
    )
    messages = [pasted, *_session("go on")[1:]]
    text = _summary_text(container, messages)
    leaked = [line for line in _key_body_lines(key) if line[:32] in text]
    assert leaked == []


def _list_result_document(text: str) -> str:
    """An Anthropic request whose last tool result is a list of text parts (MCP tools, Claude
    Code's Task results)."""
    messages: list[dict[str, object]] = [
        {"role": "user", "content": "find out why the nightly job fails"}
    ]
    for step in range(10):
        messages.append(
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"c{step}",
                        "name": "Bash",
                        "input": {"command": "ls"},
                    }
                ],
            }
        )
        messages.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"c{step}", "content": "ok"}],
            }
        )
    messages.append(
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "log", "name": "mcp__logs__fetch", "input": {}}],
        }
    )
    parts = [{"type": "text", "text": text}]
    messages.append(
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "log", "content": parts}],
        }
    )
    return json.dumps({"messages": messages})


def test_a_tool_result_given_as_text_parts_costs_what_its_text_costs(
    container: Container,
) -> None:
    counter = container.token_counter()
    text = "hello world, this is some output. " * 1000
    transcript = container.transcript_codec().read(
        _list_result_document(text), TranscriptFormat.ANTHROPIC
    )
    cost = message_tokens(transcript.messages[-1:], counter)[0]
    assert cost <= counter.count(text) * 1.1


def test_a_huge_tool_result_given_as_text_parts_is_shrunk_like_a_string_one(
    container: Container,
) -> None:
    log = "\n".join(f"2026-01-01 INFO worker {i} processed batch {i * 7}" for i in range(6000))
    transcript = container.transcript_codec().read(
        _list_result_document(log + "\nERROR job 42 failed"), TranscriptFormat.ANTHROPIC
    )
    settings = CompactionSettings(
        context_window=30_000, reserve_tokens=4_000, keep_recent_tokens=6_000
    )
    outcome = container.context_compactor().compact(transcript.messages, settings, force=True)
    assert outcome.status == "compacted", outcome.reason
    assert outcome.shrunk_results  # as when the same output is a string


def test_a_text_document_without_spaces_is_counted_as_text(container: Container) -> None:
    counter = container.token_counter()
    text = "这是一个很长的中文文档没有空格" * 3000
    document = {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": text},
    }
    message = Message(role=Role.USER, content=(OtherBlock(data=document),))
    assert message_tokens([message], counter)[0] >= counter.count(text) / 2
