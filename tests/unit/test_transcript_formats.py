"""Unit tests of the transcript format adapters (Anthropic Messages, OpenAI Chat Completions,
Claude Code session JSONL) behind `JsonTranscriptCodec`.

Real data: the Anthropic and OpenAI examples in `tests/data/transcripts/`, written by hand after
the public API references. The Claude Code session logs of `../shared/corpus/transcripts/`:
tests/integration/test_transcript_formats_corpus.py; generated transcripts: tests/properties."""

from __future__ import annotations

import json
import re
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
from tests.conftest import TEST_DATA

EXAMPLES = TEST_DATA / "transcripts"
ANTHROPIC_EXAMPLE = EXAMPLES / "anthropic-messages.json"
OPENAI_EXAMPLE = EXAMPLES / "openai-chat.json"
CODEC = JsonTranscriptCodec()
ANTHROPIC, OPENAI, CLAUDE_CODE = (
    TranscriptFormat.ANTHROPIC,
    TranscriptFormat.OPENAI,
    TranscriptFormat.CLAUDE_CODE,
)


def jsonl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


# -- Anthropic Messages --------------------------------------------------------------------


def test_anthropic_example_reads_into_the_neutral_model() -> None:
    transcript = CODEC.read(ANTHROPIC_EXAMPLE.read_text())
    system, first, calls, results, redacted, *_, last = transcript.messages

    assert system.role is Role.SYSTEM
    assert system.text.startswith("You are a release engineer")
    assert transcript.extra["anthropic_request"]["model"] == "claude-sonnet-4-5"
    assert "messages" not in transcript.extra["anthropic_request"]
    assert isinstance(first.content[0], OtherBlock)
    assert first.content[0].data["type"] == "image"
    thinking = calls.content[0]
    assert isinstance(thinking, ThinkingBlock)
    assert thinking.signature
    assert not thinking.redacted
    assert [call.name for call in calls.tool_calls] == ["read_file", "run_command"]
    assert [r.call_id for r in results.tool_results] == [c.id for c in calls.tool_calls]
    failed = results.tool_results[1]
    assert failed.is_error
    assert failed.content == (
        "FAIL src/date/format.test.ts > formats a UTC midnight\n"
        "AssertionError: expected '2024-03-09' to be '2024-03-10'"
    )
    assert failed.parts is not None
    assert len(failed.parts) == 2
    hidden = redacted.content[0]
    assert isinstance(hidden, ThinkingBlock)
    assert hidden.redacted
    assert hidden.thinking == ""
    assert last.tool_results
    assert last.has_user_text
    assert violations(transcript.messages) == []


def test_anthropic_example_writes_back_the_same_json() -> None:
    text = ANTHROPIC_EXAMPLE.read_text()
    transcript = CODEC.read(text, ANTHROPIC)
    written = CODEC.write(transcript, ANTHROPIC)

    assert json.loads(written) == json.loads(text)
    assert CODEC.read(written) == transcript


def test_anthropic_string_content_and_a_single_text_block_stay_distinct() -> None:
    as_string = [{"role": "user", "content": "hi"}]
    as_block = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    read_string = CODEC.read(json.dumps(as_string), ANTHROPIC)
    read_block = CODEC.read(json.dumps(as_block), ANTHROPIC)

    assert read_string.messages[0].text == read_block.messages[0].text == "hi"
    assert json.loads(CODEC.write(read_string, ANTHROPIC)) == as_string
    assert json.loads(CODEC.write(read_block, ANTHROPIC)) == as_block


def test_a_bare_message_list_is_written_back_as_a_list() -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    transcript = CODEC.read(json.dumps(messages))

    assert transcript.extra == {}
    assert json.loads(CODEC.write(transcript, ANTHROPIC)) == messages


def test_a_string_system_prompt_becomes_a_leading_system_message() -> None:
    body = {"model": "m", "system": "Be brief.", "messages": [{"role": "user", "content": "hi"}]}
    transcript = CODEC.read(json.dumps(body))

    assert [m.role for m in transcript.messages] == [Role.SYSTEM, Role.USER]
    assert transcript.messages[0].text == "Be brief."
    assert json.loads(CODEC.write(transcript, ANTHROPIC)) == body


