"""`agents artifact import|temp-output|list|show|preview|cleanup`: the governed store."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.cli.artifact import app
from cleveragents.cli.output import JsonFlag, emit_json, print_fields, print_table
from cleveragents.cli.state import state

if TYPE_CHECKING:
    from cleveragents.application.services.artifact_store.artifact_store import (
        ArtifactStore,
        ImportResult,
    )
    from cleveragents.domain.stored_artifact import ArtifactPreview, StoredArtifact

PROGRESS_MIN_BYTES = 16 << 20
READ_BYTES = 65536

ProjectOption = Annotated[
    str | None,
    typer.Option(
        "--project", metavar="NAME", help="Owner project (default: the plan's, else 'default')."
    ),
]
PlanOption = Annotated[
    str | None, typer.Option("--plan", metavar="ID", help="The plan the output belongs to.")
]
IdArgument = Annotated[
    str,
    typer.Argument(
        metavar="ID", help="The artifact's id, or sha256:HEX (the oldest stored with that content)."
    ),
]


def _store(ctx: typer.Context) -> ArtifactStore:
    store: ArtifactStore = state(ctx).container().artifact_store()
    return store


@app.command("import")
def import_artifact(
    ctx: typer.Context,
    path: Annotated[
        str | None,
        typer.Argument(metavar="PATH", help="A file inside the workspace (relative or absolute)."),
    ] = None,
    workspace: Annotated[
        str | None,
        typer.Option("--workspace", metavar="DIR", help="Workspace root (default: current dir)."),
    ] = None,
    reference: Annotated[
        str | None,
        typer.Option(
            "--ref",
            metavar="REF",
            help="Import a trusted tool's temporary output; - reads the reference from stdin "
            "(keeps it out of the process list).",
        ),
    ] = None,
    project: ProjectOption = None,
    plan: PlanOption = None,
    secrets: Annotated[
        str,
        typer.Option(
            "--secrets",
            metavar="block|redact",
            help="Output with a suspected credential (in it or in its name): block it "
            "(nothing stored, exit 2), or redact it (stored with each credential replaced by "
            "[REDACTED:<kind>], the findings recorded).",
        ),
    ] = "block",
    allowlist: Annotated[
        str | None,
        typer.Option(
            "--allowlist",
            metavar="FILE",
            envvar="CLEVERAGENTS_SECRETS_ALLOWLIST",
            help="Secret allowlist (TOML: fingerprints and rules). Default: the workspace's "
            ".cleveragents/secrets-allow.toml, if there is one.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Import tool output into the store: streamed, hashed, scanned for credentials.

    Prints a bounded preview (head and tail) and the artifact's id; output with a suspected
    credential is blocked (nothing stored, exit 2) unless --secrets redact. The notice gives
    each finding's fingerprint, for the allowlist; a line that holds
    cleveragents:allow-secret is not scanned.

    Example: agents artifact import build/test-output.log --plan $PLAN

    Example: agents artifact import build/env-dump.txt --secrets redact
    """
    import os

    from cleveragents.application.services.artifact_store.artifact_store import SecretHandling

    try:
        handling = SecretHandling(secrets)
    except ValueError:
        raise typer.BadParameter(
            f"expected block or redact, got {secrets!r}", param_hint="--secrets"
        ) from None

    if (path is None) == (reference is None):
        raise typer.BadParameter("give exactly one of PATH or --ref REF")
    if reference is not None and workspace is not None:
        raise typer.BadParameter("--workspace applies to PATH, not to --ref")
    if reference == "-":
        reference = sys.stdin.readline().strip()
    store = _store(ctx)
    with _progress(path, workspace) as progress:
        if reference is not None:
            result = store.import_temp_output(
                reference,
                project=project,
                plan_id=plan,
                progress=progress,
                secrets=handling,
                allowlist=allowlist,
            )
        else:
            assert path is not None
            result = store.import_file(
                workspace or os.getcwd(),
                path,
                project=project,
                plan_id=plan,
                progress=progress,
                secrets=handling,
                allowlist=allowlist,
            )
    _report_import(result, as_json)
    if result.blocked:
        print(f"error: {result.notice}", file=sys.stderr)
        raise typer.Exit(2)
    if result.redacted:
        print(f"note: {result.notice}", file=sys.stderr)


