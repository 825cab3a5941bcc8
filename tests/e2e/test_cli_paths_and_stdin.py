"""Paths and standard input as people type them: `..` that ends inside the workspace, `-` with
`--name`, one `--workspace` (alias `--workdir`) with its environment variables in order."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import Result, run

SOURCE = (TEST_DATA / "click-core.py.txt").read_bytes()
LOG = "".join(f"2024-01-01 00:00:{i % 60:02d} INFO step {i} ok\n" for i in range(300))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "s1"
    root.mkdir()
    (root / "build.log").write_text(LOG + "ERROR the build failed in s1\n")
    (tmp_path / "outside.log").write_text("secret outside the workspace\n")
    return root


@pytest.fixture(autouse=True)
def _no_workspace_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLEVERAGENTS_WORKSPACE", raising=False)
    monkeypatch.delenv("CLOSEDLOOP_WORKDIR", raising=False)


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))


def _compress(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    return run(capsys, "artifact", "compress", *args, "--budget", "400", "--mode", "smart")


def _bad(result: Result, message: str) -> None:
    assert result.exit_code == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0], lines[0]
    assert "Traceback" not in result.stderr


# -- `..` that ends inside ------------------------------------------------------------------


def test_compress_takes_a_path_through_dot_dot_that_ends_inside(
    capsys: pytest.CaptureFixture[str], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workspace)
    result = _compress(capsys, "../s1/build.log")
    assert result.exit_code == 0, result.stderr
    assert "the build failed in s1" in result.json()["content"]
    monkeypatch.chdir(workspace.parent)
    monkeypatch.setenv("CLOSEDLOOP_WORKDIR", str(workspace))
    assert _compress(capsys, "../s1/build.log").json() == result.json()


@pytest.mark.parametrize("path", ["../outside.log", "../s1/../outside.log", "a/../../outside.log"])
def test_compress_refuses_a_path_that_ends_outside(
    capsys: pytest.CaptureFixture[str], workspace: Path, path: str
) -> None:
    result = _compress(capsys, path, "--workspace", str(workspace))
    assert result.exit_code == 2
    assert "artifact not found" in result.json()["content"]
    assert "secret" not in result.stdout + result.stderr


def test_import_takes_a_path_through_dot_dot_that_ends_inside(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workspace)
    result = run(capsys, "artifact", "import", "../s1/build.log", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["artifact"]["workspace_path"] == "build.log"
    refused = run(capsys, "artifact", "import", "../outside.log")
    _bad(refused, "ends outside the workspace")
    assert "secret" not in refused.stdout + refused.stderr


# -- standard input with --name --------------------------------------------------------------


def test_import_reads_standard_input_named_by_name(
    capsys: pytest.CaptureFixture[str], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, LOG.encode())
    result = run(capsys, "artifact", "import", "-", "--name", "build.log", "--json")
    assert result.exit_code == 0, result.stderr
    artifact = result.json()["artifact"]
    assert artifact["workspace_path"] == "tool-output/build.log"
    assert artifact["byte_count"] == len(LOG.encode())
    shown = run(capsys, "artifact", "read", artifact["id"])
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout == LOG


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-"], "name it with --name"),
        (["-", "--name", ""], "give a file name"),
        (["-", "--name", "bad\nname.log"], "no control characters"),
        (["-", "--name", "x" * 300], "at most 255 characters"),
        (["-", "--name", "b.log", "--workspace", "."], "not to standard input"),
        (["build.log", "--name", "b.log"], "--name names standard input"),
    ],
)
def test_import_refuses_bad_standard_input_options(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(workspace)
    _stdin(monkeypatch, b"output\n")
    _bad(run(capsys, "artifact", "import", *args), message)


def test_compress_of_standard_input_knows_its_kind_from_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "core.py").write_bytes(SOURCE)
    from_file = _compress(capsys, "core.py", "--workspace", str(tmp_path))
    assert from_file.exit_code == 0, from_file.stderr
    _stdin(monkeypatch, SOURCE)
    named = _compress(capsys, "-", "--name", "core.py")
    assert named.exit_code == 0, named.stderr
    assert named.json() == from_file.json()  # the same kind, language and name
    _stdin(monkeypatch, SOURCE)
    as_source = _compress(capsys, "-", "--name", "core.py", "--kind", "source")
    assert as_source.json() == from_file.json()
    _stdin(monkeypatch, SOURCE)
    as_text = _compress(capsys, "-", "--name", "core.txt")
    assert as_text.json()["content"] != from_file.json()["content"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build.log", "--name", "core.py"], "--name names standard input"),
        (["-", "--name", "a\x00b"], "no control characters"),
        (["--artifact", "01HX3Z8Q9V6W2Y4K5M7N8P0R1S", "--workspace", "."], "--workspace"),
    ],
)
def test_compress_refuses_bad_name_and_workspace_options(
    capsys: pytest.CaptureFixture[str],
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(workspace)
    _stdin(monkeypatch, b"text\n")
    _bad(_compress(capsys, *args), message)


def test_tokens_count_names_standard_input_by_name(
    capsys: pytest.CaptureFixture[str], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, LOG.encode())
    counted = run(capsys, "tokens", "count", "-", "--name", "build.log")
    assert counted.exit_code == 0, counted.stderr
    on_file = run(capsys, "tokens", "count", str(workspace / "build.log"))
    assert counted.json()["input_tokens"] < on_file.json()["input_tokens"]  # one line less
    _stdin(monkeypatch, b"ok \xff\n")
    _bad(run(capsys, "tokens", "count", "-", "--name", "build.log"), "build.log is not UTF-8")
    _bad(
        run(capsys, "tokens", "count", str(workspace / "build.log"), "--name", "x.log"),
        "--name names standard input",
    )


# -- one workspace option, its aliases and its environment -----------------------------------


@pytest.fixture
def four_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    roots = {}
    for which in ("flag", "workspace-env", "workdir-env", "cwd"):
        root = tmp_path / which
        root.mkdir()
        (root / "build.log").write_text(f"this is the {which} workspace\n")
        roots[which] = root
    monkeypatch.chdir(roots["cwd"])
    return roots


def _which(result: Result) -> str:
    assert result.exit_code == 0, result.stderr
    content: str = result.json()["content"]
    return content.split("the ")[1].split(" workspace", maxsplit=1)[0]


def test_compress_workspace_precedence(
    capsys: pytest.CaptureFixture[str], four_roots: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _which(_compress(capsys, "build.log")) == "cwd"
    monkeypatch.setenv("CLOSEDLOOP_WORKDIR", str(four_roots["workdir-env"]))
    assert _which(_compress(capsys, "build.log")) == "workdir-env"
    monkeypatch.setenv("CLEVERAGENTS_WORKSPACE", str(four_roots["workspace-env"]))
    assert _which(_compress(capsys, "build.log")) == "workspace-env"
    for option in ("--workspace", "--workdir"):
        flagged = _compress(capsys, "build.log", option, str(four_roots["flag"]))
        assert _which(flagged) == "flag"


def test_import_workspace_precedence(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    four_roots: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def imported(*args: str) -> str:
        result = run(capsys, "artifact", "import", "build.log", *args, "--json")
        assert result.exit_code == 0, result.stderr
        head: str = result.json()["preview"]["head"]
        return head.split("the ")[1].split(" workspace", maxsplit=1)[0]

    assert imported() == "cwd"
    monkeypatch.setenv("CLOSEDLOOP_WORKDIR", str(four_roots["workdir-env"]))
    assert imported() == "workdir-env"
    monkeypatch.setenv("CLEVERAGENTS_WORKSPACE", str(four_roots["workspace-env"]))
    assert imported() == "workspace-env"
    assert imported("--workspace", str(four_roots["flag"])) == "flag"
    assert imported("--workdir", str(four_roots["flag"])) == "flag"
