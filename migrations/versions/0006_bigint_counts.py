"""Token figures of context policies as 64-bit integers, on every database.

The domain accepts a context window, reserve, recent-turns budget or summary budget up to
10**12 tokens (`MAX_TOKEN_COUNT`); PostgreSQL's INTEGER stops at 2**31 - 1, so a window of
3000000000 was refused there with a raw error while SQLite (whose integers are all 64-bit)
stored it. Every other count that can pass 2**31 (token counts of fragments, usage and
skeletons, byte counts, retention bytes) was BIGINT from the start. The policy's retention
days and preview sizes stay INTEGER: the domain bounds them far below 2**31.

SQLite is left as it is: its integers are 64-bit whatever the declared type (INTEGER and BIGINT
are the same storage class), and retyping there would copy the projects and plans tables, which
SQLite cannot drop while other tables reference them with foreign keys on. The rows declare the
columns BIGINT with an INTEGER variant for SQLite, so `alembic check` is clean on both.

Revision ID: 0006_bigint_counts
Revises: 0005_summary_tokens
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_bigint_counts"
down_revision: str | None = "0005_summary_tokens"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_POLICY_TABLES = ("projects", "plans")
_INTEGER_MAX = 2**31 - 1
_TOKEN_POLICY_COLUMNS = ("context_window", "reserve_tokens", "keep_recent_tokens", "summary_tokens")


def _retype(old: type[sa.Integer], new: type[sa.Integer]) -> None:
    if op.get_bind().dialect.name == "sqlite":
        return  # already 64-bit: see the module docstring
    for table in _POLICY_TABLES:
        for column in _TOKEN_POLICY_COLUMNS:
            op.alter_column(table, column, existing_type=old(), type_=new(), existing_nullable=True)


def upgrade() -> None:
    _retype(sa.Integer, sa.BigInteger)


def downgrade() -> None:
    _refuse_values_that_integer_cannot_hold()
    _retype(sa.BigInteger, sa.Integer)


def _refuse_values_that_integer_cannot_hold() -> None:
    """A value above 2**31 - 1 cannot go back into INTEGER: the downgrade stops, naming it,
    rather than losing it (SQLite keeps every value, its columns are unchanged)."""
    if op.get_bind().dialect.name == "sqlite":
        return
    for table in _POLICY_TABLES:
        for column in _TOKEN_POLICY_COLUMNS:
            count = op.get_bind().scalar(
                sa.text(f"SELECT count(*) FROM {table} WHERE {column} > :limit"),
                {"limit": _INTEGER_MAX},
            )
            if count:
                raise RuntimeError(
                    f"cannot downgrade below 0006: {count} row(s) of {table} have a "
                    f"{column} above {_INTEGER_MAX}; lower them first"
                )
