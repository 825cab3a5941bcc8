"""docs/cli.md is generated from the commands' --help; these tests fail when the two drift."""

from __future__ import annotations

import re
from pathlib import Path

from cleveragents.cli.reference import iter_commands, render

CLI_REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_cli_reference_is_up_to_date() -> None:
    committed = CLI_REFERENCE.read_text(encoding="utf-8") if CLI_REFERENCE.is_file() else ""
    assert committed == render(), "docs/cli.md differs from the CLI's --help: run `make docs`"


def test_every_command_is_documented() -> None:
    text = CLI_REFERENCE.read_text(encoding="utf-8")
    documented = set(re.findall(r"^## (agents(?: [\w-]+)*)$", text, re.MULTILINE))
    commands = [entry.path for entry in iter_commands()]
    assert "agents plan spawn" in commands
    assert "agents project context set" in commands
    missing = [path for path in commands if path not in documented]
    assert not missing, f"commands missing from docs/cli.md: {missing}; run `make docs`"


def test_every_command_help_is_plain_text_at_a_fixed_width() -> None:
    for entry in iter_commands():
        assert entry.help.startswith(f"Usage: {entry.path} "), entry.path
        assert "\x1b" not in entry.help, f"ANSI escapes in the help of {entry.path}"
        assert not set(entry.help) & set("╭╮╰╯│─"), f"box drawing in the help of {entry.path}"
        assert all(len(line) <= 100 for line in entry.help.splitlines()), entry.path


def test_rendering_is_deterministic() -> None:
    assert render() == render()
