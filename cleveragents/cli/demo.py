"""`agents demo`: the whole job on the packaged samples, in a temporary SQLite store.

The steps and their figures come from the `DemoTour` service; this module builds it from the
container and prints what it returns (one record per step, the same in text and in JSON).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.cli.output import emit_json
from cleveragents.container import build_container
from cleveragents.samples import API_RESPONSE, DIFF, LOG, SESSION, read_sample

if TYPE_CHECKING:
    from cleveragents.application.services.demo_tour import (
        CompactionStep,
        DemoTour,
        ImportStep,
        LogStep,
        MetricsStep,
        SkeletonStep,
        TourStep,
    )
    from cleveragents.container import Container


def demo(
    as_json: Annotated[bool, typer.Option("--json", help="Print the steps as JSON.")] = False,
) -> None:
    """Run the whole job on small real samples that ship with the package (a Hadoop log, a
    click diff, a GitHub API response, a Claude Code session), in a temporary SQLite store
    that is deleted afterwards.

    Five steps, each with its tokens before and after: a child plan spawned with a skeleton
    of its parent's decisions; the log compressed to 600 tokens with its last ERROR line
    kept; tool output imported (with a credential, made at run time: blocked; clean: stored,
    a bounded preview and its handle); the session compacted, with what it recovered; the
    project's metrics.

    Example: agents demo --json
    """
    with tempfile.TemporaryDirectory(prefix="cleveragents-demo-") as home:
        container = build_container(f"sqlite:///{Path(home) / 'demo.db'}", home=Path(home))
        try:
            steps = _tour(container).run(_samples())
        finally:
            container.store().dispose()
    if as_json:
        emit_json([step.as_dict() for step in steps])
        return
    for step in steps:
        for line in _render(step):
            typer.echo(line)


def _tour(container: Container) -> DemoTour:
    tour: DemoTour = container.demo_tour()  # the container is untyped: say what it gives
    return tour


def _samples() -> Any:
    # Here, not at the top: every service of the tour: ~430 ms of CPU on `agents --help`.
    from cleveragents.application.services.demo_tour import TourSamples

    return TourSamples(
        log=read_sample(LOG),
        diff=read_sample(DIFF),
        api_response=read_sample(API_RESPONSE),
        session=read_sample(SESSION),
    )


# -- text ----------------------------------------------------------------------------------------


def _render(step: TourStep) -> list[str]:
    render: Callable[[Any], tuple[str, list[str]]] = _RENDERERS[step.name]
    title, details = render(step)
    head = f"{step.number}. {title}: {step.tokens_before} -> {step.tokens_after} tokens"
    return [head, *(f"   {line}" for line in details)]


def _skeleton(step: SkeletonStep) -> tuple[str, list[str]]:
    total = 0
    ranked = []
    for fragment in step.fragments:  # in rank order: a skipped one does not stop the next
        if fragment.kept:
            total += fragment.tokens
            ranked.append(f"{fragment.fragment_id} ({fragment.tokens}) kept")
        else:
            ranked.append(
                f"{fragment.fragment_id} ({fragment.tokens}) skipped: "
                f"{total + fragment.tokens} > {step.budget}"
            )
    details = [
        f"budget {step.tokens_before} * (1 - {step.ratio}) = {step.budget}; by relevance: "
        + ", ".join(ranked)
    ]
    return f"child plan spawned with a skeleton (ratio {step.ratio})", details


def _log(step: LogStep) -> tuple[str, list[str]]:
    kept = "kept" if step.last_error_kept else "LOST"
    head_cut = "loses it" if not step.head_cut_keeps_last_error else "keeps it too"
    details = [
        f"last ERROR line {kept} (a head cut to the same budget {head_cut}):",
        f"   {step.last_error_line.rstrip()}",
    ]
    return f"{step.artifact_name} compressed to a {step.budget}-token budget (smart)", details


def _imports(step: ImportStep) -> tuple[str, list[str]]:
    blocked, stored = step.blocked, step.stored
    lines = ", ".join(str(line) for line in blocked.lines)
    details = [
        f"blocked: {blocked.workspace_path} holds a credential ({', '.join(blocked.kinds)} "
        f"on line {lines}); nothing stored, audit row {blocked.audit_row}",
        f"stored: {stored.workspace_path}, {stored.byte_count} bytes, handle "
        f"{stored.artifact_id}; the model gets {stored.head_bytes} + {stored.tail_bytes} bytes "
        f"of preview, the {stored.omitted_bytes} from offset {stored.omitted_offset} stay "
        "readable by the handle",
    ]
    return "tool output imported into the artifact store", details


def _compaction(step: CompactionStep) -> tuple[str, list[str]]:
    recovered = ", ".join(
        f"{entry.category.replace('_', ' ')} {entry.recovered}/{entry.total}"
        for entry in step.recovery
    )
    details = [
        f"{step.status}: folded {step.folded_messages} messages into a {step.summary_tokens}-"
        f"token summary, kept the last {step.kept_messages} verbatim",
        f"latest request: {step.latest_request!r}",
        f"recovered: {recovered}",
    ]
    title = (
        f"Claude Code session of {step.messages} messages compacted (threshold {step.threshold})"
    )
    return title, details


def _metrics(step: MetricsStep) -> tuple[str, list[str]]:
    cost = (
        f"${step.cost_usd}"
        if step.cost_usd is not None
        else f"unavailable ({step.cost_unavailable})"
    )
    details = [
        f"{step.requests} provider requests recorded from the session: input "
        f"{step.input_tokens}, cache read {step.cache_read_tokens}, cache write "
        f"{step.cache_write_tokens}, output {step.output_tokens} tokens; cost {cost}",
        f"compactions: {step.compactions}; artifacts: {step.artifacts_stored} stored "
        f"({step.artifact_bytes_stored} bytes), {step.artifacts_blocked} blocked",
    ]
    return "metrics of the project (tokens: the steps above, summed)", details


_RENDERERS: dict[str, Callable[[Any], tuple[str, list[str]]]] = {
    "skeleton": _skeleton,
    "log": _log,
    "imports": _imports,
    "compaction": _compaction,
    "metrics": _metrics,
}
