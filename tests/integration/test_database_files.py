"""Where the store's files live and who may read them, on real SQLite files: the home and the
database are created private (0700, 0600), an explicit database's directory must exist, and a
read-only database serves the reading commands."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from cleveragents.adapters.persistence.database import opens_read_only
from cleveragents.container import build_container
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.event import CONTEXT_COMPACTED
from tests.e2e.cli_runner import run
from tests.e2e.test_cli_context import anthropic_conversation

AS_ROOT = os.geteuid() == 0


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def new_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home that does not exist yet, two levels below an existing folder."""
    home = tmp_path / "user" / ".cleveragents"
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(home))
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    return home


def test_the_default_home_and_database_are_created_private(new_home: Path) -> None:
    container = build_container()
    try:
        container.project_service().create("shop")
        database = new_home / "cleveragents.db"
        assert _mode(new_home) == 0o700
        assert _mode(new_home.parent) == 0o700  # every folder made on the way
        assert _mode(database) == 0o600
        # SQLite gives its journal files the database's mode.
        for journal in ("cleveragents.db-wal", "cleveragents.db-shm"):
            if (new_home / journal).exists():
                assert _mode(new_home / journal) == 0o600
    finally:
        container.store().dispose()


def test_the_artifact_store_is_created_private(new_home: Path) -> None:
    container = build_container()
    try:
        container.blob_storage()
        for folder in ("", "blobs", "staging", "temp"):
            assert _mode(new_home / "artifacts" / folder) == 0o700
        assert _mode(new_home) == 0o700
    finally:
        container.store().dispose()


def test_an_existing_home_and_database_keep_their_modes(new_home: Path) -> None:
    new_home.mkdir(parents=True, mode=0o755)
    new_home.chmod(0o750)
    build_container().project_service().list()
    database = new_home / "cleveragents.db"
    database.chmod(0o640)
    container = build_container()
    try:
        container.project_service().create("shop")
        assert _mode(new_home) == 0o750
        assert _mode(database) == 0o640
    finally:
        container.store().dispose()


def test_an_explicit_database_in_a_missing_directory_is_refused_and_nothing_is_made(
    new_home: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "nonexistent" / "dir"
    container = build_container(f"sqlite:///{missing / 'x.db'}")
    with pytest.raises(InvalidInputError, match=f"the database directory {missing} does not exist"):
        container.project_service().list()
    assert not (tmp_path / "nonexistent").exists()


def test_a_database_url_from_the_environment_is_explicit_too(
    new_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLEVERAGENTS_DATABASE_URL", f"sqlite:///{tmp_path / 'no' / 'x.db'}")
    with pytest.raises(InvalidInputError, match="does not exist"):
        build_container().project_service().list()
    assert not (tmp_path / "no").exists()


def test_the_cli_says_the_directory_does_not_exist_in_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], new_home: Path, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'nonexistent' / 'dir' / 'x.db'}"
    result = run(capsys, "--db", url, "project", "list")
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line == (
        f"error: the database directory {tmp_path / 'nonexistent' / 'dir'} does not exist "
        f"(database URL {url}); create it first or choose another --db"
    )
    assert not (tmp_path / "nonexistent").exists()


# --- read-only databases --------------------------------------------------------------------


@pytest.fixture
def stored(capsys: pytest.CaptureFixture[str], new_home: Path) -> Path:
    """A database at head with one project, no process holding it open."""
    assert run(capsys, "project", "create", "shop").exit_code == 0
    return new_home / "cleveragents.db"


def _read_only_url(database: Path) -> str:
    return f"sqlite:///{database}?mode=ro"


def test_reading_commands_work_on_a_database_opened_read_only(
    capsys: pytest.CaptureFixture[str], stored: Path
) -> None:
    before = _digest(stored)
    url = _read_only_url(stored)
    listed = run(capsys, "--db", url, "project", "list", "--json")
    assert listed.exit_code == 0, listed.stderr
    assert [project["name"] for project in listed.json()] == ["shop"]
    for command in (
        ("project", "context", "show", "shop"),
        ("plan", "list"),
        ("metrics", "show"),
        ("db", "current"),
    ):
        result = run(capsys, "--db", url, *command)
        assert result.exit_code == 0, (command, result.stderr)
    assert _digest(stored) == before


def test_a_write_to_a_read_only_database_fails_in_one_line_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], stored: Path
) -> None:
    before = _digest(stored)
    result = run(capsys, "--db", _read_only_url(stored), "project", "create", "other")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: database error: attempt to write a readonly database (it is ")
    assert _digest(stored) == before
    names = [p["name"] for p in run(capsys, "project", "list", "--json").json()]
    assert names == ["shop"]


def test_a_read_only_database_behind_the_schema_is_not_upgraded(
    capsys: pytest.CaptureFixture[str], new_home: Path, tmp_path: Path
) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    result = run(capsys, "--db", _read_only_url(empty), "project", "list")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert "is read-only and its schema is at none (empty database)" in line
    assert empty.read_bytes() == b""


def test_a_compaction_on_a_read_only_store_returns_its_result_and_says_so(
    capsys: pytest.CaptureFixture[str], stored: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "conversation.json"
    transcript.write_text(json.dumps(anthropic_conversation(6)))
    out = tmp_path / "compacted.json"
    result = run(
        capsys,
        "--db",
        _read_only_url(stored),
        "context",
        "compact",
        str(transcript),
        "--force",
        "--json",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.stderr
    assert result.json()["status"] == "compacted"
    assert len(json.loads(out.read_text())["messages"]) < 24
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("warning: the context_compacted event was not recorded: ")
    container = build_container()
    try:
        assert container.event_sink().recorded(CONTEXT_COMPACTED) == []
    finally:
        container.store().dispose()


def test_a_file_this_process_may_not_write_is_opened_read_only(stored: Path) -> None:
    # Root passes every permission check, so a 0444 file is writable to it; the choice then
    # rests on the explicit ?mode=ro, tested above.
    stored.chmod(0o444)
    assert opens_read_only(f"sqlite:///{stored}") is (not AS_ROOT)
    assert opens_read_only(_read_only_url(stored))


@pytest.mark.skipif(AS_ROOT, reason="root may write a 0444 file: see the ?mode=ro tests")
def test_project_list_works_on_a_0444_database(
    capsys: pytest.CaptureFixture[str], stored: Path
) -> None:
    stored.chmod(0o444)
    before = _digest(stored)
    result = run(capsys, "project", "list", "--json")
    assert result.exit_code == 0, result.stderr
    assert [project["name"] for project in result.json()] == ["shop"]
    assert _digest(stored) == before
