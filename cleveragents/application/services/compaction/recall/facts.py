"""The facts a resumed agent needs, extracted from a full transcript by fixed rules.

This extraction is deliberately independent of any summarizer: it reads the raw messages
(tool calls and their results, user and assistant text), so a summarizer cannot pass the
measurement by agreeing with itself. The rules of decisions and the next step are in
`recall.decisions`; the rest are here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from cleveragents.application.services.compaction.recall.decisions import (
    decisions,
    last_todos,
    next_step,
)
from cleveragents.application.services.compaction.recall.model import Fact, FactCategory
from cleveragents.application.services.compaction.recall.requests import request_text
from cleveragents.application.services.compaction.recall.text import (
    normalise,
    prose_fact,
    searchable_text,
    shorten,
    term_frequencies,
)
from cleveragents.application.services.compaction.recall.tools import (
    call_status,
    distinctive_argument,
    is_read_only,
    modified_paths,
    read_paths,
    shell_command,
)
from cleveragents.domain.transcript import Message, Role, ToolCall, ToolResult

__all__ = ["normalise", "recovery_facts", "request_text"]

# Equivalent spellings of a command: without a leading `cd dir &&` and without a trailing
# `2>&1`, `2>/dev/null` or `| tail -n N` / `| head -n N`, which only shape the output the
# agent saw.
_CD_PREFIX = re.compile(r"^cd\s+\S+\s*&&\s*")
_OUTPUT_SUFFIX = re.compile(
    r"\s*(?:2>&1|2>\s*/dev/null|\|\s*(?:tail|head)(?:\s+-n)?(?:\s+-?\d+)?)$"
)

_FAILED_WORDS = ("fail", "error")
_INTERRUPTED_WORDS = ("interrupt", "fail", "error")
# An error is told by more words than a failed command: a summary says a file was "not found"
# or an edit "rejected" as often as it says "error".
ERROR_WORDS = (
    "fail",
    "error",
    "exception",
    "not found",
    "denied",
    "refused",
    "rejected",
    "invalid",
    "crash",
)
_UNFINISHED_STATUSES = ("pending", "in_progress")


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
    frequencies = term_frequencies(searchable_text(messages))
    return {
        FactCategory.LATEST_REQUEST: _latest_request(messages, frequencies),
        FactCategory.USER_REQUESTS: _user_requests(messages, frequencies),
        FactCategory.FILES_MODIFIED: _files_modified(calls, results, workspace),
        FactCategory.FILES_READ: _files_read(calls, results, workspace),
        FactCategory.COMMANDS: _commands(calls, results, workspace),
        FactCategory.ERRORS: _errors(calls, results, workspace),
        FactCategory.UNFINISHED: _unfinished(calls, frequencies),
        FactCategory.DECISIONS: decisions(messages, results, frequencies),
        FactCategory.NEXT_STEP: next_step(messages, calls, frequencies),
        FactCategory.UNCERTAIN_EFFECTS: _uncertain_effects(calls, results, workspace),
    }


def _user_requests(messages: Sequence[Message], frequencies: Counter[str]) -> tuple[Fact, ...]:
    # One fact per distinct request: a request repeated word for word is one thing to know.
    facts: dict[str, Fact] = {}
    for message in messages:
        text = request_text(message)
        if text is not None and text not in facts:
            label = f"user request: {shorten(text)}"
            facts[text] = prose_fact(FactCategory.USER_REQUESTS, label, text, frequencies)
    return tuple(facts.values())


def _latest_request(messages: Sequence[Message], frequencies: Counter[str]) -> tuple[Fact, ...]:
    for message in reversed(messages):
        text = request_text(message)
        if text is not None:
            label = f"latest request: {shorten(text)}"
            return (prose_fact(FactCategory.LATEST_REQUEST, label, text, frequencies),)
    return ()


def _files_modified(
    calls: list[ToolCall], results: dict[str, ToolResult], workspace: str | None
) -> tuple[Fact, ...]:
    paths: list[str] = []
    for call in calls:
        if call_status(call, results.get(call.id)) != "ok":
            continue  # a failed or unanswered write may have changed nothing
        paths.extend(path for path in modified_paths(call) if path not in paths)
    return tuple(
        Fact(FactCategory.FILES_MODIFIED, f"file modified: {path}", _spellings(path, workspace))
        for path in paths
    )


def _files_read(
    calls: list[ToolCall], results: dict[str, ToolResult], workspace: str | None
) -> tuple[Fact, ...]:
    # Successful reads only: a read that failed taught nothing about the file (it is an
    # error). A file read several times is one fact.
    paths: list[str] = []
    for call in calls:
        if call_status(call, results.get(call.id)) == "ok":
            paths.extend(path for path in read_paths(call) if path not in paths)
    return tuple(
        Fact(FactCategory.FILES_READ, f"file read: {path}", _spellings(path, workspace))
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
        status = call_status(call, results.get(call.id))
        if command is not None and status != "missing":
            outcomes[normalise(command)] = status
    facts: list[Fact] = []
    for command, status in outcomes.items():
        words = {"ok": (), "error": _FAILED_WORDS, "interrupted": _INTERRUPTED_WORDS}[status]
        label = f"command {'ok' if status == 'ok' else 'failed'}: {shorten(command)}"
        spellings = _spellings(command, workspace)
        facts.append(Fact(FactCategory.COMMANDS, label, spellings, words))
    return tuple(facts)


def _errors(
    calls: list[ToolCall], results: dict[str, ToolResult], workspace: str | None
) -> tuple[Fact, ...]:
    # Every call that failed (its result an error, or a command's non-zero exit), one fact per
    # tool and target, in order of first failure. A failure a later successful call on the
    # same target resolved is kept: what went wrong and was fixed is what keeps a resumed
    # agent from repeating it (the current state of a target is what the commands and
    # uncertain effects measure). Interruptions and refusals are not errors of the call.
    failed: dict[tuple[str, str], bool] = {}  # resolved later?
    for call in calls:
        key = (call.name, normalise(distinctive_argument(call)))
        status = call_status(call, results.get(call.id))
        if status == "error":
            failed[key] = False
        elif status == "ok" and key in failed:
            failed[key] = True
    return tuple(
        Fact(
            FactCategory.ERRORS,
            f"error{' (resolved later)' if resolved else ''}: {name} {shorten(argument)}",
            _spellings(argument, workspace),
            ERROR_WORDS,
        )
        for (name, argument), resolved in failed.items()
    )


def _unfinished(calls: list[ToolCall], frequencies: Counter[str]) -> tuple[Fact, ...]:
    # The todo list is rewritten whole by each TodoWrite, so only the last one is current.
    facts: list[Fact] = []
    for content, status in last_todos(calls):
        if status in _UNFINISHED_STATUSES:
            label = f"unfinished ({status}): {shorten(content)}"
            facts.append(prose_fact(FactCategory.UNFINISHED, label, content, frequencies))
    return tuple(facts)


def _uncertain_effects(
    calls: list[ToolCall], results: dict[str, ToolResult], workspace: str | None
) -> tuple[Fact, ...]:
    # A later successful call on the same target (the same tool and argument) settles the
    # earlier doubt: the retried edit or command is known to have taken effect.
    open_doubts: dict[tuple[str, str], str] = {}
    for call in calls:
        if is_read_only(call):
            continue
        key = (call.name, normalise(distinctive_argument(call)))
        status = call_status(call, results.get(call.id))
        if status == "ok":
            open_doubts.pop(key, None)
        else:
            open_doubts[key] = status
    facts: list[Fact] = []
    for (name, argument), status in open_doubts.items():
        reason = "no result" if status == "missing" else status
        label = f"uncertain effect ({reason}): {name} {shorten(argument)}"
        facts.append(Fact(FactCategory.UNCERTAIN_EFFECTS, label, _spellings(argument, workspace)))
    return tuple(facts)


def _results_by_call(messages: Sequence[Message]) -> dict[str, ToolResult]:
    results: dict[str, ToolResult] = {}
    for message in messages:
        for result in message.tool_results:
            results.setdefault(result.call_id, result)
    return results


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
