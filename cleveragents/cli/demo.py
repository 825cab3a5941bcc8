"""`agents demo`: a child plan spawned from decisions A, B and C, in a temporary database."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from cleveragents.cli.output import emit_json

DEMO_FRAGMENTS = (("A", 0.9, 400), ("B", 0.6, 300), ("C", 0.3, 300))


def demo(
    as_json: Annotated[bool, typer.Option("--json", help="Print the steps as JSON.")] = False,
) -> None:
    """Spawn a child plan with a skeleton of its parent's context, in a temporary database.

    Creates a project with skeleton ratio 0.5, records decisions A (0.9, 400 tokens),
    B (0.6, 300) and C (0.3, 300), spawns a child and shows its status: the child inherits [A],
    1000 -> 400 tokens.

    Example: agents demo
    """
    from cleveragents.cli.plan import status_view
    from cleveragents.container import build_container

    steps: list[dict[str, Any]] = []

    def step(text: str, **data: Any) -> None:
        steps.append({"step": text, **data})
        if not as_json:
            typer.echo(f"{len(steps)}. {text}")

    with tempfile.TemporaryDirectory(prefix="cleveragents-demo-") as home:
        database = Path(home) / "demo.db"
        container = build_container(f"sqlite:///{database}", home=Path(home))
        try:
            projects = container.project_service()
            plans = container.plan_service()
            project = projects.create("demo")
            step(f"created project {project.name} in a temporary database", project=project.name)
            projects.set_context(project.name, skeleton_ratio=0.5)
            step("set its skeleton ratio to 0.5", skeleton_ratio=0.5)
            parent = plans.create(project.name, "Parent plan")
            step(f"created plan {parent.id}", plan_id=parent.id)
            decisions: dict[str, str] = {}
            for name, relevance, tokens in DEMO_FRAGMENTS:
                decision = plans.decide(
                    parent.id,
                    f"Decision {name}",
                    relevance=relevance,
                    token_count=tokens,
                    fragment_id=name,
                )
                decisions[name] = decision.id
                step(
                    f"recorded decision {name} (relevance {relevance}, {tokens} tokens) "
                    f"as {decision.id}",
                    fragment_id=name,
                    decision_id=decision.id,
                )
            child = container.strategy_coordinator().spawn_child(parent.id, "Child plan")
            kept = [f.fragment_id for f in child.inherited_fragments]
            step(
                f"spawned child {child.id}: budget 1000 * (1 - 0.5) = 500; kept {kept} "
                "(B would bring the total to 700, over 500: skipped; so would C)",
                child_id=child.id,
                kept=kept,
            )
            view = status_view(plans.status(child.id))
            step("plan status of the child", status=view)
        finally:
            container.store().dispose()

    if as_json:
        emit_json(steps)
        return
    skeleton = view["skeleton"]
    typer.echo(
        f"   skeleton: ratio {skeleton['ratio']}, original_tokens {skeleton['original_tokens']}, "
        f"compressed_tokens {skeleton['compressed_tokens']} ({skeleton['retained_pct']}%), "
        f"source_decision_ids {skeleton['source_decision_ids']} (decision A: {decisions['A']})"
    )
