"""The PostgreSQL test server of the `test_postgres_*` modules: new, empty databases on it.

The server is named by ``$CLEVERAGENTS_TEST_POSTGRES_URL`` (``.ci/run`` starts one; its role may
create databases). Without it these tests skip, except under CI, where they fail: CI must run
them. Database names carry the process id, so that two runs sharing a server never meet.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from psycopg import sql
from sqlalchemy.engine import URL, make_url

POSTGRES_URL_VARIABLE = "CLEVERAGENTS_TEST_POSTGRES_URL"
_numbers = itertools.count(1)


def server_url() -> URL:
    """The test server's URL; skips the test when none is named, fails it under CI."""
    given = os.environ.get(POSTGRES_URL_VARIABLE)
    if given:
        return make_url(given)
    if os.environ.get("CI"):
        pytest.fail(
            f"CI is set but {POSTGRES_URL_VARIABLE} is not: the PostgreSQL tests must run in CI "
            "(.ci/run starts the server)",
            pytrace=False,
        )
    pytest.skip(f"no PostgreSQL test server: set {POSTGRES_URL_VARIABLE} (see .ci/run)")


def libpq_url(url: URL) -> str:
    """`url` as psycopg itself reads it (no SQLAlchemy driver name)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


@contextmanager
def empty_database(server: URL) -> Iterator[str]:
    """A new database without any table, dropped afterwards; yields its URL."""
    name = f"cleveragents_pgtest_{os.getpid()}_{next(_numbers)}"
    # CREATE and DROP DATABASE cannot run inside a transaction.
    with psycopg.connect(libpq_url(server), autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(libpq_url(server), autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
