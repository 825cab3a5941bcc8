"""Claude Code session logs that Claude Code can resume: the writer's uuids, chain and
compaction boundary, `resume_problems`, and the user records the harness injected (meta).

The real sessions of the corpus are exercised in tests/integration/test_claude_code_sessions.py;
these tests build their sessions by hand.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cleveragents.adapters.transcripts.claude_code_jsonl import (
    TOKENS_BEFORE,
    read_claude_code,
    resume_problems,
    write_claude_code,
)
from cleveragents.domain.transcript import (
    Message,
    Role,
    TextBlock,
    ToolCall,
    ToolResult,
    Transcript,
)
from tests.claude_code_samples import CONTEXT, stamped, summary, user


def jsonl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def records_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def assistant(text: str, **fields: Any) -> Message:
    extra = {"claude_code": {"record": fields}} if fields else {}
    return Message(role=Role.ASSISTANT, content=(TextBlock(text=text),), extra=extra)


# -- resume_problems -----------------------------------------------------------------------

GOOD: list[dict[str, Any]] = [
    {"parentUuid": None, "type": "user", "uuid": "a", "sessionId": "s", "timestamp": "t"},
    {"parentUuid": "a", "type": "assistant", "uuid": "b", "sessionId": "s", "timestamp": "t"},
]


def test_a_chained_session_has_no_resume_problems() -> None:
    assert resume_problems(jsonl(*GOOD)) == []


def test_a_root_at_a_compact_boundary_is_no_problem() -> None:
    boundary = {**GOOD[0], "type": "system", "subtype": "compact_boundary", "uuid": "c"}
    after = {**GOOD[1], "parentUuid": "c", "uuid": "d"}
    assert resume_problems(jsonl(*GOOD, boundary, after)) == []


@pytest.mark.parametrize(
    ("records", "problem"),
    [
        ([{**GOOD[0], "uuid": None}], "line 1: no uuid"),
        ([GOOD[0], {**GOOD[1], "uuid": "a"}], "line 2: uuid a is also the uuid of line 1"),
        ([GOOD[0], {**GOOD[1], "parentUuid": "zz"}], "line 2: parentUuid 'zz' names no earlier"),
        ([{**GOOD[0], "parentUuid": "b"}, GOOD[1]], "line 1: parentUuid 'b' names no earlier"),
        ([GOOD[0], {**GOOD[1], "parentUuid": None}], "line 2: a second root"),
        (
            [GOOD[0], {**GOOD[1], "sourceToolAssistantUUID": "gone"}],
            "line 2: sourceToolAssistantUUID 'gone' names no earlier record",
        ),
        ([{k: v for k, v in GOOD[0].items() if k != "sessionId"}], "line 1: no sessionId"),
        ([{**GOOD[0], "timestamp": None}], "line 1: no timestamp"),
        ([], "the file holds no records"),
    ],
)
def test_resume_problems_names_the_line(records: list[dict[str, Any]], problem: str) -> None:
    problems = resume_problems(jsonl(*records))
    assert any(found.startswith(problem) for found in problems), problems


def test_lines_that_are_not_json_objects_are_problems() -> None:
    text = jsonl(GOOD[0]) + "{not json\n[1]\n"
    assert resume_problems(text) == ["line 2: not JSON", "line 3: not a JSON object"]


# -- uuids, chain, sessionId ---------------------------------------------------------------


def test_records_keep_their_uuids_and_chain_to_the_one_before() -> None:
    transcript = Transcript(
        messages=(user("go", **stamped("u1", 1)), assistant("ok", **stamped("a1", 2)))
    )
    written = records_of(write_claude_code(transcript))

    assert [r["uuid"] for r in written] == ["u1", "a1"]
    assert [r["parentUuid"] for r in written] == [None, "u1"]
    assert all("cleveragentsDerived" not in r for r in written)


def test_a_queued_prompt_gets_a_derived_uuid_and_its_neighbours_session() -> None:
    queued = user("and this", timestamp="2026-02-11T21:00:03.000Z", queuedPrompt=True)
    transcript = Transcript(
        messages=(user("go", **stamped("u1", 1)), queued, assistant("ok", **stamped("a1", 4)))
    )
    text = write_claude_code(transcript)
    _, prompt, answer = records_of(text)

    assert resume_problems(text) == []
    assert prompt["parentUuid"] == "u1"
    assert answer["parentUuid"] == prompt["uuid"]
    assert prompt["sessionId"] == "s-1"
    assert prompt["cwd"] == "/work/app"
    assert prompt["timestamp"] == "2026-02-11T21:00:03.000Z"
    assert "uuid" in prompt["cleveragentsDerived"]
    assert write_claude_code(transcript) == text
    assert read_claude_code(text) == transcript  # what the writer supplied is dropped again


def test_the_derived_uuid_depends_on_the_content_and_the_position() -> None:
    def uuids(*messages: Message) -> list[str]:
        return [r["uuid"] for r in records_of(write_claude_code(Transcript(messages=messages)))]

    assert uuids(user("a"), user("a")) != uuids(user("a"), user("b"))
    first, second = uuids(user("a"), user("a"))
    assert first != second


def test_messages_from_another_format_are_written_resumable() -> None:
    call = ToolCall(id="t1", name="Read", input={"path": "a.py"})
    transcript = Transcript(
        messages=(
            user("read a.py"),
            Message(role=Role.ASSISTANT, content=(call,)),
            Message(role=Role.USER, content=(ToolResult(call_id="t1", content="x = 1"),)),
        )
    )
    text = write_claude_code(transcript)

    assert resume_problems(text) == []
    assert len({r["sessionId"] for r in records_of(text)}) == 1
    assert read_claude_code(text) == transcript


def test_a_source_tool_record_missing_from_the_file_is_dropped() -> None:
    result = Message(
        role=Role.USER,
        content=(ToolResult(call_id="t1", content="ok"),),
        extra={"claude_code": {"record": {**stamped("u2", 2), "sourceToolAssistantUUID": "gone"}}},
    )
    text = write_claude_code(Transcript(messages=(user("go", **stamped("u1", 1)), result)))

    assert "sourceToolAssistantUUID" not in records_of(text)[1]
    assert resume_problems(text) == []


def test_a_repeated_uuid_is_replaced_so_uuids_stay_unique() -> None:
    transcript = Transcript(messages=(user("a", **stamped("u1", 1)), user("b", **stamped("u1", 2))))
    text = write_claude_code(transcript)
    assert resume_problems(text) == []
    assert records_of(text)[0]["uuid"] == "u1"


# -- the compaction summary ----------------------------------------------------------------


def test_a_summary_is_written_as_a_compact_boundary_and_a_compact_summary() -> None:
    replaced = user("old request", **stamped("u9", 9))
    kept = (assistant("on it", **stamped("a10", 10)), user("thanks", **stamped("u11", 11)))
    transcript = Transcript(messages=(summary(replaced, **{TOKENS_BEFORE: 5000}), *kept))
    text = write_claude_code(transcript)
    boundary, folded, answer, last = records_of(text)

    assert resume_problems(text) == []
    assert boundary == {
        "parentUuid": None,
        "logicalParentUuid": "u9",
        **CONTEXT,
        "type": "system",
        "subtype": "compact_boundary",
        "content": "Conversation compacted",
        "isMeta": False,
        "timestamp": "2026-02-11T21:00:09.000Z",
        "uuid": boundary["uuid"],
        "level": "info",
        "compactMetadata": {"trigger": "manual", "preTokens": 5000},
    }
    assert folded["parentUuid"] == boundary["uuid"]
    assert folded["isCompactSummary"] is True
    assert folded["isVisibleInTranscriptOnly"] is True
    assert folded["message"] == {"role": "user", "content": transcript.messages[0].text}
    assert {k: folded[k] for k in CONTEXT} == CONTEXT
    assert folded["timestamp"] == boundary["timestamp"]
    assert [answer["uuid"], answer["parentUuid"], last["parentUuid"]] == [
        "a10",
        folded["uuid"],
        "a10",
    ]


def test_a_summary_without_a_replaced_record_takes_the_session_of_the_next_message() -> None:
    transcript = Transcript(messages=(summary(), assistant("on it", **stamped("a10", 10))))
    text = write_claude_code(transcript)
    boundary, folded, _ = records_of(text)

    assert resume_problems(text) == []
    assert boundary["logicalParentUuid"] is None
    assert boundary["compactMetadata"] == {"trigger": "manual"}
    assert boundary["sessionId"] == folded["sessionId"] == "s-1"
    assert boundary["timestamp"] == "2026-02-11T21:00:10.000Z"


def test_reading_the_output_gives_the_summary_first_and_no_boundary_message() -> None:
    transcript = Transcript(
        messages=(
            summary(user("old", **stamped("u9", 9))),
            assistant("on it", **stamped("a10", 10)),
        )
    )
    text = write_claude_code(transcript)
    again = read_claude_code(text)

    assert [m.role for m in again.messages] == [Role.USER, Role.ASSISTANT]
    assert again.messages[0].is_summary
    assert not again.messages[0].starts_turn
    assert again.messages[0].text == transcript.messages[0].text
    assert again.messages[1] == transcript.messages[1]
    assert write_claude_code(again) == text  # the fold is written back as it was


def test_a_second_compaction_replaces_the_first_fold() -> None:
    first = read_claude_code(
        write_claude_code(
            Transcript(
                messages=(
                    summary(user("old", **stamped("u9", 9))),
                    assistant("a", **stamped("a10", 10)),
                )
            )
        )
    )
    later = (user("next", **stamped("u11", 11)), assistant("b", **stamped("a12", 12)))
    merged = summary(first.messages[1])  # the compactor folded the old summary and a10
    text = write_claude_code(Transcript(messages=(merged, *later)))
    records = records_of(text)

    assert resume_problems(text) == []
    assert [r.get("subtype") for r in records].count("compact_boundary") == 1
    assert records[0]["logicalParentUuid"] == "a10"


# -- meta ----------------------------------------------------------------------------------


def test_a_skill_injection_without_is_meta_reads_as_meta_and_writes_back_unchanged() -> None:
    prompt = {
        "parentUuid": None,
        "type": "user",
        **stamped("u1", 1),
        "message": {"role": "user", "content": "/skill"},
    }
    skill = {
        "parentUuid": "u1",
        "type": "user",
        **stamped("u2", 2),
        "message": {
            "role": "user",
            "content": [{"type": "text", "text": "Base directory for this skill: /s\n\nDo it."}],
        },
    }
    transcript = read_claude_code(jsonl(prompt, skill))

    assert [m.meta for m in transcript.messages] == [False, True]
    assert not transcript.messages[1].starts_turn
    assert records_of(write_claude_code(transcript))[1] == skill


def test_an_is_meta_record_reads_as_meta() -> None:
    record = {
        "type": "user",
        "isMeta": True,
        **stamped("u1", 1),
        "message": {"role": "user", "content": "<x/>"},
    }
    (message,) = read_claude_code(jsonl(record)).messages
    assert message.meta


def test_a_meta_message_from_elsewhere_is_written_with_is_meta() -> None:
    injected = Message(role=Role.USER, content=(TextBlock(text="<reminder/>"),), meta=True)
    transcript = Transcript(messages=(user("go"), injected))
    text = write_claude_code(transcript)

    assert records_of(text)[1]["isMeta"] is True
    assert read_claude_code(text) == transcript
