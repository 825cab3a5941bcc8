"""`agents samples` and `agents docs`: the shipped samples listed and copied out, the shipped
documentation listed and printed; bad input refused in one line, nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import cleveragents
import cleveragents.samples
from cleveragents.domain.errors import NotFoundError
from cleveragents.samples import SAMPLES
from tests.conftest import REPO_ROOT
from tests.e2e.cli_runner import Result, run


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
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_listing_names_each_sample_with_its_size(capsys: pytest.CaptureFixture[str]) -> None:
    listed = run(capsys, "samples", "--json")
    assert listed.exit_code == 0, listed.stderr
    assert [entry["name"] for entry in listed.json()] == list(SAMPLES)
    for entry in listed.json():
        assert entry["bytes"] == cleveragents.samples.path(entry["name"]).stat().st_size > 0
        assert entry["description"] == SAMPLES[entry["name"]]
    table = run(capsys, "samples").stdout
    for name in SAMPLES:
        assert name in table


def test_copy_writes_every_sample_byte_for_byte(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    copied = run(capsys, "samples", "--copy", ".")
    assert copied.exit_code == 0, copied.stderr
    assert copied.stderr == ""
    assert copied.stdout.splitlines() == list(SAMPLES)
    for name in SAMPLES:
        assert (workdir / name).read_bytes() == cleveragents.samples.path(name).read_bytes()


def test_copy_makes_a_missing_folder_and_reports_json(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    copied = run(capsys, "samples", "--copy", "new/folder", "--json")
    assert copied.exit_code == 0, copied.stderr
    paths = [Path(entry["path"]) for entry in copied.json()]
    assert paths == [Path("new/folder") / name for name in SAMPLES]
    assert all((workdir / path).is_file() for path in paths)


def test_copy_never_overwrites_and_then_writes_nothing(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    taken = workdir / cleveragents.samples.DIFF
    taken.write_text("mine\n", encoding="utf-8")
    _refused(run(capsys, "samples", "--copy", "."), "already exists", "nothing was written")
    assert taken.read_text(encoding="utf-8") == "mine\n"
    assert sorted(os.listdir(workdir)) == [taken.name]


def test_copy_refuses_a_link_in_the_way_even_a_dangling_one(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    outside = workdir / "outside.txt"
    (workdir / "into").mkdir()
    (workdir / "into" / cleveragents.samples.LOG).symlink_to(outside)
    _refused(run(capsys, "samples", "--copy", "into"), cleveragents.samples.LOG, "already exists")
    assert not outside.exists()
    assert sorted(os.listdir(workdir / "into")) == [cleveragents.samples.LOG]


@pytest.mark.parametrize("target", ["a-file", "a-file/below"])
def test_copy_into_a_file_is_refused(
    capsys: pytest.CaptureFixture[str], workdir: Path, target: str
) -> None:
    (workdir / "a-file").write_text("x", encoding="utf-8")
    _refused(run(capsys, "samples", "--copy", target), "--copy")
    assert sorted(os.listdir(workdir)) == ["a-file"]


def test_copy_needs_a_folder_name(capsys: pytest.CaptureFixture[str]) -> None:
    _refused(run(capsys, "samples", "--copy"), "--copy")


def test_path_finds_the_file_and_refuses_other_names() -> None:
    log = cleveragents.samples.path(cleveragents.samples.LOG)
    assert log.is_file()
    assert " ERROR " in log.read_text(encoding="utf-8")
    for bad in ("README.md", "../__init__.py", "__init__.py", ""):
        with pytest.raises(NotFoundError, match="no sample named"):
            cleveragents.samples.path(bad)


def test_the_docs_are_listed_by_topic(capsys: pytest.CaptureFixture[str]) -> None:
    listed = run(capsys, "docs", "--json")
    assert listed.exit_code == 0, listed.stderr
    topics = {entry["topic"]: entry["title"] for entry in listed.json()}
    pages = {path.stem for path in (REPO_ROOT / "docs").glob("*.md")} - {"README"}
    assert set(topics) == pages
    assert topics["mcp"] == "The MCP server"


@pytest.mark.parametrize("topic", ["mcp", "mcp.md"])
def test_a_page_is_printed_whole(capsys: pytest.CaptureFixture[str], topic: str) -> None:
    shown = run(capsys, "docs", topic)
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout == (REPO_ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    as_json = run(capsys, "docs", topic, "--json").json()
    assert (as_json["topic"], as_json["title"]) == ("mcp", "The MCP server")
    assert as_json["text"] == shown.stdout


@pytest.mark.parametrize("topic", ["nope", "../README", "README", "/etc/passwd", "mcp.txt"])
def test_an_unknown_page_is_refused(capsys: pytest.CaptureFixture[str], topic: str) -> None:
    _refused(run(capsys, "docs", topic), "no page named", "`agents docs` lists them")


def test_dash_capital_v_is_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    short = run(capsys, "-V")
    assert short.exit_code == 0
    assert short.stdout == f"agents {cleveragents.__version__}\n"
    assert run(capsys, "--version").stdout == short.stdout


def test_python_dash_m_runs_the_cli() -> None:
    import subprocess
    import sys

    completed = subprocess.run(
        [sys.executable, "-m", "cleveragents", "-V"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO_ROOT,
    )
    assert (completed.returncode, completed.stdout) == (0, f"agents {cleveragents.__version__}\n")


def test_no_help_names_a_path_an_installed_user_lacks() -> None:
    from cleveragents.cli.reference import iter_commands

    for entry in iter_commands():
        for foreign in ("docs/", "/work/", "shared/corpus"):
            assert foreign not in entry.help, f"{entry.path}: {foreign}"