def test_a_compacted_tool_result_keeps_its_non_text_parts() -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    parts = ({"type": "text", "text": "long output"}, image)
    result = ToolResult(call_id="toolu_1", content="[omitted]", parts=parts)
    transcript = Transcript(messages=(Message(role=Role.USER, content=(result,)),))

    written = json.loads(CODEC.write(transcript, ANTHROPIC))

    assert written[0]["content"][0]["content"] == [{"type": "text", "text": "[omitted]"}, image]


def test_a_system_message_after_the_start_cannot_be_written_as_anthropic() -> None:
    transcript = Transcript(
        messages=(
            Message(role=Role.USER, content=(TextBlock(text="hi"),)),
            Message(role=Role.SYSTEM, content=(TextBlock(text="late"),)),
        )
    )
    with pytest.raises(InvalidInputError, match="message 1: a system message"):
        CODEC.write(transcript, ANTHROPIC)


# -- OpenAI Chat Completions ---------------------------------------------------------------


def test_openai_example_reads_into_the_neutral_model() -> None:
    transcript = CODEC.read(OPENAI_EXAMPLE.read_text())
    developer, system, user, calls, results, *rest = transcript.messages

    assert transcript.extra["openai_request"]["model"] == "gpt-4o-2024-08-06"
    assert developer.role is system.role is Role.SYSTEM
    assert developer.extra["openai"]["role"] == "developer"
    assert user.extra["openai"]["keys"] == {"name": "maria"}
    assert isinstance(user.content[1], OtherBlock)
    assert [call.input for call in calls.tool_calls] == [
        {"city": "Bergen", "unit": "celsius"},
        {"city": "Oslo", "unit": "celsius"},
    ]
    # The second call's arguments were spaced, so the raw string rides along.
    first, second = calls.extra["openai"]["tool_calls"]
    assert first == {}
    assert second == {
        "id": calls.tool_calls[1].id,
        "arguments": '{"city": "Oslo", "unit": "celsius"}',
    }
    assert results.role is Role.USER
    assert [r.call_id for r in results.tool_results] == [c.id for c in calls.tool_calls]
    assert not any(r.is_error for r in results.tool_results)
    assert results.tool_results[1].content == "Error: weather service timed out after 10 s"
    assert sum(1 for m in rest if m.tool_results) == 1
    assert violations(transcript.messages) == []


def test_openai_example_writes_back_the_same_json() -> None:
    text = OPENAI_EXAMPLE.read_text()
    transcript = CODEC.read(text, OPENAI)
    written = CODEC.write(transcript, OPENAI)

    assert json.loads(written) == json.loads(text)
    assert CODEC.read(written) == transcript


def test_openai_arguments_that_are_not_an_object_survive() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "[1, 2"}}
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
    ]
    transcript = CODEC.read(json.dumps(messages), OPENAI)

    assert transcript.messages[1].tool_calls[0].input == {}
    assert json.loads(CODEC.write(transcript, OPENAI)) == messages


def test_openai_custom_tool_calls_keep_their_free_text_input() -> None:
    call = {"id": "call_1", "type": "custom", "custom": {"name": "patch", "input": "*** Begin"}}
    messages = [{"role": "assistant", "content": None, "tool_calls": [call]}]
    transcript = CODEC.read(json.dumps(messages), OPENAI)

    assert transcript.messages[0].tool_calls[0].input == {"input": "*** Begin"}
    assert json.loads(CODEC.write(transcript, OPENAI)) == messages


def test_changed_openai_arguments_are_serialised_afresh() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
    transcript = CODEC.read(json.dumps([{"role": "assistant", "tool_calls": [call]}]), OPENAI)
    assistant = transcript.messages[0]
    edited = assistant.model_copy(
        update={"content": (ToolCall(id="call_1", name="f", input={"a": 2}),)}
    )

    written = json.loads(CODEC.write(Transcript(messages=(edited,)), OPENAI))

    assert written[0]["tool_calls"][0]["function"]["arguments"] == '{"a":2}'


