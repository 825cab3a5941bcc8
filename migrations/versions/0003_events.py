"""Recorded events (context compaction and its failures).

Revision ID: 0003_events
Revises: 0002_artifact_store
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_events"
down_revision: str | None = "0002_artifact_store"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(26), nullable=False),
        sa.Column("kind", sa.String(100), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    op.create_index(op.f("ix_events_kind"), "events", ["kind"])
    op.create_index(op.f("ix_events_created_at"), "events", ["created_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_events_created_at"), table_name="events")
    op.drop_index(op.f("ix_events_kind"), table_name="events")
    op.drop_table("events")
