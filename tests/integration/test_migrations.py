"""Alembic owns the schema: every migration goes up, down and up again (the stairway)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import make_engine
from cleveragents.adapters.persistence.rows import Base
from cleveragents.container import build_container


def _revisions_oldest_first(engine_url: str) -> list[tuple[str, str]]:
    engine = make_engine(engine_url)
    script = ScriptDirectory.from_config(migrations.alembic_config(engine))
    engine.dispose()
    revisions = list(script.walk_revisions())
    revisions.reverse()
    return [(r.revision, r.down_revision or "base") for r in revisions]  # type: ignore[misc]


def test_every_migration_upgrades_downgrades_and_upgrades_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stairway.db'}"
    revisions = _revisions_oldest_first(url)
    assert revisions, "no migrations found"
    engine = make_engine(url)
    try:
        for revision, down_revision in revisions:
            migrations.upgrade(engine, revision)
            assert migrations.current_revision(engine) == revision
            migrations.downgrade(engine, down_revision)
            expected = None if down_revision == "base" else down_revision
            assert migrations.current_revision(engine) == expected
            migrations.upgrade(engine, revision)
            assert migrations.current_revision(engine) == revision
        migrations.downgrade(engine, "base")
        assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    finally:
        engine.dispose()


def test_head_schema_matches_the_rows(tmp_path: Path) -> None:
    """The migrations and the SQLAlchemy rows describe the same schema (names included)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'head.db'}")
    try:
        migrations.upgrade(engine)
        with engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == []
    finally:
        engine.dispose()


def test_ensure_at_head_upgrades_an_empty_database_once(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    try:
        assert migrations.current_revision(engine) is None
        migrations.ensure_at_head(engine)
        head = migrations.head_revision(engine)
        assert head is not None
        assert migrations.current_revision(engine) == head
        migrations.ensure_at_head(engine)  # idempotent
        assert migrations.current_revision(engine) == head
    finally:
        engine.dispose()


def test_a_database_path_with_a_percent_sign_is_migrated(tmp_path: Path) -> None:
    # Alembic reads its options through ConfigParser, where "%" starts an interpolation.
    folder = tmp_path / "100% done"
    folder.mkdir()
    container = build_container(f"sqlite:///{folder / 'x.db'}", home=tmp_path)
    try:
        assert container.project_service().list() == []
        assert container.store().current_revision() == container.store().head_revision()
    finally:
        container.store().dispose()


def test_the_summary_budget_column_keeps_existing_policies(tmp_path: Path) -> None:
    """Upgrading adds an unset summary budget to every policy; downgrading drops only it."""
    engine = make_engine(f"sqlite:///{tmp_path / 'summary.db'}")
    try:
        migrations.upgrade(engine, "0004_usage")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO projects (id, name, created_at, keep_recent_tokens) "
                    "VALUES ('01HX3Z8Q9V6W2Y4K5M7N8P0R1S', 'shop', '2026-12-01', 30000)"
                )
            )
        migrations.upgrade(engine, "0005_summary_tokens")
        with engine.begin() as connection:
            row = connection.execute(
                text("SELECT keep_recent_tokens, summary_tokens FROM projects")
            ).one()
            assert tuple(row) == (30000, None)
            connection.execute(text("UPDATE projects SET summary_tokens = 2500"))
        migrations.downgrade(engine, "0004_usage")
        columns = {column["name"] for column in inspect(engine).get_columns("projects")}
        assert "summary_tokens" not in columns
        assert "keep_recent_tokens" in columns
        with engine.connect() as connection:
            kept = connection.execute(text("SELECT keep_recent_tokens FROM projects")).scalar()
        assert kept == 30000
    finally:
        engine.dispose()


def test_the_head_read_from_the_revision_files_is_alembics() -> None:
    # An up-to-date database is recognised from the files, without loading Alembic.
    config = migrations.alembic_config(make_engine("sqlite://"))
    assert (
        migrations.head_revision_of_code() == ScriptDirectory.from_config(config).get_current_head()
    )


@pytest.mark.parametrize(
    ("newest", "head"),
    [
        ('revision = "c"\ndown_revision = "b"\n', "c"),
        ('revision: str = "c"\ndown_revision: str | None = "b"\n', "c"),
        ('revision = "c"\ndown_revision = ("a", "b")\n', None),  # a merge
        ('revision = "c"\ndown_revision = PREVIOUS\n', None),  # computed
        ('revision = "c"\ndown_revision = "a"\n', None),  # two heads: b and c
    ],
)
def test_the_head_of_the_files_when_plain_else_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, newest: str, head: str | None
) -> None:
    versions = tmp_path / "versions"
    versions.mkdir()
    (versions / "a.py").write_text('revision = "a"\ndown_revision = None\n')
    (versions / "b.py").write_text('revision = "b"\ndown_revision = "a"\n')
    (versions / "c.py").write_text(newest)
    monkeypatch.setattr(migrations, "migrations_dir", lambda: tmp_path)
    assert migrations._single_head_of_files() == head


def test_ensure_at_head_upgrades_a_database_one_revision_behind(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'behind.db'}")
    try:
        head = migrations.head_revision(engine)
        migrations.upgrade(engine)
        migrations.downgrade(engine, "-1")
        assert migrations.current_revision(engine) != head
        migrations.ensure_at_head(engine)
        assert migrations.current_revision(engine) == head
    finally:
        engine.dispose()
