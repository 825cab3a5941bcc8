"""`agents plan ...`: plans, decisions and child plans with skeleton-compressed context."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.inputs import read_text_file
from cleveragents.cli.output import JsonFlag, emit_json, print_fields, print_table
from cleveragents.cli.state import state

if TYPE_CHECKING:
    from cleveragents.application.services.plans.plan_service import PlanStatusReport
    from cleveragents.domain.skeleton import SkeletonMetadata

app = AgentsTyper(help="Plans, their decisions and their child plans.", no_args_is_help=True)
context_app = AgentsTyper(help="A plan's override of its project's policy.", no_args_is_help=True)
app.add_typer(context_app, name="context")

RatioOption = Annotated[
    float | None,
    typer.Option(
        "--skeleton-ratio",
        metavar="R",
        help="Share of the parent's context tokens the child does NOT inherit, in [0.0, 1.0].",
    ),
]


@app.command("create")
def create(
    ctx: typer.Context,
    project: Annotated[str, typer.Option("--project", metavar="NAME", help="The project.")],
    title: Annotated[str, typer.Option("--title", metavar="T", help="The plan's title.")],
    as_json: JsonFlag = False,
) -> None:
    """Create a plan and print its id.

    Example: PLAN=$(agents plan create --project checkout-service --title "Refactor payments")
    """
    plan = state(ctx).container().plan_service().create(project, title)
    if as_json:
        emit_json({"id": plan.id, "project": project, "title": plan.title})
    else:
        typer.echo(plan.id)


@app.command("decide")
def decide(
    ctx: typer.Context,
    plan_id: Annotated[str, typer.Argument(metavar="PLAN", help="The plan's id.")],
    content: Annotated[
        str | None, typer.Option("--content", metavar="TEXT", help="The decision's text.")
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option("--file", metavar="PATH", help="Read the decision's text from a file."),
    ] = None,
    relevance: Annotated[
        float,
        typer.Option("--relevance", metavar="X", help="Relevance in [0, 1] for compression."),
    ] = 0.5,
    tokens: Annotated[
        int | None,
        typer.Option(
            "--tokens", metavar="N", help="Token count (default: counted with the tokenizer)."
        ),
    ] = None,
    fragment_id: Annotated[
        str | None,
        typer.Option("--fragment-id", metavar="ID", help="Fragment id (default: decision id)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Record a decision on a plan; it carries one context fragment. Prints the decision id.

    Example: agents plan decide $PLAN --content "Use Stripe webhooks" --relevance 0.9
    """
    text = _decision_text(content, file)
    decision = (
        state(ctx)
        .container()
        .plan_service()
        .decide(plan_id, text, relevance=relevance, token_count=tokens, fragment_id=fragment_id)
    )
    if as_json:
        fragment = decision.fragment
        emit_json(
            {
                "decision_id": decision.id,
                "plan_id": decision.plan_id,
                "fragment_id": fragment.fragment_id,
                "relevance": fragment.relevance,
                "token_count": fragment.token_count,
            }
        )
    else:
        typer.echo(decision.id)


def _decision_text(content: str | None, file: Path | None) -> str:
    if (content is None) == (file is None):
        raise typer.BadParameter("give exactly one of --content TEXT or --file PATH")
    if content is not None:
        return content
    assert file is not None
    return read_text_file(str(file))  # bounded, as every file a command reads


