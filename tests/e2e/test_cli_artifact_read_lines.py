"""`agents artifact read ID --lines A-B`: the stored lines, raw, byte for byte."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from cleveragents.cli.main import main

DATA = b"alpha\r\nbeta\n\ngamma \xe9\r\nlast, no newline"


@dataclass(frozen=True)
class BinaryResult:
    exit_code: int
    stdout: bytes
    stderr: str


def run_binary(capsysbinary: pytest.CaptureFixture[bytes], *args: str) -> BinaryResult:
    """The CLI in-process, as `tests/e2e/cli_runner.py` runs it, keeping stdout as bytes."""
    capsysbinary.readouterr()
    try:
        main(list(args))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    else:  # pragma: no cover - main always exits
        code = 0
    captured = capsysbinary.readouterr()
    return BinaryResult(code, captured.out, captured.err.decode())


@pytest.fixture
def artifact_id(capsysbinary: pytest.CaptureFixture[bytes], home: Path, tmp_path: Path) -> str:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "out.log").write_bytes(DATA)
    imported = run_binary(
        capsysbinary, "artifact", "import", "out.log", "--workspace", str(workspace), "--json"
    )
    assert imported.exit_code == 0, imported.stderr
    identifier: str = json.loads(imported.stdout)["artifact"]["id"]
    return identifier


def _lines(capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, span: str) -> bytes:
    result = run_binary(capsysbinary, "artifact", "read", artifact_id, "--lines", span)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("1-1", b"alpha\r\n"),
        ("1", b"alpha\r\n"),
        ("2-3", b"beta\n\n"),
        ("4", b"gamma \xe9\r\n"),
        ("5", b"last, no newline"),
        ("1-5", DATA),
        ("3-999999", b"\ngamma \xe9\r\nlast, no newline"),
        ("6", b""),
        ("4-", b"gamma \xe9\r\nlast, no newline"),
        ("6-", b""),
        (" 2 - 3 ", b"beta\n\n"),
    ],
)
def test_lines_are_written_raw(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, span: str, expected: bytes
) -> None:
    assert _lines(capsysbinary, artifact_id, span) == expected


def test_every_line_read_back_is_the_file(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str
) -> None:
    pieces = [_lines(capsysbinary, artifact_id, str(n)) for n in range(1, 6)]
    assert b"".join(pieces) == DATA
    assert (
        _lines(capsysbinary, artifact_id, "1-2") + _lines(capsysbinary, artifact_id, "3-5") == DATA
    )


@pytest.mark.parametrize(
    ("span", "says"),
    [
        ("abc", "Invalid value for --lines: expected A-B, A- or A"),
        ("1--", "Invalid value for --lines: expected A-B, A- or A"),
        ("-3", "Invalid value for --lines: expected A-B, A- or A"),
        ("1-2-3", "Invalid value for --lines: expected A-B, A- or A"),
        ("", "Invalid value for --lines: expected A-B, A- or A"),
        ("0-", "line range"),
        ("0-3", "line range"),
        ("0", "line range"),
        ("5-2", "line range"),
    ],
)
def test_a_malformed_range_is_one_line_and_exit_2(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, span: str, says: str
) -> None:
    result = run_binary(capsysbinary, "artifact", "read", artifact_id, "--lines", span)
    assert result.exit_code == 2
    assert result.stdout == b""
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "other", [["--offset", "0"], ["--length", "5"], ["--offset", "1", "--length", "2"]]
)
def test_lines_and_byte_ranges_exclude_each_other(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, other: list[str]
) -> None:
    result = run_binary(capsysbinary, "artifact", "read", artifact_id, "--lines", "1-2", *other)
    assert result.exit_code == 2
    assert result.stdout == b""
    assert "not both" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_byte_ranges_work_as_before(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str
) -> None:
    whole = run_binary(capsysbinary, "artifact", "read", artifact_id)
    assert (whole.exit_code, whole.stdout) == (0, DATA)
    part = run_binary(
        capsysbinary, "artifact", "read", artifact_id, "--offset", "7", "--length", "4"
    )
    assert (part.exit_code, part.stdout) == (0, b"beta")


def test_an_unknown_artifact_is_one_line_and_exit_2(
    capsysbinary: pytest.CaptureFixture[bytes], home: Path
) -> None:
    result = run_binary(
        capsysbinary, "artifact", "read", "01J00000000000000000000000", "--lines", "1-2"
    )
    assert result.exit_code == 2
    assert result.stdout == b""
    assert "unknown artifact" in result.stderr
