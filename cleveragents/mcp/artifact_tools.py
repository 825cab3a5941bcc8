"""Tools of the artifact store: keep a tool's output and hand back a bounded preview, read
more of it later."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from cleveragents.application.services.artifact_store.artifact_store import (
    ArtifactStore,
    ImportResult,
)
from cleveragents.application.services.artifact_store.reading import ArtifactSlice
from cleveragents.domain.output_labels import MAX_LABEL_CHARS
from cleveragents.domain.stored_artifact import ArtifactPreview
from cleveragents.domain.vocabulary import SecretHandling
from cleveragents.mcp.engine import Engine, refuse

DEFAULT_READ_BYTES = 65536
MAX_READ_BYTES = 1 << 20
"""The most one read returns: more would crowd the model's context; read again from
`next_offset` (or the next line) instead."""

ArtifactId = Annotated[
    str,
    Field(
        description="The artifact's id (as store_output returned it), or sha256:HEX for the "
        "oldest stored artifact with that content."
    ),
]


class StoredOutput(BaseModel):
    """What store_output gives the model instead of the output itself."""

    artifact_id: str
    preview: ArtifactPreview = Field(
        description="Head and tail of the output, its size, SHA-256 and media type; lines that "
        "look like credentials are withheld."
    )
    read_more: str | None = Field(
        description="How to read what the preview leaves out, or null when it shows it all."
    )


class ArtifactRange(BaseModel):
    """A range of a stored artifact's bytes, as UTF-8 text, and where it sits in the artifact."""

    artifact_id: str
    text: str = Field(description="The bytes as UTF-8; bytes that are not UTF-8 read as U+FFFD.")
    offset: int = Field(description="Where the returned bytes start in the artifact.")
    byte_count: int = Field(description="How many bytes `text` holds.")
    artifact_bytes: int = Field(description="The artifact's whole size in bytes.")
    remaining: int = Field(description="How many bytes of the artifact come after `text`.")
    next_offset: int | None = Field(
        description="Where the next read starts (offset, to read on), or null at the end."
    )
    truncated: bool = Field(
        description="True when the read's bound cut what was asked for: read on from "
        "next_offset to get the rest."
    )


def register(server: MCPServer, engine: Engine) -> None:
    @server.tool(
        name="store_output",
        annotations=ToolAnnotations(destructive_hint=False, idempotent_hint=True),
    )
    async def store_output(
        text: Annotated[str, Field(description="The tool's output, whole.")],
        label: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_LABEL_CHARS,
                description="What the output is, e.g. pytest-run or git-diff-main; it is "
                "stored as tool-output/LABEL (a name: ., .. and empty parts between slashes "
                "are dropped).",
            ),
        ],
        project: Annotated[
            str | None,
            Field(description="The project that owns it (default: the project 'default')."),
        ] = None,
        secrets: Annotated[
            SecretHandling,
            Field(
                description="What a credential found in it does: block (nothing is stored, "
                "the default) or redact (stored with each credential replaced by "
                "[REDACTED:<rule>])."
            ),
        ] = SecretHandling.BLOCK,
    ) -> StoredOutput:
        """Store a tool's full output in the artifact store and get back a bounded preview
        (head and tail) and the artifact's id, instead of putting the whole output in the
        context. read_artifact reads any part of it later; compress fits it to a token
        budget. Output that contains a credential is refused (nothing is stored) and the
        error says where the credential is, unless secrets is redact. The same output stored
        twice is kept once."""

        def work() -> ImportResult:
            store: ArtifactStore = engine.container.artifact_store()
            return store.import_output(
                text.encode("utf-8", "surrogatepass"), label, project=project, secrets=secrets
            )

        result = await engine.run(work)
        if result.blocked:
            raise refuse(_blocked(result))
        assert result.preview is not None  # stored: it has one
        return StoredOutput(
            artifact_id=result.artifact.id,
            preview=result.preview,
            read_more=_read_more(result.preview),
        )

    @server.tool(name="read_artifact", annotations=ToolAnnotations(read_only_hint=True))
    async def read_artifact(
        artifact_id: ArtifactId,
        offset: Annotated[
            int | None, Field(ge=0, description="First byte to read (default 0).")
        ] = None,
        length: Annotated[
            int | None,
            Field(
                ge=0,
                le=MAX_READ_BYTES,
                description=f"How many bytes (default: to the end, at most {DEFAULT_READ_BYTES} "
                "in one read).",
            ),
        ] = None,
        first_line: Annotated[
            int | None,
            Field(
                ge=1,
                description="First line to read (1-based). Not with offset or length.",
            ),
        ] = None,
        last_line: Annotated[
            int | Literal["end"] | None,
            Field(
                description="Last line to read, inclusive, or end for every line to the end "
                "(default: first_line)."
            ),
        ] = None,
    ) -> ArtifactRange:
        """Read part of a stored artifact: a byte range (offset, length), or a line range
        (first_line to last_line, exactly as stored, line endings included). This is how to
        see what a preview or a compression left out: their markers give the offset or the
        lines. One read returns at most 1 MiB (without a length, 64 KiB): the result says how
        many bytes remain after it, whether the bound cut the range asked for (truncated) and
        the next_offset to read on from."""
        by_lines = first_line is not None or last_line is not None
        if by_lines and (offset is not None or length is not None):
            raise refuse("give first_line (and last_line), or offset and length, not both")
        if last_line is not None and first_line is None:
            raise refuse("last_line needs first_line")
        if isinstance(last_line, int) and first_line is not None and last_line < first_line:
            raise refuse(f"last_line {last_line} is before first_line {first_line}")

        def work() -> ArtifactSlice:
            store: ArtifactStore = engine.container.artifact_store()
            if first_line is not None:
                last = None if last_line == "end" else (last_line or first_line)
                return store.read_lines_slice(artifact_id, first_line, last, limit=MAX_READ_BYTES)
            bound = DEFAULT_READ_BYTES if length is None else max(length, 1)
            return store.read_slice(artifact_id, offset or 0, length, limit=bound)

        return _range(await engine.run(work))


def _blocked(result: ImportResult) -> str:
    """One line for a refused output: what was found, where, and that nothing was kept."""
    artifact = result.artifact
    kinds = sorted({match.rule for match in result.matches}) or sorted(
        {finding.kind.value for finding in artifact.findings}
    )
    lines = sorted({finding.line for finding in artifact.findings if finding.line > 0})
    where = []
    if any(finding.line == 0 for finding in artifact.findings):  # line 0: the label itself
        where.append("in its label")
    if lines:
        where.append("on line(s) " + ", ".join(map(str, lines)))
    return (
        f"blocked: the output looks like it contains credentials ({', '.join(kinds)}) "
        f"{' and '.join(where)}; nothing was stored (audit row {artifact.id}). Remove the "
        "credentials and store it again."
    )


def _read_more(preview: ArtifactPreview) -> str | None:
    if not preview.omitted_bytes:
        return None
    return (
        f"{preview.omitted_bytes} bytes are left out: read_artifact with artifact_id "
        f"{preview.artifact_id}, offset {preview.omitted_offset}, length "
        f"{min(preview.omitted_bytes, MAX_READ_BYTES)} (or a line range with first_line)"
    )


def _range(read: ArtifactSlice) -> ArtifactRange:
    return ArtifactRange(
        artifact_id=read.artifact_id,
        text=read.data.decode("utf-8", "replace"),
        offset=read.offset,
        byte_count=read.returned,
        artifact_bytes=read.total_bytes,
        remaining=read.remaining,
        next_offset=read.next_offset,
        truncated=read.truncated,
    )
