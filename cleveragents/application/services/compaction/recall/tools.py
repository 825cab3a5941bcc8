"""What the recovery measurement knows about tools: which run shell commands, which write
files (and where), which read a file's content (and which), which only read, and which
argument names a call best.

The names cover Claude Code's tools and the common generic ones (OpenAI-style function tools,
Anthropic's text editor tool, Codex's apply_patch). A tool outside these lists counts as one
with effects, so it is never silently ignored by the uncertain-effects rule.
"""

from __future__ import annotations

import re
from typing import Any

from cleveragents.domain.transcript import ToolCall, ToolResult

SHELL_TOOLS = frozenset({"Bash", "bash", "shell", "run_command", "exec", "execute_command"})
_SHELL_KEYS = ("command", "cmd")

_PATH_KEYS_BY_TOOL: dict[str, tuple[str, ...]] = {
    "Write": ("file_path",),
    "Edit": ("file_path",),
    "MultiEdit": ("file_path",),
    "NotebookEdit": ("notebook_path",),
    "write_file": ("path", "file_path"),
    "create_file": ("path", "file_path"),
    "edit_file": ("path", "file_path"),
}
EDITOR_TOOLS = frozenset({"str_replace_editor", "str_replace_based_edit_tool"})
_EDITOR_WRITE_COMMANDS = frozenset({"create", "str_replace", "insert"})
PATCH_TOOL = "apply_patch"
# Codex's patch format names each touched file on a header line; deletions and additions
# change the workspace as much as updates do.
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)

# Beyond the usual ones (Read, Glob, Grep, LS, WebSearch, WebFetch, view): Claude Code tools
# that only read (a notebook, the todo list, a background command's output).
READ_ONLY_TOOLS = frozenset(
    {
        "Read",
        "Glob",
        "Grep",
        "LS",
        "WebSearch",
        "WebFetch",
        "view",
        "NotebookRead",
        "TodoRead",
        "BashOutput",
        "TaskOutput",
        "read_file",
        "view_file",
    }
)
TODO_TOOL = "TodoWrite"
QUESTION_TOOL = "AskUserQuestion"
PLAN_APPROVAL_TOOL = "ExitPlanMode"

# The tools whose result is a file's content. Searches and listings (Grep, Glob, LS) are not
# reads: the agent saw matching lines or names across many files, not one file it now knows.
_READ_KEYS_BY_TOOL: dict[str, tuple[str, ...]] = {
    "Read": ("file_path",),
    "NotebookRead": ("notebook_path",),
    "view": ("path", "file_path"),
    "read_file": ("path", "file_path"),
    "view_file": ("path", "file_path"),
}


def shell_command(call: ToolCall) -> str | None:
    """The command a shell call runs; an argv list (Codex) is joined with spaces."""
    if call.name not in SHELL_TOOLS:
        return None
    for key in _SHELL_KEYS:
        value = call.input.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
            return " ".join(value)
    return None


def modified_paths(call: ToolCall) -> tuple[str, ...]:
    """The files a call writes when it succeeds (empty for any other call)."""
    if call.name in _PATH_KEYS_BY_TOOL:
        for key in _PATH_KEYS_BY_TOOL[call.name]:
            value = call.input.get(key)
            if isinstance(value, str) and value:
                return (value,)
        return ()
    if call.name in EDITOR_TOOLS:
        path = call.input.get("path")
        if call.input.get("command") in _EDITOR_WRITE_COMMANDS and isinstance(path, str) and path:
            return (path,)
        return ()
    if call.name == PATCH_TOOL:
        found: list[str] = []
        for text in _string_leaves(call.input):
            found.extend(match for match in _PATCH_FILE.findall(text) if match not in found)
        return tuple(found)
    return ()


def read_paths(call: ToolCall) -> tuple[str, ...]:
    """The file a call reads the content of (empty for any other call)."""
    keys = _READ_KEYS_BY_TOOL.get(call.name, ())
    if call.name in EDITOR_TOOLS and call.input.get("command") == "view":
        keys = ("path",)
    for key in keys:
        value = call.input.get(key)
        if isinstance(value, str) and value.strip():
            return (value.strip(),)
    return ()


def is_read_only(call: ToolCall) -> bool:
    if call.name in READ_ONLY_TOOLS:
        return True
    return call.name in EDITOR_TOOLS and call.input.get("command") == "view"


def distinctive_argument(call: ToolCall) -> str:
    """The argument that identifies what a call acted on: its command, else the file it
    writes, else its first string argument (by key), else the tool's name."""
    command = shell_command(call)
    if command is not None:
        return command
    paths = modified_paths(call)
    if paths:
        return paths[0]
    for key in ("file_path", "notebook_path", "path"):
        value = call.input.get(key)
        if isinstance(value, str) and value:
            return value
    for key in sorted(call.input):
        value = call.input[key]
        if isinstance(value, str) and value.strip():
            return value
    return call.name


def _string_leaves(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in _string_leaves(value[key])]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _string_leaves(item)]
    return []


_EXIT_CODE = re.compile(
    r"^\s*(?:exit code|exit status|process exited with code)[:\s]+(\d+)|\"exit_code\"\s*:\s*(\d+)",
    re.IGNORECASE,
)


def call_status(call: ToolCall | None, result: ToolResult | None) -> str:
    """``missing``, ``interrupted``, ``error`` or ``ok``: how a call ended.

    Only the harness's own markers count as an interruption: a successful output that merely
    mentions one (a log being read) is not one. A shell call whose result reports a non-zero
    exit code failed even when the result is not flagged as an error (formats without the
    flag).
    """
    if result is None:
        return "missing"
    lowered = result.content.lower()
    if lowered.lstrip().startswith("[request interrupted by user") or (
        result.is_error and ("interrupted" in lowered or "doesn't want to proceed" in lowered)
    ):
        return "interrupted"
    if result.is_error:
        return "error"
    if call is not None and shell_command(call) is not None:
        match = _EXIT_CODE.search(result.content[:2_000])
        if match and int(match.group(1) or match.group(2)) != 0:
            return "error"
    return "ok"
