"""Plans, decisions and spawned children on a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from sqlalchemy import func, select

from cleveragents.adapters.persistence.rows import (
    InheritedFragmentRow,
    PlanRow,
    SkeletonMetadataRow,
)
from cleveragents.application.services.plans.skeleton_compressor import (
    SkeletonCompressorService,
    SkeletonResult,
)
from cleveragents.container import Container
from cleveragents.domain.errors import ConflictError, DuplicateFragmentError
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.policy import ContextPolicyChanges
from cleveragents.domain.skeleton import SkeletonMetadata

EXAMPLE_FRAGMENTS = (("A", 0.9, 400), ("B", 0.6, 300), ("C", 0.3, 300))


def _example_parent(container: Container, ratio: float | None = 0.5) -> tuple[str, dict[str, str]]:
    projects = container.project_service()
    projects.create("example")
    if ratio is not None:
        projects.set_context("example", ContextPolicyChanges(skeleton_ratio=ratio))
    plans = container.plan_service()
    parent = plans.create("example", "parent")
    ids = {}
    for name, relevance, tokens in EXAMPLE_FRAGMENTS:
        decision = plans.decide(
            parent.id, f"decision {name}", relevance=relevance, token_count=tokens, fragment_id=name
        )
        ids[name] = decision.id
    return parent.id, ids


def test_the_documented_example_spawns_a_child_that_inherits_only_a(container: Container) -> None:
    parent_id, ids = _example_parent(container)
    child = container.child_plan_spawner().spawn_child(parent_id, "child")

    stored = container.plan_service().status(child.id)
    assert [f.fragment_id for f in stored.plan.inherited_fragments] == ["A"]
    assert stored.plan.skeleton_metadata == SkeletonMetadata(
        ratio=0.5, original_tokens=1000, compressed_tokens=400, source_decision_ids=(ids["A"],)
    )
    assert stored.plan.parent_id == parent_id
    assert container.plan_service().status(parent_id).children == (child.id,)
    assert container.plan_service().status(parent_id).plan.skeleton_metadata is None


def test_grandchildren_compress_inherited_plus_own_context(container: Container) -> None:
    parent_id, ids = _example_parent(container, ratio=0.0)
    spawner = container.child_plan_spawner()
    child = spawner.spawn_child(parent_id, "child")  # ratio 0: inherits A, B, C
    assert [f.fragment_id for f in child.inherited_fragments] == ["A", "B", "C"]
    decision = container.plan_service().decide(
        child.id, "child's own", relevance=0.95, token_count=100, fragment_id="D"
    )
    grandchild = spawner.spawn_child(child.id, "grandchild", skeleton_ratio=0.5)

    stored = container.plan_service().status(grandchild.id).plan
    # 1100 tokens, budget 550: D (100) then A (400) = 500; B and C would overflow.
    assert [f.fragment_id for f in stored.inherited_fragments] == ["D", "A"]
    assert stored.skeleton_metadata is not None
    assert stored.skeleton_metadata.original_tokens == 1100
    assert stored.skeleton_metadata.compressed_tokens == 500
    assert stored.skeleton_metadata.source_decision_ids == (decision.id, ids["A"])


def test_inherited_fragments_keep_content_and_order(container: Container) -> None:
    parent_id, _ = _example_parent(container, ratio=0.0)
    child = container.child_plan_spawner().spawn_child(parent_id, "child")
    stored = container.plan_service().status(child.id).plan
    assert stored.inherited_fragments == child.inherited_fragments
    assert [f.content for f in stored.inherited_fragments] == [
        "decision A",
        "decision B",
        "decision C",
    ]


def test_a_fragment_id_inherited_cannot_be_recorded_again(container: Container) -> None:
    parent_id, _ = _example_parent(container)
    child = container.child_plan_spawner().spawn_child(parent_id, "child")
    with pytest.raises(DuplicateFragmentError):
        container.plan_service().decide(child.id, "again", fragment_id="A")


class _BrokenCompressor(SkeletonCompressorService):
    """Returns the same fragment twice, so the second insert violates a unique constraint."""

    def compress(
        self, fragments: Iterable[ContextFragment], ratio: float | None = None
    ) -> SkeletonResult:
        result = super().compress(fragments, ratio)
        doubled = result.fragments + result.fragments
        return SkeletonResult(fragments=doubled, metadata=result.metadata)


def test_spawning_is_one_transaction(container: Container) -> None:
    parent_id, _ = _example_parent(container)
    with (
        container.skeleton_compressor_service.override(_BrokenCompressor()),
        pytest.raises(ConflictError),
    ):
        container.child_plan_spawner().spawn_child(parent_id, "doomed")

    with container.store().sessions() as session:
        assert session.scalar(select(func.count()).select_from(PlanRow)) == 1
        assert session.scalar(select(func.count()).select_from(SkeletonMetadataRow)) == 0
        assert session.scalar(select(func.count()).select_from(InheritedFragmentRow)) == 0


def test_decisions_count_tokens_with_the_real_tokenizer(container: Container) -> None:
    container.project_service().create("count")
    plan = container.plan_service().create("count", "p")
    decision = container.plan_service().decide(plan.id, "hello world")
    assert decision.fragment.token_count == 2  # cl100k_base: "hello", " world"
    assert decision.fragment.fragment_id == decision.id
