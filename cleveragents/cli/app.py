"""The root `agents` app: global options and one sub-app per noun."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
import typer.core

from cleveragents.cli import (
    artifact,
    artifact_store,
    context,
    db,
    demo,
    metrics,
    plan,
    project,
    tokens,
)
from cleveragents.cli.state import state

if TYPE_CHECKING:
    from typer._click import Context

_show_type = typer.core.TyperOption.display_type_rich


def _flag_without_type(option: typer.core.TyperOption, ctx: Context) -> str | None:
    """Typer's Rich help writes a flag's Python type beside it (``--json <bool>``), as if the
    flag took a value; it takes none, so none is shown (Click's plain help shows none either)."""
    return None if option.is_flag else _show_type(option, ctx)


typer.core.TyperOption.display_type_rich = _flag_without_type  # type: ignore[method-assign,assignment]

app = typer.Typer(
    name="agents",
    help="cleveragents: the context engine of an AI agent orchestrator.\n\n"
    "Shell completion: agents --install-completion (bash, zsh, fish or PowerShell; "
    "nothing is downloaded), or agents --show-completion to see the script first.",
    no_args_is_help=True,
    add_completion=True,
    # Sub-commands inherit the names from their parent's context: -h works everywhere.
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)
app.add_typer(project.app, name="project")
app.add_typer(plan.app, name="plan")
app.add_typer(db.app, name="db")
app.add_typer(tokens.app, name="tokens")
# `artifact` holds compress (cli/artifact.py) and the store's commands (cli/artifact_store.py,
# imported above so that they register themselves on the same sub-app).
app.add_typer(artifact.app, name="artifact")
app.add_typer(context.app, name="context")
app.add_typer(metrics.app, name="metrics")
_ = artifact_store
app.command("demo")(demo.demo)


def _version(value: bool) -> None:
    if value:
        from cleveragents import __version__

        typer.echo(f"agents {__version__}")
        raise typer.Exit


@app.callback()
def root(
    ctx: typer.Context,
    db_url: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="URL",
            help="Database URL (default: $CLEVERAGENTS_DATABASE_URL, else the SQLite file "
            "$CLEVERAGENTS_HOME/cleveragents.db, CLEVERAGENTS_HOME defaulting to ~/.cleveragents).",
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    state(ctx).database_url = db_url
