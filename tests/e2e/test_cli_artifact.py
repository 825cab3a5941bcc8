"""`agents artifact compress`: the seed's JSON contract through the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.cli_runner import Result, run

FIELDS = ["artifact_name", "raw_tokens", "compacted_tokens", "truncated", "content"]


def _parsed(result: Result) -> dict[str, object]:
    data = json.loads(result.stdout)
    assert list(data) == FIELDS
    return data  # type: ignore[no-any-return]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    (root / "logs").mkdir(parents=True)
    lines = [f"2024-01-01 00:00:{i % 60:02d} INFO step {i} ok" for i in range(400)]
    lines[399] = "2024-01-01 00:06:39 ERROR step 399 failed: disk full"
    (root / "logs" / "run.log").write_text("\n".join(lines) + "\n")
    return root


def test_compress_prints_the_seed_json(capsys: pytest.CaptureFixture[str], workdir: Path) -> None:
    result = run(
        capsys, "artifact", "compress", "logs/run.log", "--budget", "200", "--workdir", str(workdir)
    )
    assert result.exit_code == 0, result.stderr
    data = _parsed(result)
    assert data["artifact_name"] == "logs/run.log"
    assert data["truncated"] is True
    assert isinstance(data["compacted_tokens"], int)
    assert data["compacted_tokens"] <= 200

    smart = _parsed(
        run(
            capsys,
            "artifact",
            "compress",
            "logs/run.log",
            "--budget",
            "200",
            "--workdir",
            str(workdir),
            "--mode",
            "smart",
        )
    )
    assert "disk full" in str(smart["content"])


def test_workdir_comes_from_the_environment_then_the_current_directory(
    capsys: pytest.CaptureFixture[str], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOSEDLOOP_WORKDIR", str(workdir))
    assert run(capsys, "artifact", "compress", "logs/run.log", "--budget", "50").exit_code == 0
    monkeypatch.delenv("CLOSEDLOOP_WORKDIR")
    monkeypatch.chdir(workdir / "logs")
    assert run(capsys, "artifact", "compress", "run.log", "--budget", "50").exit_code == 0


@pytest.mark.parametrize(
    "path", ["missing.log", "../outside.txt", "/etc/hostname", "logs/../../outside.txt", "link"]
)
def test_missing_or_escaping_paths_give_the_not_found_response(
    capsys: pytest.CaptureFixture[str], workdir: Path, path: str
) -> None:
    (workdir.parent / "outside.txt").write_text("secret outside the work directory\n")
    (workdir / "link").symlink_to(workdir.parent / "outside.txt")
    result = run(capsys, "artifact", "compress", path, "--budget", "100", "--workdir", str(workdir))
    assert result.exit_code == 2
    data = _parsed(result)
    location = path if path.startswith("/") else f"{workdir.resolve()}/{path}"
    assert data == {
        "artifact_name": path,
        "raw_tokens": 0,
        "compacted_tokens": 0,
        "truncated": True,
        "content": f"[ERROR: artifact not found at {location}]",
    }
    assert "secret" not in result.stdout
    assert result.stderr.startswith("error: artifact not found at ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_binary_and_invalid_utf8(capsys: pytest.CaptureFixture[str], workdir: Path) -> None:
    (workdir / "blob.bin").write_bytes(b"\x00\x01\x02binary")
    result = run(
        capsys, "artifact", "compress", "blob.bin", "--budget", "100", "--workdir", str(workdir)
    )
    assert result.exit_code == 2
    assert "binary" in result.stderr
    assert _parsed(result)["truncated"] is True

    (workdir / "latin1.txt").write_bytes("caf\xe9 cr\xe8me\n".encode("latin-1"))
    decoded = _parsed(
        run(
            capsys,
            "artifact",
            "compress",
            "latin1.txt",
            "--budget",
            "100",
            "--workdir",
            str(workdir),
        )
    )
    assert decoded["content"] == "caf\ufffd cr\ufffdme\n"


@pytest.mark.parametrize("budget", ["0", "-5", "abc"])
def test_bad_budget_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], workdir: Path, budget: str
) -> None:
    result = run(
        capsys,
        "artifact",
        "compress",
        "logs/run.log",
        "--budget",
        budget,
        "--workdir",
        str(workdir),
    )
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_workdir_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    result = run(
        capsys,
        "artifact",
        "compress",
        "x.log",
        "--budget",
        "10",
        "--workdir",
        str(tmp_path / "nope"),
    )
    assert result.exit_code == 2
    assert "work directory not found" in result.stderr


def test_large_artifacts_are_streamed(
    capsys: pytest.CaptureFixture[str], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cleveragents.application.services.artifact_compression import artifact_compressor

    monkeypatch.setattr(artifact_compressor, "LARGE_ARTIFACT_BYTES", 1024)
    whole = _parsed(
        run(
            capsys,
            "artifact",
            "compress",
            "logs/run.log",
            "--budget",
            "150",
            "--workdir",
            str(workdir),
            "--mode",
            "smart",
        )
    )
    assert "disk full" in str(whole["content"])
    assert whole["compacted_tokens"] <= 150  # type: ignore[operator]
    seed = _parsed(
        run(
            capsys,
            "artifact",
            "compress",
            "logs/run.log",
            "--budget",
            "150",
            "--workdir",
            str(workdir),
        )
    )
    assert str(seed["content"]).startswith("2024-01-01 00:00:00 INFO step 0 ok")
    assert os.path.getsize(workdir / "logs" / "run.log") > 1024
