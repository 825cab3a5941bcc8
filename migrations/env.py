"""Alembic environment for cleveragents.

The connection comes from the caller (`config.attributes["connection"]`: the auto-migration
passes the one whose transaction holds the migration lock and has read the revision), else the
engine (`config.attributes["engine"]`, as the CLI and tests pass it), else the URL in the config,
else cleveragents' own resolution of the database URL. Every online migration takes the
migration lock first (`hold_migration_lock`), so that two processes never migrate one database
at once, whoever started them (`alembic upgrade` from a shell too).
`render_as_batch` lets SQLite alter tables by copying them; the SQL stays portable.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection, Engine

from cleveragents.adapters.persistence.database import make_engine, resolve_database_url
from cleveragents.adapters.persistence.migrations import hold_migration_lock
from cleveragents.adapters.persistence.rows import Base

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _engine() -> Engine:
    engine = config.attributes.get("engine")
    if isinstance(engine, Engine):
        return engine
    return make_engine(config.get_main_option("sqlalchemy.url") or resolve_database_url())


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url") or resolve_database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    given = config.attributes.get("connection")
    if isinstance(given, Connection):
        _migrate(given)  # inside the caller's transaction, which commits
        return
    with _engine().connect() as connection:
        _migrate(connection)


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
    )
    with context.begin_transaction():
        hold_migration_lock(connection)  # before Alembic reads the revision it starts from
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
