"""The Claude Code record fields the reader and the writer of session logs share.

A session log chains its records by ``uuid`` and ``parentUuid``; Claude Code resumes a session
by following that chain back from the last record, and starts it afresh after a
``compact_boundary`` system record (a root: its ``parentUuid`` is null). See
`claude_code_jsonl` for how records become messages and `claude_code_writer` for the way back.
"""

from __future__ import annotations

from cleveragents.domain.transcript import SUMMARY_TOKENS_BEFORE

CLAUDE_CODE = "claude_code"
"""Message.extra key: {"record": record fields, "message": API message fields, "boundary": the
``compact_boundary`` record written just before the message, when there is one}."""
RECORD = "record"
API_MESSAGE = "message"
BOUNDARY = "boundary"

TOKENS_BEFORE = SUMMARY_TOKENS_BEFORE
"""Message.extra key on a summary message: the conversation's token count before compaction
(an int), written as the boundary's ``compactMetadata.preTokens``."""

QUEUE_OPERATION = "queue-operation"
QUEUED = "queuedPrompt"
"""Record field marking a user message that was a queued prompt (see `_PromptQueue`)."""
DERIVED = "cleveragentsDerived"
"""Record field: the names of the fields the writer supplied because the message had none (a
uuid for a queued prompt, the sessionId of a message from another format, ...). Reading drops
them again, so a transcript written and read back is the transcript that was written."""

CHAIN = "parentUuid"
LOGICAL_PARENT = "logicalParentUuid"
SOURCE = "sourceToolAssistantUUID"
UUID = "uuid"
SESSION = "sessionId"
TIMESTAMP = "timestamp"
COMPACT_BOUNDARY = "compact_boundary"
COMPACT_SUMMARY = "isCompactSummary"
IS_META = "isMeta"

CONTEXT_FIELDS = ("isSidechain", "userType", "cwd", SESSION, "version", "gitBranch", "slug")
"""Where the session ran, repeated on every record Claude Code writes, in its order."""
LEADING_FIELDS = frozenset((*CONTEXT_FIELDS, "agentId", LOGICAL_PARENT))
"""Fields Claude Code writes before ``type`` and ``message``."""

SKILL_PREFIX = "Base directory for this skill"
"""How the user record that injects a skill's instructions begins."""


def split_lines(text: str) -> list[str]:
    """The lines of a JSONL text, without their line ends. Not str.splitlines: it also splits
    at U+2028, U+0085, ..., which JSON strings may hold raw."""
    return [line.removesuffix("\r") for line in text.split("\n")]
