"""`agents metrics show|import`: truthful usage, cost, compaction and artifact metrics.

A figure that is not known prints as "unavailable" with the reason, never as 0; in JSON its
value is null and the ``unavailable`` object of the same level gives the reason under its name.
USD amounts are exact decimal strings.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.context import FormatOption, TranscriptArgument, named_format
from cleveragents.cli.inputs import read_transcript_file
from cleveragents.cli.output import JsonFlag, console, emit_json, print_fields, print_table
from cleveragents.cli.state import state
from cleveragents.domain.vocabulary import DETECTED_FORMAT

if TYPE_CHECKING:
    from cleveragents.application.services.metrics.metrics_report import (
        Fingerprints,
        MetricsReport,
        Scope,
        UsageImport,
        UsageReport,
        UsageSummary,
    )
    from cleveragents.application.services.metrics.metrics_service import MetricsService
    from cleveragents.domain.model_catalog import CostFigure
    from cleveragents.domain.usage import TokenFigure

app = AgentsTyper(
    help="Metrics: tokens by kind (input, output, cache read, cache write), cost from the "
    "locked model catalog, compactions, stable prefixes and artifacts.",
    no_args_is_help=True,
)

UNAVAILABLE = "unavailable"
COST_PARTS = ("input", "cache_read", "cache_write", "output")
SAVINGS_PARTS = ("cache_read_savings", "cache_write_premium")


def _service(ctx: typer.Context) -> MetricsService:
    service: MetricsService = state(ctx).container().metrics_service()
    return service


@app.command("show")
def show(
    ctx: typer.Context,
    plan: Annotated[
        str | None, typer.Option("--plan", metavar="ID", help="Only this plan.")
    ] = None,
    project: Annotated[
        str | None, typer.Option("--project", metavar="NAME", help="Only this project.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Show the metrics of a plan, a project, or (with neither) everything recorded.

    Requests; input, output, cache-read and cache-write tokens, each apart; their cost from
    the locked model catalog; compaction count and summary fingerprints; stable-prefix
    fingerprints; artifact counts and bytes. Cache figures of a model whose catalog entry
    declares no cache price, and figures a provider does not report (OpenAI has no cache-write
    figure), are "unavailable" with the reason: never 0.

    Example: agents metrics show --project default --json
    """
    report = _service(ctx).show(project=project, plan_id=plan)
    if as_json:
        emit_json(_report_json(report))
    else:
        _print_report(report)


@app.command("import")
def import_transcript(
    ctx: typer.Context,
    transcript: TranscriptArgument,
    project: Annotated[
        str | None,
        typer.Option(
            "--project", metavar="NAME", help="Owner project (default: the plan's, else 'default')."
        ),
    ] = None,
    plan: Annotated[
        str | None, typer.Option("--plan", metavar="ID", help="The plan the session belongs to.")
    ] = None,
    transcript_format: FormatOption = DETECTED_FORMAT,
    as_json: JsonFlag = False,
) -> None:
    """Record the token usage of a session log and print its cost breakdown.

    Reads Claude Code JSONL (one usage per API message, however many records repeat it) and
    Anthropic or OpenAI JSON transcripts whose messages carry usage. Each provider request is
    recorded once: importing the same log again, or a longer version of it, adds only new
    requests. A malformed log writes nothing (exit 2).

    Example: agents metrics import ~/.claude/projects/myproj/SESSION.jsonl --project myproj
    """
    text = read_transcript_file(transcript)
    source = "stdin" if transcript == "-" else str(Path(transcript).resolve())
    chosen = named_format(transcript_format)
    result = _service(ctx).import_transcript(
        text, source, project=project, plan_id=plan, transcript_format=chosen
    )
    if as_json:
        emit_json(_import_json(result))
    else:
        _print_import(result)


# -- JSON ----------------------------------------------------------------------------------------


