"""The root app builds each noun on demand: what it lists and builds is what registering every
sub-app up front (`app.add_typer`) would give, and no module's commands are left out."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import typer
import typer.main

import cleveragents.cli
from cleveragents.cli.app import NOUNS, ROOT_COMMANDS, LazyRootGroup, app, noun_app, root
from cleveragents.cli.command_classes import FlowingCommand, FlowingGroup
from cleveragents.cli.reference import render


def _eager_app() -> typer.Typer:
    """The root app as it was written before it was made lazy: every noun added up front."""
    eager = typer.Typer(
        name=app.info.name,
        cls=FlowingGroup,
        help=app.info.help,
        no_args_is_help=True,
        add_completion=True,
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
    )
    for name, (module, function) in ROOT_COMMANDS.items():
        eager.command(name, cls=FlowingCommand)(getattr(importlib.import_module(module), function))
    for name in NOUNS:
        eager.add_typer(noun_app(name), name=name)
    eager.callback()(root)
    return eager


def test_the_lazy_tree_renders_as_the_eager_one() -> None:
    # Every command's --help, in order, depth-first: the same text either way.
    assert render(app) == render(_eager_app())


def test_listing_the_commands_builds_none() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    with group.make_context("agents", ["tokens"]) as ctx:
        assert group.list_commands(ctx) == [*ROOT_COMMANDS, *NOUNS]
        assert group.commands._built == {}  # type: ignore[attr-defined]
        tokens = group.get_command(ctx, "tokens")
        assert tokens is not None
        assert tokens.name == "tokens"
        assert list(group.commands._built) == ["tokens"]  # type: ignore[attr-defined]
        assert group.get_command(ctx, "no-such-noun") is None


def _typer_apps(typer_app: typer.Typer) -> list[typer.Typer]:
    found = [typer_app]
    for group in typer_app.registered_groups:
        assert group.typer_instance is not None
        found.extend(_typer_apps(group.typer_instance))
    return found


def test_every_module_with_commands_is_reached_from_the_table() -> None:
    reachable = [sub for name in NOUNS for sub in _typer_apps(noun_app(name))]
    for info in pkgutil.iter_modules(cleveragents.cli.__path__):
        if info.name == "__main__":  # runs the CLI when imported
            continue
        module = importlib.import_module(f"cleveragents.cli.{info.name}")
        module_app = getattr(module, "app", None)
        if isinstance(module_app, typer.Typer) and module_app is not app:
            assert any(module_app is sub for sub in reachable), info.name


def test_a_command_loads_only_its_own_noun() -> None:
    probe = (
        "import sys\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        "    main(['tokens', '--help'])\n"
        "except SystemExit as exit_:\n"
        "    assert exit_.code in (0, None), exit_.code\n"
        "print(sorted(m for m in sys.modules if m.startswith('cleveragents.cli.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    loaded = result.stdout.strip().splitlines()[-1]
    nouns = {module for modules in NOUNS.values() for module in modules}
    assert "'cleveragents.cli.tokens'" in loaded
    assert [m for m in nouns - {"cleveragents.cli.tokens"} if f"'{m}'" in loaded] == []


def test_a_command_registered_the_usual_way_is_kept() -> None:
    extra = typer.Typer(cls=LazyRootGroup)
    extra.callback()(root)

    @extra.command("hello")
    def hello() -> None:
        typer.echo("hello")

    group = typer.main.get_command(extra)
    assert isinstance(group, typer.core.TyperGroup)
    with group.make_context("agents", ["hello"]) as ctx:
        assert group.list_commands(ctx) == [*ROOT_COMMANDS, *NOUNS, "hello"]
        command = group.get_command(ctx, "hello")
        assert command is not None
        assert command.name == "hello"
