"""`agents artifact ...`: artifacts compressed to a token budget for judges and agents."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.inputs import (
    WORKSPACE_HELP,
    check_input_name,
    read_standard_input,
    workspace_root,
)
from cleveragents.cli.models import ModelOption, model_budget
from cleveragents.cli.output import EncodingOption, emit_json
from cleveragents.cli.progress import progress_line
from cleveragents.cli.state import state
from cleveragents.container import build_container
from cleveragents.domain.vocabulary import (
    DEFAULT_COMPRESSION_MODE,
    DEFAULT_ENCODING,
    CompressionMode,
    artifact_kind,
    artifact_kind_choices,
)

if TYPE_CHECKING:
    from cleveragents.application.services.artifact_compression.artifact_compressor import (
        ArtifactCompressorService,
        CompressionOutcome,
    )
    from cleveragents.domain.vocabulary import ArtifactKind

    KindChoice = ArtifactKind
else:
    # The vocabulary's kinds, with any registered before the CLI was built (a plugin's).
    KindChoice = artifact_kind_choices()

STDIN = "-"

app = AgentsTyper(
    help="Artifacts: compress one to an exact token budget; import, preview and retain tool "
    "output in the governed store.",
    no_args_is_help=True,
)


@app.command("compress")
def compress(
    ctx: typer.Context,
    budget: Annotated[
        int, typer.Option("--budget", metavar="N", min=1, help="Token budget (>= 1).")
    ],
    artifact_path: Annotated[
        str | None,
        typer.Argument(
            metavar="ARTIFACT_PATH",
            help="The file: relative to the workspace, or absolute; it must end inside the "
            "workspace (.. allowed). - reads standard input (--name gives its name). Omitted "
            "with --artifact.",
            show_default=False,
        ),
    ] = None,
    task: Annotated[
        str | None,
        typer.Option(
            "--task",
            metavar="TEXT",
            help="What the reader is after: lines naming its words or identifiers are kept first.",
        ),
    ] = None,
    workdir: Annotated[
        str | None, typer.Option("--workspace", "--workdir", metavar="DIR", help=WORKSPACE_HELP)
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="The file name standard input stands for (with -): its suffix tells the kind "
            "and a source file's language, e.g. --name core.py.",
        ),
    ] = None,
    mode: Annotated[
        CompressionMode,
        typer.Option(
            "--mode",
            help="smart: fills the budget by value at any size (a log's last error, a file's "
            "signatures, a valid JSON document), markers name the omitted lines. tiered: three "
            "tiers, whole / the kind's compressor / head cut.",
        ),
    ] = DEFAULT_COMPRESSION_MODE,
    kind: Annotated[
        KindChoice | None,
        typer.Option(
            "--kind",
            help="Compress it as this kind (default: told from its name, then its first "
            "lines). source needs a name with a source extension.",
            show_default=False,
        ),
    ] = None,
    artifact_id: Annotated[
        str | None,
        typer.Option(
            "--artifact",
            metavar="ID",
            help="Compress an artifact already in the store (its id, or sha256:HEX) instead of "
            "a file.",
        ),
    ] = None,
    store: Annotated[
        bool,
        typer.Option(
            "--store",
            help="Import the file into the artifact store first, so that what is left out can "
            "be read back: agents artifact read ID --lines A-B.",
        ),
    ] = False,
    encoding: EncodingOption = DEFAULT_ENCODING,
    model: ModelOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Accepted for symmetry: the output is always JSON.")
    ] = False,
) -> None:
    """Print the five-field JSON: artifact_name, raw_tokens, compacted_tokens, truncated, content.

    content always fits the budget, counted with the real tokenizer. A missing artifact (or a
    path that ends outside the workspace) prints the not-found JSON and exits 2; so does
    a binary file (with an error JSON of the same shape).

    ARTIFACT_PATH is relative to the workspace or absolute, and must end inside it (..
    is resolved by the text, never through a link); - reads standard input, named by --name.
    The workspace: --workspace (alias --workdir), else $CLEVERAGENTS_WORKSPACE, else
    $CLOSEDLOOP_WORKDIR, else the current directory. --artifact ID compresses an artifact
    already in the store instead. With --store or
    --artifact, each omission marker names the stored artifact and its line range, which
    agents artifact read ID --lines A-B gives back exactly.

    Example: agents artifact compress build.log --budget 2000 --task "why does test_login fail"

    Example: git diff | agents artifact compress - --budget 4000 --mode smart

    Example: cat core.py | agents artifact compress - --name core.py --budget 1500
    """
    _check_source(artifact_path, artifact_id, store, workdir)
    _check_name(artifact_path, name)
    named_kind = artifact_kind(kind.value) if kind is not None else None
    encoding, budget = model_budget(model, encoding, budget)
    container = build_container(state(ctx).database_url, encoding=encoding)
    service = container.artifact_compressor_service()
    label = f"compressing {service.redacted(artifact_id or artifact_path or '')}"
    try:
        with progress_line(label, enabled=not as_json):
            outcome = _compress(
                service,
                artifact_path,
                artifact_id,
                budget,
                task,
                mode,
                workdir,
                store,
                named_kind,
                name,
            )
    finally:
        container.store().dispose()  # opens nothing: only --store and --artifact use a database
    emit_json(outcome.result.model_dump())
    if outcome.notice is not None:
        print(f"warning: {outcome.notice}", file=sys.stderr)
    if outcome.error is not None:
        print(f"error: {outcome.error}", file=sys.stderr)
        raise typer.Exit(2)


def _compress(
    service: ArtifactCompressorService,
    artifact_path: str | None,
    artifact_id: str | None,
    budget: int,
    task: str | None,
    mode: CompressionMode,
    workdir: str | None,
    store: bool,
    kind: ArtifactKind | None,
    name: str | None = None,
) -> CompressionOutcome:
    """The compression of the one source `_check_source` let through."""
    if artifact_id is not None:
        return service.compress_stored(artifact_id, budget, task=task, mode=mode, kind=kind)
    if artifact_path == STDIN:
        data = read_standard_input()
        return service.compress_input(name or STDIN, data, budget, task=task, mode=mode, kind=kind)
    assert artifact_path is not None
    directory = workspace_root(workdir)
    return service.compress(
        artifact_path, budget, workdir=directory, task=task, mode=mode, store=store, kind=kind
    )


def _check_source(
    artifact_path: str | None, artifact_id: str | None, store: bool, workdir: str | None
) -> None:
    """One source: a file, standard input or a stored artifact; and only options that apply."""
    if artifact_path is not None and artifact_id is not None:
        raise typer.BadParameter("give ARTIFACT_PATH or --artifact ID, not both")
    if artifact_path is None and artifact_id is None:
        raise typer.BadParameter(
            "give ARTIFACT_PATH (a file, or - for standard input) or --artifact ID"
        )
    if artifact_id is not None and store:
        raise typer.BadParameter("--store imports ARTIFACT_PATH; an --artifact is already stored")
    if artifact_id is not None and workdir is not None:
        raise typer.BadParameter(
            "--workspace/--workdir applies to ARTIFACT_PATH, not to --artifact"
        )
    if artifact_path == STDIN and store:
        raise typer.BadParameter("--store imports a file; give its path instead of -")


def _check_name(artifact_path: str | None, name: str | None) -> None:
    """--name names standard input only: a file or a stored artifact has its own name."""
    if name is None:
        return
    if artifact_path != STDIN:
        raise typer.BadParameter("--name names standard input: give it with - as ARTIFACT_PATH")
    check_input_name(name)
