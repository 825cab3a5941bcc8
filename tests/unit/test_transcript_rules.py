"""The providers' structural rules, as the validator applies them."""

from __future__ import annotations

from cleveragents.domain.transcript import (
    Message,
    Role,
    TextBlock,
    ToolCall,
    ToolResult,
)
from cleveragents.domain.transcript_rules import is_valid, violations


def user(text: str) -> Message:
    return Message(role=Role.USER, content=(TextBlock(text=text),))


def system(text: str) -> Message:
    return Message(role=Role.SYSTEM, content=(TextBlock(text=text),))


def assistant(text: str = "", *calls: str) -> Message:
    blocks: list[TextBlock | ToolCall] = [TextBlock(text=text)] if text else []
    blocks += [ToolCall(id=call, name="Bash", input={"command": "ls"}) for call in calls]
    return Message(role=Role.ASSISTANT, content=tuple(blocks))


def results(*call_ids: str, text: str | None = None) -> Message:
    blocks: list[TextBlock | ToolResult] = [
        ToolResult(call_id=call_id, content="ok") for call_id in call_ids
    ]
    if text is not None:
        blocks.append(TextBlock(text=text))
    return Message(role=Role.USER, content=tuple(blocks))


def rules(messages: list[Message]) -> list[str]:
    return [violation.rule for violation in violations(messages)]


def test_a_well_formed_conversation_with_parallel_calls_is_valid() -> None:
    messages = [
        system("be brief"),
        user("list files"),
        assistant("on it", "a", "b"),
        results("b", "a"),  # answered in any order, in one message
        assistant("done"),
        user("thanks"),
    ]
    assert violations(messages) == []
    assert is_valid(messages)


def test_results_may_arrive_in_consecutive_user_messages() -> None:
    # Claude Code logs one record per tool result.
    assert is_valid([user("go"), assistant("", "a", "b"), results("a"), results("b")])


def test_the_first_non_system_message_must_be_a_user_message() -> None:
    assert rules([system("s"), assistant("hi")]) == ["user-first"]


def test_a_system_message_after_the_conversation_began_is_refused() -> None:
    assert rules([user("a"), system("late")]) == ["system-first"]


def test_an_orphan_tool_result_is_refused() -> None:
    found = violations([user("go"), assistant("no calls"), results("ghost")])
    assert [v.rule for v in found] == ["result-follows-call"]
    assert found[0].index == 2
    assert "ghost" in str(found[0])


def test_a_result_must_answer_the_immediately_preceding_assistant_message() -> None:
    messages = [user("go"), assistant("", "a"), results("a"), assistant("", "b"), results("a")]
    # "b" may still be running (the end of the transcript); "a" answers an older message.
    assert rules(messages) == ["result-follows-call"]


def test_a_call_must_be_answered_before_the_next_user_text() -> None:
    found = violations([user("go"), assistant("", "a", "b"), results("a"), user("hello?")])
    assert [(v.index, v.rule) for v in found] == [(1, "call-answered")]
    assert "'b'" in found[0].message


def test_text_after_results_in_the_same_message_closes_the_turn() -> None:
    assert is_valid([user("go"), assistant("", "a"), results("a", text="and now?")])
    assert rules([user("go"), assistant("", "a", "b"), results("a", text="and now?")]) == [
        "call-answered"
    ]


def test_a_call_must_be_answered_before_the_next_assistant_message() -> None:
    assert rules([user("go"), assistant("", "a"), assistant("again")]) == ["call-answered"]


def test_call_ids_are_unique() -> None:
    messages = [user("go"), assistant("", "a"), results("a"), assistant("", "a"), results("a")]
    assert rules(messages) == ["unique-call-id"]


def test_a_transcript_may_end_with_calls_about_to_run() -> None:
    assert is_valid([user("go"), assistant("", "a")])


def test_the_empty_transcript_and_system_only_are_valid() -> None:
    assert is_valid([])
    assert is_valid([system("rules")])


def test_a_call_answered_twice_is_refused() -> None:
    messages = [user("go"), assistant("", "a"), results("a"), results("a")]
    assert rules(messages) == ["answered-once"]


def test_ending_with_some_calls_answered_and_others_not_is_refused() -> None:
    found = violations([user("go"), assistant("", "a", "b"), results("a")])
    assert [(v.index, v.rule) for v in found] == [(1, "call-answered")]
    assert "'b'" in found[0].message


def test_tool_results_come_before_other_content_in_a_user_message() -> None:
    text_first = Message(
        role=Role.USER, content=(TextBlock(text="note"), ToolResult(call_id="a", content="ok"))
    )
    assert rules([user("go"), assistant("", "a"), text_first]) == ["results-first"]
    assert is_valid([user("go"), assistant("", "a"), results("a", text="after")])
