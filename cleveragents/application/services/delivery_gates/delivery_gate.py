"""`gate()`: the stop conditions checked on context in flight, before it is delivered.

What applies to content that no store vouches for:

* a credential anywhere in it (every message's every block, tool calls and results included;
  plain content whole), by the store's scanner without an allowlist;
* a preview whose tail is missing: an omission marker that nothing follows, or whose range
  runs to the output's end (`shown_previews`); whether the tail shown is the real one needs
  the store, which `agents verify` checks;
* a compaction summary that omits unfinished work: its budget note says unfinished items were
  left out, or (a summary and the messages it replaced both present, as in a Claude Code
  session log) a pending or in-progress todo of those messages is not in it;
* a workspace escape: a path a preview names for its artifact that is absolute or holds
  ``..``, or, with `workspace`, one that lies outside it;
* a fabricated cache metric: a cache figure in the usage the messages carry, or in the
  `usage` given, for a model the locked catalog gives no price for that cache.

The catalog is opened only when there is a cache figure to check.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.application.services.delivery_gates.cache_metrics import cache_claims
from cleveragents.application.services.delivery_gates.preview_tails import shown_tail_violations
from cleveragents.application.services.delivery_gates.secrets_shown import text_secrets
from cleveragents.application.services.delivery_gates.shown_previews import (
    ShownPreview,
    shown_previews,
)
from cleveragents.application.services.delivery_gates.unfinished_work import (
    unfinished_omissions,
)
from cleveragents.application.services.delivery_gates.violations import (
    StopCondition,
    Violation,
    ordered,
)
from cleveragents.application.services.delivery_gates.workspace_escape import escape_reason
from cleveragents.application.services.metrics.usage_normalization import (
    normalize_usage,
    transcript_usage,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import (
    SUMMARY_MARKER,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Transcript,
    TranscriptFormat,
)
from cleveragents.domain.usage import UNKNOWN_MODEL

CONTENT = "content"
"""The subject of plain content's violations."""


@dataclass(frozen=True, slots=True)
class GateDecision:
    """Whether the context may be delivered, and every reason it may not."""

    violations: tuple[Violation, ...]
    transcript_format: TranscriptFormat | None
    """The format the messages were read in; None for plain content."""

    @property
    def allowed(self) -> bool:
        return not self.violations

    @property
    def reasons(self) -> tuple[str, ...]:
        """One line per violation: ``<condition>: <subject>: <detail>``."""
        return tuple(violation.line for violation in self.violations)


