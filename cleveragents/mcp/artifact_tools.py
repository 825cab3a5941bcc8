"""Tools of the artifact store: keep a tool's output and hand back a bounded preview, read
more of it later."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from cleveragents.application.services.artifact_store.artifact_store import (
    ArtifactStore,
    ImportResult,
    SecretHandling,
)
from cleveragents.domain.stored_artifact import ArtifactPreview
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
    """A range of a stored artifact's bytes, as UTF-8 text."""

    artifact_id: str
    text: str = Field(description="The bytes as UTF-8; bytes that are not UTF-8 read as U+FFFD.")
    byte_count: int = Field(description="How many bytes `text` holds.")
    artifact_bytes: int = Field(description="The artifact's whole size in bytes.")
    next_offset: int | None = Field(
        description="For a byte range: where the next read starts, or null at the end."
    )
    truncated: bool = Field(
        description=f"For a line range: true when it was cut at {MAX_READ_BYTES} bytes."
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
                max_length=200,
                description="What the output is, e.g. pytest-run or git-diff-main; it is "
                "stored as tool-output/LABEL.",
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
                description=f"How many bytes (default {DEFAULT_READ_BYTES}).",
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
            int | None,
            Field(ge=1, description="Last line to read, inclusive (default: first_line)."),
        ] = None,
    ) -> ArtifactRange:
        """Read part of a stored artifact: a byte range (offset, length), or a line range
        (first_line to last_line, exactly as stored, line endings included). This is how to
        see what a preview or a compression left out: their markers give the offset or the
        lines."""
        by_lines = first_line is not None or last_line is not None
        if by_lines and (offset is not None or length is not None):
            raise refuse("give first_line (and last_line), or offset and length, not both")
        if last_line is not None and first_line is None:
            raise refuse("last_line needs first_line")

        def work() -> ArtifactRange:
            store: ArtifactStore = engine.container.artifact_store()
            stored = store.get(artifact_id)
            if first_line is not None:
                last = first_line if last_line is None else last_line
                data, truncated = _bounded(store.stream_lines(stored.id, first_line, last))
                return _range(stored.id, data, stored.byte_count, None, truncated)
            start = offset or 0
            data = store.read(stored.id, start, DEFAULT_READ_BYTES if length is None else length)
            end = start + len(data)
            more = end if end < stored.byte_count and data else None
            return _range(stored.id, data, stored.byte_count, more, False)

        return await engine.run(work)


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


def _bounded(pieces: Iterable[bytes]) -> tuple[bytes, bool]:
    """At most `MAX_READ_BYTES` of the pieces, and whether there was more."""
    kept = bytearray()
    for piece in pieces:
        kept += piece
        if len(kept) > MAX_READ_BYTES:
            return bytes(kept[:MAX_READ_BYTES]), True
    return bytes(kept), False


def _range(
    artifact_id: str, data: bytes, size: int, next_offset: int | None, truncated: bool
) -> ArtifactRange:
    return ArtifactRange(
        artifact_id=artifact_id,
        text=data.decode("utf-8", "replace"),
        byte_count=len(data),
        artifact_bytes=size,
        next_offset=next_offset,
        truncated=truncated,
    )
