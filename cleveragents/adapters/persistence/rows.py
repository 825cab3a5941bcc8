"""SQLAlchemy 2 typed rows. They are storage shapes, kept apart from the domain models.

Only portable types and constraints: the same migrations run on SQLite and PostgreSQL. String
lengths come from `cleveragents.domain.stored_text`, where the domain checks them: SQLite would
not (it enforces no declared length), PostgreSQL would, with an error of its own.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from cleveragents.domain.stored_text import (
    ARTIFACT_SOURCE_LENGTH,
    CREATED_BY_LENGTH,
    EVENT_KIND_LENGTH,
    FRAGMENT_ID_LENGTH,
    MEDIA_TYPE_LENGTH,
    MODEL_NAME_LENGTH,
    PLAN_TITLE_LENGTH,
    PROJECT_NAME_LENGTH,
    PROVIDER_ID_LENGTH,
    PROVIDER_LENGTH,
    REQUEST_KEY_LENGTH,
    SERVICE_TIER_LENGTH,
    STATUS_LENGTH,
    TOOL_NAME_LENGTH,
    USAGE_FORMAT_LENGTH,
)

# Named constraints, so that later migrations can drop or alter them (also under SQLite batch mode).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ULID_LENGTH = 26

POLICY_TOKENS = BigInteger().with_variant(Integer(), "sqlite")
"""A policy's token figure, up to 10**12: BIGINT on PostgreSQL (migration 0006). SQLite stores
every integer in up to 8 bytes whatever the declared type, so there the columns keep the INTEGER
they were created with: retyping would copy the projects and plans tables, and SQLite refuses to
drop a referenced table while foreign keys are on (as they are in every migration)."""


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class PolicyColumns:
    """Context-policy settings; NULL means unset (the next level's value applies)."""

    skeleton_ratio: Mapped[float | None] = mapped_column(Float)
    context_window: Mapped[int | None] = mapped_column(POLICY_TOKENS)
    reserve_tokens: Mapped[int | None] = mapped_column(POLICY_TOKENS)
    keep_recent_tokens: Mapped[int | None] = mapped_column(POLICY_TOKENS)
    summary_tokens: Mapped[int | None] = mapped_column(POLICY_TOKENS)
    artifact_retention_days: Mapped[int | None] = mapped_column(Integer)
    artifact_retention_bytes: Mapped[int | None] = mapped_column(BigInteger)
    preview_head_bytes: Mapped[int | None] = mapped_column(Integer)
    preview_tail_bytes: Mapped[int | None] = mapped_column(Integer)


class ProjectRow(PolicyColumns, Base):
    __tablename__ = "projects"

    id: Mapped[str] = mapped_column(String(ULID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(PROJECT_NAME_LENGTH), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlanRow(PolicyColumns, Base):
    __tablename__ = "plans"

    id: Mapped[str] = mapped_column(String(ULID_LENGTH), primary_key=True)
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    parent_id: Mapped[str | None] = mapped_column(ForeignKey("plans.id"), index=True)
    title: Mapped[str] = mapped_column(String(PLAN_TITLE_LENGTH))
    status: Mapped[str] = mapped_column(String(STATUS_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SkeletonMetadataRow(Base):
    __tablename__ = "skeleton_metadata"

    plan_id: Mapped[str] = mapped_column(ForeignKey("plans.id"), primary_key=True)
    ratio: Mapped[float] = mapped_column(Float)
    original_tokens: Mapped[int] = mapped_column(BigInteger)
    compressed_tokens: Mapped[int] = mapped_column(BigInteger)
    # A JSON array of decision ULIDs in kept order; read and written only as a whole.
    source_decision_ids: Mapped[str] = mapped_column(Text)


class DecisionRow(Base):
    """A decision and the one context fragment it carries (the plan's own context)."""

    __tablename__ = "decisions"
    __table_args__ = (
        UniqueConstraint("plan_id", "position"),
        UniqueConstraint("plan_id", "fragment_id"),
    )

    id: Mapped[str] = mapped_column(String(ULID_LENGTH), primary_key=True)
    plan_id: Mapped[str] = mapped_column(ForeignKey("plans.id"))
    # Recording order within the plan; ULIDs made in the same millisecond do not sort by time.
    position: Mapped[int] = mapped_column(Integer)
    fragment_id: Mapped[str] = mapped_column(String(FRAGMENT_ID_LENGTH))
    relevance: Mapped[float] = mapped_column(Float)
    token_count: Mapped[int] = mapped_column(BigInteger)
    content: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InheritedFragmentRow(Base):
    """A snapshot of a fragment a plan inherited at spawn time, in the compressor's order."""

    __tablename__ = "inherited_fragments"
    __table_args__ = (UniqueConstraint("plan_id", "fragment_id"),)

    plan_id: Mapped[str] = mapped_column(ForeignKey("plans.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    fragment_id: Mapped[str] = mapped_column(String(FRAGMENT_ID_LENGTH))
    # The decision that first recorded the fragment, possibly on an ancestor several levels up.
    decision_id: Mapped[str] = mapped_column(String(ULID_LENGTH))
    relevance: Mapped[float] = mapped_column(Float)
    token_count: Mapped[int] = mapped_column(BigInteger)
    content: Mapped[str] = mapped_column(Text)


class ArtifactRow(Base):
    """An artifact's metadata. Blocked rows carry findings (line and kind) and no hash."""

    __tablename__ = "artifacts"

    id: Mapped[str] = mapped_column(String(ULID_LENGTH), primary_key=True)
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    plan_id: Mapped[str | None] = mapped_column(ForeignKey("plans.id"), index=True)
    sha256: Mapped[str | None] = mapped_column(String(64), index=True)
    byte_count: Mapped[int] = mapped_column(BigInteger)
    media_type: Mapped[str] = mapped_column(String(MEDIA_TYPE_LENGTH))
    workspace_path: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(STATUS_LENGTH), index=True)
    retention_class: Mapped[str] = mapped_column(String(STATUS_LENGTH))
    source: Mapped[str] = mapped_column(String(ARTIFACT_SOURCE_LENGTH))
    created_by: Mapped[str] = mapped_column(String(CREATED_BY_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A JSON array of {"line": n, "kind": k}: where and what, never the secret.
    findings: Mapped[str] = mapped_column(Text)


class TempOutputRow(Base):
    """A temporary-output reference the store issued: its public selector and the SHA-256 of
    its secret verifier. A database leak does not hand out usable references."""

    __tablename__ = "temp_outputs"

    selector: Mapped[str] = mapped_column(String(32), primary_key=True)
    verifier_sha256: Mapped[str] = mapped_column(String(64))
    tool_name: Mapped[str] = mapped_column(String(TOOL_NAME_LENGTH))
    path: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    """One recorded event; the payload is canonical JSON text (portable across databases)."""

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(ULID_LENGTH), primary_key=True)
    kind: Mapped[str] = mapped_column(String(EVENT_KIND_LENGTH), index=True)
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class UsageRecordRow(Base):
    """The token usage of one provider request. NULL token counts are unknown (the provider
    did not report them), never 0; ``raw_usage`` is the payload as recorded (canonical JSON)."""

    __tablename__ = "usage_records"

    id: Mapped[str] = mapped_column(String(ULID_LENGTH), primary_key=True)
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    plan_id: Mapped[str | None] = mapped_column(ForeignKey("plans.id"), index=True)
    # The request's identity across imports: recording it twice is refused by this key.
    request_key: Mapped[str] = mapped_column(String(REQUEST_KEY_LENGTH), unique=True)
    provider: Mapped[str] = mapped_column(String(PROVIDER_LENGTH))
    usage_format: Mapped[str] = mapped_column(String(USAGE_FORMAT_LENGTH))
    model: Mapped[str] = mapped_column(String(MODEL_NAME_LENGTH))
    message_id: Mapped[str | None] = mapped_column(String(PROVIDER_ID_LENGTH))
    request_id: Mapped[str | None] = mapped_column(String(PROVIDER_ID_LENGTH))
    input_tokens: Mapped[int | None] = mapped_column(BigInteger)
    cache_read_tokens: Mapped[int | None] = mapped_column(BigInteger)
    cache_write_tokens: Mapped[int | None] = mapped_column(BigInteger)
    cache_write_5m_tokens: Mapped[int | None] = mapped_column(BigInteger)
    cache_write_1h_tokens: Mapped[int | None] = mapped_column(BigInteger)
    total_input_tokens: Mapped[int | None] = mapped_column(BigInteger)
    output_tokens: Mapped[int] = mapped_column(BigInteger)
    reasoning_tokens: Mapped[int | None] = mapped_column(BigInteger)
    service_tier: Mapped[str | None] = mapped_column(String(SERVICE_TIER_LENGTH))
    requested_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    source: Mapped[str] = mapped_column(Text)
    raw_usage: Mapped[str] = mapped_column(Text)


class StoreSettingRow(Base):
    """A setting of the store itself, fixed when it is first used (``blob_store``: where its
    blobs live; see `cleveragents.adapters.blobs.blob_store_record`)."""

    __tablename__ = "store_settings"
    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
