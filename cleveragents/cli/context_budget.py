"""`agents context budget ...`: the implementation phase's footprint, predicted before it starts.

`budget` is itself the planner (its options plan) and holds one sub-command, `lint`.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.cli.inputs import read_report_file, read_settings_file, read_text_file
from cleveragents.cli.output import JsonFlag, emit_json
from cleveragents.cli.state import state

if TYPE_CHECKING:
    from cleveragents.application.services.budget.context_budget_planner import PlannedArtifact
    from cleveragents.domain.context_budget import BudgetReport

# The help comes from the callback's docstring: `budget` is a command in its own right.
app = typer.Typer(subcommand_metavar="[lint FILE]")


@app.callback(invoke_without_command=True)
def budget(
    ctx: typer.Context,
    spec: Annotated[
        str | None,
        typer.Option("--spec", metavar="PATH", help="The active spec (required; never compacted)."),
    ] = None,
    test_plan: Annotated[
        str | None, typer.Option("--test-plan", metavar="PATH", help="The test plan.")
    ] = None,
    module_docs: Annotated[
        list[str] | None,
        typer.Option("--module-doc", metavar="PATH", help="An affected module doc (repeatable)."),
    ] = None,
    changed: Annotated[
        list[str] | None,
        typer.Option(
            "--changed",
            metavar="PATH",
            help="A file the work will change (repeatable); its kind comes from its extension.",
        ),
    ] = None,
    available: Annotated[
        int | None,
        typer.Option(
            "--available",
            metavar="N",
            min=1,
            help="Context window in tokens (default: the project's with --project, else 200000).",
        ),
    ] = None,
    committed: Annotated[
        int | None,
        typer.Option(
            "--committed",
            metavar="N",
            min=0,
            help="Tokens the session already holds (default 30000).",
        ),
    ] = None,
    weights: Annotated[
        str | None,
        typer.Option(
            "--weights",
            metavar="FILE",
            help="A weights file (TOML) read over the shipped defaults: per-line weights, "
            "tier boundaries, compaction targets.",
        ),
    ] = None,
    project: Annotated[
        str | None,
        typer.Option("--project", metavar="NAME", help="Take the window from this project."),
    ] = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact", help="Count with the real tokenizer; show the estimate's error beside it."
        ),
    ] = False,
    encoding: Annotated[
        str,
        typer.Option(
            "--encoding",
            metavar="NAME",
            help="The tokenizer of --exact: cl100k_base (default; the weights were measured "
            "with it) or o200k_base.",
        ),
    ] = "cl100k_base",
    as_json: JsonFlag = False,
) -> None:
    """Predict the implementation phase's token footprint; warn before starvation.

    Estimates what the phase will read, the spec, the test plan, the affected module docs and
    the changed files, as lines x the measured per-line weight of each kind
    (agents docs budget-heuristics), and picks the tier of committed + estimate over the window:
    green, yellow, amber, red. Amber and red get compactions in priority order, never of the
    active spec, the rules constitution, the project profile or the active decision packet; red
    that no compaction cures asks to split the work into smaller stories.

    Prints a markdown report (## Context Budget, a Summary line, the per-artifact table, the
    recommended compactions) in the format that `agents context budget lint FILE` checks.

    Example: agents context budget --spec spec.md --test-plan plan.md --changed src/app.py
    """
    given = (spec, test_plan, module_docs, changed, available, committed, weights, project)
    if ctx.invoked_subcommand is not None:
        if any(value is not None for value in given) or exact or as_json:
            raise typer.BadParameter(
                f"the planner's options do not apply to `budget {ctx.invoked_subcommand}`; "
                "give them to `agents context budget` alone"
            )
        return
    if spec is None:
        raise typer.BadParameter(
            "missing option '--spec': the active spec to plan for "
            "(e.g. agents context budget --spec spec.md)"
        )
    from cleveragents.adapters.budget_weights.heuristics_file import load_heuristics
    from cleveragents.container import build_container
    from cleveragents.domain.context_budget import DEFAULT_COMMITTED_TOKENS

    artifacts = _artifacts(spec, test_plan, module_docs or [], changed or [])
    heuristics = load_heuristics(
        read_settings_file(weights, what="weights files") if weights is not None else None,
        source=weights or "default",
    )
    cli_state = state(ctx)
    container = cli_state.container()
    window = container.context_budget_planner().available_window(available, project)
    if encoding != "cl100k_base":
        container = build_container(cli_state.database_url, encoding=encoding)
    report = container.context_budget_planner().plan(
        artifacts,
        heuristics,
        available=window.tokens,
        committed=DEFAULT_COMMITTED_TOKENS if committed is None else committed,
        available_source=window.source,
        exact=exact,
    )
    _warn_if_default_overcommits(report)
    if as_json:
        emit_json(report_as_dict(report, weights_file=heuristics.source))
    else:
        from cleveragents.domain.context_budget_contract import render_markdown

        sys.stdout.write(render_markdown(report))


def _artifacts(
    spec: str, test_plan: str | None, module_docs: list[str], changed: list[str]
) -> list[PlannedArtifact]:
    from cleveragents.application.services.budget.context_budget_planner import PlannedArtifact
    from cleveragents.domain.context_budget import ArtifactKind, changed_file_kind

    roles = [("--spec", spec, ArtifactKind.SPEC)]
    if test_plan is not None:
        roles.append(("--test-plan", test_plan, ArtifactKind.TEST_PLAN))
    roles += [("--module-doc", path, ArtifactKind.MODULE_DOC) for path in module_docs]
    roles += [("--changed", path, changed_file_kind(path)) for path in changed]
    seen: dict[str, str] = {}
    for option, path, _ in roles:
        key = path if path == "-" else os.path.normpath(path)
        if key in seen:
            raise typer.BadParameter(
                f"{path} is given twice ({seen[key]} and {option}); give each file once"
            )
        seen[key] = option
    # Every file is read before anything is planned: a missing one fails the whole command.
    return [
        PlannedArtifact(path=path, kind=kind, text=read_text_file(path)) for _, path, kind in roles
    ]


def _warn_if_default_overcommits(report: BudgetReport) -> None:
    from cleveragents.application.services.budget.context_budget_planner import (
        overcommits_default_window,
    )

    if not overcommits_default_window(report):
        return
    what = "count" if report.exact else "estimate"
    typer.echo(
        f"warning: the {what} alone ({report.artifact_tokens:,} tokens) exceeds the default "
        f"window of {report.available:,} tokens and no window was declared; pass --available N, "
        "or set the project's (agents project context set NAME --context-window N)",
        err=True,
    )


def report_as_dict(report: BudgetReport, *, weights_file: str) -> dict[str, Any]:
    """The report as `--json` prints it: the same data as the markdown, structured."""
    from cleveragents.domain.context_budget_contract import compress_command

    def share(tokens: int) -> float:
        return round(tokens / report.available, 4)

    return {
        "tier": report.tier.value,
        "available": report.available,
        "available_source": report.available_source,
        "committed": report.committed,
        "estimated_tokens": report.estimated_total,
        "exact_tokens": report.exact_total,
        "encoding": report.encoding,
        "projected": report.projected,
        "projected_share": share(report.projected),
        "boundaries": {
            name: float(value) for name, value in report.boundaries.model_dump().items()
        },
        "weights_file": weights_file,
        "artifacts": [
            {
                "path": row.path,
                "kind": row.kind.value,
                "protected": row.protected,
                "lines": row.lines,
                "tokens_per_line": float(row.weight),
                "estimated_tokens": row.estimated_tokens,
                "exact_tokens": row.exact_tokens,
                "error": None if row.error is None else round(float(row.error), 4),
            }
            for row in report.artifacts
        ],
        "compactions": [
            {
                "path": compaction.path,
                "kind": compaction.kind.value,
                "tokens_before": compaction.tokens_before,
                "tokens_after": compaction.tokens_after,
                "saving": compaction.saving,
                "command": compress_command(compaction),
                "reason": compaction.reason,
            }
            for compaction in report.compactions
        ],
        "projected_after_compactions": report.projected_after_compactions,
        "projected_share_after_compactions": share(report.projected_after_compactions),
        "tier_after_compactions": report.tier_after_compactions.value,
        "split_into_smaller_stories": report.split_recommended,
    }


@app.command("lint")
def lint(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help="A context budget report; - reads stdin.")
    ],
    as_json: JsonFlag = False,
) -> None:
    """Check a context budget report against the format `agents context budget` prints.

    Exits 0 when it follows it, 2 with the first violation (its line and what was expected)
    when it does not.

    Example: agents context budget --spec spec.md > budget.md && agents context budget lint
    budget.md
    """
    from cleveragents.domain.context_budget import BudgetContractError
    from cleveragents.domain.context_budget_contract import first_violation

    violation = first_violation(read_report_file(file))
    if as_json:
        emit_json(
            {
                "file": file,
                "valid": violation is None,
                "violation": None
                if violation is None
                else {"line": violation.line, "message": violation.message},
            }
        )
        if violation is not None:
            raise typer.Exit(2)
        return
    if violation is not None:
        raise BudgetContractError(f"{file}: {violation}")  # one line on stderr, exit 2
    typer.echo(f"{file}: follows the context budget contract")
