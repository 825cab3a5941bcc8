"""Governed artifact store: artifacts, temporary-output references, preview sizes in policies.

Revision ID: 0002_artifact_store
Revises: 0001_initial
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_artifact_store"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_POLICY_TABLES = ("projects", "plans")


def upgrade() -> None:
    for table in _POLICY_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("preview_head_bytes", sa.Integer(), nullable=True))
            batch.add_column(sa.Column("preview_tail_bytes", sa.Integer(), nullable=True))
    op.create_table(
        "artifacts",
        sa.Column("id", sa.String(26), nullable=False),
        sa.Column("project_id", sa.String(26), nullable=False),
        sa.Column("plan_id", sa.String(26), nullable=True),
        sa.Column("sha256", sa.String(64), nullable=True),
        sa.Column("byte_count", sa.BigInteger(), nullable=False),
        sa.Column("media_type", sa.String(200), nullable=False),
        sa.Column("workspace_path", sa.Text(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("retention_class", sa.String(20), nullable=False),
        sa.Column("source", sa.String(200), nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expired_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("findings", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_artifacts_project_id_projects")
        ),
        sa.ForeignKeyConstraint(["plan_id"], ["plans.id"], name=op.f("fk_artifacts_plan_id_plans")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_artifacts")),
    )
    for column in ("project_id", "plan_id", "sha256", "status", "created_at"):
        op.create_index(op.f(f"ix_artifacts_{column}"), "artifacts", [column])
    op.create_table(
        "temp_outputs",
        sa.Column("selector", sa.String(32), nullable=False),
        sa.Column("verifier_sha256", sa.String(64), nullable=False),
        sa.Column("tool_name", sa.String(200), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("selector", name=op.f("pk_temp_outputs")),
    )


def downgrade() -> None:
    op.drop_table("temp_outputs")
    for column in ("created_at", "status", "sha256", "plan_id", "project_id"):
        op.drop_index(op.f(f"ix_artifacts_{column}"), table_name="artifacts")
    op.drop_table("artifacts")
    for table in _POLICY_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("preview_tail_bytes")
            batch.drop_column("preview_head_bytes")
