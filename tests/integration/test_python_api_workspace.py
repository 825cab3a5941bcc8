"""`cleveragents.compress(path, workspace=...)`: a file is read beneath the workspace it names
(`workdir` is the same argument under its former name); a path that ends outside is refused,
one that goes through ``..`` and ends inside is read; no environment variable is consulted."""

from __future__ import annotations

from pathlib import Path

import pytest

import cleveragents
from cleveragents.domain.errors import InvalidInputError


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "logs").mkdir(parents=True)
    (root / "logs" / "build.log").write_text("INFO start\nERROR test_login failed\n")
    (tmp_path / "outside.log").write_text("ERROR outside\n")
    return root


def test_a_file_inside_is_read_and_one_outside_refused(workspace: Path) -> None:
    inside = workspace / "logs" / ".." / "logs" / "build.log"
    for result in (
        cleveragents.compress(inside, 200, workspace=workspace),
        cleveragents.compress(inside, 200, workdir=workspace),  # the former name
    ):
        assert "ERROR test_login failed" in result.text
    outside = workspace.parent / "outside.log"
    with pytest.raises(InvalidInputError):
        cleveragents.compress(outside, 200, workspace=workspace)
    with pytest.raises(InvalidInputError):
        cleveragents.compress(outside, 200, workdir=workspace)


def test_the_environment_does_not_choose_the_api_workspace(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The CLI's default; a library call names its own (default: the file's directory).
    monkeypatch.setenv("CLEVERAGENTS_WORKSPACE", str(workspace))
    result = cleveragents.compress(workspace.parent / "outside.log", 200)
    assert "ERROR outside" in result.text
