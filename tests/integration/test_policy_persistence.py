"""Context policies survive a round trip through a real SQLite file (projects and plans)."""

from __future__ import annotations

from pathlib import Path

from cleveragents.container import Container, build_container
from cleveragents.domain.policy import DEFAULT_SUMMARY_TOKENS, ContextPolicy, ContextPolicyChanges


def test_a_project_summary_budget_is_stored_and_read_back(
    container: Container, database_url: str, home: Path
) -> None:
    projects = container.project_service()
    projects.create("shop")
    assert projects.get("shop").policy.summary_tokens is None
    updated = projects.set_context(
        "shop", ContextPolicyChanges(summary_tokens=2500, keep_recent_tokens=30_000)
    )
    assert updated.policy.summary_tokens == 2500

    reopened = build_container(database_url, home=home)
    try:
        policy = reopened.project_service().get("shop").policy
    finally:
        reopened.store().dispose()
    assert policy.summary_tokens == 2500
    assert policy.effective_summary_tokens == 2500
    assert policy.keep_recent_tokens == 30_000


def test_setting_another_field_keeps_the_summary_budget(container: Container) -> None:
    projects = container.project_service()
    projects.create("shop")
    projects.set_context("shop", ContextPolicyChanges(summary_tokens=3000))
    assert (
        projects.set_context(
            "shop", ContextPolicyChanges(reserve_tokens=8000)
        ).policy.summary_tokens
        == 3000
    )
    assert projects.get("shop").policy.summary_tokens == 3000


def test_an_unset_summary_budget_reads_back_unset(container: Container) -> None:
    projects = container.project_service()
    projects.create("shop")
    projects.set_context("shop", ContextPolicyChanges(keep_recent_tokens=10_000))
    policy = projects.get("shop").policy
    assert policy.summary_tokens is None
    assert policy.effective_summary_tokens == DEFAULT_SUMMARY_TOKENS


def test_a_plan_policy_keeps_its_summary_budget(container: Container) -> None:
    container.project_service().create("shop")
    plan = container.plan_service().create("shop", "checkout")
    with container.unit_of_work() as uow:
        uow.plans.save_policy(plan.id, ContextPolicy(summary_tokens=1200, skeleton_ratio=0.6))
        uow.commit()
    with container.unit_of_work() as uow:
        stored = uow.plans.get(plan.id)
    assert stored is not None
    assert stored.policy.summary_tokens == 1200
    assert stored.policy.skeleton_ratio == 0.6
