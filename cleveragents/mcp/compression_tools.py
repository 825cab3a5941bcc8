"""Tools that fit text to a token budget and count tokens, with the real tokenizer."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
    CompressionOutcome,
)
from cleveragents.container import build_token_counter
from cleveragents.domain.artifact import CompressedArtifact
from cleveragents.domain.models import within_margin
from cleveragents.domain.vocabulary import (
    DEFAULT_COMPRESSION_MODE,
    DEFAULT_ENCODING,
    CompressionMode,
    artifact_kind,
)
from cleveragents.mcp.choices import EncodingChoice, KindChoice
from cleveragents.mcp.engine import Engine, refuse
from cleveragents.mcp.model_settings import container_for, model_settings

DEFAULT_TEXT_NAME = "text"
"""What text given without a name is called: no suffix, so its kind is told by its lines."""


class Compression(BaseModel):
    """The compressed text and its figures."""

    result: CompressedArtifact = Field(
        description="artifact_name, raw_tokens, compacted_tokens, truncated, content: "
        "content always fits the budget."
    )
    notice: str | None = Field(description="Something to know about the result, or null.")


class TokenCount(BaseModel):
    input_tokens: int = Field(description="The number of tokens in the text.")
    encoding: str = Field(description="The tokenizer's encoding that counted them.")
    estimated: bool = Field(
        default=False,
        description="True when the count is an estimate (a Claude model: no public tokenizer).",
    )
    method: str | None = Field(default=None, description="How the count was made.")
    model: str | None = Field(default=None, description="The model counted for, if named.")


def register(server: MCPServer, engine: Engine) -> None:
    @server.tool(name="compress", annotations=ToolAnnotations(read_only_hint=True))
    async def compress(
        budget: Annotated[
            int, Field(ge=1, description="The token budget the content must fit (>= 1).")
        ],
        # Typed `str`, not `str | None`: the SDK parses a string given for any other type as
        # JSON first, so a JSON document given as text would arrive as an object and be refused.
        text: Annotated[str, Field(description="The text to compress. Not with artifact_id.")] = "",
        artifact_id: Annotated[
            str | None,
            Field(
                description="Compress a stored artifact instead (its id, or sha256:HEX): the "
                "omission markers then name it and its line ranges, for read_artifact."
            ),
        ] = None,
        name: Annotated[
            str | None,
            Field(
                description="The text's file name; its suffix tells its kind, e.g. build.log, "
                "response.json, change.diff, notes.md, app.py (default: the kind is told "
                "from the text's first lines)."
            ),
        ] = None,
        kind: Annotated[
            KindChoice | None,
            Field(
                description="Compress it as this kind instead of the one its name and first "
                "lines tell; source needs a name with a source extension (app.py)."
            ),
        ] = None,
        task: Annotated[
            str | None,
            Field(
                description="What the reader is after: lines naming its words or identifiers "
                "are kept first."
            ),
        ] = None,
        mode: Annotated[
            CompressionMode,
            Field(
                description="smart (the default): fills the budget by value at any size, keeping "
                "a log's last error, a source file's signatures, a valid JSON document; markers "
                "name the omitted lines. tiered: the text whole if it fits, else its kind's "
                "compressor, else a head cut."
            ),
        ] = DEFAULT_COMPRESSION_MODE,
        model: Annotated[
            str | None,
            Field(
                max_length=200,
                description="The model the text is for (e.g. gpt-4o, claude-sonnet-4-5): "
                "counted with its encoding; for a Claude model (no public tokenizer) the "
                "budget is divided by the documented safety margin.",
            ),
        ] = None,
    ) -> Compression:
        """Compress a log, diff, JSON document, markdown or source text (given, or stored in
        the artifact store) to fit a token budget, keeping what matters for its kind: a log's
        errors and last lines, a diff's changed lines, a JSON document's shape. Credentials
        in it are redacted. Give exactly one of text or artifact_id."""
        if bool(text) == (artifact_id is not None):  # empty text is no text: nothing to fit
            raise refuse("give exactly one of text or artifact_id")
        if artifact_id is not None and name is not None:
            raise refuse("name applies to text; a stored artifact has its own")

        named_kind = artifact_kind(kind.value) if kind is not None else None
        chosen = model_settings(model)
        if chosen.profile is not None:
            budget = within_margin(budget, chosen.profile.margin)

        def work() -> CompressionOutcome:
            container = container_for(engine, chosen.encoding)
            service: ArtifactCompressorService = container.artifact_compressor_service()
            if artifact_id is not None:
                return service.compress_stored(
                    artifact_id, budget, task=task, mode=mode, kind=named_kind
                )
            data = text.encode("utf-8", "surrogatepass")
            return service.compress_input(
                name or DEFAULT_TEXT_NAME, data, budget, task=task, mode=mode, kind=named_kind
            )

        outcome = await engine.run(work)
        if outcome.error is not None:
            raise refuse(outcome.error)
        notice = outcome.notice
        if chosen.profile is not None and not chosen.profile.exact:
            estimate = (
                f"counts for {chosen.profile.name} are {chosen.profile.count_method}s: the "
                f"budget was divided by the safety margin {chosen.profile.margin}"
            )
            notice = f"{notice}; {estimate}" if notice else estimate
        return Compression(result=outcome.result, notice=notice)

    counters: dict[str, TokenCounter] = {}

    @server.tool(name="count_tokens", annotations=ToolAnnotations(read_only_hint=True))
    async def count_tokens(
        text: Annotated[str, Field(description="The text to count.")],
        encoding: Annotated[
            EncodingChoice,
            Field(description="The tokenizer's encoding (offline, no download)."),
        ] = DEFAULT_ENCODING.value,
        model: Annotated[
            str | None,
            Field(
                max_length=200,
                description="Count for this model (e.g. gpt-4o, claude-sonnet-4-5): its "
                "encoding instead of encoding's, and whether the count is exact (OpenAI) or an "
                "estimate (Claude).",
            ),
        ] = None,
    ) -> TokenCount:
        """Count the tokens in a text with the real tokenizer: exact for the encoding, and
        for OpenAI models; labelled an estimate for Claude models."""
        profile = model_settings(model).profile
        chosen: str = profile.encoding.value if profile is not None else encoding

        def work() -> int:
            if chosen not in counters:
                counters[chosen] = build_token_counter(chosen)
            return counters[chosen].count(text)

        tokens = await engine.run(work)
        if profile is None:
            return TokenCount(input_tokens=tokens, encoding=chosen, method=chosen)
        return TokenCount(
            input_tokens=tokens,
            encoding=chosen,
            estimated=not profile.exact,
            method=profile.count_method,
            model=profile.name,
        )
