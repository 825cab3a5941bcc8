"""Help as a user meets it: -h everywhere, no types beside flags, words the user has, completion."""

from __future__ import annotations

import re

import pytest

from cleveragents.cli.reference import iter_commands
from tests.e2e.cli_runner import run

COMMANDS = [entry.path.split()[1:] for entry in iter_commands()]

# Things a user of the installed tool does not have: the documents the product was built from
# and their scripts, and the tiered mode's former name.
FOREIGN_WORDS = re.compile(r"\bseeds?\b|seed's|count_tokens", re.IGNORECASE)

# -h on the root, a group, a leaf, a nested group and leaves that have their own options.
SAMPLE = [
    [],
    ["tokens"],
    ["tokens", "count"],
    ["project", "context", "set"],
    ["artifact", "compress"],
    ["context", "budget", "lint"],
]


@pytest.mark.parametrize("path", SAMPLE, ids=[" ".join(p) or "agents" for p in SAMPLE])
def test_dash_h_is_help_everywhere(path: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    short = run(capsys, *path, "-h")
    assert short.exit_code == 0, short.stderr
    assert "Usage: agents" in short.stdout
    assert short.stdout == run(capsys, *path, "--help").stdout


def test_every_command_lists_dash_h() -> None:
    for entry in iter_commands():
        assert re.search(r"^  -h, --help\s", entry.help, re.MULTILINE), entry.path


def test_flags_show_no_type_in_the_rich_help(capsys: pytest.CaptureFixture[str]) -> None:
    for path in COMMANDS:
        shown = run(capsys, *path, "--help").stdout
        assert "<bool>" not in shown, f"agents {' '.join(path)} --help shows <bool>"
    root = run(capsys, "--help").stdout
    assert re.search(r"--version\s+-V\s+Print the version\.", root)
    assert re.search(r"--help\s+-h\s+Show this message and exit\.", root)


def test_help_speaks_only_of_what_the_user_has() -> None:
    for entry in iter_commands():
        found = FOREIGN_WORDS.search(entry.help)
        assert found is None, f"{entry.path}: {found.group(0) if found else ''!r}"


def test_version_is_a_flag(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "--version")
    assert result.exit_code == 0
    assert re.fullmatch(r"agents \d+\.\d+\.\d+\S*\n", result.stdout)
    refused = run(capsys, "--version=yes")
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: ")


def test_shell_completion_completes_commands_and_choices(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("_AGENTS_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "agents tok")
    monkeypatch.setenv("COMP_CWORD", "1")
    assert run(
        capsys,
    ).stdout.split() == ["tokens"]
    monkeypatch.setenv("COMP_WORDS", "agents artifact compress --mode ")
    monkeypatch.setenv("COMP_CWORD", "4")
    assert run(capsys).stdout.split() == ["tiered", "smart"]


def test_the_completion_script_is_printed_offline(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where the shell can be detected (shellingham reads the process tree), --show-completion
    # is a flag; this makes it take the shell named, whatever runs the tests (a CI job, nohup).
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    shown = run(capsys, "--show-completion", "bash")
    assert shown.exit_code == 0
    assert "_AGENTS_COMPLETE=complete_bash" in shown.stdout
    assert "complete -o default -F _agents_completion agents" in shown.stdout
