"""`agents verify` end to end: passes on a clean store (exit 0), one line per violation and
exit 1 on a tampered one, the same as JSON, and exit 2 for an unknown project."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.e2e.cli_runner import run


def test_verify_passes_then_fails_on_a_tampered_row(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "run.log").write_text("ok\n" * 5000 + "1 failed\n", encoding="utf-8")
    imported = run(capsys, "artifact", "import", "run.log", "--workspace", str(workspace), "--json")
    assert imported.exit_code == 0, imported.stderr
    artifact_id = imported.json()["artifact"]["id"]

    clean = run(capsys, "verify")
    assert clean.exit_code == 0, clean.stdout
    assert clean.stdout == (
        "verify (all): passed; checked 1 artifact(s), 1 preview(s), 0 stored transcript(s), "
        "0 compaction event(s), 0 usage record(s)\n"
    )

    with sqlite3.connect(home / "cleveragents.db") as database:
        database.execute(
            "UPDATE artifacts SET workspace_path = '../../etc/passwd' WHERE id = ?", (artifact_id,)
        )
    failed = run(capsys, "verify", "--project", "default")
    assert failed.exit_code == 1
    assert failed.stdout.splitlines() == [
        f"workspace-escape: artifact {artifact_id}: path '../../etc/passwd' normalises to "
        "'../../etc/passwd', outside the workspace",
        "verify (project default): FAILED with 1 violation(s); checked 1 artifact(s), "
        "1 preview(s), 0 stored transcript(s), 0 compaction event(s), 0 usage record(s)",
    ]
    as_json = run(capsys, "verify", "--json")
    assert as_json.exit_code == 1
    report = as_json.json()
    assert report["passed"] is False
    assert report["violations"] == [
        {
            "condition": "workspace-escape",
            "subject": f"artifact {artifact_id}",
            "detail": "path '../../etc/passwd' normalises to '../../etc/passwd', outside the "
            "workspace",
        }
    ]


def test_an_unknown_project_is_bad_input(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "verify", "--project", "nope")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: unknown project 'nope'; `agents project list` shows the projects\n"
    )
    stray = run(capsys, "verify", "--bogus")
    assert stray.exit_code == 2
    assert stray.stderr.count("\n") == 1
