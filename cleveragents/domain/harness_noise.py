"""What a coding-agent harness writes into user messages that the user never typed.

Claude Code (and harnesses like it) record as user messages the echo of a slash command, the
output of a local command, system reminders, hook output, background-task notices, the marker
of an interruption and the continuation summary of its own compaction. Whoever reads "what the
user asked" (the summary's goals, the recall measurement's requests) must drop them, and must
drop the same ones: one list, here.
"""

from __future__ import annotations

from cleveragents.domain.transcript import CONTINUATION_PREFIX, SUMMARY_MARKER

NOISE_TAGS: tuple[str, ...] = (
    "command-name",
    "command-message",
    "command-args",
    "command-contents",
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
"""Elements (``<tag>...</tag>``) the harness puts in a user message's text."""

COMMAND_ARGS_TAG = "command-args"
"""The element of a slash command's echo that holds what the user typed after its name."""

HARNESS_BLOCK_PREFIXES: tuple[str, ...] = (
    "[Request interrupted by user",
    "<task-notification>",
    SUMMARY_MARKER,
    CONTINUATION_PREFIX,
)
"""How a text block the harness wrote whole begins: what follows is its own text (an
instruction to the model, a summary), never the user's."""

HARNESS_FLAGS: tuple[str, ...] = ("isMeta", "isCompactSummary")
"""Claude Code's flags on user records it wrote itself (kept under their own names in a
message's extras, or in the raw record)."""
