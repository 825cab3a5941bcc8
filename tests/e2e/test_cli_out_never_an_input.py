"""No input is ever overwritten: one test of the rules for every command that takes `--out`.

Each command is described once (`OUT_COMMANDS`): how to make its input and its arguments.
`test_every_command_with_out_is_covered` walks the CLI, so a new command with `--out` that is
not described here fails it.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer

from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import Result, run


@dataclass(frozen=True)
class OutCommand:
    """A command that writes `--out`: its words, its input file, and what it writes for it
    (None: what it writes is not its input's bytes)."""

    words: tuple[str, ...]
    sample: Path
    extra: tuple[str, ...] = ()
    writes_input_unchanged: bool = False

    def args(self, source: Path, out: str) -> list[str]:
        return [*self.words, str(source), *self.extra, "--out", out]


OUT_COMMANDS = {
    "context compact": OutCommand(
        ("context", "compact"),
        TEST_DATA / "usage" / "claude-code-short.jsonl",
        writes_input_unchanged=True,  # far under the default window: not needed
    ),
    "context prefix build": OutCommand(
        ("context", "prefix", "build"), TEST_DATA / "prefix" / "prefix.yaml"
    ),
}

Naming = Callable[[Path], str]
"""How a case names the input as `--out`, given the input's path (in its own folder)."""


def _hard_link(source: Path) -> str:
    link = source.with_name("hard-link" + source.suffix)
    os.link(source, link)
    return str(link)


def _symlink(source: Path) -> str:
    link = source.with_name("symlink" + source.suffix)
    link.symlink_to(source)
    return str(link)


def _through_parent(source: Path) -> str:
    (source.parent / "sub").mkdir()
    return str(source.parent / "sub" / ".." / source.name)


def _relative(source: Path) -> str:
    return os.path.relpath(source)


SAME_FILE: dict[str, Naming] = {
    "same path": str,
    "relative path": _relative,
    "path through ..": _through_parent,
    "hard link": _hard_link,
    "symlink": _symlink,
}


@pytest.fixture(params=sorted(OUT_COMMANDS))
def command(request: pytest.FixtureRequest) -> OutCommand:
    return OUT_COMMANDS[request.param]


@pytest.fixture
def source(command: OutCommand, tmp_path: Path) -> Path:
    folder = tmp_path / "input"
    folder.mkdir()
    path = folder / command.sample.name
    shutil.copyfile(command.sample, path)
    return path


def _refused(result: Result, source: Path, before: bytes) -> None:
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "no input is ever overwritten" in lines[0]
    assert "--out" in lines[0]
    assert source.read_bytes() == before


@pytest.mark.parametrize("naming", sorted(SAME_FILE))
def test_out_naming_the_input_is_refused_before_anything_is_read(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    command: OutCommand,
    source: Path,
    naming: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(source.parent.parent)
    out = SAME_FILE[naming](source)
    # Not a transcript nor a prefix file: had it been read, the error would say so.
    source.write_bytes(b"\x00 not the command's format \xff")
    before = source.read_bytes()
    _refused(run(capsys, *command.args(source, out)), source, before)
    assert sorted(path.name for path in source.parent.iterdir() if "." in path.name[:1]) == []


def test_a_read_only_input_is_left_as_it_is(
    capsys: pytest.CaptureFixture[str], home: Path, command: OutCommand, source: Path
) -> None:
    source.chmod(0o444)
    before = source.read_bytes()
    _refused(run(capsys, *command.args(source, str(source))), source, before)
    assert stat.S_IMODE(source.stat().st_mode) == 0o444


def test_out_dash_writes_to_standard_output_and_no_file_named_dash(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    command: OutCommand,
    source: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    to_stdout = run(capsys, *command.args(source, "-"))
    to_file = run(capsys, *command.args(source, str(tmp_path / "written")))
    assert to_stdout.exit_code == 0, to_stdout.stderr
    assert to_file.exit_code == 0, to_file.stderr
    assert not (tmp_path / "-").exists()
    written = (tmp_path / "written").read_bytes()
    assert written  # something was written, and standard output holds exactly that
    assert to_stdout.stdout.encode("utf-8") == written
    assert to_stdout.stderr.strip()  # the report went to standard error


def test_what_needs_no_change_is_written_byte_for_byte(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    command: OutCommand,
    source: Path,
    tmp_path: Path,
) -> None:
    if not command.writes_input_unchanged:
        pytest.skip("this command writes something built from its input, not the input")
    out = tmp_path / "copy"
    for extra in ((), ("--keep-credentials",)):
        result = run(capsys, *command.args(source, str(out)), *extra, "--json")
        assert result.exit_code == 0, result.stderr
        assert result.json()["status"] == "not-needed"
        assert out.read_bytes() == source.read_bytes()


def test_every_command_with_out_is_covered() -> None:
    from cleveragents.cli.app import app

    found = set(_commands_with_out(typer.main.get_command(app), ()))
    assert found == set(OUT_COMMANDS)


def _commands_with_out(command: Any, words: tuple[str, ...]) -> list[str]:
    children = getattr(command, "commands", None)  # a group (typer's own click, not click's)
    if children is not None:
        return [
            name
            for word, child in children.items()
            for name in _commands_with_out(child, (*words, word))
        ]
    takes_out = any("--out" in param.opts for param in command.params)
    return [" ".join(words)] if takes_out else []