def test_anthropic_example_converts_to_openai_with_tool_pairs_intact() -> None:
    anthropic = CODEC.read(ANTHROPIC_EXAMPLE.read_text())
    openai = CODEC.read(CODEC.write(anthropic, OPENAI), OPENAI)

    def pairs(transcript: Transcript) -> list[tuple[str, str]]:
        return [
            (message.role.value, block.id if isinstance(block, ToolCall) else block.call_id)
            for message in transcript.messages
            for block in message.content
            if isinstance(block, ToolCall | ToolResult)
        ]

    assert pairs(openai) == pairs(anthropic)
    assert not any(isinstance(b, ThinkingBlock) for m in openai.messages for b in m.content)
    assert violations(openai.messages) == []


# -- Claude Code session JSONL -------------------------------------------------------------


def test_queued_task_notifications_and_undelivered_prompts_are_left_out() -> None:
    def queue(operation: str, content: str | None = None) -> str:
        record: dict[str, object] = {"type": "queue-operation", "operation": operation}
        if content is not None:
            record["content"] = content
        return json.dumps(record)

    def user(text: str) -> str:
        return json.dumps(
            {"type": "user", "uuid": text, "message": {"role": "user", "content": text}}
        )

    def assistant(text: str, message_id: str) -> str:
        message = {
            "id": message_id,
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
        }
        return json.dumps({"type": "assistant", "uuid": message_id, "message": message})

    lines = [
        user("start"),
        queue("enqueue", "<task-notification>done</task-notification>"),
        queue("enqueue", "and then this"),
        queue("remove"),
        assistant("working", "m1"),
        queue("enqueue", "never delivered"),
        assistant("done", "m2"),
    ]
    transcript = CODEC.read("\n".join(lines) + "\n")
    assert [(m.role.value, m.text) for m in transcript.messages] == [
        ("user", "start"),
        ("user", "and then this"),
        ("assistant", "working"),
        ("assistant", "done"),
    ]


def _assistant_record(uuid: str, block: dict[str, Any], output_tokens: int) -> dict[str, Any]:
    usage = {"input_tokens": 10, "output_tokens": output_tokens}
    message = {"id": "msg_1", "model": "claude-opus-4-6", "type": "message"}
    return {
        "type": "assistant",
        "uuid": uuid,
        "sessionId": "s1",
        "message": {**message, "role": "assistant", "content": [block], "usage": usage},
    }


def _result_record(uuid: str, call_id: str, source: str) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": "ok"}
    return {
        "type": "user",
        "uuid": uuid,
        "sessionId": "s1",
        "sourceToolAssistantUUID": source,
        "message": {"role": "user", "content": [block]},
    }


SESSION = jsonl(
    {"type": "file-history-snapshot", "messageId": "u1", "snapshot": {}},
    {"type": "user", "uuid": "u1", "sessionId": "s1", "message": {"role": "user", "content": "go"}},
    {"type": "progress", "uuid": "p1", "sessionId": "s1", "data": {}},
    _assistant_record("a1", {"type": "tool_use", "id": "t1", "name": "Read", "input": {}}, 5),
    _result_record("u2", "t1", "a1"),
    _assistant_record("a2", {"type": "tool_use", "id": "t2", "name": "Grep", "input": {}}, 9),
    _result_record("u3", "t2", "a2"),
    {"type": "system", "subtype": "stop_hook_summary", "uuid": "x1", "sessionId": "s1"},
)


def test_claude_code_session_is_merged_and_written_one_record_per_message() -> None:
    transcript = CODEC.read(SESSION)
    written = [json.loads(line) for line in CODEC.write(transcript, CLAUDE_CODE).splitlines()]

    assert [m.role.value for m in transcript.messages] == ["user", "assistant", "user", "user"]
    assert transcript.messages[1].usage == {"input_tokens": 10, "output_tokens": 9}
    assert [r["uuid"] for r in written] == ["u1", "a1", "u2", "u3"]
    assert [r["parentUuid"] for r in written] == [None, "u1", "a1", "u2"]
    assert [r["sourceToolAssistantUUID"] for r in written[2:]] == ["a1", "a1"]
    assert written[1]["message"]["id"] == "msg_1"
    assert written[0]["message"] == {"role": "user", "content": "go"}


