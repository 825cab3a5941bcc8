"""Initial schema: projects, plans, decisions, inherited fragments, skeleton metadata.

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_initial"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _policy_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("skeleton_ratio", sa.Float(), nullable=True),
        sa.Column("context_window", sa.Integer(), nullable=True),
        sa.Column("reserve_tokens", sa.Integer(), nullable=True),
        sa.Column("keep_recent_tokens", sa.Integer(), nullable=True),
        sa.Column("artifact_retention_days", sa.Integer(), nullable=True),
        sa.Column("artifact_retention_bytes", sa.BigInteger(), nullable=True),
    ]


def upgrade() -> None:
    op.create_table(
        "projects",
        sa.Column("id", sa.String(26), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *_policy_columns(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_projects")),
        sa.UniqueConstraint("name", name=op.f("uq_projects_name")),
    )
    op.create_table(
        "plans",
        sa.Column("id", sa.String(26), nullable=False),
        sa.Column("project_id", sa.String(26), nullable=False),
        sa.Column("parent_id", sa.String(26), nullable=True),
        sa.Column("title", sa.String(500), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *_policy_columns(),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f("fk_plans_project_id_projects")
        ),
        sa.ForeignKeyConstraint(["parent_id"], ["plans.id"], name=op.f("fk_plans_parent_id_plans")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_plans")),
    )
    op.create_index(op.f("ix_plans_project_id"), "plans", ["project_id"])
    op.create_index(op.f("ix_plans_parent_id"), "plans", ["parent_id"])
    op.create_table(
        "skeleton_metadata",
        sa.Column("plan_id", sa.String(26), nullable=False),
        sa.Column("ratio", sa.Float(), nullable=False),
        sa.Column("original_tokens", sa.BigInteger(), nullable=False),
        sa.Column("compressed_tokens", sa.BigInteger(), nullable=False),
        sa.Column("source_decision_ids", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["plan_id"], ["plans.id"], name=op.f("fk_skeleton_metadata_plan_id_plans")
        ),
        sa.PrimaryKeyConstraint("plan_id", name=op.f("pk_skeleton_metadata")),
    )
    op.create_table(
        "decisions",
        sa.Column("id", sa.String(26), nullable=False),
        sa.Column("plan_id", sa.String(26), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("fragment_id", sa.String(200), nullable=False),
        sa.Column("relevance", sa.Float(), nullable=False),
        sa.Column("token_count", sa.BigInteger(), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["plan_id"], ["plans.id"], name=op.f("fk_decisions_plan_id_plans")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_decisions")),
        sa.UniqueConstraint("plan_id", "position", name=op.f("uq_decisions_plan_id_position")),
        sa.UniqueConstraint(
            "plan_id", "fragment_id", name=op.f("uq_decisions_plan_id_fragment_id")
        ),
    )
    op.create_table(
        "inherited_fragments",
        sa.Column("plan_id", sa.String(26), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("fragment_id", sa.String(200), nullable=False),
        sa.Column("decision_id", sa.String(26), nullable=False),
        sa.Column("relevance", sa.Float(), nullable=False),
        sa.Column("token_count", sa.BigInteger(), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["plan_id"], ["plans.id"], name=op.f("fk_inherited_fragments_plan_id_plans")
        ),
        sa.PrimaryKeyConstraint("plan_id", "position", name=op.f("pk_inherited_fragments")),
        sa.UniqueConstraint(
            "plan_id", "fragment_id", name=op.f("uq_inherited_fragments_plan_id_fragment_id")
        ),
    )


def downgrade() -> None:
    op.drop_table("inherited_fragments")
    op.drop_table("decisions")
    op.drop_table("skeleton_metadata")
    op.drop_index(op.f("ix_plans_parent_id"), table_name="plans")
    op.drop_index(op.f("ix_plans_project_id"), table_name="plans")
    op.drop_table("plans")
    op.drop_table("projects")
