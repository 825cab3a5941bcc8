"""Every field of a message a compaction returns is redacted, with the real scanner: texts,
tool calls' arguments, tool results and their parts, thinking, verbatim blocks, usage and the
format's own fields; ids, names and signatures are left alone, and nothing given is changed."""

from __future__ import annotations

import copy

from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner
from cleveragents.application.services.compaction.credential_redaction import (
    RedactedCredentials,
    redact_every_field,
    redact_fields,
)
from cleveragents.domain.transcript import (
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)
from tests.secret_recall_set import credentials

SCANNER = make_secret_scanner(name="builtin")
GENERATED = {credential.name: credential for credential in credentials(11)}


def text(name: str) -> str:
    return GENERATED[name].text


def secret(name: str) -> str:
    return GENERATED[name].secret


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in strings(item)]
    return []


def test_every_field_of_a_message_is_redacted_and_ids_names_signatures_stay() -> None:
    assistant = Message(
        role=Role.ASSISTANT,
        content=(
            ThinkingBlock(thinking=f"login with\n{text('npm-token')}", signature="c2lnbmF0dXJl"),
            TextBlock(text=f"Running it.\n{text('github-classic')}"),
            ToolCall(id="toolu_1", name="Bash", input={"command": text("aws-access-key-id")}),
            OtherBlock(data={"type": "document", "source": {"data": text("slack-bot-token")}}),
        ),
        usage={"input_tokens": 12, "service_tier": text("huggingface-token")},
        extra={"claude_code": {"record": {"uuid": "u-1", "note": text("gitlab-token")}}},
    )
    results = Message(
        role=Role.USER,
        content=(
            ToolResult(
                call_id="toolu_1",
                content=f"out\n{text('openai-project')}",
                parts=(
                    {"type": "text", "text": f"out\n{text('openai-project')}"},
                    {"type": "text", "text": text("stripe-secret")},
                ),
            ),
        ),
        extra={"claude_code": {"record": {"toolUseResult": {"stdout": text("anthropic")}}}},
    )
    given = [assistant, results]
    before = copy.deepcopy([m.model_dump() for m in given])
    redacted = redact_every_field(given, SCANNER)
    names = (
        "npm-token",
        "github-classic",
        "aws-access-key-id",
        "slack-bot-token",
        "huggingface-token",
        "gitlab-token",
        "openai-project",
        "stripe-secret",
        "anthropic",
    )
    every = [s for m in redacted.messages for s in strings(m.model_dump())]
    for name in names:
        assert not any(secret(name) in s for s in every), name
    assert redacted.found[0].count >= 6
    assert redacted.found[1].count >= 3
    assert redacted.count() == redacted.found[0].count + redacted.found[1].count
    out_assistant, out_results = redacted.messages
    thinking, _, call, _ = out_assistant.content
    assert isinstance(thinking, ThinkingBlock)
    assert thinking.signature == "c2lnbmF0dXJl"
    assert thinking.thinking.startswith("login with\n")
    assert "[REDACTED:npm-token]" in thinking.thinking
    assert isinstance(call, ToolCall)
    assert (call.id, call.name) == ("toolu_1", "Bash")
    assert out_assistant.usage is not None
    assert out_assistant.usage["input_tokens"] == 12
    assert out_assistant.extra["claude_code"]["record"]["uuid"] == "u-1"
    [result] = out_results.content
    assert isinstance(result, ToolResult)
    assert result.call_id == "toolu_1"
    assert result.parts is not None
    assert len(result.parts) == 2
    # Nothing given was changed: the messages, their dicts, their blocks.
    assert [m.model_dump() for m in given] == before


def test_a_message_without_a_credential_comes_back_as_the_same_object() -> None:
    clean = Message(role=Role.USER, content=(TextBlock(text="run the tests"),), usage=None)
    dirty = Message(role=Role.USER, content=(TextBlock(text=text("github-classic")),))
    redacted = redact_every_field([clean, dirty], SCANNER)
    assert redacted.messages[0] is clean
    assert redacted.messages[0].usage is None
    assert redacted.messages[1] is not dirty
    assert [found.count for found in redacted.found] == [0, 1]


def test_a_private_key_split_across_two_blocks_of_a_message_goes_whole() -> None:
    pem = GENERATED["private-key"].text.split("\n")
    message = Message(
        role=Role.USER,
        content=(
            TextBlock(text="key:\n" + "\n".join(pem[:3])),
            ToolResult(call_id="t", content="\n".join(pem[3:])),
        ),
    )
    [redacted] = redact_every_field([message], SCANNER).messages
    every = "\n".join(strings(redacted.model_dump()))
    for line in pem[1:-1]:
        assert line not in every


def test_request_fields_are_redacted_as_a_copy() -> None:
    fields = {"model": "gpt-4o", "metadata": {"notes": [text("stripe-secret")]}, "n": 2}
    before = copy.deepcopy(fields)
    redacted, found = redact_fields(fields, SCANNER)
    assert found.count == 1
    assert secret("stripe-secret") not in str(redacted)
    assert redacted["model"] == "gpt-4o"
    assert redacted["n"] == 2
    assert fields == before
    untouched, none = redact_fields({"model": "gpt-4o"}, SCANNER)
    assert (untouched, none.count) == ({"model": "gpt-4o"}, 0)


def test_the_tally_adds_its_places() -> None:
    tally = RedactedCredentials(system=1, folded=2, kept=3, request=4)
    assert tally.total == 10
    assert tally.as_dict() == {"system": 1, "folded": 2, "kept": 3, "request": 4}
