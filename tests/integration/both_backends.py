"""An empty database on each backend, for the tests of limits that must hold on both: a SQLite
file, and a new database on the PostgreSQL test server named by
``$CLEVERAGENTS_TEST_POSTGRES_URL``. Without the variable the PostgreSQL variant skips, except
under CI, where it fails: CI must not pass with the PostgreSQL half skipped."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

POSTGRES_URL_VARIABLE = "CLEVERAGENTS_TEST_POSTGRES_URL"
BACKENDS = ("sqlite", "postgresql")


def empty_database(backend: str, tmp_path: Path) -> Iterator[str]:
    """The URL of a database without any table, dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'limits.db'}"
        return
    server_url = os.environ.get(POSTGRES_URL_VARIABLE)
    if not server_url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {POSTGRES_URL_VARIABLE} is not: run through .ci/run")
        pytest.skip(f"no PostgreSQL test server: set {POSTGRES_URL_VARIABLE} (see .ci/run)")
    import psycopg
    from psycopg import sql

    server = make_url(server_url)
    name = f"cleveragents_limits_{uuid.uuid4().hex[:16]}"
    # CREATE and DROP DATABASE cannot run inside a transaction.
    admin_url = server.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
