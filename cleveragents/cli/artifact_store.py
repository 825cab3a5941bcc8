"""`agents artifact import|temp-output`: output into the governed store, and what the
store's commands share (`list`, `show`, `preview` and `read` are in artifact_inspection.py,
`hold` and `cleanup` in artifact_retention.py)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress

from cleveragents.cli.artifact import STDIN, app
from cleveragents.cli.artifact_views import artifact_view, preview_view, render_preview
from cleveragents.cli.inputs import (
    WORKSPACE_HELP,
    check_input_name,
    read_standard_input,
    workspace_root,
)
from cleveragents.cli.output import JsonFlag, emit_json
from cleveragents.cli.state import state
from cleveragents.domain.vocabulary import SecretHandling

if TYPE_CHECKING:
    from cleveragents.application.services.artifact_store.artifact_store import (
        ArtifactStore,
        ImportResult,
    )

PROGRESS_MIN_BYTES = 16 << 20
READ_BYTES = 65536
MAX_REFERENCE_CHARS = 1024

ProjectOption = Annotated[
    str | None,
    typer.Option(
        "--project", metavar="NAME", help="Owner project (default: the plan's, else 'default')."
    ),
]
PlanOption = Annotated[
    str | None, typer.Option("--plan", metavar="ID", help="The plan the output belongs to.")
]
IdArgument = Annotated[
    str,
    typer.Argument(
        metavar="ID", help="The artifact's id, or sha256:HEX (the oldest stored with that content)."
    ),
]


def store_of(ctx: typer.Context) -> ArtifactStore:
    store: ArtifactStore = state(ctx).container().artifact_store()
    return store


@app.command("import")
def import_artifact(
    ctx: typer.Context,
    path: Annotated[
        str | None,
        typer.Argument(
            metavar="PATH",
            help="A file: relative to the workspace, or absolute; it must end inside the "
            "workspace (.. allowed). - reads standard input, stored as tool-output/NAME "
            "(--name).",
        ),
    ] = None,
    workspace: Annotated[
        str | None,
        typer.Option("--workspace", "--workdir", metavar="DIR", help=WORKSPACE_HELP),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="The name of what standard input holds (with -), e.g. build.log: its suffix "
            "tells the media type.",
        ),
    ] = None,
    reference: Annotated[
        str | None,
        typer.Option(
            "--ref",
            metavar="REF",
            help="Import a trusted tool's temporary output; - reads the reference from stdin "
            "(keeps it out of the process list).",
        ),
    ] = None,
    project: ProjectOption = None,
    plan: PlanOption = None,
    secrets: Annotated[
        str,
        typer.Option(
            "--secrets",
            metavar="|".join(SecretHandling),
            help="Output with a suspected credential (in it or in its name): block it "
            "(nothing stored, exit 2), or redact it (stored with each credential replaced by "
            "[REDACTED:<kind>], the findings recorded).",
        ),
    ] = SecretHandling.BLOCK.value,
    allowlist: Annotated[
        str | None,
        typer.Option(
            "--allowlist",
            metavar="FILE",
            envvar="CLEVERAGENTS_SECRETS_ALLOWLIST",
            help="Secret allowlist (TOML: fingerprints and rules). Default: "
            "secrets-allow.toml in the workspace's .cleveragents folder, if there is one.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Import tool output into the store: streamed, hashed, scanned for credentials.

    Prints a bounded preview (head and tail) and the artifact's id; output with a suspected
    credential is blocked (nothing stored, exit 2) unless --secrets redact. The notice gives
    each finding's fingerprint, for the allowlist; a line of a PATH file that holds
    cleveragents:allow-secret is not reported (in --ref output or standard input it counts
    for nothing).

    PATH is relative to the workspace or absolute, and must end inside it (.. is resolved by
    the text, never through a link). The workspace: --workspace (alias --workdir), else
    $CLEVERAGENTS_WORKSPACE, else $CLOSEDLOOP_WORKDIR, else the current directory.

    Example: agents artifact import build/test-output.log --plan $PLAN

    Example: pytest 2>&1 | agents artifact import - --name pytest.log

    Example: agents artifact import build/env-dump.txt --secrets redact
    """
    try:
        handling = SecretHandling(secrets)
    except ValueError:
        expected = " or ".join(SecretHandling)
        raise typer.BadParameter(
            f"expected {expected}, got {secrets!r}", param_hint="--secrets"
        ) from None

    if (path is None) == (reference is None):
        raise typer.BadParameter("give exactly one of PATH or --ref REF")
    if reference is not None and workspace is not None:
        raise typer.BadParameter("--workspace applies to PATH, not to --ref")
    _check_stdin_source(path, name, workspace)
    if reference == "-":
        reference = _reference_from_stdin()
    root = workspace_root(workspace)
    store = store_of(ctx)
    with _progress(path, root) as progress:
        if path == STDIN:
            assert name is not None
            result = store.import_output(
                read_standard_input(),
                name,
                project=project,
                plan_id=plan,
                secrets=handling,
                allowlist=allowlist,
            )
        elif reference is not None:
            result = store.import_temp_output(
                reference,
                project=project,
                plan_id=plan,
                progress=progress,
                secrets=handling,
                allowlist=allowlist,
            )
        else:
            assert path is not None
            result = store.import_file(
                root,
                path,
                project=project,
                plan_id=plan,
                progress=progress,
                secrets=handling,
                allowlist=allowlist,
            )
    _report_import(result, as_json)
    if result.blocked:
        print(f"error: {result.notice}", file=sys.stderr)
        raise typer.Exit(2)
    if result.redacted:
        print(f"note: {result.notice}", file=sys.stderr)


