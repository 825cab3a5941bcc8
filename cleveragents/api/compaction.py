"""`compact`: a conversation the caller holds, compacted in its own format, with the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

from cleveragents.api.formats import TranscriptFormatName, transcript_format
from cleveragents.domain.errors import InvalidInputError

if TYPE_CHECKING:
    from cleveragents.api.store import Store
    from cleveragents.application.services.compaction.transcript_compaction import (
        TranscriptCompaction,
    )
    from cleveragents.domain.policy import ContextPolicy
    from cleveragents.domain.transcript import TranscriptFormat

CompactionStatus = Literal["compacted", "not-needed", "failed"]

_Messages = TypeVar("_Messages")


@dataclass(frozen=True, slots=True)
class ShrunkToolResult:
    """A tool result of the kept messages shortened to fit: its call, its tokens before and
    after, and where its full output is."""

    call_id: str
    tokens_before: int
    tokens_after: int
    artifact_id: str | None
    """The stored artifact holding the full output (`Store.read`), when a store keeps it."""
    full_output: str | None
    """The full output when no store keeps it (no store was given, or the store refused it),
    so nothing is lost: its credentials redacted, like the messages, unless
    ``keep_credentials=True`` (then it is the caller's own text, as it came in)."""


@dataclass(frozen=True, slots=True)
class CompactResult(Generic[_Messages]):
    """What `compact` returns: the messages to send, in the format and shape they came in
    (compacted, or unchanged when that was not needed or failed), and what happened. Whatever
    the status, the messages hold no credential unless ``keep_credentials=True``."""

    messages: _Messages
    format: TranscriptFormat
    status: CompactionStatus
    """``compacted``; ``not-needed`` (under the threshold, not forced); ``failed`` (`reason`
    says why; `messages` are the originals)."""
    reason: str | None
    tokens_before: int
    tokens_after: int
    threshold: int
    """``context_window - reserve_tokens``: a compacted result is at most this."""
    folded_messages: int
    kept_messages: int
    summary_tokens: int
    summary_budget: int
    summary_sha256: str | None
    split_turn: bool
    """The kept messages start inside a turn (its request is quoted in the summary)."""
    redacted_secrets: int
    """Credentials redacted from the messages returned, wherever they were."""
    redacted_in: Mapping[str, int]
    """Where they were: ``system`` (the system prompt), ``folded`` (the messages folded into
    the summary, which holds none), ``kept`` (the messages kept verbatim; all of them when
    nothing was folded), ``request`` (the request's other fields)."""
    keep_credentials: bool
    """Asked to keep the credentials of the messages kept verbatim (the summary's never)."""
    shrunk_tool_results: tuple[ShrunkToolResult, ...]
    summary_sections: Mapping[str, int] | None
    """Items per summary section (goals, files, tests, unfinished work, ...)."""
    summary_omitted: Mapping[str, int] | None
    """Items per section left out to keep the summary within its budget."""
    warnings: tuple[str, ...] = field(default=())
    """An event the store could not record, for instance; the result stands all the same."""

    @property
    def compacted(self) -> bool:
        return self.status == "compacted"

    def report(self) -> dict[str, Any]:
        """The report as JSON-ready values: ``agents context compact --json``'s fields, plus
        the format and the warnings (the full outputs are left out)."""
        return {
            "format": self.format.value,
            "status": self.status,
            "reason": self.reason,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "threshold": self.threshold,
            "folded_messages": self.folded_messages,
            "kept_messages": self.kept_messages,
            "summary_sha256": self.summary_sha256,
            "summary_tokens": self.summary_tokens,
            "summary_budget": self.summary_budget,
            "split_turn": self.split_turn,
            "redacted_secrets": self.redacted_secrets,
            "redacted_in": dict(self.redacted_in),
            "keep_credentials": self.keep_credentials,
            "shrunk_tool_results": [
                {
                    "call_id": shrunk.call_id,
                    "tokens_before": shrunk.tokens_before,
                    "tokens_after": shrunk.tokens_after,
                    "artifact_id": shrunk.artifact_id,
                }
                for shrunk in self.shrunk_tool_results
            ],
            "summary_omitted": dict(self.summary_omitted) if self.summary_omitted else None,
            "summary_sections": dict(self.summary_sections) if self.summary_sections else None,
            "warnings": list(self.warnings),
        }


@overload
def compact(
    messages: str,
    *,
    format: TranscriptFormat | TranscriptFormatName | None = None,
    policy: ContextPolicy | None = None,
    context_window: int | None = None,
    reserve_tokens: int | None = None,
    keep_recent_tokens: int | None = None,
    summary_tokens: int | None = None,
    force: bool = False,
    store: Store | None = None,
    project: str | None = None,
    encoding: str | None = None,
    keep_credentials: bool = False,
) -> CompactResult[str]: ...
@overload
def compact(
    messages: Mapping[str, Any],
    *,
    format: TranscriptFormat | TranscriptFormatName | None = None,
    policy: ContextPolicy | None = None,
    context_window: int | None = None,
    reserve_tokens: int | None = None,
    keep_recent_tokens: int | None = None,
    summary_tokens: int | None = None,
    force: bool = False,
    store: Store | None = None,
    project: str | None = None,
    encoding: str | None = None,
    keep_credentials: bool = False,
) -> CompactResult[dict[str, Any]]: ...
@overload
def compact(
    messages: Sequence[Mapping[str, Any]],
    *,
    format: TranscriptFormat | TranscriptFormatName | None = None,
    policy: ContextPolicy | None = None,
    context_window: int | None = None,
    reserve_tokens: int | None = None,
    keep_recent_tokens: int | None = None,
    summary_tokens: int | None = None,
    force: bool = False,
    store: Store | None = None,
    project: str | None = None,
    encoding: str | None = None,
    keep_credentials: bool = False,
) -> CompactResult[list[dict[str, Any]]]: ...


def compact(
    messages: str | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    format: TranscriptFormat | TranscriptFormatName | None = None,
    policy: ContextPolicy | None = None,
    context_window: int | None = None,
    reserve_tokens: int | None = None,
    keep_recent_tokens: int | None = None,
    summary_tokens: int | None = None,
    force: bool = False,
    store: Store | None = None,
    project: str | None = None,
    encoding: str | None = None,
    keep_credentials: bool = False,
) -> CompactResult[Any]:
    """Compact a conversation before a provider request, in the shape it came in.

    `messages` is what the caller holds: Anthropic Messages (a list of message dicts, or a
    request dict with ``system`` and ``messages``), OpenAI Chat Completions (the same two
    shapes), a Claude Code session as its list of record dicts, or any of them as the text of
    its file. `format` (``"anthropic"``, ``"openai"``, ``"claude-code"``) is detected when
    None. The result's `messages` have the same shape: a list for a list, a dict for a dict, a
    str for a str (a compacted Claude Code session is a resumable one).

    The window settings are the project's (with `store` and `project`) or the defaults,
    overridden by `policy`'s set fields, then by the keyword arguments; a policy that leaves
    no room raises `InvalidPolicyError`. Under ``context_window - reserve_tokens`` nothing is
    done unless `force`. A compaction that fails keeps the originals (status ``failed``, the
    reason said); it never raises for that. Malformed messages raise `InvalidInputError`.

    Without `store` nothing is recorded and no database is opened: oversized tool results in
    the kept messages are still shortened to fit, and their full outputs come back in
    `shrunk_tool_results[i].full_output`. With `store`, the ``context_compacted`` (or
    ``context_compaction_failed``) event is recorded there and the full outputs are stored as
    artifacts (their markers say how to read them back). `encoding` defaults to the store's,
    else ``cl100k_base``.

    Whatever the status, every credential is redacted from the messages returned (the system
    prompt, the messages kept verbatim, tool calls' arguments and results, and the request's
    other fields), and `redacted_secrets` and `redacted_in` say how many and where; the token
    figures count the messages as returned. ``keep_credentials=True`` keeps the messages as
    they are (the summary is redacted all the same). The caller's messages are never changed.
    """
    from cleveragents.api.engines import storeless_container
    from cleveragents.domain.policy import ContextPolicyChanges
    from cleveragents.domain.validation import build

    if project is not None and store is None:
        raise InvalidInputError("project= names a project of a store: give store= as well")
    if store is not None:
        container = store.container_for(encoding)
    else:
        container = storeless_container(encoding or "cl100k_base")
    changes = build(  # a bad value: one line, nothing done
        ContextPolicyChanges,
        context_window=context_window,
        reserve_tokens=reserve_tokens,
        keep_recent_tokens=keep_recent_tokens,
        summary_tokens=summary_tokens,
    )
    # Without a store, the compaction that records nothing and keeps no full output.
    compactor = (
        container.transcript_compactor()
        if store is not None
        else container.storeless_transcript_compactor()
    )
    warnings: list[str] = []
    compaction = compactor.compact(
        messages,
        transcript_format=transcript_format(format),
        project=project,
        policy=policy,
        overrides=changes,
        force=force,
        unrecorded=warnings.append,
        keep_credentials=keep_credentials,
    )
    if compaction.unchanged:
        written = _unchanged(messages)
    else:
        written = compaction.text() if isinstance(messages, str) else compaction.native()
    return _result(written, compaction, tuple(warnings))


def _unchanged(messages: object) -> object:
    """The caller's messages as they came: the text itself, or a copy made of dicts and lists
    (the shape the result promises, and no object shared with the caller's)."""
    if isinstance(messages, str):
        return messages
    from cleveragents.adapters.transcripts.native_documents import json_copy

    return json_copy(messages, "transcript")


def _result(
    messages: object, compaction: TranscriptCompaction, warnings: tuple[str, ...]
) -> CompactResult[Any]:
    """The result, of the report's figures; a shrunk tool result no store keeps carries its
    full output."""
    report = compaction.report()
    shrunk = report.pop("shrunk_tool_results")
    return CompactResult(
        messages=messages,
        format=compaction.format,
        shrunk_tool_results=tuple(
            ShrunkToolResult(**entry, full_output=record.full_output)
            for entry, record in zip(shrunk, compaction.outcome.shrunk_results, strict=True)
        ),
        warnings=warnings,
        **report,
    )
