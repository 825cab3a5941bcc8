"""Migration 0006 (a policy's token figures as BIGINT) on both backends: up from 0005, down and
up again with the data kept, and a downgrade that would lose a figure stopped, naming it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, text

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import make_engine
from cleveragents.adapters.persistence.rows import Base

BEFORE = "0005_summary_tokens"
BIGINT = "0006_bigint_counts"
PROJECT = "01HX3Z8Q9V6W2Y4K5M7N8P0R1S"
PLAN = "01HX3Z8Q9V6W2Y4K5M7N8P0R1T"
CHILD = "01HX3Z8Q9V6W2Y4K5M7N8P0R1V"
TOKEN_COLUMNS = ("context_window", "reserve_tokens", "keep_recent_tokens", "summary_tokens")


@pytest.fixture
def engine(empty_database_url: str) -> Iterator[Engine]:
    built = make_engine(empty_database_url)
    try:
        yield built
    finally:
        built.dispose()


def _store_a_project_and_plans(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO projects (id, name, created_at, context_window, reserve_tokens, "
                "keep_recent_tokens, summary_tokens, preview_tail_bytes) VALUES "
                f"('{PROJECT}', 'shop', '2026-12-01 00:00:00+00', 300000, 8000, 30000, 2500, 64)"
            )
        )
        for plan, parent in ((PLAN, None), (CHILD, PLAN)):
            connection.execute(
                text(
                    "INSERT INTO plans (id, project_id, parent_id, title, status, created_at, "
                    "context_window) VALUES (:id, :project, :parent, 'checkout', 'active', "
                    "'2026-12-01 00:00:00+00', 120000)"
                ),
                {"id": plan, "project": PROJECT, "parent": parent},
            )
        connection.execute(
            text(
                "INSERT INTO decisions (id, plan_id, position, fragment_id, relevance, "
                "token_count, content, created_at) VALUES ('01HX3Z8Q9V6W2Y4K5M7N8P0R1W', "
                f"'{PLAN}', 0, 'f', 0.5, 3, 'use stripe', '2026-12-01 00:00:00+00')"
            )
        )


def _project_figures(engine: Engine) -> tuple[object, ...]:
    with engine.connect() as connection:
        row = connection.execute(
            text(f"SELECT {', '.join(TOKEN_COLUMNS)}, preview_tail_bytes FROM projects")
        ).one()
    return tuple(row)


def _everything_else(engine: Engine) -> list[tuple[object, ...]]:
    with engine.connect() as connection:
        plans = connection.execute(
            text("SELECT id, parent_id, title, context_window FROM plans ORDER BY id")
        ).all()
        decisions = connection.execute(text("SELECT plan_id, content FROM decisions")).all()
    return [tuple(row) for row in (*plans, *decisions)]


def _column_types(engine: Engine) -> set[str]:
    """The declared types of the token columns of both policy tables, on PostgreSQL."""
    with engine.connect() as connection:
        found = connection.execute(
            text(
                "SELECT DISTINCT data_type FROM information_schema.columns WHERE table_name IN "
                "('projects', 'plans') AND column_name IN ('context_window', 'reserve_tokens', "
                "'keep_recent_tokens', 'summary_tokens')"
            )
        ).scalars()
        return set(found)


def test_up_down_and_up_keep_every_policy_and_plan(engine: Engine) -> None:
    migrations.upgrade(engine, BEFORE)
    _store_a_project_and_plans(engine)
    before = _project_figures(engine), _everything_else(engine)

    migrations.upgrade(engine, BIGINT)
    assert (_project_figures(engine), _everything_else(engine)) == before
    migrations.downgrade(engine, BEFORE)
    assert migrations.current_revision(engine) == BEFORE
    assert (_project_figures(engine), _everything_else(engine)) == before
    migrations.upgrade(engine, BIGINT)
    assert (_project_figures(engine), _everything_else(engine)) == before


def test_a_window_past_2_31_is_stored_at_0006(engine: Engine) -> None:
    migrations.upgrade(engine, BIGINT)
    _store_a_project_and_plans(engine)
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE projects SET context_window = 3000000000, reserve_tokens = :most"),
            {"most": 10**12},
        )
    assert _project_figures(engine)[:2] == (3_000_000_000, 10**12)
    if engine.dialect.name == "postgresql":
        assert _column_types(engine) == {"bigint"}


def test_a_downgrade_never_loses_a_figure_past_2_31(engine: Engine) -> None:
    """PostgreSQL's INTEGER cannot hold it: the downgrade stops, naming it, and changes nothing.
    SQLite's columns are unchanged by 0006: the downgrade keeps it."""
    migrations.upgrade(engine, BIGINT)
    _store_a_project_and_plans(engine)
    with engine.begin() as connection:
        connection.execute(text("UPDATE plans SET summary_tokens = 3000000000"))
    if engine.dialect.name == "sqlite":
        migrations.downgrade(engine, BEFORE)
        with engine.connect() as connection:
            kept = connection.execute(text("SELECT DISTINCT summary_tokens FROM plans")).all()
        assert kept == [(3_000_000_000,)]
        return
    with pytest.raises(RuntimeError, match="2 row\\(s\\) of plans have a summary_tokens above"):
        migrations.downgrade(engine, BEFORE)
    assert migrations.current_revision(engine) == BIGINT
    assert _column_types(engine) == {"bigint"}

    with engine.begin() as connection:
        connection.execute(text("UPDATE plans SET summary_tokens = 4000"))
    migrations.downgrade(engine, BEFORE)
    assert _column_types(engine) == {"integer"}


def test_the_head_schema_matches_the_rows(engine: Engine) -> None:
    migrations.upgrade(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
