"""Lock and statement timeouts on PostgreSQL connections: a decide behind a held row lock fails
with one line instead of waiting without end; the settings come from the URL, the environment or
the defaults, and a malformed one is refused before any connection is made."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from cleveragents.adapters.persistence.database import make_engine
from cleveragents.adapters.persistence.errors import database_errors_translated
from cleveragents.adapters.persistence.postgres import LOCK_TIMEOUT_ENV, STATEMENT_TIMEOUT_ENV
from cleveragents.domain.errors import StoreUnavailableError
from tests.e2e.cli_runner import run
from tests.postgres_databases import empty_database, libpq_url, server_url


@pytest.fixture
def postgres_url(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An empty database on the test server; the timeouts' variables cleared."""
    monkeypatch.delenv(LOCK_TIMEOUT_ENV, raising=False)
    monkeypatch.delenv(STATEMENT_TIMEOUT_ENV, raising=False)
    with empty_database(server_url()) as url:
        yield url


def _with_query(url: str, **query: str) -> str:
    return make_url(url).update_query_dict(query).render_as_string(hide_password=False)


def _settings(url: str) -> tuple[str, str]:
    engine = make_engine(url)
    try:
        # Twice on the pooled connection, each time in a transaction rolled back after: the
        # settings outlive a rollback, as they must for every later transaction.
        seen = set()
        for _ in range(2):
            with engine.connect() as connection:
                lock = connection.exec_driver_sql("SHOW lock_timeout").scalar_one()
                statement = connection.exec_driver_sql("SHOW statement_timeout").scalar_one()
                seen.add((lock, statement))
        assert len(seen) == 1
        return seen.pop()
    finally:
        engine.dispose()


def test_the_defaults_are_ten_seconds_for_locks_and_a_minute_for_statements(
    postgres_url: str,
) -> None:
    assert _settings(postgres_url) == ("10s", "1min")


def test_the_environment_sets_them(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOCK_TIMEOUT_ENV, "3s")
    monkeypatch.setenv(STATEMENT_TIMEOUT_ENV, "90000")  # milliseconds, as PostgreSQL reads it
    assert _settings(postgres_url) == ("3s", "90s")


def test_the_url_overrides_the_environment(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LOCK_TIMEOUT_ENV, "3s")
    url = _with_query(postgres_url, lock_timeout="1500ms", statement_timeout="0")
    assert _settings(url) == ("1500ms", "0")


def test_a_decide_behind_a_held_row_lock_fails_with_one_line(
    postgres_url: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "--db", postgres_url, "project", "create", "p").exit_code == 0
    created = run(capsys, "--db", postgres_url, "plan", "create", "--project", "p", "--title", "t")
    plan = created.stdout.strip()

    with psycopg.connect(libpq_url(make_url(postgres_url))) as holder:
        # Should the decide wait without end after all, the server ends this session in 30 s:
        # the decide then succeeds late and the test fails, instead of hanging.
        holder.execute("SET idle_in_transaction_session_timeout = '30s'")
        # The row lock a decide or a spawn running elsewhere holds until it commits.
        holder.execute("SELECT id FROM plans WHERE id = %s FOR UPDATE", (plan,))
        short = _with_query(postgres_url, lock_timeout="200ms")
        result = run(capsys, "--db", short, "plan", "decide", plan, "--content", "x")
        holder.rollback()

    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(
        "error: database error: canceling statement due to lock timeout"
    )
    assert f"${LOCK_TIMEOUT_ENV}" in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    # Nothing was recorded, and the same decide works once the lock is released.
    status = run(capsys, "--db", postgres_url, "plan", "status", plan, "--json")
    assert status.json()["decisions"] == 0
    decided = run(capsys, "--db", postgres_url, "plan", "decide", plan, "--content", "x")
    assert decided.exit_code == 0


def test_a_statement_past_its_timeout_fails_naming_the_setting(postgres_url: str) -> None:
    engine = make_engine(_with_query(postgres_url, statement_timeout="100ms"))
    try:
        with (
            pytest.raises(StoreUnavailableError, match="statement timeout") as raised,
            database_errors_translated(),
            engine.connect() as connection,
        ):
            connection.execute(text("SELECT pg_sleep(30)"))
    finally:
        engine.dispose()
    assert f"${STATEMENT_TIMEOUT_ENV}" in str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("option", "environment", "named"),
    [
        ("?lock_timeout=soon", {}, "the URL's lock_timeout"),
        ("?statement_timeout=-1", {}, "the URL's statement_timeout"),
        ("", {LOCK_TIMEOUT_ENV: "10 seconds"}, f"${LOCK_TIMEOUT_ENV}"),
        ("", {STATEMENT_TIMEOUT_ENV: "1.5s"}, f"${STATEMENT_TIMEOUT_ENV}"),
    ],
)
def test_a_malformed_timeout_is_one_line_and_exit_2(
    option: str,
    environment: dict[str, str],
    named: str,
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    # No server is needed: the value is refused before any connection is made.
    url = f"postgresql://nobody@127.0.0.1:9/nothing{option}"

    result = run(capsys, "--db", url, "project", "list")

    assert result.exit_code == 2
    assert result.stderr.startswith("error: invalid ")
    assert f"(from {named})" in result.stderr
    assert result.stderr.count("\n") == 1
