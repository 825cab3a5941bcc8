"""The window a budget is planned against: the option, the project's, or the default."""

from __future__ import annotations

import pytest

from cleveragents.adapters.budget_weights.heuristics_file import default_heuristics
from cleveragents.application.services.budget.context_budget_planner import (
    AvailableWindow,
    ContextBudgetPlanner,
    PlannedArtifact,
    overcommits_default_window,
)
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.context_budget import (
    DEFAULT_AVAILABLE_TOKENS,
    DEFAULT_COMMITTED_TOKENS,
    AvailableSource,
    BudgetKind,
)
from cleveragents.domain.errors import ProjectNotFoundError
from cleveragents.domain.policy import ContextPolicyChanges
from tests.fakes import FakeTokenCounter, FakeUnitOfWorkFactory


@pytest.fixture
def factory() -> FakeUnitOfWorkFactory:
    return FakeUnitOfWorkFactory()


@pytest.fixture
def planner(factory: FakeUnitOfWorkFactory) -> ContextBudgetPlanner:
    projects = ProjectService(factory)
    projects.create("undeclared")
    projects.create("shop")
    projects.set_context("shop", ContextPolicyChanges(context_window=128_000))
    return ContextBudgetPlanner(FakeTokenCounter(), projects=projects)


def test_without_option_or_project_the_default_window_and_no_store(
    planner: ContextBudgetPlanner, factory: FakeUnitOfWorkFactory
) -> None:
    calls = factory.calls
    assert planner.available_window() == AvailableWindow(DEFAULT_AVAILABLE_TOKENS, "default")
    assert planner.available_window(50_000) == AvailableWindow(50_000, "option")
    assert factory.calls == calls


def test_a_project_gives_its_declared_window(planner: ContextBudgetPlanner) -> None:
    assert planner.available_window(project="shop") == AvailableWindow(128_000, "project")
    # A project that never set its window is the default, said so (not the project's).
    assert planner.available_window(project="undeclared") == AvailableWindow(
        DEFAULT_AVAILABLE_TOKENS, "default"
    )


def test_the_option_wins_over_the_project(planner: ContextBudgetPlanner) -> None:
    assert planner.available_window(1_000_000, "shop") == AvailableWindow(1_000_000, "option")


@pytest.mark.parametrize("available", [None, 1_000])
def test_an_unknown_project_is_refused_even_beside_the_option(
    planner: ContextBudgetPlanner, available: int | None
) -> None:
    with pytest.raises(ProjectNotFoundError, match="'nope'"):
        planner.available_window(available, "nope")


def test_a_planner_without_projects_cannot_take_a_projects_window() -> None:
    planner = ContextBudgetPlanner(FakeTokenCounter())
    assert planner.available_window(10) == AvailableWindow(10, "option")
    with pytest.raises(RuntimeError, match="without projects"):
        planner.available_window(project="shop")


def test_plan_defaults_to_the_usual_committed_tokens() -> None:
    spec = PlannedArtifact(path="spec.md", kind=BudgetKind.SPEC, text="one line\n")
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        [spec], default_heuristics(), available=200_000
    )
    assert report.committed == DEFAULT_COMMITTED_TOKENS


@pytest.mark.parametrize(
    ("source", "available", "warned"),
    [("default", 100, True), ("default", 10_000, False), ("option", 100, False)],
)
def test_only_artifacts_over_an_undeclared_window_are_an_overcommitment(
    source: AvailableSource, available: int, warned: bool
) -> None:
    spec = PlannedArtifact(path="spec.md", kind=BudgetKind.SPEC, text="a line\n" * 100)
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        [spec],
        default_heuristics(),
        available=available,
        committed=0,
        available_source=source,
    )
    assert report.artifact_tokens > 100
    assert overcommits_default_window(report) is warned
