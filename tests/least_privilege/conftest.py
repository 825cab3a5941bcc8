"""The store's own tests, run again on PostgreSQL as the worker role of docs/deployment.md
("Roles and privileges"): a role that may read and write rows and create nothing.

Each module here imports the tests of one module of tests/integration; this folder's
`database_url` replaces the root conftest's for them: a copy of a template database that the
owner role migrated, with the page's grants, opened as the worker role. A test that passes
here needed no privilege beyond the documented ones. (SQLite-only tests are deselected, as
for every PostgreSQL variant, and so are the tests that open no database: they ran already.)
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.adapters.persistence.store import SqlStore
from tests.least_privilege_roles import LeastPrivilegeServer, least_privilege_server
from tests.postgres_databases import server_url

_numbers = itertools.count(1)
_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """This folder's tests that open no database are deselected: nothing to see as a role."""
    kept, deselected = [], []
    for item in items:
        here = item.path.is_relative_to(_HERE)
        if here and "database_url" not in getattr(item, "fixturenames", ()):
            deselected.append(item)
        else:
            kept.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


@pytest.fixture(scope="session")
def least_privilege() -> Iterator[tuple[LeastPrivilegeServer, str]]:
    """The roles, and a template database the owner migrated after the page's grants."""
    with least_privilege_server(server_url()) as prepared:
        template = f"cleveragents_lpt_{os.getpid()}_template"
        prepared.drop_database(template)
        prepared.create_database(template)
        try:
            prepared.grant(template)
            owner = SqlStore(prepared.url(prepared.roles.owner, template))
            try:
                owner.upgrade()
            finally:
                owner.dispose()  # a template may have no connections while it is copied
            yield prepared, template
        finally:
            prepared.drop_database(template)


@pytest.fixture(params=["postgresql"])
def database_url(
    request: pytest.FixtureRequest, least_privilege: tuple[LeastPrivilegeServer, str]
) -> Iterator[str]:
    """A database at the schema's head, opened as the worker role."""
    prepared, template = least_privilege
    name = f"cleveragents_lpt_{os.getpid()}_{next(_numbers)}"
    prepared.create_database(name, template=template)
    try:
        prepared.grant_connect(name)
        yield prepared.url(prepared.roles.worker, name)
    finally:
        prepared.drop_database(name)
