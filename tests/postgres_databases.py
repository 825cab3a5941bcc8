"""The PostgreSQL test server and throwaway databases on it, one per test: the one place tests
reach PostgreSQL from (the `database_url` fixtures of tests/conftest.py and the `test_postgres_*`
modules).

The server is named by ``$CLEVERAGENTS_TEST_POSTGRES_URL`` (``.ci/run`` starts one); its role may
create databases. Without it the PostgreSQL tests skip, except under CI, where they fail: CI must
run them. Migrating a database costs far more than copying one: a template is migrated once per
session and each test gets ``CREATE DATABASE ... TEMPLATE`` of it, dropped afterwards
(``WITH (FORCE)``, so a connection a test left open does not keep it alive). Names carry the
process id, so that two runs sharing a server never touch each other's databases.
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

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import make_engine

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


class PostgresDatabases:
    def __init__(self, server: URL) -> None:
        self._server = server
        self._prefix = f"cleveragents_test_{os.getpid()}"
        self._numbers = itertools.count(1)
        self._template: str | None = None
        self._connection: psycopg.Connection[tuple[object, ...]] | None = None

    def url(self, name: str) -> str:
        return self._server.set(database=name).render_as_string(hide_password=False)

    def migrated(self) -> tuple[str, str]:
        """A new database at the schema's head: its name and URL."""
        if self._template is None:
            template = f"{self._prefix}_template"
            self._execute("DROP DATABASE IF EXISTS {} WITH (FORCE)", template)
            self._execute("CREATE DATABASE {} TEMPLATE template0", template)
            engine = make_engine(self.url(template))
            try:
                migrations.upgrade(engine)
            finally:
                engine.dispose()  # a template may have no connections while it is copied
            self._template = template
        return self._create("CREATE DATABASE {} TEMPLATE {}", self._template)

    def empty(self) -> tuple[str, str]:
        """A new database without any table, as an operator hands one over."""
        return self._create("CREATE DATABASE {} TEMPLATE {}", "template0")

    def drop(self, name: str) -> None:
        self._execute("DROP DATABASE IF EXISTS {} WITH (FORCE)", name)

    def close(self) -> None:
        if self._template is not None:
            self.drop(self._template)
            self._template = None
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _create(self, statement: str, template: str) -> tuple[str, str]:
        name = f"{self._prefix}_{next(self._numbers)}"
        self._execute(statement, name, template)
        return name, self.url(name)

    def _execute(self, statement: str, *names: str) -> None:
        # CREATE and DROP DATABASE cannot run inside a transaction: an autocommit connection
        # to the database the URL names, kept for the session.
        if self._connection is None:
            self._connection = psycopg.connect(libpq_url(self._server), autocommit=True)
        self._connection.execute(sql.SQL(statement).format(*map(sql.Identifier, names)))
