"""The tasks an agent tracked and where each stood last: its own task tools and the trackers it
drove through the shell.

Sources, each read from calls that succeeded:

* a todo list (Claude Code's TodoWrite, ``update_plan`` of Codex-style agents): each call
  rewrites the whole list, so the last one is the list;
* Claude Code's task tools: ``TaskCreate`` (its ``subject``; the id from the result's
  ``#N``) and ``TaskUpdate`` (``taskId``, ``status``, a new ``subject``; ``deleted`` removes);
* trackers run in the shell: beads (``bd create|update --status|close|reopen``), GitHub
  (``gh issue create|close|reopen|develop``) and Jira (``jira issue create|move`` of
  jira-cli, ``jira start|done|close|resolve|reopen|transition`` of go-jira). A task's title is
  learnt from the tracker's own output (``bd show``, ``bd list``, ``gh issue view``) when the
  command that changed it did not give one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from cleveragents.application.services.compaction.summary.command_resolution import words
from cleveragents.application.services.compaction.summary.extract_outcomes import (
    Outcome,
    ToolActivity,
)
from cleveragents.application.services.compaction.summary.extract_text import clip, collapse
from cleveragents.application.services.compaction.summary.extract_tools import (
    is_todo_update,
    shell_command,
    tool_name,
)

TITLE_LIMIT = 160
TODO_LIST = "todo list"
_TASK_TOOL = "task"


class TaskState(StrEnum):
    OPEN = "open"
    IN_PROGRESS = "in progress"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class TrackedTask:
    """A task as it stood after its last change (`changed`: the index of that call's message)."""

    tracker: str
    key: str
    title: str
    state: TaskState
    changed: int

    @property
    def label(self) -> str:
        """How the task is named in a summary: a todo item by its text, a tracked task by its
        id, its tracker and its title (one spelling, whatever its state, so a merge can
        match the open item with its completion)."""
        if self.tracker == TODO_LIST:
            return self.title
        name = f"{self.key} ({self.tracker})"
        return f"{name}: {self.title}" if self.title and self.title != self.key else name


_NOT_APPLIED = (Outcome.FAILED, Outcome.REFUSED, Outcome.INTERRUPTED)
_TODO_STATES = {"pending": TaskState.OPEN, "in_progress": TaskState.IN_PROGRESS}
_CLOSED_WORDS = re.compile(
    r"done|closed?|resolved?|complete|fixed|finished|cancel|wont|won't|merged", re.IGNORECASE
)
_STARTED_WORDS = re.compile(r"progress|doing|started|active|review|claimed", re.IGNORECASE)
_BEADS_ID = re.compile(r"^[A-Za-z][\w]*-[\w.]+$")
_BEADS_CREATED = re.compile(r"Created (?:issue:?\s*)?([A-Za-z][\w]*-[\w.]+)")
_BEADS_TITLE = re.compile(
    r"(?P<id>[A-Za-z][\w]*-[\w.]+)(?:\s*\[[^\]]*\])*\s*(?:[\u00b7:]|\s-)\s*(?P<title>.+?)"
    r"(?:\s*\((?:blocked|parent).*)?$"
)
# Tags around a title: "[EPIC]", "[P2 · OPEN]", beads' priority mark "● P2".
_EDGE_TAG = re.compile(
    r"^\s*[\[(][^\])]*[\])]|[\[(][^\])]*[\])]\s*$|[\u25cf\u25cb\u25d0]\s*P\d+\s*$"
)
_GH_NUMBER = re.compile(r"(?:^#?|/issues/)(\d+)$")
_GH_CREATED = re.compile(r"/issues/(\d+)\b")
_GH_TITLE = re.compile(r"^title:\s*(.+)$", re.MULTILINE)
_JIRA_KEY = re.compile(r"\b([A-Z][A-Z0-9]+-\d+)\b")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
_TASK_NUMBER = re.compile(r"#(\d+)")

Change = tuple[str, TaskState | None, str]
"""(key, new state or None when only the title is learnt, title or "")."""


def tracked_tasks(activities: Sequence[ToolActivity]) -> list[TrackedTask]:
    """Every task the calls touched, as it stood last, in the order of their last change."""
    tasks: dict[tuple[str, str], TrackedTask] = {}
    titles: dict[tuple[str, str], str] = {}  # learnt from a tracker's output, maybe before use
    for activity in activities:
        if is_todo_update(activity.call):
            if activity.outcome not in _NOT_APPLIED:
                _replace_todo_list(tasks, activity.call.input, activity.index)
        elif activity.outcome is Outcome.OK:
            for tracker, (key, state, title) in _changes(activity, tasks):
                if state is None:
                    titles.setdefault((tracker, key), _title(title))
                else:
                    _apply(tasks, tracker, (key, state, title), activity.index)
    named = [
        replace(task, title=titles.get(key, "")) if not task.title else task
        for key, task in tasks.items()
    ]
    return sorted(named, key=lambda task: task.changed)


def _replace_todo_list(
    tasks: dict[tuple[str, str], TrackedTask], arguments: dict[str, Any], position: int
) -> None:
    for old in [known for known in tasks if known[0] == TODO_LIST]:
        del tasks[old]
    for content, state in _todo_items(arguments):
        tasks[(TODO_LIST, content)] = TrackedTask(TODO_LIST, content, content, state, position)


def _changes(
    activity: ToolActivity, tasks: dict[tuple[str, str], TrackedTask]
) -> list[tuple[str, Change]]:
    """(tracker, change) for each task a successful call changed or named."""
    name = tool_name(activity.call)
    arguments = activity.call.input
    output = activity.result.content if activity.result is not None else ""
    if name == "taskcreate":
        number = _TASK_NUMBER.search(output)
        created = sum(1 for known in tasks if known[0] == _TASK_TOOL) + 1
        key = f"#{number.group(1) if number else created}"
        return [(_TASK_TOOL, (key, TaskState.OPEN, _text(arguments, "subject")))]
    if name == "taskupdate":
        key = "#" + _text(arguments, "taskId").lstrip("#")
        status = _text(arguments, "status")
        if status == "deleted":
            tasks.pop((_TASK_TOOL, key), None)
            return []
        state = _TODO_STATES.get(status, TaskState.DONE if status else None)
        return [(_TASK_TOOL, (key, state, _text(arguments, "subject")))]
    command = shell_command(activity.call)
    found: list[tuple[str, Change]] = []
    for line in _lines(command or ""):
        argv = words(line)
        program = argv[0].rsplit("/", 1)[-1] if argv else ""
        for tracker, (programs, reader) in _TRACKERS.items():
            if program in programs:
                found.extend((tracker, change) for change in reader(argv[1:], output))
    return found


def _apply(
    tasks: dict[tuple[str, str], TrackedTask], tracker: str, change: Change, position: int
) -> None:
    key, state, title = change
    if not key.strip("#") or state is None:
        return
    known = tasks.get((tracker, key))
    title = _title(title)
    if known is None:
        tasks[(tracker, key)] = TrackedTask(tracker, key, title, state, position)
    else:
        tasks[(tracker, key)] = replace(
            known, state=state, title=title or known.title, changed=position
        )


def _title(text: str) -> str:
    """A tracker's title without the bracketed tags around it (``[EPIC]``, ``[P2 · OPEN]``)."""
    previous = None
    text = collapse(text)
    while previous != text:
        previous = text
        text = _EDGE_TAG.sub("", text).strip(" \u00b7-\u25cf")
    return clip(text, TITLE_LIMIT)


def _todo_items(arguments: dict[str, Any]) -> list[tuple[str, TaskState]]:
    entries = arguments.get("todos", arguments.get("plan"))
    items: list[tuple[str, TaskState]] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        content, status = entry.get("content", entry.get("step")), entry.get("status")
        if isinstance(content, str) and content.strip() and isinstance(status, str):
            items.append((clip(content), _TODO_STATES.get(status, TaskState.DONE)))
    return items


def _text(arguments: dict[str, Any], key: str) -> str:
    value = arguments.get(key)
    return value.strip() if isinstance(value, str) else str(value) if isinstance(value, int) else ""


def _lines(command: str) -> list[str]:
    """The simple commands of a shell line: `&&`, `;` and `||` chain them, a pipe's later
    parts only read the first one's output, and a heredoc's body is text, never a command
    (a commit message or a script written to a file may well say ``bd close x``)."""
    found: list[str] = []
    ending: str | None = None
    for line in command.split("\n"):
        if ending is not None:
            if line.strip() == ending:
                ending = None
            continue
        heredoc = _HEREDOC.search(line)
        ending = heredoc.group(1) if heredoc is not None else None
        for part in re.split(r"&&|\|\||;", line):
            first = part.split("|", 1)[0]
            if first.strip():
                found.append(first)
    return found


def _option(argv: Sequence[str], *names: str) -> str:
    for index, token in enumerate(argv):
        for name in names:
            if token == name and index + 1 < len(argv):
                return argv[index + 1]
            if token.startswith(name + "=") or (len(name) == 2 and token.startswith(name)):
                value = token[len(name) :].lstrip("=")
                if value:
                    return value
    return ""


def _positionals(argv: Sequence[str]) -> list[str]:
    return [token for token in argv if not token.startswith("-")]


def _state_named(name: str) -> TaskState:
    if _CLOSED_WORDS.search(name):
        return TaskState.DONE
    return TaskState.IN_PROGRESS if _STARTED_WORDS.search(name) else TaskState.OPEN


def _beads(argv: list[str], output: str) -> list[Change]:
    if not argv:
        return []
    verb, rest = argv[0], argv[1:]
    ids = [token for token in _positionals(rest) if _BEADS_ID.match(token)]
    if verb == "create":
        found = _BEADS_CREATED.search(output)
        title = _option(rest, "--title") or next(iter(_positionals(rest)), "")
        key = found.group(1) if found else title
        status = _option(rest, "--status", "-s")
        return [(key, _state_named(status) if status else TaskState.OPEN, title)]
    if verb in ("close", "done"):
        return [(key, TaskState.DONE, "") for key in ids]
    if verb == "reopen":
        return [(key, TaskState.OPEN, "") for key in ids]
    if verb == "update":
        status = _option(rest, "--status", "-s")
        if status:
            return [(key, _state_named(status), "") for key in ids]
        if "--claim" in rest:
            return [(key, TaskState.IN_PROGRESS, "") for key in ids]
        return []
    if verb in ("show", "list", "ready", "search", "blocked"):
        return [
            (match.group("id"), None, match.group("title").strip())
            for line in output.split("\n")
            if (match := _BEADS_TITLE.search(line.strip().lstrip("\u25cb\u25d0\u25cf\u2713 ")))
        ]
    return []


def _github(argv: list[str], output: str) -> list[Change]:
    if len(argv) < 2 or argv[0] != "issue":
        return []
    verb, rest = argv[1], argv[2:]
    numbers = [f"#{m.group(1)}" for t in _positionals(rest) if (m := _GH_NUMBER.search(t))]
    if verb == "create":
        found = _GH_CREATED.search(output)
        title = _option(rest, "--title", "-t")
        return [(f"#{found.group(1)}" if found else title, TaskState.OPEN, title)]
    states = {"close": TaskState.DONE, "reopen": TaskState.OPEN, "develop": TaskState.IN_PROGRESS}
    if verb in states:
        return [(number, states[verb], "") for number in numbers[:1]]
    if verb == "view" and numbers:
        viewed = _GH_TITLE.search(output)
        return [(numbers[0], None, viewed.group(1).strip())] if viewed else []
    return []


_GO_JIRA_VERBS = {
    "start": TaskState.IN_PROGRESS,
    "done": TaskState.DONE,
    "close": TaskState.DONE,
    "resolve": TaskState.DONE,
    "reopen": TaskState.OPEN,
    "todo": TaskState.OPEN,
    "backlog": TaskState.OPEN,
}


def _jira(argv: list[str], output: str) -> list[Change]:
    if not argv:
        return []
    if argv[0] == "issue" and len(argv) > 1:
        verb, rest = argv[1], argv[2:]
        if verb == "create":
            found = _JIRA_KEY.search(output)
            title = _option(rest, "--summary", "-s")
            return [(found.group(1) if found else title, TaskState.OPEN, title)]
        positionals = _positionals(rest)
        if verb in ("move", "transition") and len(positionals) >= 2:
            return [(positionals[0], _state_named(" ".join(positionals[1:])), "")]
        return []
    keys = [token for token in _positionals(argv[1:]) if _JIRA_KEY.fullmatch(token)]
    if argv[0] in _GO_JIRA_VERBS:
        return [(key, _GO_JIRA_VERBS[argv[0]], "") for key in keys]
    if argv[0] == "transition" and keys:
        state = " ".join(t for t in _positionals(argv[1:]) if t not in keys)
        return [(key, _state_named(state), "") for key in keys]
    return []


_TRACKERS: dict[str, tuple[frozenset[str], Callable[[list[str], str], list[Change]]]] = {
    "bd": (frozenset({"bd", "beads"}), _beads),
    "gh issue": (frozenset({"gh"}), _github),
    "jira": (frozenset({"jira"}), _jira),
}
"""Each tracker driven through the shell: the programs that run it, and how to read a call."""
