"""A least-privilege PostgreSQL deployment, set up by docs/deployment.md's own statements: the
owner role migrates, the worker role uses the store with no right to create anything; and a
role missing one of those privileges is told which, in one line, exit 2, nothing changed.

(The store's own tests run as the worker role in tests/least_privilege/.)
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import make_engine
from tests.e2e.cli_runner import Result, run
from tests.least_privilege_roles import (
    LeastPrivilegeServer,
    documented_refusal,
    least_privilege_server,
)
from tests.postgres_databases import server_url

DOCS_POINTER = 'see "Roles and privileges" in `agents docs deployment`'
WORKER_TABLE_GRANTS = "SELECT, INSERT, UPDATE, DELETE"  # the owner's block, both statements
_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def roles() -> Iterator[LeastPrivilegeServer]:
    with least_privilege_server(server_url()) as prepared:
        yield prepared


@pytest.fixture
def database(roles: LeastPrivilegeServer) -> Iterator[str]:
    """A new empty database on the server, no grants yet; dropped afterwards."""
    name = f"cleveragents_lp_{os.getpid()}_{next(_numbers)}"
    roles.create_database(name)
    try:
        yield name
    finally:
        roles.drop_database(name)


def _as_owner(roles: LeastPrivilegeServer, database: str) -> str:
    return roles.url(roles.roles.owner, database)


def _as_worker(roles: LeastPrivilegeServer, database: str) -> str:
    return roles.url(roles.roles.worker, database)


def _refused(result: Result, *needs: str) -> None:
    """One line on stderr, exit 2, naming what is needed and the docs' section."""
    assert result.exit_code == 2, result
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "LINE 1" not in result.stderr  # the driver's quote of the statement
    assert "^" not in result.stderr
    for need in needs:
        assert need in result.stderr, result.stderr
    assert result.stderr.rstrip().endswith(DOCS_POINTER), result.stderr


