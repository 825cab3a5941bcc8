"""`agents project ...`: projects and their context policies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.output import JsonFlag, emit_json, print_table
from cleveragents.cli.state import state

if TYPE_CHECKING:
    from cleveragents.domain.project import Project

app = AgentsTyper(help="Create and inspect projects.", no_args_is_help=True)
context_app = AgentsTyper(help="A project's context policy.", no_args_is_help=True)
app.add_typer(context_app, name="context")

NameArgument = Annotated[str, typer.Argument(metavar="NAME", help="The project's name.")]


def policy_view(project: Project) -> dict[str, dict[str, Any]]:
    """Each setting with its effective value and where it came from."""
    return {
        name: {"value": setting.value, "source": setting.source}
        for name, setting in project.policy.effective_settings().items()
    }


def project_view(project: Project) -> dict[str, Any]:
    return {"id": project.id, "name": project.name, "policy": policy_view(project)}


@app.command("create")
def create(ctx: typer.Context, name: NameArgument, as_json: JsonFlag = False) -> None:
    """Create a project.

    Example: agents project create checkout-service
    """
    project = state(ctx).container().project_service().create(name)
    if as_json:
        emit_json(project_view(project))
    else:
        typer.echo(f"created project {project.name} ({project.id})")


@app.command("list")
def list_projects(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List projects with their effective skeleton ratio.

    Example: agents project list --json
    """
    # A read: an existing SQLite store is read without the container (no SQLAlchemy to load);
    # the container's service lists any other store, migrating it first as every command does.
    # Here, not at the top: the project service and its models: ~150 ms of CPU on `agents --help`.
    from cleveragents.application.services.projects.project_service import list_projects
    from cleveragents.container.project_listing import read_only_project_listing

    cli_state = state(ctx)
    projects = list_projects(
        read_only_project_listing(cli_state.database_url),
        full=lambda: cli_state.container().project_service(),
    )
    if as_json:
        emit_json([project_view(project) for project in projects])
        return
    print_table(
        "Projects",
        ["name", "id", "skeleton ratio", "context window"],
        [
            [p.name, p.id, p.policy.effective_skeleton_ratio, p.policy.effective_context_window]
            for p in projects
        ],
    )


@context_app.command("set")
def context_set(
    ctx: typer.Context,
    name: NameArgument,
    skeleton_ratio: Annotated[
        float | None,
        typer.Option(
            "--skeleton-ratio",
            metavar="R",
            help="Share of a parent's context tokens a child does NOT inherit, in [0.0, 1.0] "
            "(0.0 keeps everything, 1.0 only the most relevant fragment; default 0.3).",
        ),
    ] = None,
    context_window: Annotated[
        int | None,
        typer.Option("--context-window", metavar="N", help="Model context window in tokens."),
    ] = None,
    reserve_tokens: Annotated[
        int | None,
        typer.Option("--reserve-tokens", metavar="N", help="Tokens kept free for the reply."),
    ] = None,
    keep_recent_tokens: Annotated[
        int | None,
        typer.Option(
            "--keep-recent-tokens", metavar="N", help="Recent tokens that compaction keeps."
        ),
    ] = None,
    summary_tokens: Annotated[
        int | None,
        typer.Option(
            "--summary-tokens",
            metavar="N",
            min=100,
            help="Token budget of a compaction summary (default 4000).",
        ),
    ] = None,
    retention_days: Annotated[
        int | None,
        typer.Option("--retention-days", metavar="N", help="Expire artifacts older than N days."),
    ] = None,
    retention_bytes: Annotated[
        int | None,
        typer.Option(
            "--retention-bytes", metavar="N", help="Expire the oldest artifacts above N bytes."
        ),
    ] = None,
    preview_head_bytes: Annotated[
        int | None,
        typer.Option("--preview-head-bytes", metavar="N", help="Preview head size (bytes)."),
    ] = None,
    preview_tail_bytes: Annotated[
        int | None,
        typer.Option("--preview-tail-bytes", metavar="N", help="Preview tail size (bytes)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Set a project's context policy (options not given stay as they are).

    Example: agents project context set checkout-service --skeleton-ratio 0.5
    """
    # Here, not at the top: pydantic models: ~130 ms of CPU on `agents --help`.
    from cleveragents.domain.policy import ContextPolicyChanges
    from cleveragents.domain.validation import build

    changes = build(
        ContextPolicyChanges,
        skeleton_ratio=skeleton_ratio,
        context_window=context_window,
        reserve_tokens=reserve_tokens,
        keep_recent_tokens=keep_recent_tokens,
        summary_tokens=summary_tokens,
        artifact_retention_days=retention_days,
        artifact_retention_bytes=retention_bytes,
        preview_head_bytes=preview_head_bytes,
        preview_tail_bytes=preview_tail_bytes,
    )
    if changes.changes_nothing:
        raise typer.BadParameter(
            "give at least one of --skeleton-ratio, --context-window, --reserve-tokens, "
            "--keep-recent-tokens, --summary-tokens, --retention-days, --retention-bytes, "
            "--preview-head-bytes, --preview-tail-bytes"
        )
    project = state(ctx).container().project_service().set_context(name, changes)
    _show_policy(project, as_json)


@context_app.command("show")
def context_show(ctx: typer.Context, name: NameArgument, as_json: JsonFlag = False) -> None:
    """Show a project's effective context policy and where each value comes from.

    Example: agents project context show checkout-service
    """
    _show_policy(state(ctx).container().project_service().get(name), as_json)


def _show_policy(project: Project, as_json: bool) -> None:
    view = policy_view(project)
    if as_json:
        emit_json({"project": project.name, "policy": view})
        return
    print_table(
        f"Context policy of {project.name}",
        ["setting", "value", "source"],
        [[name, entry["value"], entry["source"]] for name, entry in view.items()],
    )
