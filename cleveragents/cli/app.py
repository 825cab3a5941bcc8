"""The root `agents` app: global options and one sub-app per noun, each imported when it is used.

`agents tokens count` imports and builds the `tokens` sub-app only: importing every noun's module
costs some 100 ms of CPU, and building their commands more, against some 360 ms for the whole
count. The names of the nouns live in `NOUNS` below (a test checks each module defines what is
listed), so listing the commands (typo suggestions, completion) imports nothing; showing the
root's help imports every noun, for their help texts, but builds none of their commands (some
50-100 ms of `agents --help`).

The root is a `LazyRootGroup`, the group class Typer takes through ``cls=``; each noun is built
with the app's command classes (`command_classes`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.core
import typer.main

from cleveragents import __version__
from cleveragents.cli.command_classes import FlowingCommand, FlowingGroup
from cleveragents.cli.state import state

if TYPE_CHECKING:
    from typer._click import Command, Context

# Each noun with its modules, in the order the help lists them. The first module defines the
# sub-app as `app`; the others add commands to it when imported (the artifact store's commands
# join `artifact`).
NOUNS: dict[str, tuple[str, ...]] = {
    "project": ("cleveragents.cli.project",),
    "plan": ("cleveragents.cli.plan",),
    "db": ("cleveragents.cli.db",),
    "tokens": ("cleveragents.cli.tokens",),
    "artifact": (
        "cleveragents.cli.artifact",
        "cleveragents.cli.artifact_store",
        "cleveragents.cli.artifact_inspection",
        "cleveragents.cli.artifact_retention",
    ),
    "blobs": ("cleveragents.cli.blobs",),
    "context": ("cleveragents.cli.context",),
    "metrics": ("cleveragents.cli.metrics",),
    "mcp": ("cleveragents.cli.mcp",),
    "proxy": ("cleveragents.cli.proxy",),
}
# Commands of the root itself: name -> (module, function). Typer lists a group's own commands
# before its sub-apps.
ROOT_COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("cleveragents.cli.demo", "demo"),
    "verify": ("cleveragents.cli.verify", "verify"),
    "samples": ("cleveragents.cli.samples", "samples"),
    "docs": ("cleveragents.cli.docs", "docs"),
    "models": ("cleveragents.cli.models", "models"),
}


def noun_app(name: str) -> typer.Typer:
    """The sub-app of noun `name`, its modules imported."""
    modules = [importlib.import_module(module) for module in NOUNS[name]]
    sub_app: typer.Typer = modules[0].app
    return sub_app


def _noun_command(name: str) -> Command:
    # Registered and built as `app.add_typer(sub_app, name=name)` would be, with the root's
    # settings that Typer hands down to its sub-groups.
    registrar = typer.Typer()
    registrar.add_typer(noun_app(name), name=name, cls=FlowingGroup)
    return typer.main.get_group_from_info(
        registrar.registered_groups[0],
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
        suggest_commands=app.suggest_commands,
    )


def _noun_summary(name: str) -> Command:
    """What the root's help lists of noun `name` (its name, help, panel, flags) without its
    commands: building those reads every command's signature and type hints, most of what the
    root's help would otherwise cost. Never run: only listed."""
    registrar = typer.Typer()
    registrar.add_typer(noun_app(name), name=name)
    solved = typer.main.solve_typer_info_defaults(registrar.registered_groups[0])
    return FlowingGroup(
        name=solved.name or name,
        help=solved.help,
        short_help=solved.short_help,
        hidden=solved.hidden,
        deprecated=solved.deprecated,
        rich_help_panel=solved.rich_help_panel,
    )


def _root_command(name: str) -> Command:
    module, function = ROOT_COMMANDS[name]
    registrar = typer.Typer()
    registrar.command(name, cls=FlowingCommand)(getattr(importlib.import_module(module), function))
    return typer.main.get_command_from_info(
        registrar.registered_commands[0],
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
    )


class _CommandsOnDemand(MutableMapping[str, "Command"]):
    """A group's commands by name, each built on first lookup; iterating gives the names
    without building anything. Inside `summaries_only()`, a command that has a summary (see
    `_noun_summary`) and is not built yet is looked up as its summary, for a help to list."""

    def __init__(
        self,
        builders: dict[str, Callable[[str], Command]],
        summaries: dict[str, Callable[[str], Command]],
    ) -> None:
        self._builders = builders
        self._summaries = summaries
        self._built: dict[str, Command] = {}
        self._summaries_only = False

    @contextmanager
    def summaries_only(self) -> Iterator[None]:
        self._summaries_only = True
        try:
            yield
        finally:
            self._summaries_only = False

    def __getitem__(self, name: str) -> Command:
        if self._summaries_only and name in self._summaries and name not in self._built:
            return self._summaries[name](name)
        if name not in self._built:
            if name not in self._builders:
                raise KeyError(name)
            self._built[name] = self._builders[name](name)
        return self._built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._builders.setdefault(name, lambda _name: command)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._builders[name]
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._builders)

    def __len__(self) -> int:
        return len(self._builders)


class LazyRootGroup(FlowingGroup):
    """The root group: its commands are the root's own and the nouns, built on demand."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        builders: dict[str, Callable[[str], Command]] = dict.fromkeys(ROOT_COMMANDS, _root_command)
        builders.update(dict.fromkeys(NOUNS, _noun_command))
        self._on_demand = _CommandsOnDemand(builders, dict.fromkeys(NOUNS, _noun_summary))
        for name, command in self.commands.items():  # any registered on `app` the usual way
            self._on_demand[name] = command
        self.commands = self._on_demand

    def list_commands(self, ctx: Context) -> list[str]:
        return list(self.commands)  # the names only: nothing is imported

    def format_help(self, ctx: Context, formatter: Any) -> None:
        # The root's help lists each noun by its help text: their commands are not needed.
        with self._on_demand.summaries_only():
            super().format_help(ctx, formatter)


app = typer.Typer(
    name="agents",
    cls=LazyRootGroup,
    help="cleveragents: the context engine of an AI agent orchestrator.\n\n"
    "Shell completion: agents --install-completion (bash, zsh, fish or PowerShell; "
    "nothing is downloaded), or agents --show-completion to see the script first.",
    no_args_is_help=True,
    add_completion=True,
    # Sub-commands inherit the names from their parent's context: -h works everywhere.
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
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
        typer.Option(
            "--version", "-V", callback=_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    state(ctx).database_url = db_url
