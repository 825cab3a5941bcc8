"""Progress lines: on stderr, on a terminal only, never with --json; stdout never changes."""

from __future__ import annotations

import io
import os
import pty
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cleveragents.cli.progress import DELAY_ENV, ProgressLine, delay_seconds, progress_line
from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import run

LOG = TEST_DATA / "HDFS_head.log"


@pytest.fixture
def terminal_stderr(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """Call it in the test (pytest gives stderr back to capsys between set-up and the test) to
    make stderr a pseudo-terminal; it returns the other end, to read what was drawn."""
    ends = pty.openpty()
    writer = open(ends[1], "w", encoding="utf-8", closefd=True)  # noqa: SIM115

    def attach() -> int:
        monkeypatch.setattr(sys, "stderr", writer)
        return ends[0]

    monkeypatch.setenv(DELAY_ENV, "0")  # at once: the test does not wait for slow work
    yield attach
    writer.close()
    os.close(ends[0])


def _drawn(main_end: int) -> str:
    os.set_blocking(main_end, False)
    chunks = []
    while True:
        try:
            chunk = os.read(main_end, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8")


def test_nothing_is_shown_when_stderr_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DELAY_ENV, "0")
    result = run(capsys, "tokens", "count", str(LOG))
    assert result.exit_code == 0
    assert result.stderr == ""


def test_a_terminal_shows_the_count_progress_and_stdout_is_unchanged(
    capsys: pytest.CaptureFixture[str], terminal_stderr: Callable[[], int]
) -> None:
    plain = run(capsys, "tokens", "count", str(LOG)).stdout
    terminal = terminal_stderr()
    with_terminal = run(capsys, "tokens", "count", str(LOG))
    drawn = _drawn(terminal)
    # Drawn at once, before anything was read (the delay is 0); the size is the file's.
    size = f"{LOG.stat().st_size / 1e6:.1f} MB"
    assert drawn.startswith(f"\rcounting {LOG}: 0.0 MB of {size} (0%)")
    assert drawn.endswith("\r")  # erased: what follows starts on a clean line
    assert with_terminal.stdout == plain
    assert with_terminal.stdout.startswith('{\n  "input_tokens": ')


def test_json_shows_no_progress_even_on_a_terminal(
    capsys: pytest.CaptureFixture[str], terminal_stderr: Callable[[], int]
) -> None:
    terminal = terminal_stderr()
    result = run(capsys, "tokens", "count", str(LOG), "--json")
    assert result.exit_code == 0
    assert _drawn(terminal) == ""


def test_a_terminal_shows_the_compress_progress(
    capsys: pytest.CaptureFixture[str], terminal_stderr: Callable[[], int], home: Path
) -> None:
    terminal = terminal_stderr()
    result = run(
        capsys, "artifact", "compress", LOG.name, "--budget", "100", "--workdir", str(TEST_DATA)
    )
    assert result.json()["artifact_name"] == LOG.name
    drawn = _drawn(terminal)
    assert f"\rcompressing {LOG.name}: " in drawn
    assert (
        run(
            capsys,
            "artifact",
            "compress",
            LOG.name,
            "--budget",
            "100",
            "--workdir",
            str(TEST_DATA),
            "--json",
        ).stdout
        == result.stdout
    )
    assert _drawn(terminal) == ""


def test_the_line_says_how_far_the_work_has_got() -> None:
    line = ProgressLine("counting big.log", io.StringIO(), 4_000_000, delay=10, visible=True)
    line.advance(1_000_000)
    assert line.describe() == "counting big.log: 1.0 MB of 4.0 MB (25%), 0 s"
    assert ProgressLine("compacting s.jsonl", io.StringIO(), None, 10, True).describe() == (
        "compacting s.jsonl: 0 s"
    )


def test_the_line_is_drawn_once_the_delay_has_passed_and_erased_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv(DELAY_ENV, raising=False)
    stream = Terminal()
    with progress_line("counting x", total_bytes=10, stream=stream) as line:
        line.advance(10)
    assert stream.getvalue() == ""  # ended long before the default delay
    monkeypatch.setenv(DELAY_ENV, "0")
    with progress_line("counting x", total_bytes=10, stream=stream) as line:
        line.advance(10)
    drawn = stream.getvalue()
    assert drawn.startswith("\rcounting x: 0.0 MB of 0.0 MB (0%), 0 s")
    assert drawn.endswith("\r" + " " * len("counting x: 0.0 MB of 0.0 MB (0%), 0 s") + "\r")


@pytest.mark.parametrize(
    ("configured", "delay"),
    [("", 2.0), ("0", 0.0), ("0.5", 0.5), ("soon", 2.0), ("-1", 2.0), ("nan", 2.0)],
)
def test_the_delay_can_be_configured(
    configured: str, delay: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DELAY_ENV, configured)
    assert delay_seconds() == delay


def test_a_terminal_shows_the_compaction_and_comparison_progress(
    capsys: pytest.CaptureFixture[str], terminal_stderr: Callable[[], int], home: Path
) -> None:
    transcript = TEST_DATA / "transcripts" / "anthropic-messages.json"
    plain = run(capsys, "context", "compact", str(transcript), "--force")
    terminal = terminal_stderr()
    shown = run(capsys, "context", "compact", str(transcript), "--force")
    assert f"\rcompacting {transcript}: " in _drawn(terminal)
    assert shown.stdout == plain.stdout
    assert run(capsys, "context", "compare", str(transcript)).exit_code == 0
    assert f"\rcomparing strategies on {transcript}: " in _drawn(terminal)
    assert run(capsys, "context", "compare", str(transcript), "--json").exit_code == 0
    assert _drawn(terminal) == ""
