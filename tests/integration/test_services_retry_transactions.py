"""The services that write run their transaction through `UnitOfWork.run`: a transaction the
database rolls back (a deadlock between workers, a serialization failure) is run again from the
start, and what it records is recorded once. The first commit of each use case is made to fail
as PostgreSQL fails it; the store is a real SQLite file."""

from __future__ import annotations

import pytest

from cleveragents.adapters.persistence import unit_of_work
from cleveragents.adapters.persistence.errors import TransientStoreError
from cleveragents.adapters.persistence.unit_of_work import SqlaUnitOfWork
from cleveragents.container import Container


@pytest.fixture
def first_commit_deadlocks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Once armed (`_arm`), the next commit fails as a deadlock; the list counts the failures.
    No pause between the tries."""
    monkeypatch.setattr(unit_of_work, "random", _NoJitter())
    return []


class _NoJitter:
    @staticmethod
    def uniform(low: float, high: float) -> float:
        return 0.0


def _arm(monkeypatch: pytest.MonkeyPatch, failures: list[int]) -> None:
    real_commit = SqlaUnitOfWork.commit

    def commit(self: SqlaUnitOfWork) -> None:
        if not failures:
            failures.append(1)
            raise TransientStoreError("deadlock detected")
        real_commit(self)

    monkeypatch.setattr(SqlaUnitOfWork, "commit", commit)


def test_each_write_is_run_again_and_recorded_once(
    container: Container, monkeypatch: pytest.MonkeyPatch, first_commit_deadlocks: list[int]
) -> None:
    plans, projects = container.plan_service(), container.project_service()
    projects.create("shop")
    parent = plans.create("shop", "Parent")
    plans.decide(parent.id, "Use webhooks", relevance=0.9, token_count=10, fragment_id="A")

    _arm(monkeypatch, first_commit_deadlocks)
    projects.create("billing")
    assert len(first_commit_deadlocks) == 1
    assert sorted(p.name for p in projects.list()) == ["billing", "shop"]

    first_commit_deadlocks.clear()
    plans.decide(parent.id, "Retry with backoff", relevance=0.6, token_count=10, fragment_id="B")
    assert len(first_commit_deadlocks) == 1
    fragments = plans.status(parent.id).plan.fragments
    assert [f.fragment_id for f in fragments] == ["A", "B"]

    first_commit_deadlocks.clear()
    child = container.child_plan_spawner().spawn_child(parent.id, "Child", skeleton_ratio=0.5)
    assert len(first_commit_deadlocks) == 1
    assert plans.status(parent.id).children == (child.id,)

    first_commit_deadlocks.clear()
    container.child_plan_spawner().set_plan_context(parent.id, skeleton_ratio=0.2)
    assert len(first_commit_deadlocks) == 1
    assert plans.status(parent.id).plan.policy.skeleton_ratio == 0.2