def _usd(amount: Decimal) -> str:
    text = format(amount.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _scope_json(scope: Scope) -> dict[str, Any]:
    return {
        "kind": scope.kind,
        "project": scope.project.name if scope.project else None,
        "plan_id": scope.plan_id,
    }


def _summary_json(summary: UsageSummary, unavailable: dict[str, str]) -> dict[str, Any]:
    tokens: dict[str, int | None] = {}
    for name, figure in summary.tokens.items():
        tokens[name] = figure.value
        if figure.unavailable is not None:
            unavailable[f"tokens.{name}"] = figure.unavailable
    cost: dict[str, Any] = {}
    total = summary.cost.total
    for name in (*COST_PARTS, *SAVINGS_PARTS):
        part: CostFigure = getattr(summary.cost, name)
        cost[name] = None if part.usd is None else _usd(part.usd)
        if part.unavailable is not None:
            unavailable[f"cost_usd.{name}"] = part.unavailable
    cost["total"] = None if total.usd is None else _usd(total.usd)
    cost["total_excludes"] = list(summary.cost.total_excludes)
    if total.unavailable is not None:
        unavailable["cost_usd.total"] = total.unavailable
    return {"requests": summary.requests, "tokens": tokens, "cost_usd": cost}


def _usage_json(usage: UsageReport) -> dict[str, Any]:
    models = []
    for model in usage.models:
        unavailable: dict[str, str] = {}
        if model.context_window.unavailable is not None:
            unavailable["context_window"] = model.context_window.unavailable
        models.append(
            {
                "provider": model.provider,
                "model": model.model,
                "catalog_model": model.catalog_model,
                "context_window": model.context_window.value,
                "cache_support": model.cache_support.value,
                **_summary_json(model.summary, unavailable),
                "unavailable": unavailable,
            }
        )
    unavailable_totals: dict[str, str] = {}
    totals = _summary_json(usage.totals, unavailable_totals)
    return {"models": models, "totals": {**totals, "unavailable": unavailable_totals}}


def _fingerprints_json(events: Fingerprints, name: str) -> dict[str, Any]:
    return {
        "count": events.count,
        name: list(events.fingerprints),
        "unattributed_events": events.unattributed,
    }


def _report_json(report: MetricsReport) -> dict[str, Any]:
    return {
        "scope": _scope_json(report.scope),
        "catalog": report.catalog,
        "usage": _usage_json(report.usage),
        "compaction": _fingerprints_json(report.compaction, "summary_fingerprints"),
        "stable_prefix": _fingerprints_json(report.stable_prefix, "fingerprints"),
        "artifacts": {
            figures.status.value: {"count": figures.count, "bytes": figures.bytes}
            for figures in report.artifacts
        },
    }


def _import_json(result: UsageImport) -> dict[str, Any]:
    return {
        "scope": _scope_json(result.scope),
        "source": result.source,
        "format": result.transcript_format.value,
        "requests": result.requests,
        "recorded": result.recorded,
        "already_recorded": result.already_recorded,
        "synthetic_skipped": result.synthetic,
        "catalog": result.catalog,
        "usage": _usage_json(result.usage),
    }


# -- text ----------------------------------------------------------------------------------------


def _tokens_text(figure: TokenFigure) -> str:
    if figure.value is not None:
        return str(figure.value)
    return f"{UNAVAILABLE} ({figure.unavailable})"


def _cost_text(figure: CostFigure) -> str:
    if figure.usd is not None:
        return f"${_usd(figure.usd)}"
    return f"{UNAVAILABLE} ({figure.unavailable})"


def _summary_fields(summary: UsageSummary) -> list[tuple[str, object]]:
    fields: list[tuple[str, object]] = [("requests", summary.requests)]
    fields += [
        (name.removesuffix("_tokens").replace("_", " ") + " tokens", _tokens_text(figure))
        for name, figure in summary.tokens.items()
    ]
    fields += [
        (f"cost: {name.replace('_', ' ')}", _cost_text(getattr(summary.cost, name)))
        for name in COST_PARTS
    ]
    total = _cost_text(summary.cost.total)
    excludes = summary.cost.total_excludes
    if excludes and summary.cost.total.usd is not None:
        left_out = ", ".join(name.replace("_", " ") for name in excludes)
        total += f" (unavailable parts left out: {left_out})"
    fields.append(("cost: total", total))
    fields += [
        (name.replace("_", " "), _cost_text(getattr(summary.cost, name))) for name in SAVINGS_PARTS
    ]
    return fields


def _print_usage(usage: UsageReport, where: str) -> None:
    if not usage.models:
        console().print(f"no provider requests recorded {where}")
        return
    for model in usage.models:
        print_fields(
            f"{model.provider} {model.model}",
            [
                ("catalog model", model.catalog_model or UNAVAILABLE),
                ("context window", _tokens_text(model.context_window)),
                ("cache support", model.cache_support.value),
                *_summary_fields(model.summary),
            ],
        )
    if len(usage.models) > 1:
        print_fields("All models", _summary_fields(usage.totals))


def _where(scope: Scope) -> str:
    if scope.plan_id is not None:
        return f"for plan {scope.plan_id}"
    return f"in project {scope.project.name!r}" if scope.project else "in any project"


def _print_report(report: MetricsReport) -> None:
    out = console()
    out.print(f"[bold]Metrics {_where(report.scope)}[/bold] (catalog: {report.catalog})")
    _print_usage(report.usage, _where(report.scope))
    kinds = ((report.compaction, "compactions"), (report.stable_prefix, "stable prefixes"))
    for events, label in kinds:
        line = f"{label}: {events.count}"
        if events.unattributed:
            line += f" ({events.unattributed} more name no project or plan: not counted)"
        out.print(line)
        for fingerprint in events.fingerprints:
            out.print(f"  sha256 {fingerprint}")
    print_table(
        "Artifacts",
        ("status", "count", "bytes"),
        [(f.status.value, f.count, f.bytes) for f in report.artifacts],
    )


def _print_import(result: UsageImport) -> None:
    out = console()
    out.print(
        f"[bold]{result.requests} provider requests[/bold] in {result.source} "
        f"({result.transcript_format.value}): {result.recorded} recorded "
        f"{_where(result.scope)}, {result.already_recorded} recorded before"
    )
    if result.synthetic:
        out.print(f"{result.synthetic} Claude Code messages made no provider request: skipped")
    out.print(f"catalog: {result.catalog}")
    _print_usage(result.usage, f"in {result.source}")
