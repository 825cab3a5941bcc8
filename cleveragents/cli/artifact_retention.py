"""`agents artifact hold|cleanup`: how long the governed store keeps what it holds."""

from __future__ import annotations

from typing import Annotated

import typer

from cleveragents.cli.artifact import app
from cleveragents.cli.artifact_store import IdArgument, store_of
from cleveragents.cli.artifact_views import artifact_view
from cleveragents.cli.output import JsonFlag, emit_json


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
    # Here, not at the top: pydantic models: ~130 ms of CPU on `agents --help`.
    from cleveragents.domain.stored_artifact import RetentionClass

    retention = RetentionClass.STANDARD if release else RetentionClass.HOLD
    artifact = store_of(ctx).set_retention(artifact_id, retention)
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

    Also removes blobs no artifact refers to, temporary outputs whose grant expired unused, and
    temporary-output folders no pending grant refers to (left by a killed import); blobs and
    folders younger than the grace period are left for a later cleanup.

    Example: agents artifact cleanup --dry-run
    """
    report = store_of(ctx).cleanup(dry_run=dry_run)
    if as_json:
        emit_json(
            {
                "dry_run": report.dry_run,
                "expired": [artifact_view(a) for a in report.expired],
                "freed_bytes": report.freed_bytes,
                "orphan_blobs": report.orphan_blobs,
                "stale_temp_outputs": report.stale_temp_outputs,
                "orphan_temp_outputs": report.orphan_temp_outputs,
            }
        )
        return
    verb = "would expire" if dry_run else "expired"
    typer.echo(
        f"{verb} {len(report.expired)} artifact(s); {report.freed_bytes} bytes of blobs "
        f"{'to free' if dry_run else 'freed'}; {report.orphan_blobs} orphan blob(s); "
        f"{report.stale_temp_outputs} expired temporary output(s); "
        f"{report.orphan_temp_outputs} orphan temporary output(s)"
    )
    for artifact in report.expired:
        typer.echo(f"  {artifact.id}  {artifact.byte_count:>12}  {artifact.workspace_path}")
