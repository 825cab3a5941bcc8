"""The settings a compaction runs with: a project's policy or the defaults, overrides over it."""

from __future__ import annotations

import pytest

from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.settings import (
    ProjectCompactionSettings,
    compaction_settings,
)
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.errors import InvalidPolicyError, ProjectNotFoundError
from cleveragents.domain.policy import (
    DEFAULT_CONTEXT_WINDOW,
    DEFAULT_KEEP_RECENT_TOKENS,
    DEFAULT_RESERVE_TOKENS,
    DEFAULT_SUMMARY_TOKENS,
    ContextPolicy,
    ContextPolicyChanges,
)
from tests.fakes import FakeUnitOfWorkFactory


@pytest.fixture
def factory() -> FakeUnitOfWorkFactory:
    return FakeUnitOfWorkFactory()


@pytest.fixture
def projects(factory: FakeUnitOfWorkFactory) -> ProjectService:
    service = ProjectService(factory)
    service.create("shop")
    service.set_context(
        "shop",
        ContextPolicyChanges(context_window=50_000, reserve_tokens=2_000, summary_tokens=900),
    )
    return service


def test_without_a_project_the_defaults_apply_and_no_store_is_opened(
    projects: ProjectService, factory: FakeUnitOfWorkFactory
) -> None:
    calls = factory.calls
    resolved = compaction_settings(projects)
    assert resolved == ProjectCompactionSettings(
        CompactionSettings(
            context_window=DEFAULT_CONTEXT_WINDOW,
            reserve_tokens=DEFAULT_RESERVE_TOKENS,
            keep_recent_tokens=DEFAULT_KEEP_RECENT_TOKENS,
            summary_tokens=DEFAULT_SUMMARY_TOKENS,
        )
    )
    assert resolved.scope is None
    assert factory.calls == calls


def test_a_project_gives_its_policy_and_scopes_the_events(projects: ProjectService) -> None:
    resolved = compaction_settings(projects, "shop")
    assert resolved.settings == CompactionSettings(
        context_window=50_000,
        reserve_tokens=2_000,
        keep_recent_tokens=DEFAULT_KEEP_RECENT_TOKENS,
        summary_tokens=900,
    )
    assert resolved.settings.threshold == 48_000
    shop_id = projects.get("shop").id
    assert resolved.project_id == shop_id
    assert resolved.scope == {"project_id": shop_id}


def test_overrides_go_over_the_project_policy_field_by_field(projects: ProjectService) -> None:
    overrides = ContextPolicyChanges(reserve_tokens=10_000, keep_recent_tokens=5_000)
    settings = compaction_settings(projects, "shop", overrides).settings
    assert settings == CompactionSettings(
        context_window=50_000, reserve_tokens=10_000, keep_recent_tokens=5_000, summary_tokens=900
    )
    assert projects.get("shop").policy.reserve_tokens == 2_000  # the stored policy is untouched


def test_a_base_policy_goes_over_the_project_and_the_overrides_over_both(
    projects: ProjectService,
) -> None:
    # The Python API's `policy=`: its set fields replace the project's, the keywords theirs.
    policy = ContextPolicy(context_window=40_000, reserve_tokens=4_000)
    overrides = ContextPolicyChanges(reserve_tokens=3_000)
    settings = compaction_settings(projects, "shop", overrides, policy=policy).settings
    assert settings == CompactionSettings(
        context_window=40_000, reserve_tokens=3_000, keep_recent_tokens=18_500, summary_tokens=900
    )  # unset, the recent turns take half of what the reserve leaves of a small window
    alone = compaction_settings(projects, None, policy=policy).settings
    assert (alone.context_window, alone.reserve_tokens) == (40_000, 4_000)
    with pytest.raises(InvalidPolicyError, match="reserve_tokens"):
        compaction_settings(projects, "shop", policy=ContextPolicy(reserve_tokens=60_000))


def test_the_default_summary_budget_follows_the_room_the_overrides_leave(
    projects: ProjectService,
) -> None:
    overrides = ContextPolicyChanges(
        context_window=30_000, reserve_tokens=1_000, keep_recent_tokens=26_000
    )
    assert compaction_settings(projects, None, overrides).settings.summary_tokens == 3_000


def test_overrides_that_leave_no_room_are_refused(projects: ProjectService) -> None:
    with pytest.raises(InvalidPolicyError, match=r"reserve_tokens \(50000\)"):
        compaction_settings(projects, "shop", ContextPolicyChanges(reserve_tokens=50_000))
    with pytest.raises(InvalidPolicyError, match=r"summary_tokens \(900\)"):
        # The project's set summary budget must still fit beside the recent turns.
        compaction_settings(projects, "shop", ContextPolicyChanges(keep_recent_tokens=47_500))
    with pytest.raises(InvalidPolicyError, match="reserve"):
        compaction_settings(
            projects, None, ContextPolicyChanges(context_window=10_000, reserve_tokens=16_384)
        )


def test_an_unknown_project_is_refused(projects: ProjectService) -> None:
    with pytest.raises(ProjectNotFoundError, match="'nope'"):
        compaction_settings(projects, "nope")


def test_from_policy_checks_coherence_with_or_without_overrides() -> None:
    with pytest.raises(InvalidPolicyError):
        CompactionSettings.from_policy(
            ContextPolicy(context_window=1_000, keep_recent_tokens=5_000)
        )
    fixed = CompactionSettings.from_policy(
        ContextPolicy(context_window=1_000, keep_recent_tokens=5_000),
        ContextPolicyChanges(reserve_tokens=100, keep_recent_tokens=800),
    )
    assert fixed == CompactionSettings(
        context_window=1_000, reserve_tokens=100, keep_recent_tokens=800, summary_tokens=100
    )
