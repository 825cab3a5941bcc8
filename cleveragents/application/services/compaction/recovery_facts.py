"""The facts a resumed agent needs, extracted from a full transcript by fixed rules.

This extraction is deliberately independent of any summarizer: it reads the raw messages
(tool calls and their results, user text), so a summarizer cannot pass the measurement by
agreeing with itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleveragents.application.services.compaction.recovery_model import Fact, FactCategory
from cleveragents.application.services.compaction.recovery_tools import (
    TODO_TOOL,
    distinctive_argument,
    is_read_only,
    modified_paths,
    shell_command,
)
from cleveragents.domain.transcript import (
    SUMMARY_MARKER,
    Message,
    Role,
    TextBlock,
    ToolCall,
    ToolResult,
)

# Text Claude Code (and similar harnesses) put in user messages that the user did not ask:
# slash-command echoes, hook output, background-task notices, interruption markers, and the
# continuation summary Claude Code writes after its own compaction.
_NOISE_TAGS = (
    "command-name",
    "command-message",
    "command-args",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "system-reminder",
    "task-notification",
    "user-prompt-submit-hook",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
)
_TAG_ALTERNATION = "|".join(re.escape(tag) for tag in _NOISE_TAGS)
_STARTS_WITH_NOISE_TAG = re.compile(rf"<(?:{_TAG_ALTERNATION})\b")
_NOISE_SECTION = re.compile(rf"<({_TAG_ALTERNATION})\b[^>]*>.*?</\1>", re.DOTALL)
_NOISE_PREFIXES = (
    "[Request interrupted by user",
    SUMMARY_MARKER,
    "This session is being continued from a previous conversation",
)

# Equivalent spellings of a command: without a leading `cd dir &&` and without a trailing
# `2>&1`, `2>/dev/null` or `| tail -n N` / `| head -n N`, which only shape the output the
# agent saw.
_CD_PREFIX = re.compile(r"^cd\s+\S+\s*&&\s*")
_OUTPUT_SUFFIX = re.compile(
    r"\s*(?:2>&1|2>\s*/dev/null|\|\s*(?:tail|head)(?:\s+-n)?(?:\s+-?\d+)?)$"
)

_FAILED_WORDS = ("fail", "error")
_INTERRUPTED_WORDS = ("interrupt", "fail", "error")
_UNFINISHED_STATUSES = ("pending", "in_progress")
_LABEL_WIDTH = 120


def recovery_facts(
    messages: Sequence[Message], *, workspace: str | None = None
) -> dict[FactCategory, tuple[Fact, ...]]:
    """Every fact of every category (empty tuples included), each in transcript order.

    `workspace` is the directory the agent worked in; when given, a path under it may also be
    recovered by its workspace-relative spelling (summaries rarely repeat absolute paths).
    """
    results = _results_by_call(messages)
    calls = [
        call
        for message in messages
        if message.role is Role.ASSISTANT
        for call in message.tool_calls
    ]
    return {
        FactCategory.LATEST_REQUEST: _latest_request(messages),
        FactCategory.FILES_MODIFIED: _files_modified(calls, results, workspace),
        FactCategory.COMMANDS: _commands(calls, results, workspace),
        FactCategory.UNFINISHED: _unfinished(calls),
        FactCategory.UNCERTAIN_EFFECTS: _uncertain_effects(calls, results, workspace),
    }


def request_text(message: Message) -> str | None:
    """What the user asked in `message`, whitespace-normalised, without harness noise; None
    when the message asks nothing (tool results only, noise only, a summary)."""
    if message.role is not Role.USER or message.is_summary:
        return None
    parts: list[str] = []
    for block_text in (block.strip() for block in _text_blocks(message)):
        if _STARTS_WITH_NOISE_TAG.match(block_text) or block_text.startswith(_NOISE_PREFIXES):
            continue
        cleaned = normalise(_NOISE_SECTION.sub(" ", block_text))
        if cleaned:
            parts.append(cleaned)
    return " ".join(parts) or None


def normalise(text: str) -> str:
    """Runs of whitespace as one space, no leading or trailing whitespace."""
    return " ".join(text.split())


def _text_blocks(message: Message) -> list[str]:
    return [block.text for block in message.content if isinstance(block, TextBlock)]


def _latest_request(messages: Sequence[Message]) -> tuple[Fact, ...]:
    for message in reversed(messages):
        text = request_text(message)
        if text is not None:
            label = f"latest request: {_shorten(text)}"
            return (Fact(FactCategory.LATEST_REQUEST, label, (text,)),)
    return ()


def _files_modified(
    calls: list[ToolCall], results: dict[str, ToolResult], workspace: str | None
) -> tuple[Fact, ...]:
    paths: list[str] = []
    for call in calls:
        if _status(results.get(call.id)) != "ok":
            continue  # a failed or unanswered write may have changed nothing
        paths.extend(path for path in modified_paths(call) if path not in paths)
    return tuple(
        Fact(FactCategory.FILES_MODIFIED, f"file modified: {path}", _spellings(path, workspace))
        for path in paths
    )


def _commands(
    calls: list[ToolCall], results: dict[str, ToolResult], workspace: str | None
) -> tuple[Fact, ...]:
    # One fact per distinct command, in order of first run, with the outcome of its latest
    # answered run: that is what the agent must know now. Unanswered runs have no outcome;
    # the uncertain-effects rule covers them.
    outcomes: dict[str, str] = {}
    for call in calls:
        command = shell_command(call)
        status = _status(results.get(call.id))
        if command is not None and status != "missing":
            outcomes[normalise(command)] = status
    facts: list[Fact] = []
    for command, status in outcomes.items():
        words = {"ok": (), "error": _FAILED_WORDS, "interrupted": _INTERRUPTED_WORDS}[status]
        label = f"command {'ok' if status == 'ok' else 'failed'}: {_shorten(command)}"
        spellings = _spellings(command, workspace)
        facts.append(Fact(FactCategory.COMMANDS, label, spellings, words))
    return tuple(facts)


def _unfinished(calls: list[ToolCall]) -> tuple[Fact, ...]:
    # The todo list is rewritten whole by each TodoWrite, so only the last one is current.
    for call in reversed(calls):
        todos = call.input.get("todos") if call.name == TODO_TOOL else None
        if not isinstance(todos, list):
            continue
        facts: list[Fact] = []
        for item in todos:
            if not isinstance(item, dict):
                continue
            content, status = item.get("content"), item.get("status")
            if isinstance(content, str) and content.strip() and status in _UNFINISHED_STATUSES:
                text = normalise(content)
                label = f"unfinished ({status}): {_shorten(text)}"
                facts.append(Fact(FactCategory.UNFINISHED, label, (text,)))
        return tuple(facts)
    return ()


def _uncertain_effects(
    calls: list[ToolCall], results: dict[str, ToolResult], workspace: str | None
) -> tuple[Fact, ...]:
    # A later successful call on the same target (the same tool and argument) settles the
    # earlier doubt: the retried edit or command is known to have taken effect.
    open_doubts: dict[tuple[str, str], tuple[ToolCall, str]] = {}
    for call in calls:
        if is_read_only(call):
            continue
        key = (call.name, normalise(distinctive_argument(call)))
        status = _status(results.get(call.id))
        if status == "ok":
            open_doubts.pop(key, None)
        else:
            open_doubts[key] = (call, status)
    facts: list[Fact] = []
    for (name, argument), (_, status) in open_doubts.items():
        reason = "no result" if status == "missing" else status
        label = f"uncertain effect ({reason}): {name} {_shorten(argument)}"
        facts.append(Fact(FactCategory.UNCERTAIN_EFFECTS, label, _spellings(argument, workspace)))
    return tuple(facts)


def _results_by_call(messages: Sequence[Message]) -> dict[str, ToolResult]:
    results: dict[str, ToolResult] = {}
    for message in messages:
        for result in message.tool_results:
            results.setdefault(result.call_id, result)
    return results


def _status(result: ToolResult | None) -> str:
    """``missing``, ``interrupted``, ``error`` or ``ok``."""
    if result is None:
        return "missing"
    # Only the harness's own markers count: a successful output that merely mentions an
    # interruption (a log being read) is not one.
    lowered = result.content.lower()
    if lowered.lstrip().startswith("[request interrupted by user") or (
        result.is_error and ("interrupted" in lowered or "doesn't want to proceed" in lowered)
    ):
        return "interrupted"
    return "error" if result.is_error else "ok"


def _spellings(value: str, workspace: str | None) -> tuple[str, ...]:
    spellings = [normalise(value)]
    if workspace:
        root = workspace.rstrip("/") + "/"
        if spellings[0].startswith(root) and len(spellings[0]) > len(root):
            spellings.append(spellings[0][len(root) :])
    core = _core_command(spellings[0])
    if core and core not in spellings:
        spellings.append(core)
    return tuple(spellings)


def _core_command(command: str) -> str:
    previous = None
    while previous != command:
        previous = command
        command = _OUTPUT_SUFFIX.sub("", _CD_PREFIX.sub("", command)).strip()
    return command


def _shorten(text: str) -> str:
    return text if len(text) <= _LABEL_WIDTH else text[: _LABEL_WIDTH - 1] + "…"
