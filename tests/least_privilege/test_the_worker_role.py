"""The tests of this folder do run as the worker role, which may create nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import ProgrammingError

from cleveragents.adapters.persistence.database import make_engine
from cleveragents.adapters.persistence.errors import DatabasePrivilegeError, translated
from tests.least_privilege_roles import LeastPrivilegeServer


def test_the_database_url_opens_as_the_worker_role_which_may_not_create_a_table(
    database_url: str, least_privilege: tuple[LeastPrivilegeServer, str]
) -> None:
    prepared, _template = least_privilege
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT current_user")).scalar() == (
                prepared.roles.worker.name
            )
            with pytest.raises(ProgrammingError) as refused:
                connection.execute(text("CREATE TABLE scratch (id integer)"))
    finally:
        engine.dispose()
    error = translated(refused.value)
    assert isinstance(error, DatabasePrivilegeError)
    assert "USAGE and CREATE on schema public" in str(error)
