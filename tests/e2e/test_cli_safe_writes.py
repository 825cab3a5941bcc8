"""Every `--out` goes through one safe write: a planted staging symlink is not followed, a FIFO
is written and stays a FIFO (the stand-in for /dev/null, which tests never write to)."""

from __future__ import annotations

import json
import stat
from hashlib import sha256
from pathlib import Path

import pytest

from tests.e2e.cli_runner import run
from tests.e2e.test_cli_context import anthropic_conversation
from tests.e2e.test_cli_context_prefix import YAML
from tests.fifo_reader import FifoReader


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / "conversation.json"
    path.write_text(json.dumps(anthropic_conversation(6)))
    return path


def test_compact_never_follows_a_symlink_planted_at_the_staging_name(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / ".out.json.partial").symlink_to(victim)
    out = tmp_path / "out.json"
    result = run(capsys, "context", "compact", str(transcript), "--force", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert victim.read_bytes() == b"precious"
    assert len(json.loads(out.read_text())["messages"]) < 24


def test_compact_writes_into_a_fifo_and_leaves_it_a_fifo(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path
) -> None:
    reader = FifoReader(tmp_path / "pipe")
    result = run(
        capsys, "context", "compact", str(transcript), "--force", "--out", str(reader.path)
    )
    received = reader.join()
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(received)["messages"]) < 24
    assert stat.S_ISFIFO(reader.path.lstat().st_mode)


def test_prefix_build_writes_into_a_fifo_and_leaves_it_a_fifo(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    reader = FifoReader(tmp_path / "pipe")
    result = run(capsys, "context", "prefix", "build", YAML, "--out", str(reader.path))
    received = reader.join()
    assert result.exit_code == 0, result.stderr
    assert sha256(received).hexdigest() == result.stdout.split()[1]
    assert stat.S_ISFIFO(reader.path.lstat().st_mode)


def test_prefix_build_never_follows_a_symlink_planted_at_the_old_staging_name(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / ".prefix.txt.partial").symlink_to(victim)
    out = tmp_path / "prefix.txt"
    result = run(capsys, "context", "prefix", "build", YAML, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert victim.read_bytes() == b"precious"
    assert sha256(out.read_bytes()).hexdigest() == result.stdout.split()[1]


@pytest.mark.parametrize("command", ["compact", "prefix"])
def test_an_out_that_is_a_dangling_symlink_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], home: Path, transcript: Path, tmp_path: Path, command: str
) -> None:
    out = tmp_path / "out"
    out.symlink_to(tmp_path / "elsewhere")
    args = (
        ["context", "compact", str(transcript), "--force"]
        if command == "compact"
        else ["context", "prefix", "build", YAML]
    )
    result = run(capsys, *args, "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {out} is a symbolic link to nothing; not written through it"
    ]
    assert not (tmp_path / "elsewhere").exists()
