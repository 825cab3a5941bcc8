"""Which privilege a PostgreSQL refusal names, from what was refused and the statement refused
(the server itself is exercised in tests/integration/test_postgres_least_privilege.py)."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, ProgrammingError

from cleveragents.adapters.persistence.errors import (
    DatabasePrivilegeError,
    StoreUnavailableError,
    operational_error,
    translated,
)


class _DriverError(Exception):
    def __init__(self, message: str, sqlstate: str | None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


def _refusal(statement: str, message: str, state: str | None = "42501") -> DBAPIError:
    return ProgrammingError(statement, {}, _DriverError(message, state))


@pytest.mark.parametrize(
    ("statement", "message", "needed"),
    [
        (
            "SELECT id FROM plans WHERE id = %(id)s",
            "permission denied for table plans",
            "SELECT on table plans",
        ),
        (
            "INSERT INTO events (id) VALUES (%(id)s)",
            "permission denied for table events",
            "INSERT on table events",
        ),
        (
            "UPDATE plans SET title = %(t)s WHERE id = %(id)s",
            "permission denied for table plans",
            "UPDATE and SELECT on table plans",
        ),
        (
            "DELETE FROM artifacts WHERE id = %(id)s",
            "permission denied for table artifacts",
            "DELETE and SELECT on table artifacts",
        ),
        (
            "SELECT * FROM plans WHERE id = %(id)s FOR UPDATE",
            "permission denied for table plans",
            "UPDATE and SELECT on table plans",
        ),
        (
            "CREATE TABLE alembic_version (version_num VARCHAR(32))",
            "permission denied for schema public\nLINE 2: CREATE TABLE alembic_version (\n ^",
            "USAGE and CREATE on schema public",
        ),
        ("SELECT 1 FROM projects", "permission denied for schema public", "USAGE on schema public"),
        (
            "ALTER TABLE plans ADD COLUMN x integer",
            "must be owner of table plans",
            "changing table plans needs the role that owns it",
        ),
        (
            "SELECT nextval('counter')",
            "permission denied for sequence counter",
            "USAGE on sequence counter",
        ),
        (
            "SELECT pg_advisory_xact_lock(%(key)s)",
            "permission denied for function pg_advisory_xact_lock",
            "the role needs EXECUTE on function pg_advisory_xact_lock",
        ),
        (
            "SELECT 1 FROM pg_authid",
            "permission denied for relation pg_authid",
            "SELECT on table pg_authid",
        ),
        (
            "REINDEX TABLE plans",
            "permission denied to reindex",
            "the role lacks a privilege",
        ),
    ],
)
def test_the_refusal_names_the_privilege_and_the_docs_section(
    statement: str, message: str, needed: str
) -> None:
    error = translated(_refusal(statement, message))

    assert isinstance(error, DatabasePrivilegeError)
    text = str(error)
    assert needed in text
    assert "\n" not in text
    assert "LINE 2" not in text
    assert text.endswith('see "Roles and privileges" in `agents docs deployment`')


def test_no_schema_to_create_in_names_usage_and_create() -> None:
    refusal = _refusal(
        "CREATE TABLE alembic_version (version_num VARCHAR(32))",
        "no schema has been selected to create in",
        "3F000",
    )

    error = operational_error(refusal, "cannot open the database postgresql://u@h/db")

    assert isinstance(error, DatabasePrivilegeError)
    assert str(error).startswith("cannot open the database postgresql://u@h/db: no schema")
    assert "USAGE and CREATE on schema public" in str(error)


def test_a_refused_connect_has_no_sqlstate_and_is_still_named() -> None:
    refusal = OperationalError(
        None,
        None,
        _DriverError(
            'connection failed: FATAL:  permission denied for database "agents"\n'
            "DETAIL:  User does not have CONNECT privilege.",
            None,
        ),
    )

    error = operational_error(refusal, "cannot open the database")

    assert isinstance(error, DatabasePrivilegeError)
    assert (
        'permission denied for database "agents"; the role needs CONNECT on database agents'
        in str(error)
    )


@pytest.mark.parametrize(
    "refusal",
    [
        OperationalError(
            "UPDATE t SET x = 1", {}, _DriverError("attempt to write a readonly database", None)
        ),
        ProgrammingError(
            "SELECT * FROM t", {}, _DriverError('relation "t" does not exist', "42P01")
        ),
        OperationalError(None, None, _DriverError("connection refused", None)),
    ],
)
def test_other_errors_stay_operational(refusal: DBAPIError) -> None:
    error = translated(refusal)

    assert isinstance(error, StoreUnavailableError)
    assert not isinstance(error, DatabasePrivilegeError)


def test_a_broken_constraint_stays_a_conflict() -> None:
    refusal = IntegrityError("INSERT", {}, _DriverError("duplicate key value", "23505"))

    assert not isinstance(translated(refusal), DatabasePrivilegeError)
