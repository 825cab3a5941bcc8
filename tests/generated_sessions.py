"""Building blocks of generated agent sessions for the summary's tests: user and assistant
messages, tool calls and their results, shell trackers' commands and their usual output."""

from __future__ import annotations

import itertools
from typing import Any

from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.domain.compaction_summary import CompactionSummary
from cleveragents.domain.transcript import Message, Role, TextBlock, ToolCall, ToolResult

_ids = itertools.count()


def user(text: str) -> Message:
    return Message(role=Role.USER, content=(TextBlock(text=text),))


def assistant(text: str = "", *calls: ToolCall) -> Message:
    blocks = (TextBlock(text=text),) if text else ()
    return Message(role=Role.ASSISTANT, content=(*blocks, *calls))


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id=f"generated-{next(_ids)}", name=name, input=arguments)


def answer(tool_call: ToolCall, content: str = "ok", *, error: bool = False) -> Message:
    return Message(
        role=Role.USER,
        content=(ToolResult(call_id=tool_call.id, content=content, is_error=error),),
    )


def step(tool_call: ToolCall, content: str = "ok", *, error: bool = False) -> list[Message]:
    """An assistant message making one call, and its answer."""
    return [assistant("", tool_call), answer(tool_call, content, error=error)]


def bash(command: str, output: str = "ok", *, failed: bool = False) -> list[Message]:
    """A shell call as Claude Code records it: a failure is an error result with its exit code."""
    content = f"Exit code 1\n{output}" if failed else output
    return step(call("Bash", command=command), content, error=failed)


def todo_write(*items: tuple[str, str]) -> ToolCall:
    todos = [{"content": c, "status": s, "activeForm": c} for c, s in items]
    return call("TodoWrite", todos=todos)


def summarize(*messages: Message) -> CompactionSummary:
    return DeterministicSummarizer().summarize(messages, None)


def edit(path: str, new: str = "changed") -> list[Message]:
    """An edit of `path` that succeeded."""
    return step(call("Edit", file_path=path, old_string="before", new_string=new))


def plan(*items: str, intro: str = "Here is the plan:") -> Message:
    """An assistant message writing a numbered plan under `intro`."""
    lines = [intro, *(f"{number}. {item}" for number, item in enumerate(items, 1))]
    return assistant("\n".join(lines))
