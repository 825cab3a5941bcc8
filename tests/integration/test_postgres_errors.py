"""Every database error reaches the user as one line: no server listening, a wrong password, a
value the database refuses (DataError, bad input: exit 2), the driver not installed (exit 2)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import URL, make_url

from cleveragents.adapters.persistence.database import make_engine
from cleveragents.adapters.persistence.errors import database_errors_translated
from cleveragents.adapters.persistence.store import SqlStore
from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork
from cleveragents.domain.errors import InvalidInputError
from tests.e2e.cli_runner import Result, run
from tests.postgres_databases import empty_database, libpq_url, server_url


def _assert_one_line(result: Result, exit_code: int) -> None:
    assert result.exit_code == exit_code, result
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "sqlalche.me" not in result.stderr  # SQLAlchemy's "background on this error" link


def _free_port() -> int:
    """A port nothing listens on: bound, then released, never listened on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_port_where_nothing_listens(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://worker:hunter2@127.0.0.1:{_free_port()}/plans"

    result = run(capsys, "--db", url, "project", "list")

    _assert_one_line(result, 1)
    assert "Connection refused" in result.stderr
    assert "postgresql://worker:***@127.0.0.1:" in result.stderr
    assert "hunter2" not in result.stderr


def test_a_wrong_password(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = server_url()
    wrong = server.set(password="certainly-not-the-password")
    try:
        psycopg.connect(libpq_url(wrong)).close()
    except psycopg.OperationalError:
        pass
    else:
        pytest.skip("the test server trusts every password (pg_hba 'trust'): nothing to refuse")

    result = run(capsys, "--db", wrong.render_as_string(hide_password=False), "project", "list")

    _assert_one_line(result, 1)
    assert "password authentication failed" in result.stderr
    assert "certainly-not-the-password" not in result.stderr


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with empty_database(server_url()) as url:
        yield url


def test_a_data_error_is_bad_input_in_one_line(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    try:
        with (
            pytest.raises(InvalidInputError, match="invalid input syntax for type integer") as e,
            database_errors_translated(),
            engine.connect() as connection,
        ):
            connection.execute(text("SELECT CAST('many' AS INTEGER)"))
    finally:
        engine.dispose()
    assert str(e.value).startswith("the database refused a value: ")
    assert "\n" not in str(e.value)


def test_a_data_error_in_a_unit_of_work_is_bad_input(postgres_url: str) -> None:
    store = SqlStore(postgres_url)
    try:
        with (
            pytest.raises(InvalidInputError, match="NUL"),
            SqlaUnitOfWork(store.sessions) as uow,
        ):
            uow.plans.lock_exists("01ARZ3NDEKTSV4RRFFQ69G5FA\x00")  # PostgreSQL text has no NUL
    finally:
        store.dispose()


def test_a_nul_byte_in_a_decision_is_one_line_and_exit_2(
    postgres_url: str, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "--db", postgres_url, "project", "create", "p").exit_code == 0
    created = run(capsys, "--db", postgres_url, "plan", "create", "--project", "p", "--title", "t")
    plan = created.stdout.strip()
    content = tmp_path / "decision.txt"
    content.write_bytes(b"use\x00stripe")

    result = run(capsys, "--db", postgres_url, "plan", "decide", plan, "--file", str(content))

    _assert_one_line(result, 2)
    assert "NUL" in result.stderr
    status = run(capsys, "--db", postgres_url, "plan", "status", plan, "--json")
    assert status.json()["decisions"] == 0


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://worker@127.0.0.1:9/plans",
        "postgresql+psycopg://worker@127.0.0.1:9/plans",
        "postgres://worker@127.0.0.1:9/plans",
    ],
)
def test_without_psycopg_a_postgres_url_names_the_extra(
    url: str, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` fails, as uninstalled

    result = run(capsys, "--db", url, "project", "list")

    _assert_one_line(result, 2)
    assert result.stderr == (
        "error: the PostgreSQL driver psycopg is not installed: "
        "pip install -e '.[postgres]' in a checkout, or "
        "'dist/cleveragents-VERSION-py3-none-any.whl[postgres]'\n"
    )


@pytest.mark.parametrize(
    ("given", "driver"),
    [
        ("postgresql://worker@db.internal/plans", "postgresql+psycopg"),
        ("postgres://worker@db.internal/plans", "postgresql+psycopg"),
        ("postgresql+psycopg://worker@db.internal/plans", "postgresql+psycopg"),
        ("postgresql+psycopg2://worker@db.internal/plans", "postgresql+psycopg2"),
    ],
)
def test_a_plain_postgres_url_means_psycopg_3(given: str, driver: str) -> None:
    from cleveragents.adapters.persistence.postgres import driver_url

    url: URL = driver_url(make_url(f"{given}?lock_timeout=5s&sslmode=require"))
    assert url.drivername == driver
    assert dict(url.query) == {"sslmode": "require"}  # ours taken out, libpq's kept
