"""`agents --help` renders with Typer's help module but without its unused Markdown and
Traceback, and lists the nouns without building their commands: output identical either way."""

from __future__ import annotations

import subprocess
import sys

UNUSED_BY_HELP = ("rich.markdown", "rich.traceback", "rich.syntax", "pygments", "markdown_it")


def _run(program: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    return result.stdout


def test_help_loads_no_markdown_no_traceback_no_pygments() -> None:
    probe = (
        "import sys\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in sys.modules if m.startswith({UNUSED_BY_HELP!r})))\n"
    )
    output = _run(probe)
    assert "Usage" in output
    assert output.strip().splitlines()[-1] == "[]"


def test_the_deferred_classes_are_the_real_ones_when_used() -> None:
    probe = (
        "import sys\n"
        "from cleveragents.cli.app import import_help_renderer\n"
        "import_help_renderer()\n"
        "import typer.rich_utils as help_module\n"
        "print('rich.markdown' in sys.modules)\n"
        "made = help_module._make_rich_text(text='**b**', style='', markup_mode='markdown')\n"
        "import rich.markdown, rich.traceback\n"
        "print(type(made) is rich.markdown.Markdown)\n"
        "try:\n"
        "    1 / 0\n"
        "except ZeroDivisionError as error:\n"
        "    shown = help_module.Traceback.from_exception(type(error), error, None)\n"
        "print(type(shown) is rich.traceback.Traceback)\n"
    )
    assert _run(probe).split() == ["False", "True", "True"]


def test_help_is_what_typer_renders_without_the_deferral() -> None:
    program = (
        "import sys\n"
        "{prelude}\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        "    main(['context', 'compact', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    deferred = _run(program.format(prelude=""))
    eager = _run(program.format(prelude="import typer.rich_utils"))  # the module Typer imports
    assert "Usage" in deferred
    assert deferred == eager


def test_the_roots_help_lists_the_nouns_as_their_built_commands_would() -> None:
    program = (
        "import cleveragents.cli.app as cli_app\n"
        "{prelude}\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    summarised = _run(program.format(prelude=""))
    # Every noun built in full, as a lookup outside a help builds it.
    built = _run(program.format(prelude="cli_app._noun_summary = cli_app._noun_command"))
    assert "Commands" in summarised
    assert summarised == built


def test_the_roots_help_builds_no_nouns_commands() -> None:
    probe = (
        "import typer.main\n"
        "built = []\n"
        "original = typer.main.get_command_from_info\n"
        "def counting(command_info, **kwargs):\n"
        "    built.append(command_info.name)\n"
        "    return original(command_info, **kwargs)\n"
        "typer.main.get_command_from_info = counting\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(built))\n"
    )
    # The root's own commands only (each one function, no noun's sub-app built).
    from cleveragents.cli.app import ROOT_COMMANDS

    assert _run(probe).strip().splitlines()[-1] == str(sorted(ROOT_COMMANDS))