# -- detection -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ([{"role": "user", "content": "hi"}], ANTHROPIC),
        ({"messages": []}, ANTHROPIC),
        ({"system": "s", "messages": [{"role": "user", "content": "hi"}]}, ANTHROPIC),
        ([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}], ANTHROPIC),
        ([{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}], OPENAI),
        ([{"role": "developer", "content": "s"}], OPENAI),
        ([{"role": "tool", "tool_call_id": "c", "content": "x"}], OPENAI),
        ([{"role": "assistant", "content": None, "tool_calls": []}], OPENAI),
        ([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}], OPENAI),
    ],
)
def test_detects_json_formats(document: object, expected: TranscriptFormat) -> None:
    assert CODEC.detect(json.dumps(document)) is expected
    assert CODEC.detect(json.dumps(document, indent=2)) is expected


def test_detects_the_examples_and_a_one_record_claude_code_log() -> None:
    record = {"type": "user", "uuid": "u", "message": {"role": "user", "content": "hi"}}

    assert CODEC.detect(ANTHROPIC_EXAMPLE.read_text()) is ANTHROPIC
    assert CODEC.detect(OPENAI_EXAMPLE.read_text()) is OPENAI
    assert CODEC.detect(jsonl(record)) is CLAUDE_CODE
    assert CODEC.detect(SESSION) is CLAUDE_CODE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON"),
        ("hello", "not JSON: Expecting value at line 1 column 1"),
        ('{"model": "m"}', "neither Claude Code JSONL nor JSON messages"),
        ("[1, 2]", "neither Claude Code JSONL nor JSON messages"),
        ('[{"content": "no role"}]', "neither Claude Code JSONL nor JSON messages"),
        (
            json.dumps({"system": "s", "messages": [{"role": "tool", "content": "x"}]}),
            "mixes OpenAI (messages[0] has role 'tool') and Anthropic (top-level 'system')",
        ),
    ],
)
def test_unrecognisable_text_is_an_invalid_input(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=re.escape(message)):
        CODEC.detect(text)


# -- malformed input -----------------------------------------------------------------------


