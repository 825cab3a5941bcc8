"""Alembic, driven from code: the CLI brings a database to head on first use.

Alembic is imported only when there is something to migrate. Every command checks the schema
first, and loading Alembic costs more than most commands: an up-to-date database (the common
case) is recognised with one query of ``alembic_version`` and the revision files read as text.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text

from cleveragents.adapters.persistence.errors import StoreUnavailableError

if TYPE_CHECKING:
    from alembic.config import Config

VERSION_TABLE = "alembic_version"  # Alembic's default, which env.py keeps


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

    config = Config()
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


def upgrade(engine: Engine, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(engine), revision)


def ensure_at_head(engine: Engine) -> None:
    """Upgrade when the database is behind; a no-op on an up-to-date database.

    A database at a revision this code does not know (written by a newer cleveragents) is left
    alone: upgrading or using it could lose data.
    """
    current = current_revision(engine)
    if current is not None and current == _single_head_of_files():
        return
    from alembic.script import ScriptDirectory

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
