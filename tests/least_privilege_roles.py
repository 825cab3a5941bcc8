"""A least-privilege deployment on the PostgreSQL test server, set up by the statements of
docs/deployment.md ("Roles and privileges") as they are written there: an owner role that
migrates, a worker role that only reads and writes rows.

The page's statements name `agents_owner`, `agents_worker` and the database `agents`; they are
run here with those names replaced by this run's (role names are the whole server's, so they
carry the process id and a random suffix, and are dropped afterwards). Creating roles takes
CREATEROLE: .ci/run gives it to the test server's role. A server whose role may not create
roles skips these tests, except under CI, where they fail.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
import pytest
from psycopg import sql
from sqlalchemy.engine import URL, make_url

from tests.conftest import REPO_ROOT
from tests.postgres_databases import libpq_url

DEPLOYMENT_PAGE = REPO_ROOT / "docs" / "deployment.md"
SECTION_TITLE = "### Roles and privileges"


@dataclass(frozen=True)
class GrantBlocks:
    """The page's statements: run by the database's owner, then by the owner role."""

    as_database_owner: tuple[str, ...]
    as_owner_role: tuple[str, ...]


def documented_grants() -> GrantBlocks:
    """The statements of the page's SQL blocks that follow the roles' creation."""
    section = _section()
    blocks = re.findall(r"^```sql\n(.*?)^```", section, re.DOTALL | re.MULTILINE)
    assert len(blocks) == 3, f"expected the roles, then two blocks of grants: {blocks}"
    creations, by_database_owner, by_owner_role = (_statements(block) for block in blocks)
    assert all(statement.startswith("CREATE ROLE") for statement in creations)
    return GrantBlocks(by_database_owner, by_owner_role)


def documented_refusal() -> str:
    """The error line the page shows for a role missing a grant."""
    section = _section()
    blocks = re.findall(r"^```text\n(.*?)^```", section, re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1, blocks
    return str(blocks[0]).strip()


def _section() -> str:
    page = DEPLOYMENT_PAGE.read_text(encoding="utf-8")
    start = page.index(SECTION_TITLE)
    end = page.find("\n### ", start + len(SECTION_TITLE))
    return page[start : end if end >= 0 else len(page)]


def _statements(block: str) -> tuple[str, ...]:
    return tuple(" ".join(part.split()) for part in block.split(";") if part.strip())


@dataclass(frozen=True)
class Role:
    name: str
    password: str


@dataclass(frozen=True)
class Roles:
    owner: Role
    worker: Role

    def named_in(self, statement: str, database: str) -> str:
        """`statement` with the page's names replaced by these roles' and `database`."""
        replaced = re.sub(r"\bagents_owner\b", self.owner.name, statement)
        replaced = re.sub(r"\bagents_worker\b", self.worker.name, replaced)
        return re.sub(r"\bagents\b", database, replaced)


def _may_create_roles(server: URL) -> bool:
    with psycopg.connect(libpq_url(server), autocommit=True) as connection:
        row = connection.execute(
            "SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
    return bool(row and row[0])


@dataclass(frozen=True)
class LeastPrivilegeServer:
    """The test server, its two roles and the databases set up for them."""

    server: URL
    roles: Roles

    def url(self, role: Role, database: str) -> str:
        given = self.server.set(
            username=role.name, password=role.password, database=database, query={}
        )
        return given.render_as_string(hide_password=False)

    def admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(libpq_url(self.server), autocommit=True)

    def create_database(self, name: str, template: str = "template0") -> None:
        with self.admin() as connection:
            connection.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(name), sql.Identifier(template)
                )
            )

    def drop_database(self, name: str) -> None:
        with self.admin() as connection:
            connection.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )

    def grant(
        self, database: str, *, leave_out: str | None = None, owner_block: bool = True
    ) -> None:
        """Run the page's grants on `database`, as it says, but for those containing
        `leave_out` (to see what a role missing one is told); the owner role's block only if
        `owner_block` (it needs the schema's USAGE)."""
        blocks = documented_grants()
        owner_url = libpq_url_of(self.url(self.roles.owner, database))
        admin_url = libpq_url(self.server.set(database=database))
        steps = [(admin_url, blocks.as_database_owner)]
        if owner_block:
            steps.append((owner_url, blocks.as_owner_role))
        for url, statements in steps:
            with psycopg.connect(url, autocommit=True) as connection:
                for statement in statements:
                    if leave_out is not None and leave_out in statement:
                        continue
                    connection.execute(self.roles.named_in(statement, database).encode())

    def run_as_admin(self, database: str, statement: str) -> None:
        """`statement` (the page's names replaced) as the database's owner."""
        with psycopg.connect(libpq_url(self.server.set(database=database)), autocommit=True) as c:
            c.execute(self.roles.named_in(statement, database).encode())

    def run_as_owner(self, database: str, statement: str) -> None:
        """`statement` (the page's names replaced) as the owner role, which owns the tables."""
        with psycopg.connect(
            libpq_url_of(self.url(self.roles.owner, database)), autocommit=True
        ) as c:
            c.execute(self.roles.named_in(statement, database).encode())

    def tables(self, database: str) -> list[str]:
        """The tables of schema public."""
        with psycopg.connect(libpq_url(self.server.set(database=database))) as connection:
            rows = connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            ).fetchall()
        return [str(row[0]) for row in rows]

    def grant_connect(self, database: str) -> None:
        """The database's own grants, which a copy of a template does not inherit (its
        schema's and tables' grants it does)."""
        blocks = documented_grants()
        with self.admin() as connection:
            for statement in blocks.as_database_owner:
                if "ON DATABASE" in statement:
                    connection.execute(self.roles.named_in(statement, database).encode())


def libpq_url_of(url: str) -> str:
    return libpq_url(make_url(url))


@contextmanager
def least_privilege_server(server: URL) -> Iterator[LeastPrivilegeServer]:
    """The two roles, created on the test server and dropped afterwards (the databases set
    up for them must be dropped first)."""
    if not _may_create_roles(server):
        message = "the PostgreSQL test server's role may not create roles (CREATEROLE, see .ci/run)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    suffix = f"{os.getpid()}_{secrets.token_hex(4)}"
    roles = Roles(
        owner=Role(f"cleveragents_owner_{suffix}", secrets.token_hex(16)),
        worker=Role(f"cleveragents_worker_{suffix}", secrets.token_hex(16)),
    )
    prepared = LeastPrivilegeServer(server, roles)
    with prepared.admin() as connection:
        for role in (roles.owner, roles.worker):
            connection.execute(
                sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                    sql.Identifier(role.name), sql.Literal(role.password)
                )
            )
    try:
        yield prepared
    finally:
        with prepared.admin() as connection:
            for role in (roles.worker, roles.owner):
                connection.execute(
                    sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role.name))
                )