def _user(content: object) -> list[dict[str, Any]]:
    return [{"role": "user", "content": content}]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"messages": "hi"}, "transcript: expected a list of messages"),
        ([{"role": "robot", "content": "x"}], "messages[0]: unknown role 'robot'"),
        (["hi"], "messages[0]: a message must be an object, not a string"),
        ([{"role": "user"}], "messages[0]: message without content"),
        (_user(7), "messages[0].content: content must be a string or a list of blocks, not a"),
        (_user([{"text": "x"}]), "messages[0].content[0]: a block must be an object with a str"),
        (_user([{"type": "text"}]), "messages[0].content[0]: text block without a string 'text'"),
        (
            [{"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]}],
            "messages[0].content[0]: tool_use block without a non-empty string 'id'",
        ),
        (
            [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f"}]}],
            "messages[0].content[0]: tool_use block whose 'input' is not an object",
        ),
        (
            _user([{"type": "tool_result", "tool_use_id": "t", "is_error": "yes"}]),
            "messages[0].content[0]: tool_result 'is_error' must be true or false",
        ),
        (
            _user([{"type": "tool_result", "tool_use_id": "t", "content": ["x"]}]),
            "messages[0].content[0].content[0]: a content part must be an object",
        ),
        ({"system": 3, "messages": []}, "system: content must be a string or a list"),
        ([{"role": "system", "content": "x"}], "messages[0]: role 'system' inside messages"),
    ],
)
def test_malformed_anthropic_input_says_where(document: object, message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        CODEC.read(json.dumps(document), ANTHROPIC)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def _call(**fields: Any) -> list[dict[str, Any]]:
    return [{"role": "assistant", "content": None, "tool_calls": [fields]}]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([{"role": "robot", "content": "x"}], "messages[0]: unknown role 'robot'"),
        ([{"role": "tool", "content": "x"}], "messages[0]: tool message without a 'tool_call_id'"),
        (
            [{"role": "tool", "tool_call_id": "c", "content": None}],
            "messages[0]: tool message content must be a string or a list",
        ),
        (_user(5), "messages[0]: content must be a string, null or a list of parts"),
        (_user(["x"]), "messages[0].content[0]: a part must be an object with a string 'type'"),
        (
            [{"role": "assistant", "tool_calls": {"id": "c"}}],
            "messages[0]: 'tool_calls' must be a list",
        ),
        (
            _call(type="function", function={"name": "f", "arguments": "{}"}),
            "messages[0].tool_calls[0]: tool call without an id",
        ),
        (
            _call(id="c", type="mcp", mcp={}),
            "messages[0].tool_calls[0]: unsupported tool call type 'mcp'",
        ),
        (
            _call(id="c", type="function", function={"arguments": "{}"}),
            "messages[0].tool_calls[0]: tool call without a 'function' object naming the tool",
        ),
        (
            _call(id="c", type="function", function={"name": "f", "arguments": {}}),
            "messages[0].tool_calls[0]: tool call 'arguments' must be a JSON string",
        ),
    ],
)
def test_malformed_openai_input_says_where(document: object, message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        CODEC.read(json.dumps(document), OPENAI)
    assert message in str(caught.value)


USER_RECORD = {"type": "user", "uuid": "u", "message": {"role": "user", "content": "hi"}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (jsonl(USER_RECORD) + "{oops\n", "transcript line 2 is not JSON: Expecting property name"),
        (jsonl(USER_RECORD) + "\n[1]\n", "transcript line 3: a record must be a JSON object"),
        (jsonl({"type": "user", "message": "hi"}), "transcript line 1: 'message' must be an obj"),
        (
            jsonl({"type": "user", "message": {"role": "assistant", "content": "x"}}),
            "transcript line 1: a user record whose message role is 'assistant'",
        ),
        (jsonl({"type": "user", "message": {"role": "user"}}), "line 1: message without content"),
        (
            jsonl(
                USER_RECORD, {"type": "assistant", "message": {"content": [{"type": "tool_use"}]}}
            ),
            "transcript line 2: message.content[0]: tool_use block without a non-empty string 'id'",
        ),
    ],
)
def test_malformed_claude_code_input_names_the_line(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        CODEC.read(text, CLAUDE_CODE)
    assert message in str(caught.value)


_BIG = "9" * 5000  # past Python's 4,300-digit limit on reading an integer


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f'[{{"role": "user", "content": "x", "n": {_BIG}}}]', "transcript: an integer has more"),
        (jsonl(USER_RECORD) + f'{{"type": "x", "n": {_BIG}}}\n', "transcript line 2: an integer"),
        ('[{"role": "user", "content": "x", "n": NaN}]', "transcript: NaN is not a JSON number"),
        ('[{"role": "user", "content": "x", "n": -Infinity}]', "-Infinity is not a JSON number"),
        ('[{"role": "user", "content": "x", "n": 1e999}]', "the number 1e999 is too large"),
        (jsonl(USER_RECORD) + '{"type": "x", "n": NaN}\n', "transcript line 2: NaN is not"),
        ("[" * 100_000, "transcript is nested too deeply to read"),
    ],
)
def test_json_that_python_would_crash_on_or_misread_is_refused(text: str, message: str) -> None:
    for transcript_format in (None, *TranscriptFormat):
        with pytest.raises(InvalidInputError) as caught:
            CODEC.read(text, transcript_format)
        if transcript_format is None:
            assert message in str(caught.value)
        assert "\n" not in str(caught.value)


def test_big_but_readable_numbers_and_tiny_floats_survive() -> None:
    document = [{"role": "user", "content": "x", "n": int("9" * 4000), "f": 1e-999, "g": 2.5}]
    transcript = CODEC.read(json.dumps(document), ANTHROPIC)
    assert json.loads(CODEC.write(transcript, ANTHROPIC)) == document


def test_openai_arguments_with_nan_are_kept_as_the_raw_text() -> None:
    raw = '{"x": NaN}'
    document = _call(id="c", type="function", function={"name": "f", "arguments": raw})
    transcript = CODEC.read(json.dumps(document), OPENAI)
    assert json.loads(CODEC.write(transcript, OPENAI)) == document
    assert "NaN" not in CODEC.write(transcript, ANTHROPIC)


