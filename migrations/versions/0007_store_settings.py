"""Settings of the store itself, fixed when it is first used: where its blobs live.

One row per setting (``blob_store``: a folder, or ``s3://BUCKET/PREFIX``). The blob location
was derived from how the database URL was given and from the home it was used from, so the
same database found different blobs from ``--db``, from ``$CLEVERAGENTS_DATABASE_URL`` or from
another machine; recorded in the database, it belongs to the store. Databases upgraded to this
revision record their location the next time their blob store is opened (the folder they used
by ``--db``, the home's ``artifacts`` for the home's database), so existing blobs stay put.

Revision ID: 0007_store_settings
Revises: 0006_bigint_counts
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_store_settings"
down_revision: str | None = "0006_bigint_counts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "store_settings",
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_store_settings")),
    )


def downgrade() -> None:
    op.drop_table("store_settings")
