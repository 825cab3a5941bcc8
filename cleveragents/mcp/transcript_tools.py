"""The tool that compacts a conversation transcript, in the format it came in."""

from __future__ import annotations

import logging
import os
from typing import Annotated, Any, cast

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from cleveragents.domain.errors import ArtifactNotFoundError, InvalidInputError
from cleveragents.domain.policy import MIN_SUMMARY_TOKENS, ContextPolicyChanges
from cleveragents.domain.tokens import MAX_TOKEN_COUNT
from cleveragents.domain.transcript_limits import max_transcript_bytes
from cleveragents.domain.vocabulary import DETECTED_FORMAT, TranscriptFormat
from cleveragents.mcp.choices import FormatChoice
from cleveragents.mcp.engine import Engine, refuse
from cleveragents.mcp.model_settings import container_for, model_settings

_log = logging.getLogger(__name__)


class CompactionReport(BaseModel):
    """What the compaction did, in the figures `agents context compact --json` prints: the
    service's report (`CompactionReport.as_json`) but its reason (a failure is a tool error
    here), described for the tool's schema; a test holds the two to the same fields."""

    status: str = Field(description="compacted, or not-needed (under the threshold).")
    tokens_before: int
    tokens_after: int
    threshold: int = Field(description="context window - reserve: compaction starts above it.")
    folded_messages: int
    kept_messages: int
    summary_sha256: str | None
    summary_tokens: int
    summary_budget: int
    split_turn: bool = Field(description="The kept part starts inside a turn.")
    redacted_secrets: int = Field(
        description="Credentials redacted from the messages returned, wherever they were."
    )
    redacted_in: dict[str, int] = Field(
        description="Where they were: system (the system prompt), folded (the messages folded "
        "into the summary, which holds none), kept (the messages kept verbatim; all of them "
        "when nothing was folded), request (the request's other fields)."
    )
    keep_credentials: bool = Field(
        description="The credentials of the messages kept verbatim were kept as asked."
    )
    shrunk_tool_results: list[dict[str, object]] = Field(
        description="Tool results shrunk to fit: call_id, tokens_before, tokens_after, and "
        "artifact_id, where the full output is kept (read_artifact reads it)."
    )
    summary_sections: dict[str, int] | None = Field(
        description="Items per summary section (requests, files, commands, errors, ...)."
    )
    summary_omitted: dict[str, int] | None = Field(
        description="Items per section left out of the summary for its budget."
    )


class CompactedTranscript(BaseModel):
    format: str = Field(
        description="The transcript's format: anthropic, openai, openai-responses or claude-code."
    )
    transcript: str | dict[str, Any] | list[Any] = Field(
        description="The messages to send next (compacted, or unchanged when not needed), "
        "in the input's format and shape: text if it was given as text (or read from a "
        "file), else the parsed document."
    )
    report: CompactionReport
    model: str | None = Field(
        default=None, description="The model counted for (given, or the request's own)."
    )
    estimated: bool = Field(
        default=False,
        description="True when the report's token figures are estimates (a Claude model: no "
        "public tokenizer; its budget kept a safety margin).",
    )