_TOOL_USE = {"type": "tool_use", "id": "t", "name": "f", "input": {}}
_ANTHROPIC_DOCUMENT = [
    {"role": "user", "content": "go"},
    {"role": "assistant", "content": [_TOOL_USE]},
]
_OPENAI_DOCUMENT = [
    {"role": "user", "content": "go"},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function"}]},
]


@pytest.mark.parametrize(
    ("text", "named", "message"),
    [
        (
            ANTHROPIC_EXAMPLE.read_text(),
            OPENAI,
            "transcript looks like Anthropic Messages JSON (top-level 'system'), not OpenAI",
        ),
        (
            json.dumps(_ANTHROPIC_DOCUMENT),
            OPENAI,
            "looks like Anthropic Messages JSON (messages[1] has a 'tool_use' block)",
        ),
        (
            json.dumps(_OPENAI_DOCUMENT),
            ANTHROPIC,
            "looks like OpenAI Chat Completions JSON (messages[1] has 'tool_calls'), not Anthr",
        ),
        (
            OPENAI_EXAMPLE.read_text(),
            ANTHROPIC,
            "looks like OpenAI Chat Completions JSON (messages[0] has role 'developer')",
        ),
        (SESSION, OPENAI, "looks like Claude Code session JSONL (one JSON record a line), not O"),
        (SESSION, ANTHROPIC, "looks like Claude Code session JSONL"),
        (jsonl(USER_RECORD), ANTHROPIC, "read it as 'claude-code' or let the format be detected"),
        (ANTHROPIC_EXAMPLE.read_text(), CLAUDE_CODE, "looks like Anthropic Messages JSON (one"),
        (OPENAI_EXAMPLE.read_text(), CLAUDE_CODE, "not Claude Code session JSONL; read it as 'op"),
        (
            json.dumps({"system": "s", "messages": [{"role": "tool", "content": "x"}]}),
            CLAUDE_CODE,
            "transcript is one JSON document of messages, not Claude Code session JSONL",
        ),
    ],
)
def test_a_named_format_the_text_plainly_is_not_is_refused(
    text: str, named: TranscriptFormat, message: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        CODEC.read(text, named)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("document", "named"),
    [
        ([{"role": "user", "content": "plain text reads the same either way"}], OPENAI),
        ([{"role": "user", "content": "plain text reads the same either way"}], ANTHROPIC),
        # Part types are carried through either way; a conversion writes them so.
        ([{"role": "user", "content": [{"type": "image", "source": {}}]}], OPENAI),
        ([{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}], ANTHROPIC),
        # Signs of both: naming the format settles it.
        ([{"role": "system", "content": "s"}, *_ANTHROPIC_DOCUMENT], OPENAI),
        (
            [
                {"role": "user", "content": [{"type": "image_url", "image_url": {}}]},
                {"role": "assistant", "content": [_TOOL_USE]},
            ],
            OPENAI,
        ),
    ],
)
def test_a_named_format_is_taken_where_the_text_could_be_it(
    document: object, named: TranscriptFormat
) -> None:
    CODEC.read(json.dumps(document), named)


def test_an_unknown_format_name_is_an_invalid_input() -> None:
    with pytest.raises(InvalidInputError, match="unknown transcript format 'yaml'"):
        CODEC.write(Transcript(), "yaml")  # type: ignore[arg-type]


def test_a_format_given_as_its_plain_value_is_accepted() -> None:
    transcript = CODEC.read(SESSION, "claude-code")  # type: ignore[arg-type]
    assert CODEC.read(CODEC.write(transcript, "claude-code"), CLAUDE_CODE) == transcript  # type: ignore[arg-type]


def test_claude_code_sessions_have_no_system_messages() -> None:
    transcript = Transcript(messages=(Message(role=Role.SYSTEM, content=(TextBlock(text="s"),)),))
    with pytest.raises(InvalidInputError, match="message 0: a Claude Code session has no system"):
        CODEC.write(transcript, CLAUDE_CODE)
