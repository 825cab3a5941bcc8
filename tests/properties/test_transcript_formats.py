"""The transcript format adapters behind `JsonTranscriptCodec` on generated transcripts and
documents: each format survives its writer, OpenAI (Chat and Responses) writing reaches a fixed
point, any JSON or text reads or fails cleanly, and readable documents write back the same (a
Responses document byte for byte)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import (
    ContentBlock,
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

CODEC = JsonTranscriptCodec()
ANTHROPIC, OPENAI, CLAUDE_CODE, RESPONSES = (
    TranscriptFormat.ANTHROPIC,
    TranscriptFormat.OPENAI,
    TranscriptFormat.CLAUDE_CODE,
    TranscriptFormat.OPENAI_RESPONSES,
)
_ids = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=12)
_text = st.text(max_size=40)
_json_scalars = st.none() | st.booleans() | st.integers() | _text
_json = st.recursive(
    _json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)
_objects = st.dictionaries(_text, _json, max_size=3)
_thinking = st.builds(ThinkingBlock, thinking=_text, signature=st.none() | _ids) | st.builds(
    ThinkingBlock, thinking=st.just(""), signature=_ids, redacted=st.just(True)
)
_other = _objects.map(lambda data: OtherBlock(data={**data, "type": "image"}))
_results = st.builds(ToolResult, call_id=_ids, content=_text, is_error=st.booleans())
_user_blocks = st.lists(st.builds(TextBlock, text=_text) | _results | _other, max_size=4)
_assistant_blocks = st.lists(
    st.builds(TextBlock, text=_text)
    | _thinking
    | st.builds(ToolCall, id=_ids, name=_ids, input=_objects),
    max_size=4,
)


@st.composite
def _conversations(draw: st.DrawFn, with_system: bool = True) -> Transcript:
    messages: list[Message] = []
    if with_system and draw(st.booleans()):
        blocks = draw(st.lists(st.builds(TextBlock, text=_text), max_size=2))
        messages.append(Message(role=Role.SYSTEM, content=tuple(blocks)))
    for turn in range(draw(st.integers(0, 4))):
        if turn % 2:
            content: list[ContentBlock] = list(draw(_assistant_blocks))
            usage = draw(st.none() | st.dictionaries(_ids, st.integers(0, 9), max_size=2))
            messages.append(Message(role=Role.ASSISTANT, content=tuple(content), usage=usage))
        else:
            content = list(draw(_user_blocks))
            messages.append(Message(role=Role.USER, content=tuple(content)))
    return Transcript(messages=tuple(messages))


@settings(max_examples=150)
@given(_conversations())
def test_any_transcript_in_anthropic_shape_survives_anthropic(transcript: Transcript) -> None:
    assert CODEC.read(CODEC.write(transcript, ANTHROPIC), ANTHROPIC) == transcript


@settings(max_examples=150)
@given(_conversations(with_system=False))
def test_any_transcript_without_system_survives_claude_code(transcript: Transcript) -> None:
    assert CODEC.read(CODEC.write(transcript, CLAUDE_CODE), CLAUDE_CODE) == transcript


@settings(max_examples=150)
@given(_conversations())
def test_openai_writing_reaches_a_fixed_point(transcript: Transcript) -> None:
    # Thinking and error flags have no OpenAI spelling, so the first pass may lose them; after
    # that, writing and reading change nothing.
    once = CODEC.read(CODEC.write(transcript, OPENAI), OPENAI)
    assert CODEC.read(CODEC.write(once, OPENAI), OPENAI) == once


@settings(max_examples=150)
@given(_conversations())
def test_responses_writing_reaches_a_fixed_point(transcript: Transcript) -> None:
    # Thinking from elsewhere and error flags have no Responses spelling, and the items read
    # are remembered, so the first pass may change the transcript; after that, nothing.
    once = CODEC.read(CODEC.write(transcript, RESPONSES), RESPONSES)
    written = CODEC.write(once, RESPONSES)
    assert CODEC.read(written, RESPONSES) == once
    assert CODEC.write(CODEC.read(written, RESPONSES), RESPONSES) == written
    calls = [call.id for message in transcript.messages for call in message.tool_calls]
    assert [call.id for message in once.messages for call in message.tool_calls] == calls


@settings(max_examples=200)
@given(st.lists(st.dictionaries(st.sampled_from(["role", "content", "x"]), _json), max_size=3))
def test_any_json_messages_read_or_fail_cleanly(document: list[dict[str, Any]]) -> None:
    for transcript_format in TranscriptFormat:
        with contextlib.suppress(InvalidInputError):
            CODEC.read(json.dumps(document), transcript_format)


@settings(max_examples=200)
@given(st.text(max_size=60))
def test_any_text_reads_or_fails_cleanly(text: str) -> None:
    with contextlib.suppress(InvalidInputError):
        CODEC.read(text)


# Documents built from the formats' own vocabulary: whatever reads without error must write back
# to the same JSON.
_word = st.text(max_size=6)
_value = st.none() | st.booleans() | st.integers(-2, 2) | _word | st.dictionaries(_word, _word)
_call_id = st.sampled_from(["t1", "t2", ""])
_part = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "image", "image_url", "refusal"])},
    optional={"text": _word, "image_url": _value},
)
_block = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "thinking", "redacted_thinking"])},
    optional={
        "text": _word,
        "id": _call_id,
        "name": _word,
        "input": st.dictionaries(_word, _value, max_size=2),
        "tool_use_id": _call_id,
        "content": _word | st.lists(_part, max_size=2),
        "is_error": st.booleans(),
        "thinking": _word,
        "signature": _word | st.none(),
        "data": _word,
        "cache_control": _value,
    },
)
_anthropic_message = st.fixed_dictionaries(
    {
        "role": st.sampled_from(["user", "assistant"]),
        "content": _word | st.lists(_block, max_size=3),
    },
    optional={"usage": _value, "name": _value},
)
_anthropic_documents = st.lists(_anthropic_message, max_size=4) | st.fixed_dictionaries(
    {"messages": st.lists(_anthropic_message, max_size=4)},
    optional={"system": _word | st.lists(_block, max_size=2), "model": _word},
)
_arguments = st.sampled_from(["{}", '{"a":1}', '{"a": 1}', "[1]", "", '{"b":"é"}'])
_openai_call = st.fixed_dictionaries(
    {
        "id": _call_id,
        "type": st.just("function"),
        "function": st.fixed_dictionaries({"name": _word, "arguments": _arguments}),
    }
)
_openai_message = st.one_of(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["system", "developer", "user"]), "content": _word},
        optional={"name": _word},
    ),
    st.fixed_dictionaries(
        {"role": st.just("assistant")},
        optional={
            "content": st.none() | _word | st.lists(_part, max_size=2),
            "tool_calls": st.lists(_openai_call, max_size=2),
            "refusal": _value,
        },
    ),
    st.fixed_dictionaries(
        {
            "role": st.just("tool"),
            "tool_call_id": _call_id,
            "content": _word | st.lists(_part, max_size=2),
        }
    ),
)
_openai_documents = st.lists(_openai_message, max_size=5) | st.fixed_dictionaries(
    {"messages": st.lists(_openai_message, max_size=5)}, optional={"model": _word}
)


def _writes_back_the_same_json(document: object, transcript_format: TranscriptFormat) -> None:
    try:
        transcript = CODEC.read(json.dumps(document), transcript_format)
    except InvalidInputError:
        return
    written = CODEC.write(transcript, transcript_format)
    assert json.loads(written) == document
    assert CODEC.read(written, transcript_format) == transcript


@settings(max_examples=300)
@given(_anthropic_documents)
def test_any_readable_anthropic_document_writes_back_the_same(document: object) -> None:
    _writes_back_the_same_json(document, ANTHROPIC)


@settings(max_examples=300)
@given(_openai_documents)
def test_any_readable_openai_document_writes_back_the_same(document: object) -> None:
    _writes_back_the_same_json(document, OPENAI)


_response_part = st.fixed_dictionaries(
    {"type": st.sampled_from(["input_text", "output_text", "input_image", "refusal", "text"])},
    optional={"text": _word, "annotations": st.lists(_value, max_size=1), "image_url": _word},
)
_response_content = _word | st.lists(_response_part, max_size=2)
_response_items = st.one_of(
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["system", "developer", "user", "assistant"]),
            "content": _response_content,
        },
        optional={"type": st.just("message"), "id": _word, "status": _word},
    ),
    st.fixed_dictionaries(
        {"type": st.just("function_call"), "call_id": _call_id, "name": _word},
        optional={"arguments": _arguments, "id": _word, "status": _word},
    ),
    st.fixed_dictionaries(
        {"type": st.just("custom_tool_call"), "call_id": _call_id, "name": _word},
        optional={"input": _word},
    ),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["function_call_output", "custom_tool_call_output"]),
            "call_id": _call_id,
            "output": _word | st.lists(_response_part, max_size=2),
        },
        optional={"id": _word},
    ),
    st.fixed_dictionaries(
        {"type": st.just("reasoning"), "id": _word},
        optional={
            "summary": st.lists(
                st.fixed_dictionaries({"type": st.just("summary_text"), "text": _word}),
                max_size=2,
            ),
            "content": st.lists(
                st.fixed_dictionaries({"type": st.just("reasoning_text"), "text": _word}),
                max_size=1,
            ),
            "encrypted_content": _word | st.none(),
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["web_search_call", "computer_call_output", "item_reference"])},
        optional={"id": _word, "status": _word},
    ),
)
_responses_documents = st.lists(_response_items, max_size=6) | st.fixed_dictionaries(
    {"input": st.lists(_response_items, max_size=6) | _word},
    optional={"model": _word, "instructions": _word | st.none(), "store": st.booleans()},
)


@settings(max_examples=300)
@given(_responses_documents)
def test_any_readable_responses_document_writes_back_byte_for_byte(document: object) -> None:
    _writes_back_the_same_json(document, RESPONSES)
    with contextlib.suppress(InvalidInputError):
        transcript = CODEC.read(json.dumps(document), RESPONSES)
        as_given = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        assert CODEC.write(transcript, RESPONSES) == as_given  # keys in their order too