def _ok(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> Result:
    result = run(capsys, "--db", url, *args)
    assert result.exit_code == 0, result
    return result


def _migrated(
    roles: LeastPrivilegeServer, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _ok(capsys, _as_owner(roles, database), "db", "upgrade")


@pytest.mark.parametrize(
    "grants_first", [True, False], ids=["grants-then-upgrade", "upgrade-then-grants"]
)
def test_the_documented_grants_let_the_owner_migrate_and_the_worker_use_the_store(
    roles: LeastPrivilegeServer,
    database: str,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    grants_first: bool,
) -> None:
    # Upgrade first: a database the owner migrated before the worker's grants were given,
    # which the page's last statement covers.
    roles.grant(database, leave_out=None if grants_first else WORKER_TABLE_GRANTS)
    _migrated(roles, database, capsys)
    if not grants_first:
        roles.grant(database)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "build.log").write_text("step 1 ok\nstep 2 ok\n", encoding="utf-8")
    worker = _as_worker(roles, database)

    _ok(capsys, worker, "project", "create", "checkout")
    plan = _ok(capsys, worker, "plan", "create", "--project", "checkout", "--title", "Refunds")
    plan_id = plan.stdout.strip()
    _ok(capsys, worker, "plan", "decide", plan_id, "--content", "Use the provider's webhooks")
    _ok(capsys, worker, "plan", "spawn", plan_id, "--title", "Partial refunds")
    _ok(capsys, worker, "artifact", "import", "build.log", "--workspace", str(workspace))
    _ok(capsys, worker, "artifact", "cleanup")

    assert "build.log" in _ok(capsys, worker, "artifact", "list").stdout
    assert "Partial refunds" in _ok(capsys, worker, "plan", "list").stdout
    assert "up to date" in _ok(capsys, worker, "db", "current").stdout


def test_a_worker_on_a_database_not_migrated_yet_is_told_what_migrating_needs(
    roles: LeastPrivilegeServer, database: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles.grant(database)

    result = run(capsys, "--db", _as_worker(roles, database), "project", "list")

    _refused(
        result,
        "permission denied for schema public",
        "the role needs USAGE and CREATE on schema public",
        "`agents db upgrade`",
    )
    assert roles.tables(database) == []


def test_a_worker_finding_the_schema_behind_does_not_migrate_it(
    roles: LeastPrivilegeServer, database: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles.grant(database)
    engine = make_engine(_as_owner(roles, database))
    try:
        migrations.upgrade(engine, "0006_bigint_counts")  # the schema of an older version
    finally:
        engine.dispose()

    result = run(capsys, "--db", _as_worker(roles, database), "project", "list")

    _refused(result, "USAGE and CREATE on schema public", "`agents db upgrade`")
    assert "store_settings" not in roles.tables(database)


def test_an_owner_without_create_on_the_schema_is_told_so(
    roles: LeastPrivilegeServer, database: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As the role of a least-privilege deployment that was given USAGE only.
    roles.grant(database)
    roles.run_as_admin(database, "REVOKE CREATE ON SCHEMA public FROM agents_owner")

    result = run(capsys, "--db", _as_owner(roles, database), "db", "upgrade")

    _refused(result, "permission denied for schema public", "USAGE and CREATE on schema public")
    assert roles.tables(database) == []
    # What the page shows, but for the URL.
    shown = documented_refusal()
    assert result.stderr.split(": ", 2)[2] == shown.split(": ", 2)[2] + "\n"


def test_an_owner_without_usage_on_the_schema_is_told_so(
    roles: LeastPrivilegeServer, database: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles.grant(database, leave_out="GRANT USAGE, CREATE", owner_block=False)

    result = run(capsys, "--db", _as_owner(roles, database), "db", "upgrade")

    _refused(result, "no schema has been selected", "USAGE and CREATE on schema public")
    assert roles.tables(database) == []


def test_a_worker_without_the_table_grants_is_told_which(
    roles: LeastPrivilegeServer, database: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles.grant(database, leave_out=WORKER_TABLE_GRANTS)
    _migrated(roles, database, capsys)

    result = run(capsys, "--db", _as_worker(roles, database), "project", "list")

    _refused(
        result,
        "the role needs SELECT on table alembic_version",
        "SELECT, INSERT, UPDATE and DELETE on every table",
    )


def test_a_worker_missing_insert_is_told_so_and_nothing_is_written(
    roles: LeastPrivilegeServer, database: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles.grant(database)
    _migrated(roles, database, capsys)
    roles.run_as_owner(database, "REVOKE INSERT ON projects FROM agents_worker")
    worker = _as_worker(roles, database)

    result = run(capsys, "--db", worker, "project", "create", "checkout")

    _refused(result, "permission denied for table projects", "INSERT on table projects")
    assert "checkout" not in _ok(capsys, worker, "project", "list").stdout


def test_a_role_without_connect_is_told_so(
    roles: LeastPrivilegeServer, database: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles.grant(database, leave_out="GRANT CONNECT", owner_block=False)

    result = run(capsys, "--db", _as_worker(roles, database), "project", "list")

    _refused(result, f"the role needs CONNECT on database {database}")
    assert roles.roles.worker.password not in result.stderr


def test_a_worker_that_may_not_read_where_the_blobs_are_is_told_so(
    roles: LeastPrivilegeServer,
    database: str,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Falling back to a folder of its own would split the store: refused instead.
    roles.grant(database)
    _migrated(roles, database, capsys)
    roles.run_as_owner(database, "REVOKE SELECT ON store_settings FROM agents_worker")
    (tmp_path / "build.log").write_text("ok\n", encoding="utf-8")

    result = run(
        capsys,
        "--db",
        _as_worker(roles, database),
        "artifact",
        "import",
        "build.log",
        "--workspace",
        str(tmp_path),
    )

    _refused(result, "the role needs SELECT on table store_settings")
    assert not (home / "artifacts").exists()
