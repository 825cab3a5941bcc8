"""`compact`: a conversation the caller holds, compacted in its own format, with the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from cleveragents.api.engines import storeless_container
from cleveragents.api.formats import TranscriptFormatName, transcript_format
from cleveragents.api.models import model_settings
from cleveragents.application.services.compaction.outcome import (
    CompactionReport,
    CompactionStatus,
)
from cleveragents.application.services.compaction.tool_output_shrinking import ShrunkResult
from cleveragents.container import json_copy
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.policy import ContextPolicyChanges
from cleveragents.domain.validation import build
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.api.store import Store
    from cleveragents.application.services.compaction.transcript_compaction import (
        TranscriptCompaction,
    )
    from cleveragents.domain.policy import ContextPolicy
    from cleveragents.domain.transcript import TranscriptFormat

__all__ = ["CompactResult", "CompactionStatus", "ShrunkToolResult", "compact"]

_Messages = TypeVar("_Messages")

ShrunkToolResult = ShrunkResult
"""A tool result of the kept messages shortened to fit: its `call_id`, `tokens_before` and
`tokens_after`, the stored `artifact_id` holding its full output (`Store.read`) when a store
keeps it, else the `full_output` itself, so nothing is lost (its credentials redacted, like
the messages, unless ``keep_credentials=True``)."""


@dataclass(frozen=True, slots=True)
class CompactResult(CompactionReport, Generic[_Messages]):
    """What `compact` returns: the compaction's report (`status`, `reason`, the token
    figures, `threshold`, messages folded and kept, the summary's tokens, budget, SHA-256 and
    sections, `redacted_secrets` and `redacted_in`, `shrunk_tool_results`), with the messages
    to send, in the format and shape they came in (compacted, or unchanged when that was not
    needed or failed). Whatever the status, the messages hold no credential unless
    ``keep_credentials=True``."""

    messages: _Messages
    format: TranscriptFormat
    warnings: tuple[str, ...] = field(default=())
    """An event the store could not record, for instance; the result stands all the same."""
    estimated: bool = False
    """True when the token figures are estimates (a Claude model: no public tokenizer)."""
    count_method: str | None = None
    """How the token figures were counted (``o200k_base``, ``cl100k_base estimate``)."""

    def report(self) -> dict[str, Any]:
        """The report as JSON-ready values: ``agents context compact --json``'s fields, plus
        the format and the warnings (the full outputs are left out)."""
        values = self.as_json()
        for name in ("summary_omitted", "summary_sections"):
            values[name] = values[name] or None  # the API has always said null for none
        return {
            "format": self.format.value,
            **values,
            "estimated": self.estimated,
            "count_method": self.count_method,
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
    model: str | None = None,
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
    model: str | None = None,
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
    model: str | None = None,
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
    model: str | None = None,
) -> CompactResult[Any]:
    """Compact a conversation before a provider request, in the shape it came in.

    `messages` is what the caller holds: Anthropic Messages (a list of message dicts, or a
    request dict with ``system`` and ``messages``), OpenAI Chat Completions (the same two
    shapes), OpenAI Responses input (a list of items, or a request dict with ``input``), a
    Claude Code session as its list of record dicts, or any of them as the text of its file.
    `format` (``"anthropic"``, ``"openai"``, ``"openai-responses"``, ``"claude-code"``) is
    detected when None. The result's `messages` have the same shape: a list for a list, a dict
    for a dict, a str for a str (a compacted Claude Code session is a resumable one).

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

    `model` (``"gpt-4o"``, ``"claude-sonnet-4-5"``; ``agents models`` lists them) gives the
    encoding, the context window and the output reserve as if passed here, explicit values
    winning; for Claude models, whose counts are estimates, the window and reserve are divided
    by the documented safety margin (docs/models.md). A request dict's own ``"model"`` does the
    same when `model`, `policy` and `project` are None (one the catalog does not know is named
    in `warnings`). An unknown `model` raises `UnknownModelError`.
    """
    if project is not None and store is None:
        raise InvalidInputError("project= names a project of a store: give store= as well")
    chosen, model_warnings = model_settings(  # model=, or the request's own "model"
        messages,
        model,
        encoding=encoding,
        context_window=context_window,
        reserve_tokens=reserve_tokens,
        request_model=policy is None and project is None,
    )
    encoding, context_window = chosen.encoding, chosen.context_window
    reserve_tokens = chosen.reserve_tokens
    if store is not None:
        container = store.container_for(encoding)
    else:
        container = storeless_container(encoding or DEFAULT_ENCODING)
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
    warnings: list[str] = list(model_warnings)
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
    result = _result(written, compaction, tuple(warnings))
    profile = chosen.profile
    return replace(
        result,
        estimated=profile is not None and not profile.exact,
        count_method=profile.count_method if profile else str(encoding or DEFAULT_ENCODING),
    )


def _unchanged(messages: object) -> object:
    """The caller's messages as they came: the text itself, or a copy made of dicts and lists
    (the shape the result promises, and no object shared with the caller's)."""
    if isinstance(messages, str):
        return messages
    return json_copy(messages, "transcript")


def _result(
    messages: object, compaction: TranscriptCompaction, warnings: tuple[str, ...]
) -> CompactResult[Any]:
    """The compaction's report, with the messages to send and the warnings."""
    report = compaction.report()
    figures = {name.name: getattr(report, name.name) for name in fields(CompactionReport)}
    return CompactResult(**figures, messages=messages, format=compaction.format, warnings=warnings)
