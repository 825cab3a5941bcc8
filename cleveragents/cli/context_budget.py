"""`agents context budget ...`: the implementation phase's footprint, predicted before it starts.

`budget` is itself the planner (its options plan) and holds one sub-command, `lint`.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.inputs import read_report_file, read_settings_file, read_text_file
from cleveragents.cli.output import JsonFlag, emit_json
from cleveragents.cli.state import state
from cleveragents.domain.vocabulary import DEFAULT_ENCODING, Encoding

# The help comes from the callback's docstring: `budget` is a command in its own right.
app = AgentsTyper(subcommand_metavar="[lint FILE]")


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
            help=f"The tokenizer of --exact: {DEFAULT_ENCODING} (default; the weights were "
            f"measured with it) or {Encoding.O200K_BASE}.",
        ),
    ] = DEFAULT_ENCODING,
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
    # Here, not at the top: the planner's service: ~180 ms of CPU on `agents --help`.
    from cleveragents.application.services.budget.budget_planning import (
        BudgetDocuments,
        DocumentRoles,
        DuplicateDocumentError,
    )

    documents = BudgetDocuments(spec, test_plan, tuple(module_docs or ()), tuple(changed or ()))
    try:
        plan = (
            state(ctx)
            .container()
            .budget_planning()
            .plan(
                documents,
                _CliFiles(),
                weights=weights,
                available=available,
                committed=committed,
                project=project,
                exact=exact,
                encoding=encoding,
                roles=DocumentRoles("--spec", "--test-plan", "--module-doc", "--changed"),
            )
        )
    except DuplicateDocumentError as error:
        raise typer.BadParameter(str(error)) from None  # a usage error, as it has always been
    note = plan.overcommit_note()
    if note is not None:
        typer.echo(
            f"warning: {note}; pass --available N, or set the project's "
            "(agents project context set NAME --context-window N)",
            err=True,
        )
    if as_json:
        emit_json(plan.as_json())
    else:
        sys.stdout.write(plan.markdown())


class _CliFiles:
    """Files read as every command reads them: ``-`` is standard input, each bounded, a
    usage error when one cannot be read."""

    def document(self, path: str) -> str:
        return read_text_file(path)

    def weights_file(self, path: str) -> str:
        return read_settings_file(path, what="weights files")


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
    # Here, not at the top: pydantic models: ~140 ms of CPU on `agents --help`.
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
