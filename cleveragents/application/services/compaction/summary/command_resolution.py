"""Whether a later call settled a failed one, and whether a shell command can change anything.

A failed call is resolved when a later call of the same thing succeeded: the same command, or
the same command with flags added (``git push`` then ``git push --set-upstream origin x``; a
run of added words must start with a flag, and a test run's added words must all be flags, so
``pytest`` then ``pytest tests/one.py`` or ``pytest -x tests/one.py`` is a narrower run, not a
fix), or the command the failure itself suggested (its output names the
later command); for other tools, the same tool on the same file or target, any file-writing
tool counting as one. Commands are compared without what only shapes their output (a leading
``cd dir &&``, ``2>&1``, a trailing ``| tail -n 5``).

A shell command has an effect unless every command in it only reads or checks (listing,
searching, showing, ``git status``, test runs, linters, type checks, builds). A failed
command without effect is an error, never an uncertain effect.
"""

from __future__ import annotations

import bisect
import re
import shlex
from collections.abc import Sequence
from functools import lru_cache

from cleveragents.application.services.compaction.summary.extract_commands import (
    is_test_command,
)
from cleveragents.application.services.compaction.summary.extract_outcomes import (
    Outcome,
    ToolActivity,
)
from cleveragents.application.services.compaction.summary.extract_text import collapse
from cleveragents.application.services.compaction.summary.extract_tools import (
    files_modified,
    shell_command,
    target,
    tool_name,
)

_CD_PREFIX = re.compile(r"^cd\s+\S+\s*(?:&&|;)\s*")
_REDIRECTION = re.compile(r"\s+\d*(?:>>?|<)&?\s*\S+")
_OUTPUT_FILTER = re.compile(r"\s*\|\s*(?:tail|head|grep|less|more|cat|tee|sort|uniq|wc)\b[^|]*$")
_SEPARATOR = re.compile(r"\s*(?:&&|\|\||;|\||\n)\s*")
_FILE_REDIRECT = re.compile(r"\d*>>?(?!&)\s*([^\s&|;]+)")  # `> out.txt` writes a file
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_MAX_COMPARED = 4_000  # a heredoc of thousands of lines is compared by its start
_MIN_SUGGESTION = 8  # a suggested command shorter than this could be any word of the output
_SUGGESTION_EDGE = 4_000

# Programs that only read or report; a shell line made of these changes nothing.
_NO_EFFECT_PROGRAMS = frozenset(
    {
        *("ls", "ll", "cat", "head", "tail", "less", "more", "grep", "egrep", "rg", "ag", "ack"),
        *("find", "fd", "tree", "wc", "pwd", "echo", "printf", "which", "whereis", "type"),
        *("file", "stat", "du", "df", "env", "printenv", "date", "whoami", "uname", "ps"),
        *("diff", "cmp", "sort", "uniq", "cut", "jq", "yq", "true", "false", "test", "[", "cd"),
        *("sleep", "readlink", "realpath", "basename", "dirname", "id", "hostname", "nproc"),
        *("mypy", "pyright", "ruff", "flake8", "pylint", "eslint", "tsc", "shellcheck"),
        *("hadolint", "black", "isort", "prettier", "golangci-lint", "clippy", "credo"),
        *("lint-imports", "pre-commit"),
    }
)
# Subcommands that only read, for programs that also write.
_NO_EFFECT_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "git": frozenset(
        {"status", "log", "diff", "show", "rev-parse", "ls-files", "blame", "grep", "describe"}
        | {"shortlog", "reflog", "fetch", "ls-remote"}
    ),
    "bd": frozenset({"show", "list", "ready", "search", "stats", "blocked", "info"}),
    "gh": frozenset({"view", "list", "status", "diff", "checks"}),
    "jira": frozenset({"view", "list", "me", "ls"}),
    "mix": frozenset({"compile", "credo", "dialyzer", "help"}),
    "cargo": frozenset({"build", "check", "clippy", "doc", "tree", "metadata"}),
    "go": frozenset({"build", "vet", "list", "doc", "env", "version"}),
    "npm": frozenset({"ls", "list", "view", "outdated", "audit", "run-script"}),
    "make": frozenset({"check", "lint", "typecheck", "build", "verify"}),
}
# Commands that change the world beyond the workspace: when their last run is not confirmed,
# the work is not done.
_DELIVERY = re.compile(
    r"\bgit push\b|\b(?:npm|yarn|pnpm|cargo|poetry|gem) publish\b|\btwine upload\b"
    r"|\bdocker push\b|\bkubectl (?:apply|rollout|set|scale)\b|\bterraform apply\b"
    r"|\bhelm (?:install|upgrade)\b|\bdeploy\b|\bgh release create\b"
)
_FILE_WRITERS = "files"


Settlements = dict[int, ToolActivity]
"""For the position of each call that did not succeed, the later call that settled it."""


