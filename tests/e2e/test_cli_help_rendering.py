"""`agents --help` lists the nouns without building their commands: output identical to the
help of the root with every noun built."""

from __future__ import annotations

import subprocess
import sys


def _run(program: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    return result.stdout


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
