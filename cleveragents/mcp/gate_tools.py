"""The tool an orchestrator calls before each delivery: may this context reach a model?"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from cleveragents.domain.vocabulary import (
    DETECTED_FORMAT,
    PLAIN_TEXT,
    TranscriptFormat,
)
from cleveragents.mcp.choices import GateFormatChoice
from cleveragents.mcp.engine import Engine


class GateVerdict(BaseModel):
    allowed: bool = Field(description="True when no stop condition holds: deliver it.")
    reasons: list[str] = Field(
        description="One line per reason it may not be delivered: '<condition>: <subject>: "
        "<detail>', the condition one of workspace-escape, secret, missing-tail, "
        "unfinished-work, cache-metric."
    )
    format: str | None = Field(
        description="The transcript format the context was read in, or null for plain text."
    )


def register(server: MCPServer, engine: Engine) -> None:
    @server.tool(name="gate", annotations=ToolAnnotations(read_only_hint=True))
    async def gate(
        context: Annotated[
            str | dict[str, Any] | list[Any],
            Field(
                description="What is about to be delivered: a transcript (an Anthropic "
                "Messages or OpenAI Chat Completions request or its list of messages, a "
                "Claude Code session as its JSONL text or its records) or plain text."
            ),
        ],
        format: Annotated[  # the name the client sees
            GateFormatChoice,
            Field(description="The transcript's format (auto: detected; text: plain text)."),
        ] = DETECTED_FORMAT,
        workspace: Annotated[
            str | None,
            Field(description="The workspace (absolute) that artifact paths must lie in."),
        ] = None,
        usage: Annotated[
            dict[str, Any] | None,
            Field(description="A provider usage payload to check for unpriced cache figures."),
        ] = None,
        model: Annotated[
            str | None,
            Field(description="The model of usage (and of messages that name none)."),
        ] = None,
    ) -> GateVerdict:
        """Check context before it is delivered to a model, against the delivery stop
        conditions: a credential in it; a preview whose tail is missing; a compaction
        summary that omits unfinished work of the messages it summarises; an artifact path
        outside the workspace; a cache figure for a model the locked catalog gives no price
        for that cache. Returns allowed, and one line per reason when it is not. Records
        nothing and opens no database."""

        def work() -> GateVerdict:
            decision = engine.container.delivery_gate().check(
                context,
                transcript_format=(
                    None if format in (DETECTED_FORMAT, PLAIN_TEXT) else TranscriptFormat(format)
                ),
                as_text=format == PLAIN_TEXT,
                workspace=workspace,
                usage=usage,
                model=model,
            )
            used = decision.transcript_format
            return GateVerdict(
                allowed=decision.allowed,
                reasons=list(decision.reasons),
                format=None if used is None else used.value,
            )

        return await engine.run(work)
