"""A consumer of the Python API, as a user's project: it runs, and `mypy --strict` passes on it
with no configuration but its own (outside the repository, so the project's mypy settings and
plugins do not help), while a wrong type in a control script is caught."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cleveragents
from tests.conftest import TEST_DATA

CONSUMER = Path(__file__).with_name("python_api_consumer.py")
# A Hadoop log excerpt kept in tests/data: the same input with or without the corpus beside the
# checkout (the package's own sample is too short for the consumer's compaction to be needed).
LOG = TEST_DATA / "Hadoop_lines640-1060.log"

pytestmark = pytest.mark.slow


def _workdir(tmp_path: Path) -> Path:
    workdir = tmp_path / "work"
    workdir.mkdir()
    shutil.copy(LOG, workdir / "build.log")
    shutil.copy(TEST_DATA / "transcripts" / "openai-chat.json", workdir / "session.json")
    return workdir


def test_the_consumer_runs(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, str(CONSUMER), str(_workdir(tmp_path))],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr
    assert "refused: the token budget must be a whole number >= 1" in completed.stdout
    tokens = cleveragents.count_tokens(LOG.read_text(encoding="utf-8"))
    assert re.search(rf"{tokens} tokens; compacted \d+ -> \d+", completed.stdout)
    assert "gate: secret: content: a credential (aws-access-key-id) on line(s) 1" in (
        completed.stdout
    )


def test_mypy_strict_passes_on_the_consumer_and_catches_a_wrong_type(tmp_path: Path) -> None:
    project = tmp_path / "consumer"
    project.mkdir()
    shutil.copy(CONSUMER, project / "consumer.py")
    (project / "control.py").write_text(
        "from typing import assert_type\n"
        "import cleveragents\n"
        'assert_type(cleveragents.count_tokens("x"), str)\n'
        'cleveragents.compress("text", "300")\n',
        encoding="utf-8",
    )
    config = project / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--config-file",
            str(config),
            "--cache-dir",
            str(tmp_path / "mypy-cache"),
            "consumer.py",
            "control.py",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=project,
    )
    errors = [line for line in completed.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[0] for line in errors] == ["control.py", "control.py"], completed.stdout
    assert 'Expression is of type "TokenCount", not "str"' in errors[0]
    assert '"compress" has incompatible type "str"' in errors[1]
