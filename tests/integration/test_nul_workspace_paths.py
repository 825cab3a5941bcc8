"""A NUL byte in a workspace path given to the Python API is bad input (one line, exit 2 from the
CLI), never the bare ValueError the OS functions raise."""

from __future__ import annotations

from pathlib import Path

import pytest

from cleveragents.container import Container
from cleveragents.domain.errors import InvalidInputError
from tests.e2e.cli_runner import run


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "build.log").write_text("step ok\n" * 10)
    return root


def test_the_artifact_store_refuses_a_nul_in_the_workspace(
    container: Container, workspace: Path
) -> None:
    with pytest.raises(InvalidInputError, match="NUL"):
        container.artifact_store().import_file(f"{workspace}\0", "build.log")


def test_the_artifact_store_refuses_a_nul_in_the_path(
    container: Container, workspace: Path
) -> None:
    with pytest.raises(InvalidInputError, match="NUL"):
        container.artifact_store().import_file(str(workspace), "build.log\0.txt")


def test_artifact_compression_refuses_a_nul_in_the_work_directory(
    container: Container, workspace: Path
) -> None:
    with pytest.raises(InvalidInputError, match="NUL"):
        container.artifact_compressor_service().compress("build.log", 100, workdir=f"{workspace}\0")


@pytest.mark.parametrize(
    "args",
    [
        ("artifact", "import", "build.log", "--workspace", "ws\0"),
        ("artifact", "compress", "build.log", "--budget", "100", "--workdir", "ws\0"),
    ],
)
def test_the_cli_gives_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, args: tuple[str, ...]
) -> None:
    result = run(capsys, *(arg.replace("ws\0", f"{workspace}\0") for arg in args))
    assert result.exit_code == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "NUL" in result.stderr
