"""A compaction summary's own token budget in context policies (NULL: the default applies).

Revision ID: 0005_summary_tokens
Revises: 0004_usage
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_summary_tokens"
down_revision: str | None = "0004_usage"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_POLICY_TABLES = ("projects", "plans")


def upgrade() -> None:
    for table in _POLICY_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("summary_tokens", sa.Integer(), nullable=True))


def downgrade() -> None:
    for table in _POLICY_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("summary_tokens")
