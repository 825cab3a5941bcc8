"""OpenAI Responses API input as a transcript format: what its items become, how they are told
from the other JSON formats, what is refused with one line, and how a changed transcript is
written back (the items as read where they still fit, plain items elsewhere)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import (
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Transcript,
    TranscriptFormat,
)
from cleveragents.domain.transcript_rules import violations

CODEC = JsonTranscriptCodec()
RESPONSES = TranscriptFormat.OPENAI_RESPONSES
ITEMS: list[dict[str, Any]] = [
    {"role": "developer", "content": "Use the tools."},
    {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": "Weather in Paris and Rome?"}],
    },
    {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "Two cities: two calls."}],
        "encrypted_content": "gAAAAB0paque==",
    },
    {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_paris",
        "name": "weather",
        "arguments": '{"city": "Paris"}',
        "status": "completed",
    },
    {
        "type": "function_call",
        "id": "fc_2",
        "call_id": "call_rome",
        "name": "weather",
        "arguments": '{"city":"Rome"}',
        "status": "completed",
    },
    {"type": "function_call_output", "call_id": "call_rome", "output": "rain"},
    {
        "type": "function_call_output",
        "call_id": "call_paris",
        "output": [
            {"type": "input_text", "text": "sunny"},
            {"type": "input_image", "image_url": "https://example.test/map.png"},
        ],
    },
    {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Sunny, and rain.", "annotations": []}],
    },
    {"type": "web_search_call", "id": "ws_1", "status": "completed"},
]
REQUEST = {"model": "gpt-5", "instructions": "Be brief.", "input": ITEMS, "store": False}


def _text(document: object) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def test_the_items_become_messages_with_calls_beside_their_reasoning_and_outputs_after() -> None:
    transcript = CODEC.read(_text(REQUEST))
    shape = [(m.role, [type(b).__name__ for b in m.content]) for m in transcript.messages]
    assert shape == [
        (Role.SYSTEM, ["TextBlock"]),  # instructions
        (Role.SYSTEM, ["TextBlock"]),  # developer
        (Role.USER, ["TextBlock"]),
        (Role.ASSISTANT, ["ThinkingBlock", "ToolCall", "ToolCall"]),
        (Role.USER, ["ToolResult", "ToolResult"]),
        (Role.ASSISTANT, ["TextBlock", "OtherBlock"]),
    ]
    assert violations(transcript.messages) == []
    thinking = transcript.messages[3].content[0]
    assert thinking == ThinkingBlock(thinking="Two cities: two calls.", signature="gAAAAB0paque==")
    assert transcript.messages[3].tool_calls[0].input == {"city": "Paris"}
    paris = transcript.messages[4].tool_results[1]
    assert (paris.call_id, paris.content) == ("call_paris", "sunny")


@pytest.mark.parametrize(
    "document",
    [REQUEST, ITEMS, {"model": "gpt-5", "input": "Hello there"}, {"input": [], "store": True}],
    ids=["request", "bare-list", "input-text", "empty"],
)
def test_a_document_is_detected_and_written_back_byte_for_byte(document: object) -> None:
    text = _text(document)
    assert CODEC.detect(text) is RESPONSES
    assert CODEC.write(CODEC.read(text), RESPONSES) == text
    assert CODEC.write_native(CODEC.read_native(document), RESPONSES) == document


@pytest.mark.parametrize(
    "document",
    [
        [{"role": "user", "content": "hi"}, {"type": "function_call_output", "call_id": "c"}],
        [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
        {"model": "gpt-5", "input": [{"role": "developer", "content": "x"}]},
        [{"role": "system", "content": [{"type": "output_text", "text": "x"}]}],
    ],
    ids=["item-type", "input-text-part", "top-level-input", "shared-role-beside-a-part"],
)
def test_each_sign_of_the_format_is_enough(document: object) -> None:
    assert CODEC.detect_native(document) is RESPONSES


def test_an_item_of_a_type_not_known_here_is_kept_whole_in_a_request() -> None:
    item = {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAAAB0paque=="}
    later = {"type": "future_tool_call_output", "call_id": "x", "output": "y"}
    document = {"model": "gpt-5", "input": [ITEMS[1], item, later]}
    transcript = CODEC.read_native(document)
    assert transcript.messages[1].content == (OtherBlock(data=item),)
    assert transcript.messages[2].role is Role.USER  # an output answers the model
    assert CODEC.write_native(transcript, RESPONSES) == document
    unknown = {"type": "future_item", "id": "f_1"}
    with pytest.raises(InvalidInputError, match="nor OpenAI Responses input items"):
        CODEC.detect_native([ITEMS[1], unknown])  # a bare list: an unknown type says nothing
    assert CODEC.read_native([ITEMS[1], unknown], RESPONSES).messages[1].content == (
        OtherBlock(data=unknown),
    )


def test_a_developer_role_alone_stays_chat_completions_unless_responses_is_named() -> None:
    # Chat Completions and Responses read plain messages alike; detected, the older format wins.
    document = [{"role": "developer", "content": "x"}, {"role": "user", "content": "hi"}]
    assert CODEC.detect_native(document) is TranscriptFormat.OPENAI
    transcript = CODEC.read_native(document, RESPONSES)
    assert [message.role for message in transcript.messages] == [Role.SYSTEM, Role.USER]
    assert CODEC.write_native(transcript, RESPONSES) == document
    with pytest.raises(InvalidInputError, match="messages\\[0\\] has role 'developer'"):
        CODEC.read_native(document, TranscriptFormat.ANTHROPIC)


@pytest.mark.parametrize(
    ("document", "named", "message"),
    [
        (
            [{"role": "assistant", "content": None, "tool_calls": []}, ITEMS[3]],
            None,
            "transcript mixes OpenAI (messages[0] has 'tool_calls') and OpenAI Responses",
        ),
        (
            [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}, ITEMS[3]],
            None,
            "mixes Anthropic (messages[0] has a 'tool_result' block) and OpenAI Responses",
        ),
        (
            REQUEST,
            TranscriptFormat.ANTHROPIC,
            "transcript looks like OpenAI Responses JSON (top-level 'input'), not Anthropic",
        ),
        (
            ITEMS,
            TranscriptFormat.OPENAI,
            "OpenAI Responses JSON (input[1] has a part of type 'input_text'), not OpenAI Chat",
        ),
        (
            [{"role": "tool", "tool_call_id": "t", "content": "x"}],
            RESPONSES,
            "looks like OpenAI Chat Completions JSON (messages[0] has role 'tool')",
        ),
        (ITEMS, TranscriptFormat.CLAUDE_CODE, "looks like OpenAI Responses JSON"),
        ([{"type": "nonsense"}], None, "nor OpenAI Responses input items"),
        ([{"type": "function_call", "name": "f", "arguments": "{}"}], None, "without a non-empty"),
        ([{"type": "function_call", "call_id": "c", "name": "f"}], None, "string 'arguments'"),
        ([{"type": "function_call_output", "call_id": "c", "output": 3}], None, "'output' must"),
        ([{"type": "message", "role": "robot", "content": "x"}], RESPONSES, "role 'robot'"),
        ([{"type": "message", "role": "user"}], RESPONSES, "message item without content"),
        ([{"role": "user", "content": 7}], RESPONSES, "content must be a string or a list"),
        ([{"role": "user", "content": [{"text": "x"}]}], RESPONSES, "a part must be an object"),
        ([{"type": "reasoning", "summary": "x"}], None, "reasoning 'summary' must be a list"),
        (["text"], RESPONSES, "input[0]: an item must be an object, not a string"),
        ([{"id": "x"}], RESPONSES, "an item must have a string 'type' or a 'role'"),
        ({"model": "gpt-5", "input": 3}, RESPONSES, "an object with an 'input' list"),
    ],
)
def test_what_cannot_be_read_is_refused_in_one_line(
    document: object, named: TranscriptFormat | None, message: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        CODEC.read(_text(document), named)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_shortened_output_keeps_its_other_parts_and_the_items_their_keys() -> None:
    transcript = CODEC.read(_text(REQUEST))
    results = transcript.messages[4]
    shortened = results.tool_results[1].model_copy(update={"content": "[sunny, shortened]"})
    messages = list(transcript.messages)
    messages[4] = results.model_copy(update={"content": (results.content[0], shortened)})
    written = json.loads(
        CODEC.write(transcript.model_copy(update={"messages": tuple(messages)}), RESPONSES)
    )
    assert written["input"][6] == {
        "type": "function_call_output",
        "call_id": "call_paris",
        "output": [
            {"type": "input_text", "text": "[sunny, shortened]"},
            {"type": "input_image", "image_url": "https://example.test/map.png"},
        ],
    }
    assert written["input"][:6] == ITEMS[:6]
    assert list(written) == list(REQUEST)  # the request's keys in their order


def test_changed_arguments_and_reasoning_are_written_as_they_are_now() -> None:
    transcript = CODEC.read(_text(ITEMS))
    step = transcript.messages[2]
    thinking, paris, rome = step.content
    assert isinstance(thinking, ThinkingBlock)
    assert isinstance(paris, ToolCall)
    changed = step.model_copy(
        update={
            "content": (
                thinking.model_copy(update={"thinking": "[REDACTED:x] cities"}),
                paris.model_copy(update={"input": {"city": "[REDACTED:x]"}}),
                rome,
            )
        }
    )
    messages = (*transcript.messages[:2], changed, *transcript.messages[3:])
    items = CODEC.write_native(Transcript(messages=messages), RESPONSES)
    assert isinstance(items, list)
    assert items[2] == {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "[REDACTED:x] cities"}],
        "encrypted_content": "gAAAAB0paque==",  # opaque: sent back as it came
    }
    assert items[3]["arguments"] == '{"city":"[REDACTED:x]"}'
    assert items[4] == ITEMS[4]


def test_custom_tool_calls_pair_with_their_outputs() -> None:
    document = [
        {"role": "user", "content": "patch it"},
        {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": "*** a"},
        {"type": "custom_tool_call_output", "call_id": "c1", "output": "done"},
    ]
    transcript = CODEC.read_native(document, RESPONSES)
    assert transcript.messages[1].tool_calls == (
        ToolCall(id="c1", name="apply_patch", input={"input": "*** a"}),
    )
    assert transcript.messages[2].tool_results == (ToolResult(call_id="c1", content="done"),)
    assert CODEC.write_native(transcript, RESPONSES) == document


def test_a_transcript_from_another_format_is_written_as_plain_items() -> None:
    transcript = Transcript(
        messages=(
            Message(role=Role.SYSTEM, content=(TextBlock(text="rules"),)),
            Message(role=Role.USER, content=(TextBlock(text="go"),)),
            Message(
                role=Role.ASSISTANT,
                content=(
                    ThinkingBlock(thinking="hm", signature="anthropic-signature"),
                    TextBlock(text="running"),
                    ToolCall(id="t1", name="bash", input={"command": "ls"}),
                ),
            ),
            Message(
                role=Role.USER,
                content=(
                    ToolResult(call_id="t1", content="a.txt", is_error=True),
                    OtherBlock(data={"type": "image", "source": {}}),
                ),
            ),
        )
    )
    items = CODEC.write_native(transcript, RESPONSES)
    assert items == [
        {"type": "message", "role": "system", "content": "rules"},
        {"type": "message", "role": "user", "content": "go"},
        {"type": "message", "role": "assistant", "content": "running"},  # thinking dropped
        {"type": "function_call", "call_id": "t1", "name": "bash", "arguments": '{"command":"ls"}'},
        {"type": "function_call_output", "call_id": "t1", "output": "a.txt"},
        {"type": "message", "role": "user", "content": [{"type": "image", "source": {}}]},
    ]
    again = CODEC.read_native(items, RESPONSES)
    assert violations(again.messages) == []
    assert CODEC.write_native(again, RESPONSES) == items


def test_responses_input_converts_to_the_other_formats() -> None:
    transcript = CODEC.read(_text(REQUEST))
    for target in (TranscriptFormat.OPENAI, TranscriptFormat.ANTHROPIC):
        converted = CODEC.read(CODEC.write(transcript, target), target)
        assert violations(converted.messages) == []
        assert [c.id for m in converted.messages for c in m.tool_calls] == [
            "call_paris",
            "call_rome",
        ]


def test_the_callers_document_is_never_changed() -> None:
    document = copy.deepcopy(REQUEST)
    transcript = CODEC.read_native(document)
    written = CODEC.write_native(transcript, RESPONSES)
    assert isinstance(written, dict)
    written["input"][0]["content"] = "changed"
    assert document == REQUEST
    assert CODEC.write_native(transcript, RESPONSES) == REQUEST