def register(server: MCPServer, engine: Engine) -> None:
    @server.tool(
        name="compact_transcript",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False),
    )
    async def compact_transcript(
        transcript: Annotated[
            str | dict[str, Any] | list[Any] | None,
            Field(
                description="The transcript: an Anthropic Messages or OpenAI Chat Completions "
                "request (a JSON object with messages) or its list of messages; a Claude Code "
                "session as its JSONL text or its list of records. Not with path."
            ),
        ] = None,
        path: Annotated[
            str | None,
            Field(
                description="Read the transcript from this file instead: relative to the "
                "server's workspace, or absolute; it must end inside the workspace (no "
                "symbolic links)."
            ),
        ] = None,
        format: Annotated[  # the name the client sees
            FormatChoice,
            Field(description="The transcript's format (auto: detected)."),
        ] = DETECTED_FORMAT,
        context_window: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_TOKEN_COUNT,
                description="The model's context window in tokens (default 200000).",
            ),
        ] = None,
        reserve_tokens: Annotated[
            int | None,
            Field(
                ge=0,
                le=MAX_TOKEN_COUNT,
                description="Kept free for the response (default 16384); compaction starts "
                "above context_window - reserve_tokens.",
            ),
        ] = None,
        keep_recent_tokens: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_TOKEN_COUNT,
                description="Recent complete turns kept verbatim, up to this many tokens "
                "(default 20000).",
            ),
        ] = None,
        summary_tokens: Annotated[
            int | None,
            Field(
                ge=MIN_SUMMARY_TOKENS,
                le=MAX_TOKEN_COUNT,
                description="The summary's own token budget (default 4000, less in a small "
                "window).",
            ),
        ] = None,
        project: Annotated[
            str | None,
            Field(
                description="Start from this project's context policy (its window, reserve, "
                "recent and summary tokens) instead of the defaults; the settings given here "
                "go over it. The compaction's events are counted for the project."
            ),
        ] = None,
        force: Annotated[bool, Field(description="Compact even under the threshold.")] = False,
        keep_credentials: Annotated[
            bool,
            Field(
                description="Keep credentials in the messages returned as they are (the "
                "system prompt, the messages kept verbatim); the summary is redacted all the "
                "same. By default every credential is redacted."
            ),
        ] = False,
        model: Annotated[
            str | None,
            Field(
                max_length=200,
                description="The model the context is for (e.g. gpt-4o, claude-sonnet-4-5): "
                "its encoding, window and output reserve, the settings given here winning; "
                "Claude budgets keep a safety margin (their counts are estimates).",
            ),
        ] = None,
    ) -> CompactedTranscript:
        """Compact a conversation transcript so it fits the context window: older messages
        are folded into a deterministic summary (the task, requests, files, commands, errors,
        decisions and next step kept), recent turns are kept verbatim, and no tool result
        loses its call. Returns the messages in the input's format and a report; every
        credential in them is redacted (the system prompt, texts, tool calls' arguments, tool
        results) unless keep_credentials. Give exactly one of transcript or path. A
        compaction that cannot fit or would break a provider's rules is an error, and nothing
        is changed."""
        if (transcript is None) == (path is None):
            raise refuse("give exactly one of transcript (its text) or path (a file)")
        # The schema's bounds are the policy's: these changes are valid; whether together they
        # leave room is the policy's to say.
        model_settings(model)  # an unknown model: refused before anything is read

        def work() -> CompactedTranscript:
            given = transcript if transcript is not None else _read(engine, path or "")
            # `model`, else the request's own "model" (not over a project's policy).
            chosen = model_settings(
                model, context_window, reserve_tokens, request=None if project else given
            )
            changes = ContextPolicyChanges(
                context_window=chosen.context_window,
                reserve_tokens=chosen.reserve_tokens,
                keep_recent_tokens=keep_recent_tokens,
                summary_tokens=summary_tokens,
            )
            container = container_for(engine, chosen.encoding)
            compaction = container.transcript_compactor().compact(
                given,
                transcript_format=None if format == DETECTED_FORMAT else TranscriptFormat(format),
                project=project,
                overrides=changes,
                force=force,
                unrecorded=_log.warning,
                keep_credentials=keep_credentials,
            )
            outcome = compaction.outcome
            if outcome.status == "failed":
                raise InvalidInputError(f"compaction failed: {outcome.reason}; nothing was changed")
            # Given as text, it goes back as text (its lone surrogates, which the protocol's
            # UTF-8 cannot carry, as the escapes they were read from); given parsed, parsed.
            written: str | dict[str, Any] | list[Any] = (
                compaction.data().decode("utf-8")
                if isinstance(given, str)
                else cast("dict[str, Any] | list[Any]", compaction.native())
            )
            return CompactedTranscript(
                format=compaction.format.value,
                transcript=written,
                report=CompactionReport.model_validate(compaction.report().as_json()),
                model=chosen.profile.name if chosen.profile else None,
                estimated=chosen.profile is not None and not chosen.profile.exact,
            )

        return await engine.run(work)


def _read(engine: Engine, path: str) -> str:
    """The UTF-8 text of a transcript file beneath the server's workspace (opened race-free,
    as the store opens what it imports: a path that ends outside, a symbolic link, a device or
    a FIFO is refused), refused above the size limit before it is read."""
    try:
        data: bytes = engine.container.contained_files().read_beneath(
            engine.workspace,
            path,
            max_transcript_bytes(os.environ),  # a bad override is refused, as in the CLI
            what="transcripts",
            advice="split the session or compact it earlier",
        )
    except ArtifactNotFoundError:
        raise InvalidInputError(
            f"no readable file {path} in the server's workspace {engine.workspace}"
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidInputError(
            f"{path} is not UTF-8 text (bad byte at offset {error.start})"
        ) from None