class DeliveryGate:
    """The stop conditions on context in flight. Container name: ``delivery_gate``."""

    def __init__(
        self,
        codec: TranscriptCodec,
        scanner: SecretScanner,
        catalog: Callable[[], ModelCatalog],
        clock: Clock,
    ) -> None:
        self._codec = codec
        self._scanner = scanner
        self._catalog = catalog
        self._clock = clock

    def check(
        self,
        context: str | Mapping[str, Any] | Sequence[Mapping[str, Any]],
        *,
        transcript_format: TranscriptFormat | None = None,
        as_text: bool = False,
        workspace: str | None = None,
        usage: Mapping[str, Any] | None = None,
        model: str | None = None,
        provider: str | None = None,
    ) -> GateDecision:
        """Check `context`: a transcript (its text, or its parsed document: a list of
        messages, a request object, Claude Code's records) or plain text. A str is read as a
        transcript when it is one (in `transcript_format` when given: then it must be), else
        as plain text; `as_text` takes it as plain text whatever it looks like. `usage` is a
        provider usage payload of `model` (`provider` names its API when the payload's keys
        do not). Malformed messages or usage raise `InvalidInputError`."""
        if usage is not None and not model:
            raise InvalidInputError("usage needs the model it was reported for (model=...)")
        # `model` also names the model of the messages' usage where they do not (OpenAI
        # messages carry none).
        if workspace is not None and not workspace.startswith("/"):
            raise InvalidInputError(f"the workspace must be an absolute path, not {workspace!r}")
        transcript = None if as_text else self._transcript(context, transcript_format)
        if transcript is None:
            if not isinstance(context, str):
                raise InvalidInputError("as_text needs the content as a str")
            violations = self._content(context, workspace)
            used = None
        else:
            used, parsed = transcript
            violations = self._messages(parsed, used, workspace, model)
        if usage is not None and model:
            claimed = normalize_usage(usage, provider=provider)
            violations += cache_claims(
                claimed,
                model,
                self._clock.now(),
                self._catalog(),
                "the usage given",
                verb="claimed",
            )
        return GateDecision(ordered(violations), used)

    def _transcript(
        self, context: object, named: TranscriptFormat | None
    ) -> tuple[TranscriptFormat, Transcript] | None:
        if not isinstance(context, str):
            used = named or self._codec.detect_native(context)
            return used, self._codec.read_native(context, used)
        if named is not None:
            return named, self._codec.read(context, named)
        try:
            used = self._codec.detect(context)
            return used, self._codec.read(context, used)
        except InvalidInputError:
            return None  # not a transcript: plain content

    def _content(self, text: str, workspace: str | None) -> list[Violation]:
        violations = text_secrets(text, CONTENT, self._scanner)
        violations += _preview_violations(text, CONTENT, workspace)
        if text.lstrip().startswith(SUMMARY_MARKER):  # a summary given alone: its own note
            summary = Message(role=Role.USER, content=(TextBlock(text=text.lstrip()),))
            violations += unfinished_omissions([summary], f"{CONTENT}: ")
        return violations

    def _messages(
        self,
        transcript: Transcript,
        used: TranscriptFormat,
        workspace: str | None,
        model: str | None,
    ) -> list[Violation]:
        violations: list[Violation] = []
        for index, message in enumerate(transcript.messages):
            subject = f"message {index} ({message.role.value})"
            violations += text_secrets(_delivered(message), subject, self._scanner)
            for text in _shown_texts(message):
                violations += _preview_violations(text, subject, workspace)
        violations += unfinished_omissions(transcript.messages)
        requests = transcript_usage(transcript, used, self._codec.provider(used)).requests
        for request in requests:
            if not (request.usage.cache_read_tokens or request.usage.cache_write_tokens):
                continue
            named = model if request.model == UNKNOWN_MODEL and model else request.model
            violations += cache_claims(
                request.usage,
                named,
                request.requested_at or self._clock.now(),
                self._catalog(),
                f"message {request.position} (assistant)",
                verb="claimed",
            )
        return violations


def _preview_violations(text: str, subject: str, workspace: str | None) -> list[Violation]:
    previews = shown_previews(text)
    return [*_escapes(previews, subject, workspace), *shown_tail_violations(previews, subject)]


def _escapes(previews: list[ShownPreview], subject: str, workspace: str | None) -> list[Violation]:
    violations = []
    for preview in previews:
        reason = None if preview.path is None else escape_reason(preview.path, workspace)
        if reason is not None:
            violations.append(
                Violation(
                    StopCondition.WORKSPACE_ESCAPE,
                    subject,
                    f"the preview of artifact {preview.artifact_id}: {reason}",
                )
            )
    return violations


def _shown_texts(message: Message) -> list[str]:
    """The texts of a message a preview can be in: its text blocks and tool results."""
    texts = [block.text for block in message.content if isinstance(block, TextBlock)]
    return texts + [result.content for result in message.tool_results]


def _delivered(message: Message) -> str:
    """Everything of `message` a model is given, one block a line (or more)."""
    parts: list[str] = []
    for block in message.content:
        if isinstance(block, TextBlock):
            parts.append(block.text)
        elif isinstance(block, ThinkingBlock):
            parts.append(block.thinking)
        elif isinstance(block, ToolCall):
            parts.append(f"{block.name} {_json(block.input)}")
        elif isinstance(block, ToolResult):
            parts.append(block.content)
            parts.extend(_json(part) for part in block.parts or () if part.get("type") != "text")
        elif isinstance(block, OtherBlock):
            parts.append(_json(block.data))
    return "\n".join(parts)


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
