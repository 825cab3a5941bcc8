"""Alembic, driven from code: the CLI brings a database to head on first use.

Alembic is imported only when there is something to migrate. Every command checks the schema
first, and loading Alembic (some 420 ms of CPU) costs more than most commands: an up-to-date
database (the common case) is recognised with one query of ``alembic_version`` and the
revision files read as text.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import DBAPIError

from cleveragents.adapters.persistence.errors import (
    LOCK_NOT_AVAILABLE,
    StoreUnavailableError,
    sqlstate,
)
from cleveragents.adapters.persistence.postgres import LOCK_TIMEOUT_ENV

if TYPE_CHECKING:
    from alembic.config import Config

VERSION_TABLE = "alembic_version"  # Alembic's default, which env.py keeps
# The advisory lock every cleveragents process takes to migrate a PostgreSQL database: fixed,
# so that processes of any version wait for each other ("cleverag" as a big-endian integer).
MIGRATION_LOCK_KEY = int.from_bytes(b"cleverag", "big")


def migrations_dir() -> Path:
    """The Alembic environment: inside the package when installed from a wheel, else the
    repository's top-level ``migrations/`` (editable installs and checkouts)."""
    # The package is two folders up from this module (cleveragents/adapters/persistence/):
    # found by path, since importing the package's root would tie this adapter to the API above.
    package_dir = Path(__file__).resolve().parents[2]
    bundled = package_dir / "_migrations"
    if (bundled / "env.py").is_file():
        return bundled
    return package_dir.parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    config = _script_config()
    url = engine.url.render_as_string(hide_password=False)
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["engine"] = engine
    return config


def _script_config() -> Config:
    from alembic.config import Config

    # Alembic's default stdout is sys.stdout as it was when alembic was imported, which may
    # since have been replaced (and closed): the one of now.
    config = Config(stdout=sys.stdout)
    # Alembic's options go through ConfigParser interpolation: a literal "%" must be doubled
    # (a database path or a password may contain one).
    config.set_main_option("script_location", str(migrations_dir()).replace("%", "%%"))
    return config


def head_revision(engine: Engine) -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def head_revision_of_code() -> str | None:
    """The newest revision this code knows, without touching any database."""
    return _single_head_of_files() or _head_by_alembic()


def _head_by_alembic() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_script_config()).get_current_head()


def _single_head_of_files() -> str | None:
    """The one revision no other revision follows, read from the revision files' literal
    ``revision`` and ``down_revision``; None when that is not plain (a merge, several heads,
    a value computed at import): Alembic then decides."""
    follows: dict[str, str | None] = {}
    for path in sorted((migrations_dir() / "versions").glob("*.py")):
        values = _literal_assignments(path.read_text(encoding="utf-8"))
        revision, down_revision = values.get("revision"), values.get("down_revision")
        if not isinstance(revision, str) or not isinstance(down_revision, str | None):
            return None
        follows[revision] = down_revision
    heads = set(follows) - set(follows.values())
    return heads.pop() if len(heads) == 1 else None


def _literal_assignments(source: str) -> dict[str, object]:
    """The module's top-level ``name = literal`` (or ``name: type = literal``) assignments."""
    found: dict[str, object] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            try:
                found[target.id] = ast.literal_eval(value)
            except ValueError:
                found[target.id] = value  # an expression, not a literal: not plain
    return found


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; None for an empty database."""
    with engine.connect() as connection:
        return _revision_on(connection)


def _revision_on(connection: Connection) -> str | None:
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    stored = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars()
    revisions = list(stored)
    if len(revisions) > 1:
        raise StoreUnavailableError(
            f"the database is at several schema revisions at once ({', '.join(revisions)}); "
            "cleveragents' schema has one line of revisions"
        )
    return revisions[0] if revisions else None


def hold_migration_lock(connection: Connection) -> None:
    """Wait until no other process migrates this database, then keep it so until the
    connection's transaction ends.

    PostgreSQL: a transaction-scoped advisory lock on `MIGRATION_LOCK_KEY` (held twice by one
    transaction is fine: it is re-entrant). Its wait is bounded by the connection's
    ``lock_timeout``; the migration itself is not bounded by ``statement_timeout``, since
    rewriting a large table may take long. SQLite needs nothing here: each transaction starts
    with ``BEGIN IMMEDIATE`` (see `database`), which already is the database's write lock.
    """
    if connection.dialect.name != "postgresql":
        return
    connection.execute(text("SET LOCAL statement_timeout = 0"))
    try:
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
    except DBAPIError as error:
        if sqlstate(error) != LOCK_NOT_AVAILABLE:
            raise
        raise StoreUnavailableError(
            "another process has been migrating the database's schema for longer than the "
            f"lock timeout; try again when it is done, or wait longer with ${LOCK_TIMEOUT_ENV} "
            "or the URL's ?lock_timeout="
        ) from error


def upgrade(engine: Engine, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(engine), revision)


def ensure_at_head(engine: Engine) -> None:
    """Upgrade when the database is behind; a no-op on an up-to-date database.

    Many workers may reach a new database at once: the upgrade runs in one transaction that
    first takes the migration lock (`hold_migration_lock`), then reads the revision again,
    since another worker may have migrated while this one waited.

    A database at a revision this code does not know (written by a newer cleveragents) is left
    alone: upgrading or using it could lose data.
    """
    current = current_revision(engine)
    if current is not None and current == _single_head_of_files():
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    config = alembic_config(engine)
    script = ScriptDirectory.from_config(config)
    head = script.get_current_head()
    known = {revision.revision for revision in script.walk_revisions()}
    if current == head:
        return
    _refuse_unknown(current, known)
    with engine.connect() as connection, connection.begin():
        hold_migration_lock(connection)
        current = _revision_on(connection)
        if current == head:
            return  # another worker migrated it while this one waited for the lock
        _refuse_unknown(current, known)
        config.attributes["connection"] = connection  # env.py migrates in this transaction
        command.upgrade(config, "head")


def _refuse_unknown(current: str | None, known: set[str]) -> None:
    if current is not None and current not in known:
        raise StoreUnavailableError(
            f"the database is at schema revision {current!r}, which this version of "
            "cleveragents does not know; upgrade cleveragents"
        )
