"""`agents artifact compress --kind`: the kind said instead of told from the name and lines."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.e2e.cli_runner import Result, run

# A source file's markers are comments (a marker per gap, or an outline's one marker).
SOURCE_MARKER = "# … "


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    lines: list[str] = []
    for i in range(80):
        lines += [
            f"def handler_{i}(request, retries=3):",
            f'    """Handle request {i}."""',
            "    total = 0",
            "    for item in request.items:",
            "        total += item.price * item.quantity",
            "    return total",
            "",
        ]
    (tmp_path / "app.py").write_text("\n".join(lines))
    (tmp_path / "notes.txt").write_text("\n".join(lines))
    return tmp_path


def _compress(capsys: pytest.CaptureFixture[str], workdir: Path, *args: str) -> Result:
    return run(
        capsys,
        "artifact",
        "compress",
        *args,
        "--budget",
        "300",
        "--mode",
        "smart",
        "--workdir",
        str(workdir),
    )


def _content(result: Result) -> str:
    assert result.exit_code == 0, result.stderr
    content = json.loads(result.stdout)["content"]
    assert isinstance(content, str)
    return content


def test_a_source_file_said_to_be_text_is_cut_as_text(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    assert SOURCE_MARKER in _content(_compress(capsys, workdir, "app.py"))
    as_text = _content(_compress(capsys, workdir, "app.py", "--kind", "text"))
    assert SOURCE_MARKER not in as_text
    assert as_text.startswith("def handler_0(request, retries=3):\n")


def test_source_needs_a_name_that_tells_the_language(
    capsys: pytest.CaptureFixture[str], workdir: Path
) -> None:
    result = _compress(capsys, workdir, "notes.txt", "--kind", "source")
    assert result.exit_code == 2
    assert "kind source needs a file name with a known source extension" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_an_unknown_kind_is_refused(capsys: pytest.CaptureFixture[str], workdir: Path) -> None:
    result = _compress(capsys, workdir, "notes.txt", "--kind", "yaml")
    assert result.exit_code == 2
    assert "--kind" in result.stderr


def test_standard_input_takes_the_kind(
    capsys: pytest.CaptureFixture[str], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Standard input has no name to tell a language: said to be source, it is refused.
    code = (workdir / "app.py").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(code)))
    result = _compress(capsys, workdir, "-", "--kind", "source")
    assert result.exit_code == 2
    assert "got '-'" in result.stderr
