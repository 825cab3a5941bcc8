"""Checks of what a summary says, beside what it recalls: decisions that are only narration,
uncertain effects a later call had already settled, and whether the work in progress at the
cut is named. Rules of their own, independent of the summarizer's:

* narration: a decision item that opens with what the agent is about to do ("Let me...",
  "I'll...", "Now let's...", "Right, I need to...") or that states no choice, conclusion or
  reason even read as a commitment ("I'll " + the item, by `prose.is_decision`);
* settled: an uncertain-effects item naming a command (in backquotes) or a target whose last
  call that did not succeed was followed by a success of the same tool on the same target, or
  of the same command with flags appended (``git push`` then ``git push --set-upstream ...``);
* steps reached: an unfinished item of an announced step (``announced, not reached: <the
  sentence>``) that names a backquoted name or a file path which a tool call's arguments
  name at or after the assistant message announcing it;
* work at the cut: the in-progress item of the last todo list, else the last task a tracker
  run in the shell put in progress (``bd update X --status in_progress``, ``gh issue develop
  N``, ``jira issue move X "In Progress"``) and did not close later; None when the agent
  tracked none. It is named when the summary's current-work section holds it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cleveragents.application.services.compaction.recall.decisions import last_todos
from cleveragents.application.services.compaction.recall.prose import is_decision
from cleveragents.application.services.compaction.recall.text import normalise
from cleveragents.application.services.compaction.recall.tools import (
    call_status,
    distinctive_argument,
    shell_command,
)
from cleveragents.domain.compaction_summary import SummarySection, parse_summary
from cleveragents.domain.transcript import Message, ToolCall, ToolResult

_NARRATION = re.compile(
    r"^(?:[^.!?]{0,30}?\s[\u2014-]\s)?"
    r"(?:(?:now|next|then|first|so|ok|okay|great|good|alright|all right|right|finally|also)"
    r"[,:!.]?\s+)*"
    r"(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|i need to|i have to"
    r"|we need to|we'll|we will|i should|we should|i want to|now i)\b",
    re.IGNORECASE,
)
_BACKTICKED = re.compile(r"`([^`]+)`")
STEP_ITEM = "announced, not reached: "
"""How the summary writes an announced step it found open (its format, as the sections are)."""
_STEP_NAME = re.compile(r"`([^`]+)`|((?:[\w.-]+/)+[\w.-]+|\b[\w-]+\.[a-z]{1,5}\b)")
_OUTPUT_SHAPING = re.compile(
    r"^cd\s+\S+\s*&&\s*|\s*(?:2>&1|2>\s*/dev/null)|\s*\|\s*(?:tail|head|grep)\b[^|]*$"
)
_STARTED = (
    re.compile(r"\b(?:bd|beads)\s+update\s+(\S+).*--status[= ]?(?:in_progress|in-progress)"),
    re.compile(r"\bgh\s+issue\s+develop\s+#?(\d+)"),
    re.compile(r"\bjira\s+issue\s+move\s+(\S+)\s+[\"']?in progress", re.IGNORECASE),
)
_CLOSED = (
    re.compile(r"\b(?:bd|beads)\s+close\s+((?:[\w.-]+\s*)+)"),
    re.compile(r"\bgh\s+issue\s+close\s+#?(\d+)"),
    re.compile(r"\bjira\s+issue\s+move\s+(\S+)\s+[\"']?(?:done|closed|resolved)", re.I),
)


@dataclass(frozen=True, slots=True)
class SummaryChecks:
    """What the checks found in one summary."""

    decisions: int
    narration: tuple[str, ...]
    uncertain_effects: int
    settled: tuple[str, ...]
    work_at_cut: str | None
    work_named: bool | None
    """None when the agent tracked no work in progress."""
    steps_open: int = 0
    steps_reached: tuple[str, ...] = ()
    summary_tokens: int | None = None
    """The summary message's tokens, and the budget it was written for (set by the caller
    that counted them)."""
    summary_budget: int | None = None


def check_summary(messages: Sequence[Message], summary_text: str) -> SummaryChecks:
    """The checks of the summary `summary_text` wrote for `messages` (the folded ones)."""
    summary = parse_summary(summary_text)
    decisions = summary.items(SummarySection.DECISIONS) if summary else ()
    uncertain = summary.items(SummarySection.UNCERTAIN_EFFECTS) if summary else ()
    current = " ".join(summary.items(SummarySection.CURRENT_WORK)) if summary else ""
    unfinished = summary.items(SummarySection.UNFINISHED) if summary else ()
    steps = [item for item in unfinished if item.startswith(STEP_ITEM)]
    work = work_at_cut(messages)
    return SummaryChecks(
        decisions=len(decisions),
        narration=tuple(item for item in decisions if is_narration(item)),
        uncertain_effects=len(uncertain),
        settled=tuple(item for item in uncertain if is_settled(item, messages)),
        work_at_cut=work,
        work_named=None if work is None else normalise(work) in normalise(current),
        steps_open=len(steps),
        steps_reached=tuple(item for item in steps if is_reached(item, messages)),
    )


def is_narration(item: str) -> bool:
    if _NARRATION.match(item):
        return True
    commitment = "I'll " + item[:1].lower() + item[1:]
    return not (is_decision(item) or is_decision(commitment))


def is_settled(item: str, messages: Sequence[Message]) -> bool:
    """Whether the call `item` names had been settled by a later success."""
    calls, results = _calls(messages)
    quoted = _BACKTICKED.search(item)
    for position in range(len(calls) - 1, -1, -1):
        call = calls[position]
        if not _named_by(call, item, quoted.group(1) if quoted else None):
            continue
        if call_status(call, results.get(call.id)) == "ok":
            continue
        return any(
            call_status(later, results.get(later.id)) == "ok" and _same_action(call, later)
            for later in calls[position + 1 :]
        )
    return False


def is_reached(item: str, messages: Sequence[Message]) -> bool:
    """Whether a tool call at or after the message announcing the step of `item` names one of
    the backquoted names or file paths the step names."""
    sentence = " ".join(item[len(STEP_ITEM) :].rstrip("\u2026").split())
    found = [quoted or path.rstrip(".-") for quoted, path in _STEP_NAME.findall(sentence)]
    names = [name for name in found if name]
    announced = next(
        (i for i, m in enumerate(messages) if sentence[:60] in " ".join(m.text.split())), None
    )
    if announced is None or not names:
        return False
    named = [re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)") for name in names]
    return any(
        pattern.search(json.dumps(call.input, ensure_ascii=False))
        for message in messages[announced:]
        for call in message.tool_calls
        for pattern in named
    )


def work_at_cut(messages: Sequence[Message]) -> str | None:
    calls, results = _calls(messages)
    for content, status in last_todos(calls):
        if status == "in_progress":
            return content
    started: list[str] = []
    for call in calls:
        command = shell_command(call)
        if command is None or call_status(call, results.get(call.id)) != "ok":
            continue
        for pattern in _STARTED:
            started += [match.group(1) for match in pattern.finditer(command)]
        for pattern in _CLOSED:
            for match in pattern.finditer(command):
                closed = set(match.group(1).split())
                started = [key for key in started if key not in closed]
    return started[-1] if started else None


def _calls(messages: Sequence[Message]) -> tuple[list[ToolCall], dict[str, ToolResult]]:
    calls = [call for message in messages for call in message.tool_calls]
    results: dict[str, ToolResult] = {}
    for message in messages:
        for result in message.tool_results:
            results.setdefault(result.call_id, result)
    return calls, results


def _named_by(call: ToolCall, item: str, quoted: str | None) -> bool:
    command = shell_command(call)
    if quoted is not None:
        return command is not None and _core(command).startswith(_core(quoted.rstrip("…")))
    return command is None and item.startswith(call.name) and distinctive_argument(call) in item


def _same_action(failed: ToolCall, later: ToolCall) -> bool:
    first, second = shell_command(failed), shell_command(later)
    if first is not None and second is not None:
        old, new = _core(first), _core(second)
        return new == old or new.startswith(old + " -")
    return failed.name == later.name and distinctive_argument(failed) == distinctive_argument(later)


def _core(command: str) -> str:
    previous, text = None, normalise(command)
    while previous != text:
        previous, text = text, _OUTPUT_SHAPING.sub("", text).strip()
    return text