@app.command("temp-output")
def temp_output(
    ctx: typer.Context,
    tool: Annotated[str, typer.Option("--tool", metavar="NAME", help="The trusted tool.")],
    as_json: JsonFlag = False,
) -> None:
    """Issue a file for a trusted tool's output and the single-use reference that imports it.

    Example: agents artifact temp-output --tool pytest --json
    """
    grant = _store(ctx).create_temp_output(tool)
    if as_json:
        emit_json(
            {
                "reference": grant.reference,
                "path": grant.path,
                "tool": grant.tool_name,
                "expires_at": grant.expires_at.isoformat(),
            }
        )
        return
    typer.echo(f"write the output to: {grant.path}")
    typer.echo(f"then import it with: agents artifact import --ref {grant.reference}")
    typer.echo(f"(single use, expires {grant.expires_at.isoformat()})")


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
    from cleveragents.domain.errors import InvalidInputError
    from cleveragents.domain.stored_artifact import ArtifactStatus

    try:
        wanted = None if status is None else ArtifactStatus(status)
    except ValueError:
        raise InvalidInputError(
            f"unknown status {status!r}: use stored, blocked or expired"
        ) from None
    artifacts = _store(ctx).list(project, wanted)
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
    artifact = _store(ctx).get(artifact_id)
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
    shown = _store(ctx).preview(artifact_id)
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
        typer.Option(
            "--length", metavar="N", min=0, help=f"How many bytes (default {READ_BYTES})."
        ),
    ] = None,
    lines: Annotated[
        str | None,
        typer.Option(
            "--lines",
            metavar="A-B",
            help="Lines A to B (1-based, inclusive), exactly as stored, line endings included; "
            "A alone is one line. Not with --offset or --length.",
        ),
    ] = None,
) -> None:
    """Write bytes of a stored artifact to stdout (more than the preview shows).

    Example: agents artifact read 01J... --offset 4096 --length 8192

    Example: agents artifact read 01J... --lines 120-180
    """
    if lines is None:
        data = _store(ctx).read(artifact_id, offset or 0, READ_BYTES if length is None else length)
        sys.stdout.buffer.write(data)
    elif offset is not None or length is not None:
        raise typer.BadParameter("give --lines, or --offset and --length, not both")
    else:
        first, last = _line_range(lines)
        # Streamed: a range of a million lines is never held whole.
        for piece in _store(ctx).stream_lines(artifact_id, first, last):
            sys.stdout.buffer.write(piece)
    sys.stdout.flush()


def _line_range(text: str) -> tuple[int, int]:
    """``A-B`` or ``A`` as (A, B); whether A and B make a range is the store's to say."""
    import re

    match = re.fullmatch(r" *([0-9]+) *(?:- *([0-9]+) *)?", text)
    if match is None:
        raise typer.BadParameter(
            f"expected A-B or A (line numbers, from 1), got {text!r}", param_hint="--lines"
        )
    first = int(match.group(1))
    return first, int(match.group(2) or first)


