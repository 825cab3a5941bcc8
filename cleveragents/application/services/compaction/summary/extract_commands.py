"""The shell commands run and what came of them; for test runs, the runner's summary line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleveragents.application.services.compaction.summary.extract_outcomes import (
    Outcome,
    ToolActivity,
    first_error_line,
)
from cleveragents.application.services.compaction.summary.extract_text import clip, unique
from cleveragents.application.services.compaction.summary.extract_tools import shell_command

COMMAND_LIMIT = 240  # long enough to name a long `git add ...` or heredoc commit
SUMMARY_LIMIT = 120

_TEST_COMMAND = re.compile(
    r"\b(?:py\.?test|(?:npm|yarn|pnpm|bun)(?: run)? test|cargo (?:test|nextest)|go test"
    r"|mix test|jest|vitest|make (?:test|check)|tox|nox|unittest|rspec|phpunit"
    r"|dotnet test|gradlew? test|mvn test)\b"
)
# A test runner's closing line, read from the end of the output (after "=" decorations go).
_TEST_SUMMARY = re.compile(
    r"\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected)\b"  # pytest
    r"|^tests?:?\s+\d+"  # jest "Tests: 1 failed, 3 passed", vitest "Tests  3 passed (3)"
    r"|^test result:"  # cargo
    r"|^\d+ (?:doctests?|tests?|properties|examples?),"  # mix, rspec "5 tests, 1 failure"
    r"|^ran \d+ tests? in "  # unittest
    r"|^(?:ok|fail|pass)(?:\s|$)|^(?:failed|ok) \("  # go test, unittest's last line
    r"|^(?:failed|ok|FAIL|PASS)$",
    re.IGNORECASE,
)
_LABELS = {
    Outcome.MISSING: "no result",
    Outcome.INTERRUPTED: "interrupted",
    Outcome.REFUSED: "refused",
}


def is_test_command(command: str) -> bool:
    return _TEST_COMMAND.search(command) is not None


def test_summary(output: str) -> str | None:
    """The last line of `output` that summarises a test run, when there is one."""
    for line in reversed(output.split("\n")):
        stripped = line.strip().strip("=").strip()
        if stripped and _TEST_SUMMARY.search(stripped):
            return clip(stripped, SUMMARY_LIMIT)
    return None


def commands(activities: Sequence[ToolActivity]) -> tuple[str, ...]:
    """`` `<command>` -> <outcome> ``, in the order run (see `command_item`)."""
    return unique(command_item(a) for a in activities if shell_command(a.call) is not None)


def command_item(activity: ToolActivity) -> str:
    """`` `<command>` -> <outcome> ``: ``ok``, ``failed: <what went wrong>``, ``no result``,
    ``interrupted`` or ``refused``; a test run that produced its summary line shows it after
    ``ok:`` or ``failed:``."""
    command = shell_command(activity.call) or ""
    output = activity.result.content if activity.result is not None else ""
    summary = test_summary(output) if is_test_command(command) else None
    if activity.outcome is Outcome.OK:
        result = f"ok: {summary}" if summary else "ok"
    elif activity.outcome is Outcome.FAILED:
        result = f"failed: {summary or first_error_line(output)}"
    else:
        result = _LABELS[activity.outcome]
    return f"`{clip(command, COMMAND_LIMIT)}` -> {result}"
