"""Alembic, driven from code: the CLI brings a database to head on first use."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

import cleveragents
from cleveragents.adapters.persistence.errors import StoreUnavailableError


def migrations_dir() -> Path:
    """The Alembic environment: inside the package when installed from a wheel, else the
    repository's top-level ``migrations/`` (editable installs and checkouts)."""
    package_dir = Path(cleveragents.__file__).resolve().parent
    bundled = package_dir / "_migrations"
    if (bundled / "env.py").is_file():
        return bundled
    return package_dir.parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    config = Config()
    # Alembic's options go through ConfigParser interpolation: a literal "%" must be doubled
    # (a database path or a password may contain one).
    config.set_main_option("script_location", str(migrations_dir()).replace("%", "%%"))
    url = engine.url.render_as_string(hide_password=False)
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["engine"] = engine
    return config


def head_revision(engine: Engine) -> str | None:
    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def head_revision_of_code() -> str | None:
    """The newest revision this code knows, without touching any database."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()).replace("%", "%%"))
    return ScriptDirectory.from_config(config).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    command.downgrade(alembic_config(engine), revision)


def ensure_at_head(engine: Engine) -> None:
    """Upgrade when the database is behind; a no-op on an up-to-date database.

    A database at a revision this code does not know (written by a newer cleveragents) is left
    alone: upgrading or using it could lose data.
    """
    current = current_revision(engine)
    script = ScriptDirectory.from_config(alembic_config(engine))
    if current == script.get_current_head():
        return
    known = {revision.revision for revision in script.walk_revisions()}
    if current is not None and current not in known:
        raise StoreUnavailableError(
            f"the database is at schema revision {current!r}, which this version of "
            "cleveragents does not know; upgrade cleveragents"
        )
    upgrade(engine)
