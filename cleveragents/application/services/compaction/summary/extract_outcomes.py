"""Each tool call with its result and what came of it: ok, failed, interrupted, refused by the
user, or no result at all (the call may or may not have run).

Claude Code writes a refusal as an error result saying "The user doesn't want to proceed with
this tool use", an interruption as "[Request interrupted by user for tool use]", and a shell
command that exits non-zero as an error result starting "Exit code N"; other agents report exit
codes in the output, which is why a shell result is also read for them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from cleveragents.application.services.compaction.summary.extract_text import clip
from cleveragents.application.services.compaction.summary.extract_tools import shell_command
from cleveragents.domain.transcript import Message, ToolCall, ToolResult

ERROR_LINE_LIMIT = 200
_LINE_READ = 1_000
_NOTICE_READ = 2_000

_REFUSED = re.compile(
    r"(?:doesn['\u2019]t|does not) want to proceed with this tool use"
    r"|tool use was rejected|user (?:rejected|denied|declined)",
    re.IGNORECASE,
)
_REFUSAL_REASON = re.compile(r"the user said:\s*(.+)", re.IGNORECASE | re.DOTALL)
_INTERRUPTED = re.compile(r"\[Request interrupted by user|interrupted by (?:the )?user", re.I)
_EXIT_CODE = re.compile(
    r"\b(?:exit(?:ed with)? (?:code|status)|return ?code)\s*[:=]?\s*(-?\d+)", re.IGNORECASE
)
_FAILURE_SIGN = re.compile(
    r"^\s*(?:[A-Za-z_.]*Error|error|fatal)[:\[]|^npm ERR!|^Traceback \(most recent call last\)",
    re.MULTILINE,
)
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b")
# Words that name a failure, strongest first: a line saying "error" beats one that merely
# mentions something "invalid" (often a test's name).
_ERROR_WORDS = (
    re.compile(r"\b(?:error|failed|fatal|panic)\b|[a-z]Error\b|Exception\b", re.IGNORECASE),
    re.compile(
        r"\b(?:fail(?:ure|s)?|denied|not found|no such file|cannot|can['\u2019]t|could not"
        r"|unable to|does not exist|invalid|refused)\b",
        re.IGNORECASE,
    ),
)
_TOOL_ERROR_TAG = re.compile(r"</?tool_use_error>")
_EDGE_LINES = 3  # exit codes are reported at the start or the end of an output


class Outcome(StrEnum):
    OK = "ok"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    REFUSED = "refused"
    MISSING = "missing result"


@dataclass(frozen=True, slots=True)
class ToolActivity:
    """A tool call, the position of its message, and its result (None when none follows)."""

    index: int
    call: ToolCall
    result: ToolResult | None
    outcome: Outcome


def tool_activities(messages: Sequence[Message]) -> list[ToolActivity]:
    """Every tool call in order, each paired with the first result for its id that comes after
    it; a result whose call is not among `messages` is ignored."""
    calls: list[tuple[int, ToolCall]] = []
    results: dict[int, ToolResult] = {}
    waiting: dict[str, int] = {}  # call id -> position in `calls` of the call not yet answered
    for index, message in enumerate(messages):
        for block in message.content:
            if isinstance(block, ToolCall):
                waiting[block.id] = len(calls)
                calls.append((index, block))
            elif isinstance(block, ToolResult) and block.call_id in waiting:
                results[waiting.pop(block.call_id)] = block
    return [
        ToolActivity(index, call, results.get(position), outcome(call, results.get(position)))
        for position, (index, call) in enumerate(calls)
    ]


def outcome(call: ToolCall, result: ToolResult | None) -> Outcome:
    if result is None:
        return Outcome.MISSING
    if _notice(_REFUSED, result):
        return Outcome.REFUSED
    if _notice(_INTERRUPTED, result):
        return Outcome.INTERRUPTED
    if result.is_error:
        return Outcome.FAILED
    if shell_command(call) is not None and shell_failed(result.content):
        return Outcome.FAILED
    return Outcome.OK


def shell_failed(output: str) -> bool:
    """A non-zero exit code reported at the edges of `output`, or an error or traceback line."""
    code = exit_code(output)
    return (code is not None and code != 0) or _FAILURE_SIGN.search(output) is not None


def exit_code(output: str) -> int | None:
    lines = output.strip().split("\n")
    edges = lines if len(lines) <= 2 * _EDGE_LINES else lines[:_EDGE_LINES] + lines[-_EDGE_LINES:]
    for line in edges:
        match = _EXIT_CODE.search(line)
        if match:
            return int(match.group(1))
    return None


def first_error_line(output: str) -> str:
    """The line of `output` that says what went wrong: a traceback's exception, else the first
    line with an error word, else the exit code, else the first line."""
    # A line is read by its start: the error is said there, and a 20 kB line of minified
    # output must not cost a scan per error word.
    lines = [line.strip()[:_LINE_READ] for line in _TOOL_ERROR_TAG.sub("", output).split("\n")]
    lines = [line for line in lines if line and not _is_exit_code_line(line)]
    if "Traceback (most recent call last)" in output:
        raised = [line for line in lines if _EXCEPTION_LINE.match(line)]
        if raised:
            return clip(raised[-1], ERROR_LINE_LIMIT)
    for words in _ERROR_WORDS:
        found = next((line for line in lines if words.search(line)), None)
        if found is not None:
            return clip(found, ERROR_LINE_LIMIT)
    code = exit_code(output)
    if code is not None:
        return f"exit code {code}"
    return clip(lines[0], ERROR_LINE_LIMIT) if lines else "(no output)"


def refusal_reason(output: str) -> str | None:
    """What the user said when refusing a tool use, when they said something."""
    match = _REFUSAL_REASON.search(output)
    return clip(match.group(1), ERROR_LINE_LIMIT) if match else None


def _notice(pattern: re.Pattern[str], result: ToolResult) -> bool:
    # The harness writes its notices as error results, or at least as the first line: a file
    # read successfully may well contain the same words further down.
    # (Its notices are short and open the result: the start of a long one is enough.)
    text = result.content[:_NOTICE_READ]
    content = text if result.is_error else text.lstrip().split("\n", 1)[0]
    return pattern.search(content) is not None


def _is_exit_code_line(line: str) -> bool:
    match = _EXIT_CODE.search(line)
    return match is not None and len(line) - len(match.group(0)) <= 2
