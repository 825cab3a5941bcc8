"""`agents artifact ...`: artifacts compressed to a token budget for judges and agents."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from typing import Annotated

import typer

from cleveragents.cli.output import EncodingOption, emit_json

app = typer.Typer(
    help="Artifacts: compress one to an exact token budget; import, preview and retain tool "
    "output in the governed store.",
    no_args_is_help=True,
)


class Mode(StrEnum):
    SEED = "seed"
    SMART = "smart"


@app.command("compress")
def compress(
    artifact_path: Annotated[
        str,
        typer.Argument(metavar="ARTIFACT_PATH", help="Path relative to the work directory."),
    ],
    budget: Annotated[
        int, typer.Option("--budget", metavar="N", min=1, help="Token budget (>= 1).")
    ],
    task: Annotated[
        str | None,
        typer.Option(
            "--task",
            metavar="TEXT",
            help="What the reader is after: lines naming its words or identifiers are kept first.",
        ),
    ] = None,
    workdir: Annotated[
        str | None,
        typer.Option(
            "--workdir",
            metavar="DIR",
            help="Work directory (default: $CLOSEDLOOP_WORKDIR, else the current directory).",
        ),
    ] = None,
    mode: Annotated[
        Mode,
        typer.Option(
            "--mode",
            help="seed: the seed's three tiers (default). smart: structure-aware at any size.",
        ),
    ] = Mode.SEED,
    encoding: EncodingOption = "cl100k_base",
    as_json: Annotated[
        bool, typer.Option("--json", help="Accepted for symmetry: the output is always JSON.")
    ] = False,
) -> None:
    """Print the seed's JSON: artifact_name, raw_tokens, compacted_tokens, truncated, content.

    content always fits the budget, counted with the real tokenizer. A missing artifact (or a
    path that escapes the work directory) prints the seed's not-found JSON and exits 2; so does
    a binary file (with an error JSON of the same shape).

    Example: agents artifact compress build.log --budget 2000 --task "why does test_login fail"
    """
    from cleveragents.container import build_container
    from cleveragents.domain.artifact import CompressionMode

    directory = workdir or os.environ.get("CLOSEDLOOP_WORKDIR") or os.getcwd()
    service = build_container(encoding=encoding).artifact_compressor_service()
    outcome = service.compress(
        artifact_path, budget, workdir=directory, task=task, mode=CompressionMode(mode.value)
    )
    emit_json(outcome.result.model_dump())
    if outcome.error is not None:
        print(f"error: {outcome.error}", file=sys.stderr)
        raise typer.Exit(2)