@app.command("temp-output")
def temp_output(
    ctx: typer.Context,
    tool: Annotated[str, typer.Option("--tool", metavar="NAME", help="The trusted tool.")],
    as_json: JsonFlag = False,
) -> None:
    """Issue a file for a trusted tool's output and the single-use reference that imports it.

    Example: agents artifact temp-output --tool pytest --json
    """
    grant = store_of(ctx).create_temp_output(tool)
    if as_json:
        emit_json(
            {
                "reference": grant.reference,
                "path": grant.path,
                "tool": grant.tool_name,
                "expires_at": grant.expires_at.isoformat(),
            }
        )
        return
    typer.echo(f"write the output to: {grant.path}")
    typer.echo(f"then import it with: agents artifact import --ref {grant.reference}")
    typer.echo(f"(single use, expires {grant.expires_at.isoformat()})")


def _report_import(result: ImportResult, as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "status": result.artifact.status.value,
                "notice": result.notice,
                "redacted": result.redacted,
                "fingerprints": list(result.fingerprints),
                "artifact": artifact_view(result.artifact),
                "preview": None if result.preview is None else preview_view(result.preview),
            }
        )
        return
    if result.preview is not None:
        typer.echo(render_preview(result.preview))


def _check_stdin_source(path: str | None, name: str | None, workspace: str | None) -> None:
    """`-` needs --name (what it is called decides its media type and is stored), and takes
    no workspace; --name goes with `-` only (a file has its own)."""
    if path != STDIN:
        if name is not None:
            raise typer.BadParameter("--name names standard input: give it with - as PATH")
        return
    if name is None:
        raise typer.BadParameter(
            "- reads standard input: name it with --name (e.g. --name build.log)"
        )
    check_input_name(name)
    if workspace is not None:
        raise typer.BadParameter("--workspace applies to a PATH file, not to standard input")


def _reference_from_stdin() -> str:
    """The first line of standard input, bounded: a reference is under 100 characters, and a
    stream without a newline must not be read whole."""
    line = sys.stdin.readline(MAX_REFERENCE_CHARS + 1)
    if len(line.rstrip("\r\n")) > MAX_REFERENCE_CHARS:
        raise typer.BadParameter(
            f"the reference on standard input is longer than {MAX_REFERENCE_CHARS} characters",
            param_hint="--ref",
        )
    return line.strip()


class _NoProgress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None


def _progress(path: str | None, workspace: str) -> Any:
    """A progress bar on stderr for imports of 16 MiB or more (stdout stays clean)."""
    if path is None or path == STDIN or not sys.stderr.isatty():
        return _NoProgress()
    full = os.path.join(workspace, path)
    try:
        size = os.path.getsize(full)
    except OSError:
        return _NoProgress()
    if size < PROGRESS_MIN_BYTES:
        return _NoProgress()

    @contextlib.contextmanager
    def bar() -> Any:
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("importing", total=size)
            yield lambda done: progress.update(task, completed=done)

    return bar()
