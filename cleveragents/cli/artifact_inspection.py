"""`agents artifact list|show|preview|read`: what the governed store holds."""

from __future__ import annotations

import re
import sys
from typing import Annotated

import typer

from cleveragents.cli.artifact import app
from cleveragents.cli.artifact_store import IdArgument, store_of
from cleveragents.cli.artifact_views import artifact_view, preview_view, render_preview
from cleveragents.cli.output import JsonFlag, emit_json, print_fields, print_table
from cleveragents.domain.errors import InvalidInputError


@app.command("list")
def list_artifacts(
    ctx: typer.Context,
    project: Annotated[
        str | None, typer.Option("--project", metavar="NAME", help="Only this project's.")
    ] = None,
    status: Annotated[
        str | None,
        typer.Option("--status", metavar="STATUS", help="stored, blocked or expired."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """List artifacts, oldest first.

    Example: agents artifact list --status blocked
    """
    # Here, not at the top: pydantic models: ~130 ms of CPU on `agents --help`.
    from cleveragents.domain.stored_artifact import ArtifactStatus

    try:
        wanted = None if status is None else ArtifactStatus(status)
    except ValueError:
        raise InvalidInputError(
            f"unknown status {status!r}: use stored, blocked or expired"
        ) from None
    artifacts = store_of(ctx).list(project, wanted)
    if as_json:
        emit_json([artifact_view(a) for a in artifacts])
        return
    print_table(
        "Artifacts",
        ["id", "status", "bytes", "media type", "path", "created"],
        [
            [
                a.id,
                a.status.value,
                a.byte_count,
                a.media_type,
                a.workspace_path,
                a.created_at.isoformat(timespec="seconds"),
            ]
            for a in artifacts
        ],
    )


@app.command("show")
def show(ctx: typer.Context, artifact_id: IdArgument, as_json: JsonFlag = False) -> None:
    """Show an artifact's metadata (also for blocked and expired ones: their audit rows).

    Example: agents artifact show 01J...
    """
    artifact = store_of(ctx).get(artifact_id)
    view = artifact_view(artifact)
    if as_json:
        emit_json(view)
        return
    print_fields(f"Artifact {artifact.id}", [(k, v) for k, v in view.items() if k != "id"])


@app.command("preview")
def preview(ctx: typer.Context, artifact_id: IdArgument, as_json: JsonFlag = False) -> None:
    """Print the bounded preview the model gets: head, tail, size, hash, media type, path.

    Example: agents artifact preview 01J... --json
    """
    shown = store_of(ctx).preview(artifact_id)
    if as_json:
        emit_json(preview_view(shown))
        return
    typer.echo(render_preview(shown))


@app.command("read")
def read(
    ctx: typer.Context,
    artifact_id: IdArgument,
    offset: Annotated[
        int | None, typer.Option("--offset", metavar="N", min=0, help="First byte (default 0).")
    ] = None,
    length: Annotated[
        int | None,
        typer.Option("--length", metavar="N", min=0, help="How many bytes (default: to the end)."),
    ] = None,
    lines: Annotated[
        str | None,
        typer.Option(
            "--lines",
            metavar="A-B",
            help="Lines A to B (1-based, inclusive), exactly as stored, line endings included; "
            "A- is line A to the end, A alone is one line. Not with --offset or --length.",
        ),
    ] = None,
) -> None:
    """Write a stored artifact's bytes to stdout: all of them (streamed, however large), or
    the byte or line range asked for.

    Example: agents artifact read 01J... > output.log

    Example: agents artifact read 01J... --offset 4096 --length 8192

    Example: agents artifact read 01J... --lines 120-180
    """
    if lines is not None and (offset is not None or length is not None):
        raise typer.BadParameter("give --lines, or --offset and --length, not both")
    store = store_of(ctx)
    # Streamed in pieces of a bounded size: an artifact of any size is never held whole.
    if lines is None:
        pieces = store.stream(artifact_id, offset or 0, length)
    else:
        first, last = _line_range(lines)
        pieces = store.stream_lines(artifact_id, first, last)
    for piece in pieces:
        sys.stdout.buffer.write(piece)
    sys.stdout.flush()


def _line_range(text: str) -> tuple[int, int | None]:
    """``A-B``, ``A-`` or ``A`` as (A, B), (A, None) or (A, A); whether A and B make a range
    is the store's to say."""
    match = re.fullmatch(r" *([0-9]+) *(?:(-) *([0-9]+)? *)?", text)
    if match is None:
        raise typer.BadParameter(
            f"expected A-B, A- or A (line numbers, from 1), got {text!r}", param_hint="--lines"
        )
    first = int(match.group(1))
    if match.group(3) is not None:
        return first, int(match.group(3))
    return first, None if match.group(2) else first
