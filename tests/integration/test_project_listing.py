"""`agents project list` reads an existing SQLite store with sqlite3 alone, read-only, and
prints exactly what the full store (SQLAlchemy, the container) prints; any store it cannot read
as it is goes the full way, which migrates it or reports as before."""

from __future__ import annotations

import ast
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import make_engine
from cleveragents.adapters.persistence.sqlite_project_listing import (
    SCHEMA_REVISION,
    SqliteProjectListing,
)
from cleveragents.application.ports.project_listing import ListingUnavailableError
from cleveragents.container import build_container
from cleveragents.container import project_listing as project_listing_module
from cleveragents.domain.project import Project
from tests.e2e.cli_runner import Result, run

pytestmark = pytest.mark.sqlite_only

PREVIOUS_REVISION = "0006_bigint_counts"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(home))
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    return home


@pytest.fixture
def store(capsys: pytest.CaptureFixture[str], home: Path) -> Path:
    """The home's database at head: several projects, in no order by name, with policies that
    set every kind of value (ratios, token counts, a 64-bit byte count) or leave it unset."""
    commands = [
        ("project", "create", "zeta"),
        ("project", "create", "Alpha"),
        ("project", "create", "beta.2"),
        ("project", "create", "beta-1"),
        ("project", "create", "0day"),
        ("project", "context", "set", "zeta", "--skeleton-ratio", "0.125"),
        ("project", "context", "set", "zeta", "--context-window", "1000000"),
        (
            "project",
            "context",
            "set",
            "beta.2",
            "--skeleton-ratio",
            "1",
            "--reserve-tokens",
            "0",
            "--keep-recent-tokens",
            "7",
            "--summary-tokens",
            "100",
            "--retention-days",
            "36600",
            "--retention-bytes",
            str(2**63 - 1),
            "--preview-head-bytes",
            "0",
            "--preview-tail-bytes",
            "1",
        ),
        ("project", "context", "set", "0day", "--skeleton-ratio", "0"),
    ]
    for command in commands:
        result = run(capsys, *command)
        assert result.exit_code == 0, (command, result.stderr)
    return home / "cleveragents.db"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _through_the_container(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on `project list` has no read-only listing: it lists as it did before it had
    one, through the container's service."""
    monkeypatch.setattr(project_listing_module, "read_only_project_listing", lambda *_a, **_k: None)


def _count_read_only_listings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each time the read-only listing answers, the number of projects it returned."""
    answered: list[int] = []
    original = SqliteProjectListing.list

    def counting(self: SqliteProjectListing) -> list[Project]:
        projects = original(self)
        answered.append(len(projects))
        return projects

    monkeypatch.setattr(SqliteProjectListing, "list", counting)
    return answered


def _list(capsys: pytest.CaptureFixture[str], *options: str, db: str | None = None) -> Result:
    result = run(capsys, *(("--db", db) if db else ()), "project", "list", *options)
    assert result.exit_code == 0, result.stderr
    return result


def test_the_schema_revision_read_is_alembics_head(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'any.db'}")
    try:
        assert migrations.head_revision(engine) == SCHEMA_REVISION
    finally:
        engine.dispose()


@pytest.mark.parametrize("json_flag", [(), ("--json",)], ids=["table", "json"])
def test_the_output_is_byte_identical_to_the_full_stores(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    store: Path,
    json_flag: tuple[str, ...],
) -> None:
    answered = _count_read_only_listings(monkeypatch)
    read_only = run(capsys, "project", "list", *json_flag)
    assert read_only.exit_code == 0, read_only.stderr
    assert answered == [5]  # the read-only listing answered, with every project

    _through_the_container(monkeypatch)
    full = run(capsys, "project", "list", *json_flag)
    assert full.exit_code == 0, full.stderr
    assert answered == [5]  # ... and this time it was not asked
    assert read_only.stdout == full.stdout
    assert read_only.stderr == full.stderr == ""
    assert "beta.2" in read_only.stdout


def test_projects_come_by_name_with_their_stored_policies(
    capsys: pytest.CaptureFixture[str], store: Path
) -> None:
    listed = run(capsys, "project", "list", "--json").json()
    assert [project["name"] for project in listed] == ["0day", "Alpha", "beta-1", "beta.2", "zeta"]
    by_name = {project["name"]: project["policy"] for project in listed}
    assert by_name["zeta"]["skeleton_ratio"] == {"value": 0.125, "source": "project"}
    assert by_name["0day"]["skeleton_ratio"] == {"value": 0.0, "source": "project"}
    assert by_name["Alpha"]["skeleton_ratio"] == {"value": 0.3, "source": "default"}
    assert by_name["beta.2"]["artifact_retention_bytes"] == {
        "value": 2**63 - 1,
        "source": "project",
    }
    assert by_name["Alpha"]["artifact_retention_days"] == {"value": None, "source": "default"}


def test_the_read_only_listing_builds_the_repositorys_domain_objects(store: Path) -> None:
    container = build_container()
    try:
        for read_only in (False, True):
            listing = SqliteProjectListing(store, read_only=read_only)
            assert listing.list() == container.project_service().list()
    finally:
        container.store().dispose()


def test_a_database_opened_read_only_is_listed_and_left_as_it_was(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, store: Path
) -> None:
    answered = _count_read_only_listings(monkeypatch)
    before = _digest(store)
    listed = _list(capsys, "--json", db=f"sqlite:///{store}?mode=ro")
    assert [project["name"] for project in listed.json()][:2] == ["0day", "Alpha"]
    assert answered == [5]
    assert _digest(store) == before


def test_listing_leaves_the_stores_folder_as_the_full_store_leaves_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, store: Path
) -> None:
    # No -wal or -shm left behind: SQLite removes them when the last connection that may
    # write closes, as it does after the full store.
    after_the_full_store = sorted(path.name for path in store.parent.iterdir())
    answered = _count_read_only_listings(monkeypatch)
    _list(capsys)
    assert answered == [5]
    assert sorted(path.name for path in store.parent.iterdir()) == after_the_full_store


def test_a_missing_file_is_declined_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    for read_only in (False, True):
        with pytest.raises(ListingUnavailableError):
            SqliteProjectListing(missing, read_only=read_only).list()
    assert not missing.exists()


def test_a_schema_behind_head_is_migrated_by_the_full_store_then_listed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, store: Path
) -> None:
    engine = make_engine(f"sqlite:///{store}")
    try:
        migrations.downgrade(engine, PREVIOUS_REVISION)
    finally:
        engine.dispose()
    with pytest.raises(ListingUnavailableError, match=PREVIOUS_REVISION):
        SqliteProjectListing(store, read_only=False).list()
    answered = _count_read_only_listings(monkeypatch)

    listed = _list(capsys, "--json")
    assert len(listed.json()) == 5
    assert answered == []  # declined: the full store answered, after migrating
    assert _schema_revision(store) == SCHEMA_REVISION
    _list(capsys)
    assert answered == [5]  # now at head, the read-only listing answers again


def test_a_read_only_database_behind_head_is_reported_as_before(
    capsys: pytest.CaptureFixture[str], store: Path
) -> None:
    engine = make_engine(f"sqlite:///{store}")
    try:
        migrations.downgrade(engine, PREVIOUS_REVISION)
    finally:
        engine.dispose()
    before = _digest(store)
    result = run(capsys, "--db", f"sqlite:///{store}?mode=ro", "project", "list")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert f"is read-only and its schema is at {PREVIOUS_REVISION}, not {SCHEMA_REVISION}" in line
    assert result.stdout == ""
    assert _digest(store) == before


def test_a_schema_newer_than_this_code_is_refused_as_before(
    capsys: pytest.CaptureFixture[str], store: Path
) -> None:
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    connection.close()
    result = run(capsys, "project", "list")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the database is at schema revision '9999_from_the_future', which this version "
        "of cleveragents does not know; upgrade cleveragents\n"
    )
    assert _schema_revision(store) == "9999_from_the_future"


def test_a_file_that_is_not_a_database_is_reported_by_the_full_store(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    not_a_database = tmp_path / "notes.db"
    not_a_database.write_text("not a database, only text\n" * 100)
    with pytest.raises(ListingUnavailableError):
        SqliteProjectListing(not_a_database, read_only=True).list()
    result = run(capsys, "--db", f"sqlite:///{not_a_database}", "project", "list")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: ")
    assert "file is not a database" in line


def test_an_empty_home_gets_its_store_from_the_full_path_as_before(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    result = _list(capsys, "--json")
    assert result.json() == []
    assert _schema_revision(home / "cleveragents.db") == SCHEMA_REVISION


def test_bad_database_urls_still_fail_in_one_line_with_exit_2(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    missing_directory = tmp_path / "nonexistent"
    for url, message in (
        ("not a url", "invalid database URL 'not a url'"),
        (f"sqlite:///{missing_directory / 'x.db'}", "does not exist"),
    ):
        result = run(capsys, "--db", url, "project", "list")
        assert result.exit_code == 2, url
        [line] = result.stderr.strip().splitlines()
        assert line.startswith("error: ")
        assert message in line
        assert result.stdout == ""
    assert not missing_directory.exists()


def _schema_revision(database: Path) -> str:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        [(revision,)] = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    finally:
        connection.close()
    assert isinstance(revision, str)
    return revision


# --- what it loads --------------------------------------------------------------------------

NOT_FOR_LISTING = ("sqlalchemy", "alembic", "dependency_injector", "pydantic_settings")


def _modules_loaded_by_project_list(home: Path, *options: str) -> list[str]:
    probe = (
        "import sys\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        f"    main([*{options!r}, 'project', 'list'])\n"
        "except SystemExit as exit_:\n"
        "    assert exit_.code in (0, None), exit_.code\n"
        f"print(sorted(m for m in sys.modules if m.startswith({(*NOT_FOR_LISTING, 'rich')!r})))\n"
    )
    env = dict(os.environ, CLEVERAGENTS_HOME=str(home))
    env.pop("CLEVERAGENTS_DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    )
    assert "0day" in result.stdout  # the table was printed
    loaded: list[str] = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize("read_only", [False, True], ids=["writable", "mode=ro"])
def test_listing_a_store_at_head_loads_no_sql_toolkit_and_no_container(
    home: Path, store: Path, read_only: bool
) -> None:
    options = ("--db", f"sqlite:///{store}?mode=ro") if read_only else ()
    loaded = _modules_loaded_by_project_list(home, *options)
    assert [m for m in loaded if m.startswith(NOT_FOR_LISTING)] == []
    assert "rich" in loaded  # the probe sees what the command does load


def test_listing_a_store_behind_head_loads_what_migrating_needs(home: Path, store: Path) -> None:
    engine = make_engine(f"sqlite:///{store}")
    try:
        migrations.downgrade(engine, PREVIOUS_REVISION)
    finally:
        engine.dispose()
    loaded = _modules_loaded_by_project_list(home)
    assert {"sqlalchemy", "alembic", "dependency_injector"} <= set(loaded)