def settlements(activities: Sequence[ToolActivity]) -> Settlements:
    """Which later success settled each call that did not succeed (see the module's rules).

    Candidates are looked up by what they act on (a command's program and first word, a
    file or target), so a session of thousands of calls is not compared pair by pair."""
    successes: dict[tuple[str, str], list[int]] = {}
    for position, activity in enumerate(activities):
        if activity.outcome is Outcome.OK:
            successes.setdefault(_action_key(activity), []).append(position)
    found: Settlements = {}
    for position, activity in enumerate(activities):
        if activity.outcome is Outcome.OK:
            continue
        candidates = successes.get(_action_key(activity), [])
        later = candidates[bisect.bisect_right(candidates, position) :]
        fixer = next((p for p in later if settles(activity, activities[p])), None)
        if fixer is not None:
            found[position] = activities[fixer]
    return found


def settles(failed: ToolActivity, attempt: ToolActivity) -> bool:
    """Whether `attempt` is the same action as `failed` (see the module's rules)."""
    command, again = shell_command(failed.call), shell_command(attempt.call)
    if command is not None or again is not None:
        if command is None or again is None:
            return False
        first, second = core_command(command), core_command(again)
        if first == second or _with_added_flags(first, second, is_test_command(first)):
            return True
        return len(second) >= _MIN_SUGGESTION and second in _suggestions(failed)
    return _family(failed) == _family(attempt) and target(failed.call) == target(attempt.call)


@lru_cache(maxsize=4_096)
def core_command(command: str) -> str:
    """`command` without what only shapes its output or where it runs, on one line."""
    text = collapse(command[:_MAX_COMPARED])
    previous = None
    while previous != text:
        previous = text
        text = _CD_PREFIX.sub("", text)
        text = _OUTPUT_FILTER.sub("", _REDIRECTION.sub("", text)).strip()
    return text


def has_effect(command: str) -> bool:
    """Whether `command` may change something (any part of it that is not a read or a check)."""
    if any(target != "/dev/null" for target in _FILE_REDIRECT.findall(command)):
        return True
    if is_test_command(command):
        return False
    return any(_part_has_effect(part) for part in _SEPARATOR.split(_REDIRECTION.sub("", command)))


def is_delivery(command: str) -> bool:
    """Whether `command` pushes, publishes or deploys."""
    return _DELIVERY.search(command) is not None


def words(command: str) -> list[str]:
    """The words of one shell line, quotes removed (split on spaces when it is unbalanced)."""
    return list(_words(command))


@lru_cache(maxsize=4_096)
def _words(command: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(command))
    except ValueError:
        return tuple(command.split())


def _action_key(activity: ToolActivity) -> tuple[str, str]:
    """What a call acts on, coarsely: a command's program and first word that is not a flag
    (every settling command shares them), else the tool family and its target."""
    command = shell_command(activity.call)
    if command is None:
        return _family(activity), target(activity.call)
    tokens = _words(core_command(command))
    program = tokens[0] if tokens else ""
    first = next((token for token in tokens[1:] if not token.startswith("-")), "")
    return "shell " + program, first


def _suggestions(failed: ToolActivity) -> str:
    """The edges of the failed call's output, where a tool prints the command to run instead."""
    output = failed.result.content if failed.result is not None else ""
    if len(output) > 2 * _SUGGESTION_EDGE:
        output = output[:_SUGGESTION_EDGE] + "\n" + output[-_SUGGESTION_EDGE:]
    return collapse(output)


def _part_has_effect(part: str) -> bool:
    tokens = words(part)
    while tokens and _ASSIGNMENT.match(tokens[0]):  # `FOO=1 command`: the command counts
        tokens = tokens[1:]
    if not tokens:
        return False
    program = tokens[0].rsplit("/", 1)[-1]
    if program in _NO_EFFECT_PROGRAMS:
        return program in ("black", "isort", "prettier", "ruff") and not _checks_only(tokens)
    if program == "sed":
        return any(token.startswith("-i") for token in tokens)
    subcommands = _NO_EFFECT_SUBCOMMANDS.get(program)
    if subcommands is None:
        return True
    rest = [token for token in tokens[1:] if not token.startswith("-")]
    return not any(token in subcommands for token in rest[:2])


def _checks_only(tokens: list[str]) -> bool:
    # Formatters and ruff write unless told only to check.
    return any(token in ("check", "--check", "--diff") for token in tokens[1:]) and (
        "--fix" not in tokens
    )


def _with_added_flags(first: str, second: str, flags_only: bool) -> bool:
    """Whether `second` is `first` with runs of words added, each run starting with a flag
    (with `flags_only`, flags alone: a test target added narrows the run)."""
    old, new = _words(first), _words(second)
    if len(new) <= len(old):
        return False
    if flags_only and any(token not in old and not token.startswith("-") for token in new):
        return False
    position = 0
    added_run_start = True
    for token in new:
        if position < len(old) and token == old[position]:
            position += 1
            added_run_start = True
        elif added_run_start and not token.startswith("-"):
            return False
        else:
            added_run_start = False
    return position == len(old)


def _family(activity: ToolActivity) -> str:
    return _FILE_WRITERS if files_modified(activity.call) else tool_name(activity.call)
