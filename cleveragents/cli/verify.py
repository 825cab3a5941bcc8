"""`agents verify`: whether what the store holds may be delivered (the delivery gates).

A thin driver over the `StoreVerifier` service: it prints one line per violation (or, with
``--json``, the report) and exits 1 when any stop condition holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from cleveragents.cli.output import JsonFlag, emit_json
from cleveragents.cli.state import state

if TYPE_CHECKING:
    from cleveragents.application.services.delivery_gates import StoreVerification
    from cleveragents.application.services.delivery_gates.store_verifier import StoreVerifier


def verify(
    ctx: typer.Context,
    project: Annotated[
        str | None,
        typer.Option("--project", metavar="NAME", help="Only this project (default: all)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Check what the store holds against the five stop conditions of delivery, and exit 1
    with one line per violation.

    Stop conditions: an artifact whose recorded path lies outside its workspace; a
    credential in a preview (rebuilt from each stored blob), in a compaction summary of a
    stored transcript or in a compaction event; a preview that lacks its output's tail
    (checked against the blob's real end and the policy's tail size); a compaction summary
    that omits unfinished work of its source; a cache figure for a model whose locked
    catalog entry has no price for that cache. Nothing is changed.

    Example: agents verify --project checkout
    """
    verifier: StoreVerifier = state(ctx).container().store_verifier()
    report = verifier.verify(project)
    if as_json:
        emit_json(report.as_dict())
    else:
        _print(report)
    if not report.passed:
        raise typer.Exit(1)


def _print(report: StoreVerification) -> None:
    for violation in report.violations:
        typer.echo(violation.line)
    for note in report.unchecked:
        typer.echo(f"not checked: {note}", err=True)
    checked = (
        f"{report.artifacts} artifact(s), {report.previews} preview(s), {report.transcripts} "
        f"stored transcript(s), {report.compaction_events} compaction event(s), "
        f"{report.usage_records} usage record(s)"
    )
    verdict = "passed" if report.passed else f"FAILED with {len(report.violations)} violation(s)"
    typer.echo(f"verify ({report.scope}): {verdict}; checked {checked}")
