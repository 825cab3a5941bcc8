"""`gate`: whether context may be delivered to a model, checked just before it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cleveragents.api.engines import storeless_container
from cleveragents.api.formats import TranscriptFormatName, transcript_format
from cleveragents.domain.vocabulary import PLAIN_TEXT

if TYPE_CHECKING:
    from cleveragents.domain.transcript import TranscriptFormat


@dataclass(frozen=True, slots=True)
class GateResult:
    """The verdict: `allowed` when no stop condition holds, else one line per reason
    (``<condition>: <subject>: <detail>``, the condition one of ``workspace-escape``,
    ``secret``, ``missing-tail``, ``unfinished-work``, ``cache-metric``)."""

    allowed: bool
    reasons: list[str]
    format: TranscriptFormat | None
    """The transcript format the messages were read in; None for plain text."""


def gate(
    messages_or_content: str | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    format: TranscriptFormat | TranscriptFormatName | None = None,
    workspace: str | None = None,
    usage: Mapping[str, Any] | None = None,
    model: str | None = None,
    provider: str | None = None,
) -> GateResult:
    """Check context before it is delivered: refused, with reasons, on a credential in it, a
    preview whose tail is missing, a compaction summary that omits unfinished work of the
    messages it summarises, an artifact path outside the workspace, or a cache figure for a
    model the locked catalog gives no price for that cache.

    `messages_or_content` is a transcript as the caller holds it (Anthropic Messages, OpenAI
    Chat Completions, Claude Code records; parsed, or the text of its file) or plain text.
    `format` names the transcript's format (detected when None; a str that is no transcript
    is then plain text) or ``"text"`` for plain text whatever it looks like. `workspace` (an
    absolute path) is where artifact paths must lie; `usage` a provider usage payload of
    `model` (`provider` when its keys do not say). Nothing is recorded and no database is
    opened. Malformed messages or usage raise `InvalidInputError`.
    """
    container = storeless_container()
    as_text = format == PLAIN_TEXT
    decision = container.delivery_gate().check(
        messages_or_content,
        transcript_format=None if as_text else transcript_format(format),
        as_text=as_text,
        workspace=workspace,
        usage=usage,
        model=model,
        provider=provider,
    )
    return GateResult(
        allowed=decision.allowed,
        reasons=list(decision.reasons),
        format=decision.transcript_format,
    )