@app.command("hold")
def hold(
    ctx: typer.Context,
    artifact_id: IdArgument,
    release: Annotated[
        bool, typer.Option("--release", help="Release the hold: retention applies again.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Keep an artifact whatever the retention says (evidence, an open incident).

    Example: agents artifact hold 01J...   (and later: agents artifact hold 01J... --release)
    """
    from cleveragents.domain.stored_artifact import RetentionClass

    retention = RetentionClass.STANDARD if release else RetentionClass.HOLD
    artifact = _store(ctx).set_retention(artifact_id, retention)
    if as_json:
        emit_json(artifact_view(artifact))
    else:
        typer.echo(f"artifact {artifact.id}: retention {artifact.retention_class.value}")


@app.command("cleanup")
def cleanup(
    ctx: typer.Context,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what would expire; change nothing.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Apply each project's retention: expire old artifacts, keep their audit rows.

    Example: agents artifact cleanup --dry-run
    """
    report = _store(ctx).cleanup(dry_run=dry_run)
    if as_json:
        emit_json(
            {
                "dry_run": report.dry_run,
                "expired": [artifact_view(a) for a in report.expired],
                "freed_bytes": report.freed_bytes,
                "orphan_blobs": report.orphan_blobs,
                "stale_temp_outputs": report.stale_temp_outputs,
            }
        )
        return
    verb = "would expire" if dry_run else "expired"
    typer.echo(
        f"{verb} {len(report.expired)} artifact(s); {report.freed_bytes} bytes of blobs "
        f"{'to free' if dry_run else 'freed'}; {report.orphan_blobs} orphan blob(s); "
        f"{report.stale_temp_outputs} expired temporary output(s)"
    )
    for artifact in report.expired:
        typer.echo(f"  {artifact.id}  {artifact.byte_count:>12}  {artifact.workspace_path}")


def artifact_view(artifact: StoredArtifact) -> dict[str, Any]:
    return {
        "id": artifact.id,
        "project_id": artifact.project_id,
        "plan_id": artifact.plan_id,
        "status": artifact.status.value,
        "workspace_path": artifact.workspace_path,
        "byte_count": artifact.byte_count,
        "sha256": artifact.sha256,
        "media_type": artifact.media_type,
        "retention_class": artifact.retention_class.value,
        "source": artifact.source,
        "created_by": artifact.created_by,
        "created_at": artifact.created_at.isoformat(),
        "expired_at": None if artifact.expired_at is None else artifact.expired_at.isoformat(),
        "findings": [{"line": f.line, "kind": f.kind.value} for f in artifact.findings],
    }


def preview_view(shown: ArtifactPreview) -> dict[str, Any]:
    return shown.model_dump()


def render_preview(shown: ArtifactPreview) -> str:
    lines = [
        f"artifact {shown.artifact_id}: {shown.workspace_path} ({shown.media_type}, "
        f"{shown.byte_count} bytes, sha256 {shown.sha256})",
        shown.head,
    ]
    if shown.omitted_bytes:
        lines.append(
            f"[... {shown.omitted_bytes} bytes omitted: agents artifact read "
            f"{shown.artifact_id} --offset {shown.omitted_offset} --length "
            f"{shown.omitted_bytes} ...]"
        )
    if shown.tail:
        lines.append(shown.tail)
    if shown.withheld_lines:
        lines.append(f"[{shown.withheld_lines} line(s) withheld as possible credentials]")
    return "\n".join(lines)


def _report_import(result: ImportResult, as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "status": result.artifact.status.value,
                "notice": result.notice,
                "redacted": result.redacted,
                "fingerprints": list(result.fingerprints),
                "artifact": artifact_view(result.artifact),
                "preview": None if result.preview is None else preview_view(result.preview),
            }
        )
        return
    if result.preview is not None:
        typer.echo(render_preview(result.preview))


class _NoProgress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None


def _progress(path: str | None, workspace: str | None) -> Any:
    """A progress bar on stderr for imports of 16 MiB or more (stdout stays clean)."""
    import contextlib
    import os

    if path is None or not sys.stderr.isatty():
        return _NoProgress()
    full = os.path.join(workspace or os.getcwd(), path)
    try:
        size = os.path.getsize(full)
    except OSError:
        return _NoProgress()
    if size < PROGRESS_MIN_BYTES:
        return _NoProgress()

    @contextlib.contextmanager
    def bar() -> Any:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("importing", total=size)
            yield lambda done: progress.update(task, completed=done)

    return bar()
