"""Transcripts above the size limit: refused before they are read, in one line, exit 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cleveragents.domain import transcript_limits
from cleveragents.domain.transcript_limits import MAX_TRANSCRIPT_BYTES, MAX_TRANSCRIPT_ENV
from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import Result, run

SESSION = TEST_DATA / "usage" / "claude-code-short.jsonl"  # a real session (its README)
LIMIT = 4096
ADVICE = "(split the session or compact it earlier)"


def _refused(result: Result, *fragments: str) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def limit(monkeypatch: pytest.MonkeyPatch, home: Path) -> int:
    monkeypatch.setenv(MAX_TRANSCRIPT_ENV, str(LIMIT))
    return LIMIT


def _session_of(size: int, path: Path) -> Path:
    """A real session's first records, then a record the interface skips (a summary) padded
    so that the file is exactly `size` bytes: a valid transcript, as large as asked."""
    lines: list[str] = []
    used = 0
    for line in SESSION.read_text(encoding="utf-8").splitlines(keepends=True):
        if used + len(line.encode()) > size - 100:
            break
        lines.append(line)
        used += len(line.encode())
    filler = {"type": "summary", "summary": ""}
    filler["summary"] = "x" * (size - used - len(json.dumps(filler)) - 1)
    lines.append(json.dumps(filler) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    assert path.stat().st_size == size
    return path


def test_the_documented_limit_is_256_mib() -> None:
    assert MAX_TRANSCRIPT_BYTES == 256 * 1024 * 1024


def test_a_session_at_the_limit_is_read(
    capsys: pytest.CaptureFixture[str], limit: int, tmp_path: Path
) -> None:
    session = _session_of(limit, tmp_path / "session.jsonl")
    assert run(capsys, "context", "validate", str(session), "--json").json()["valid"]


@pytest.mark.parametrize("command", ["compact", "validate", "compare"])
def test_one_byte_over_is_refused_by_every_transcript_command(
    capsys: pytest.CaptureFixture[str], limit: int, tmp_path: Path, command: str
) -> None:
    session = _session_of(limit + 1, tmp_path / "session.jsonl")
    line = _refused(
        run(capsys, "context", command, str(session)),
        f"{session} is 4,097 bytes; transcripts above 4 KiB are refused {ADVICE}",
    )
    assert line.endswith(ADVICE)


def test_a_huge_sparse_file_is_refused_from_its_size_alone(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    """The default limit, and a 1 GiB file that takes no disk space: refused by its size,
    before a byte of it is read."""
    session = tmp_path / "session.jsonl"
    with session.open("wb") as sparse:
        sparse.truncate(1 << 30)
    _refused(
        run(capsys, "context", "compact", str(session), "--force", "--json"),
        f"{session} is 1.0 GiB; transcripts above 256 MiB are refused {ADVICE}",
    )


def test_the_limit_is_read_when_the_command_runs(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session_of(3 * 1024 * 1024, tmp_path / "session.jsonl")
    monkeypatch.setattr(transcript_limits, "MAX_TRANSCRIPT_BYTES", 2 * 1024 * 1024)
    _refused(
        run(capsys, "context", "validate", str(session)),
        "is 3.0 MiB; transcripts above 2 MiB are refused",
    )
    monkeypatch.setenv(MAX_TRANSCRIPT_ENV, str(4 * 1024 * 1024))
    assert run(capsys, "context", "validate", str(session)).exit_code == 0


@pytest.mark.parametrize("value", ["lots", "0", "-5", "1.5"])
def test_a_bad_limit_in_the_environment_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    value: str,
) -> None:
    monkeypatch.setenv(MAX_TRANSCRIPT_ENV, value)
    _refused(
        run(capsys, "context", "validate", str(SESSION)),
        f"{MAX_TRANSCRIPT_ENV} must be a positive number of bytes, got {value!r}",
    )


def test_stdin_is_read_up_to_one_byte_past_the_limit(
    capsys: pytest.CaptureFixture[str], limit: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = _session_of(limit + 1, tmp_path / "session.jsonl").read_bytes() + b"\n" * 10_000
    stream = io.BytesIO(data)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(stream))
    _refused(
        run(capsys, "context", "compact", "-", "--force"),
        f"standard input is more than 4 KiB; transcripts above 4 KiB are refused {ADVICE}",
    )
    assert stream.tell() == limit + 1  # the rest was never read

    at_limit = _session_of(limit, tmp_path / "exact.jsonl").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(at_limit)))
    assert run(capsys, "context", "validate", "-", "--json").json()["valid"]


def test_a_refused_transcript_writes_nothing(
    capsys: pytest.CaptureFixture[str], limit: int, tmp_path: Path
) -> None:
    session = _session_of(limit + 1, tmp_path / "session.jsonl")
    out = tmp_path / "compacted.jsonl"
    _refused(run(capsys, "context", "compact", str(session), "--force", "--out", str(out)))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["session.jsonl"]

    out.write_text("kept\n")
    _refused(run(capsys, "context", "compact", str(session), "--force", "--out", str(out)))
    assert out.read_text() == "kept\n"


def test_other_files_are_not_limited(
    capsys: pytest.CaptureFixture[str], limit: int, tmp_path: Path
) -> None:
    """The limit is for transcripts: counting the tokens of a larger file still works."""
    text = tmp_path / "notes.txt"
    text.write_text("word " * limit)
    assert run(capsys, "tokens", "count", str(text)).exit_code == 0
