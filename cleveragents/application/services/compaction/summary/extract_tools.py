"""What a tool call is about, read from its name and arguments: the files it reads or would
modify, the shell command it runs, whether it can have side effects, a short description.

Names are matched case-insensitively, and an MCP tool (``mcp__server__read_file``) by its last
part, so Claude Code's tools (Read, Edit, Bash, ...) and the generic names other agents use
(read_file, str_replace_editor, apply_patch, shell, ...) are both understood.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cleveragents.application.services.compaction.summary.extract_text import clip, collapse
from cleveragents.domain.transcript import ToolCall

ARGS_LIMIT = 120

_PATH_KEYS = ("file_path", "path", "filename", "notebook_path")
_SHELL_TOOLS = frozenset(
    {"bash", "shell", "run_command", "exec", "execute_command", "terminal", "local_shell"}
)
_READ_TOOLS = frozenset({"read", "notebookread", "read_file", "view", "open_file"})
_WRITE_TOOLS = frozenset(
    {"write", "edit", "multiedit", "notebookedit", "write_file", "create_file", "edit_file"}
)
_EDITOR_TOOLS = frozenset({"str_replace_editor", "str_replace_based_edit_tool"})
_EDITOR_WRITES = frozenset({"create", "str_replace", "insert", "undo_edit"})
_PATCH_TOOLS = frozenset({"apply_patch"})
_TODO_TOOLS = frozenset({"todowrite", "update_plan"})
# Tools that only look: a call of one without a result changed nothing.
_READ_ONLY = frozenset(
    {
        *_READ_TOOLS,
        *_TODO_TOOLS,  # the plan is the agent's own notes, not the user's world
        "glob",
        "grep",
        "ls",
        "websearch",
        "webfetch",
        "web_search",
        "web_fetch",
        "todoread",
        "bashoutput",
        "taskoutput",
    }
)
_PATCH_FILE = re.compile(r"^\*\*\* (?:(?:Update|Add|Delete) File|Move to): (.+?)\s*$", re.M)
# Keys that say best what a call is about, most telling first.
_DESCRIBING_KEYS = (
    "command",
    "pattern",
    "file_path",
    "notebook_path",
    "path",
    "filename",
    "url",
    "query",
    "description",
    "prompt",
)


def tool_name(call: ToolCall) -> str:
    """The lower-case name, without an MCP server prefix."""
    return call.name.rsplit("__", 1)[-1].lower()


def is_todo_update(call: ToolCall) -> bool:
    return tool_name(call) in _TODO_TOOLS


def is_read_only(call: ToolCall) -> bool:
    """Whether the call cannot change anything outside the conversation."""
    name = tool_name(call)
    if name in _EDITOR_TOOLS:
        return _string(call.input, "command") == "view"
    return name in _READ_ONLY


def shell_command(call: ToolCall) -> str | None:
    """The command line of a shell tool call (an argv list joined with spaces), else None."""
    if tool_name(call) not in _SHELL_TOOLS:
        return None
    for key in ("command", "cmd"):
        value = call.input.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
            return " ".join(value)
    return None


def files_read(call: ToolCall) -> list[str]:
    """What the call reads: file paths, or a search described by its pattern and folder."""
    name = tool_name(call)
    path = _path(call.input)
    pattern = _string(call.input, "pattern")
    if name == "glob" and pattern:
        return [
            f"{path.rstrip('/')}/{pattern}" if path and not pattern.startswith("/") else pattern
        ]
    if name == "grep" and pattern:
        return [f"{path or '.'} (grep: {pattern})"]
    if name == "ls" or name in _READ_TOOLS:
        return [path] if path else []
    if name in _EDITOR_TOOLS and _string(call.input, "command") == "view":
        return [path] if path else []
    return []


def files_modified(call: ToolCall) -> list[str]:
    """The files the call changes when it succeeds."""
    name = tool_name(call)
    if name in _WRITE_TOOLS or (
        name in _EDITOR_TOOLS and _string(call.input, "command") in _EDITOR_WRITES
    ):
        path = _path(call.input)
        return [path] if path else []
    if name in _PATCH_TOOLS:
        return _patched_files(call.input)
    command = shell_command(call)
    if command is not None and "*** Begin Patch" in command:  # apply_patch run from a shell
        return [match.group(1) for match in _PATCH_FILE.finditer(command)]
    return []


def target(call: ToolCall) -> str:
    """What the call acts on, to recognise a later call on the same thing: its command, else
    its first file, else its short description."""
    command = shell_command(call)
    if command is not None:
        return collapse(command)
    paths = files_modified(call) or files_read(call)
    return paths[0] if paths else short_args(call)


def short_args(call: ToolCall) -> str:
    """The arguments in a few words: a shell command in backquotes, a patch's files, else
    the values of the two most telling arguments, else the arguments as compact JSON."""
    command = shell_command(call)
    if command is not None:
        return f"`{clip(command, ARGS_LIMIT)}`"
    if tool_name(call) in _PATCH_TOOLS:
        return clip(", ".join(_patched_files(call.input)), ARGS_LIMIT)
    values = [value for key in _DESCRIBING_KEYS if (value := _string(call.input, key))]
    if values:
        return clip(" ".join(values[:2]), ARGS_LIMIT)
    if not call.input:
        return ""
    return clip(json.dumps(call.input, sort_keys=True, ensure_ascii=False), ARGS_LIMIT)


def describe(call: ToolCall) -> str:
    """``<tool> <short arguments>``, as items name a call."""
    args = short_args(call)
    return f"{call.name} {args}" if args else call.name


def _string(arguments: dict[str, Any], key: str) -> str:
    value = arguments.get(key)
    return value.strip() if isinstance(value, str) else ""


def _path(arguments: dict[str, Any]) -> str:
    return next((path for key in _PATH_KEYS if (path := _string(arguments, key))), "")


def _patched_files(arguments: dict[str, Any]) -> list[str]:
    texts = [value for value in arguments.values() if isinstance(value, str)]
    return [match.group(1) for text in texts for match in _PATCH_FILE.finditer(text)]
