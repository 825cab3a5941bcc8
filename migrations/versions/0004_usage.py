"""The usage ledger: token usage per provider request (input, output, cache read and cache
write apart; NULL where the provider did not report a figure).

Revision ID: 0004_usage
Revises: 0003_events
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_usage"
down_revision: str | None = "0003_events"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEXED = ("project_id", "plan_id", "recorded_at")
_TOKEN_COLUMNS = (
    "input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "cache_write_5m_tokens",
    "cache_write_1h_tokens",
    "total_input_tokens",
)


def upgrade() -> None:
    op.create_table(
        "usage_records",
        sa.Column("id", sa.String(26), nullable=False),
        sa.Column("project_id", sa.String(26), nullable=False),
        sa.Column("plan_id", sa.String(26), nullable=True),
        sa.Column("request_key", sa.String(200), nullable=False),
        sa.Column("provider", sa.String(50), nullable=False),
        sa.Column("usage_format", sa.String(50), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("message_id", sa.String(200), nullable=True),
        sa.Column("request_id", sa.String(200), nullable=True),
        *(sa.Column(name, sa.BigInteger(), nullable=True) for name in _TOKEN_COLUMNS),
        sa.Column("output_tokens", sa.BigInteger(), nullable=False),
        sa.Column("reasoning_tokens", sa.BigInteger(), nullable=True),
        sa.Column("service_tier", sa.String(50), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("raw_usage", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_usage_records_project_id_projects")
        ),
        sa.ForeignKeyConstraint(
            ["plan_id"], ["plans.id"], name=op.f("fk_usage_records_plan_id_plans")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_usage_records")),
        sa.UniqueConstraint("request_key", name=op.f("uq_usage_records_request_key")),
    )
    for column in _INDEXED:
        op.create_index(op.f(f"ix_usage_records_{column}"), "usage_records", [column])


def downgrade() -> None:
    for column in reversed(_INDEXED):
        op.drop_index(op.f(f"ix_usage_records_{column}"), table_name="usage_records")
    op.drop_table("usage_records")