@app.command("spawn")
def spawn(
    ctx: typer.Context,
    parent_id: Annotated[str, typer.Argument(metavar="PARENT", help="The parent plan's id.")],
    title: Annotated[str, typer.Option("--title", metavar="T", help="The child's title.")],
    skeleton_ratio: RatioOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Spawn a child plan that inherits a skeleton of the parent's context. Prints the child id.

    The ratio is this option, else the parent plan's override, else the project's policy,
    else 0.3.

    Example: agents plan spawn $PLAN --title "Migrate refunds" --skeleton-ratio 0.5
    """
    child = (
        state(ctx).container().child_plan_spawner().spawn_child(parent_id, title, skeleton_ratio)
    )
    if as_json:
        emit_json(
            {
                "id": child.id,
                "parent_id": child.parent_id,
                "title": child.title,
                "skeleton": skeleton_view(child.skeleton_metadata),
            }
        )
    else:
        typer.echo(child.id)


@app.command("status")
def status(
    ctx: typer.Context,
    plan_id: Annotated[str, typer.Argument(metavar="PLAN", help="The plan's id.")],
    as_json: JsonFlag = False,
) -> None:
    """Show a plan: its context, its children and, for a child, the skeleton it inherited.

    Example: agents plan status $CHILD --json
    """
    report = state(ctx).container().plan_service().status(plan_id)
    view = status_view(report)
    if as_json:
        emit_json(view)
        return
    fields: list[tuple[str, object]] = [
        ("id", view["id"]),
        ("title", view["title"]),
        ("project", view["project"]),
        ("parent", view["parent_id"]),
        ("status", view["status"]),
        ("decisions", f"{view['decisions']} ({view['own_tokens']} tokens)"),
        (
            "inherited fragments",
            f"{view['inherited_fragments']} ({view['inherited_tokens']} tokens)",
        ),
        ("children", ", ".join(view["children"]) or None),
        ("skeleton ratio for children", view["children_skeleton_ratio"]),
    ]
    skeleton = view["skeleton"]
    if skeleton is None:
        fields.append(("skeleton", "none (not spawned from a parent)"))
    else:
        fields.append(
            (
                "skeleton",
                f"ratio {skeleton['ratio']}: {skeleton['compressed_tokens']} of "
                f"{skeleton['original_tokens']} tokens kept ({skeleton['retained_pct']}%)",
            )
        )
        fields.append(("skeleton sources", ", ".join(skeleton["source_decision_ids"]) or None))
    print_fields(f"Plan {view['id']}", fields)


def skeleton_view(metadata: SkeletonMetadata | None) -> dict[str, Any] | None:
    if metadata is None:
        return None
    return {
        "ratio": metadata.ratio,
        "original_tokens": metadata.original_tokens,
        "compressed_tokens": metadata.compressed_tokens,
        "retained_pct": metadata.retained_pct,
        "source_decision_ids": list(metadata.source_decision_ids),
    }


def status_view(report: PlanStatusReport) -> dict[str, Any]:
    plan = report.plan
    return {
        "id": plan.id,
        "title": plan.title,
        "project": report.project.name,
        "parent_id": plan.parent_id,
        "status": plan.status.value,
        "decisions": len(plan.fragments),
        "own_tokens": report.own_tokens,
        "inherited_fragments": len(plan.inherited_fragments),
        "inherited_tokens": report.inherited_tokens,
        "children": list(report.children),
        "children_skeleton_ratio": report.effective_policy.effective_skeleton_ratio,
        "skeleton": skeleton_view(plan.skeleton_metadata),
    }


@app.command("list")
def list_plans(
    ctx: typer.Context,
    project: Annotated[
        str | None, typer.Option("--project", metavar="NAME", help="Only this project's plans.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """List plans, oldest first.

    Example: agents plan list --project checkout-service
    """
    plans = state(ctx).container().plan_service().list(project)
    if as_json:
        emit_json(
            [
                {
                    "id": p.id,
                    "project": p.project_name,
                    "parent_id": p.parent_id,
                    "title": p.title,
                    "status": p.status,
                    "decisions": p.decision_count,
                    "has_skeleton": p.has_skeleton,
                }
                for p in plans
            ]
        )
        return
    print_table(
        "Plans",
        ["id", "project", "parent", "title", "status", "decisions"],
        [[p.id, p.project_name, p.parent_id, p.title, p.status, p.decision_count] for p in plans],
    )


@context_app.command("set")
def context_set(
    ctx: typer.Context,
    plan_id: Annotated[str, typer.Argument(metavar="PLAN", help="The plan's id.")],
    skeleton_ratio: RatioOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Override the project's skeleton ratio for the children this plan spawns.

    Example: agents plan context set $PLAN --skeleton-ratio 0.8
    """
    if skeleton_ratio is None:
        raise typer.BadParameter("give --skeleton-ratio R")
    plan = state(ctx).container().child_plan_spawner().set_plan_context(plan_id, skeleton_ratio)
    if as_json:
        emit_json({"id": plan.id, "skeleton_ratio": plan.policy.skeleton_ratio})
    else:
        typer.echo(f"plan {plan.id}: children inherit with skeleton ratio {skeleton_ratio}")
