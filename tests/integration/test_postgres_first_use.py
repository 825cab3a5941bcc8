"""Eight workers reach an empty database at once: all eight succeed, and the schema is at head.

Each worker is a process of its own running `agents project create pN`, released together by a
barrier after its imports, so that their auto-migrations really meet. Before the migration lock,
most of them failed on PostgreSQL (``duplicate key ... pg_type_typname_nsp_index``,
``relation "usage_records" already exists``).
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
from collections.abc import Iterator
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import make_url

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import make_engine
from tests.e2e.cli_runner import run
from tests.postgres_databases import empty_database, libpq_url, server_url

WORKERS = 8


def _create_project(url: str, number: int, barrier: Barrier, results: Any) -> None:
    from cleveragents.cli.main import main

    stderr = io.StringIO()
    barrier.wait()
    try:
        with contextlib.redirect_stderr(stderr):
            main(["--db", url, "project", "create", f"p{number}"])
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    else:  # pragma: no cover - main always exits
        code = 0
    results.put((number, code, stderr.getvalue()))


def _first_use_by_eight_workers(url: str) -> dict[int, tuple[int, str]]:
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing shared
    barrier, results = spawn.Barrier(WORKERS), spawn.Queue()
    workers = [
        spawn.Process(target=_create_project, args=(url, number, barrier, results))
        for number in range(1, WORKERS + 1)
    ]
    for worker in workers:
        worker.start()
    outcomes = {}
    for _ in workers:
        number, code, stderr = results.get()
        outcomes[number] = (code, stderr)
    for worker in workers:
        worker.join()
    return outcomes


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'first-use.db'}"
        return
    with empty_database(server_url()) as url:
        yield url


@pytest.mark.slow
def test_eight_workers_on_an_empty_database_all_succeed(
    empty_database_url: str, home: Path
) -> None:
    outcomes = _first_use_by_eight_workers(empty_database_url)

    assert outcomes == dict.fromkeys(range(1, WORKERS + 1), (0, ""))
    engine = make_engine(empty_database_url)
    try:
        assert migrations.current_revision(engine) == migrations.head_revision_of_code()
        with engine.connect() as connection:
            names = connection.exec_driver_sql("SELECT name FROM projects").scalars().all()
    finally:
        engine.dispose()
    assert sorted(names) == [f"p{number}" for number in range(1, WORKERS + 1)]


def test_a_worker_waits_for_the_migration_lock_within_the_lock_timeout(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with empty_database(server_url()) as url:
        with psycopg.connect(libpq_url(make_url(url)), autocommit=True) as migrating:
            # Another process migrating: it holds the lock every migration takes first.
            migrating.execute("SELECT pg_advisory_lock(%s)", (migrations.MIGRATION_LOCK_KEY,))
            short = make_url(url).update_query_dict({"lock_timeout": "200ms"})
            waited = run(
                capsys, "--db", short.render_as_string(hide_password=False), "project", "list"
            )
            migrating.execute("SELECT pg_advisory_unlock(%s)", (migrations.MIGRATION_LOCK_KEY,))
        engine = make_engine(url)
        try:
            assert migrations.current_revision(engine) is None  # the waiter migrated nothing
        finally:
            engine.dispose()
        listed = run(capsys, "--db", url, "project", "list")

    assert waited.exit_code == 1
    assert waited.stderr == (
        "error: another process has been migrating the database's schema for longer than the "
        "lock timeout; try again when it is done, or wait longer with "
        "$CLEVERAGENTS_DB_LOCK_TIMEOUT or the URL's ?lock_timeout=\n"
    )
    assert listed.exit_code == 0
