"""Alembic environment for cleveragents.

The engine comes from the caller (`config.attributes["engine"]`, as the CLI and tests pass it),
else from the URL in the config, else from cleveragents' own resolution of the database URL.
`render_as_batch` lets SQLite alter tables by copying them; the SQL stays portable.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Engine

from cleveragents.adapters.persistence.database import make_engine, resolve_database_url
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
    with _engine().connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=True,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
