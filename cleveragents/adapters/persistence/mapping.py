"""Conversions between rows and domain models, in one place."""

from __future__ import annotations

import json

from cleveragents.adapters.persistence.project_columns import POLICY_FIELDS, policy_from_columns
from cleveragents.adapters.persistence.rows import (
    DecisionRow,
    InheritedFragmentRow,
    PolicyColumns,
    SkeletonMetadataRow,
)
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.skeleton import SkeletonMetadata


def policy_from_row(row: PolicyColumns) -> ContextPolicy:
    return policy_from_columns({name: getattr(row, name) for name in POLICY_FIELDS})


def policy_to_columns(policy: ContextPolicy) -> dict[str, int | float | None]:
    values: dict[str, int | float | None] = policy.model_dump()
    return values


def fragment_from_decision_row(row: DecisionRow) -> ContextFragment:
    return ContextFragment.model_construct(
        fragment_id=row.fragment_id,
        decision_id=row.id,
        relevance=row.relevance,
        token_count=row.token_count,
        content=row.content,
    )


def fragment_from_inherited_row(row: InheritedFragmentRow) -> ContextFragment:
    # model_construct: the values were validated before they were stored; re-validating ten
    # thousand fragments on every load would only cost time.
    return ContextFragment.model_construct(
        fragment_id=row.fragment_id,
        decision_id=row.decision_id,
        relevance=row.relevance,
        token_count=row.token_count,
        content=row.content,
    )


def skeleton_from_row(row: SkeletonMetadataRow | None) -> SkeletonMetadata | None:
    if row is None:
        return None
    return SkeletonMetadata(
        ratio=row.ratio,
        original_tokens=row.original_tokens,
        compressed_tokens=row.compressed_tokens,
        source_decision_ids=tuple(json.loads(row.source_decision_ids)),
    )


def skeleton_to_row(plan_id: str, metadata: SkeletonMetadata) -> SkeletonMetadataRow:
    return SkeletonMetadataRow(
        plan_id=plan_id,
        ratio=metadata.ratio,
        original_tokens=metadata.original_tokens,
        compressed_tokens=metadata.compressed_tokens,
        source_decision_ids=json.dumps(list(metadata.source_decision_ids)),
    )
