"""Unit tests of the application services against the in-memory fakes (tests/fakes.py)."""

from __future__ import annotations

import math

import pytest

from cleveragents.application.services.plans.child_plans import (
    ChildPlanSpawner,
    effective_skeleton_ratio,
)
from cleveragents.application.services.plans.plan_service import DEFAULT_RELEVANCE, PlanService
from cleveragents.application.services.plans.skeleton_compressor import SkeletonCompressorService
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.errors import (
    CleverAgentsError,
    DuplicateFragmentError,
    InvalidIdError,
    InvalidInputError,
    InvalidPolicyError,
    InvalidRatioError,
    PlanNotFoundError,
    ProjectAlreadyExistsError,
    ProjectNotFoundError,
)
from cleveragents.domain.ids import new_ulid
from cleveragents.domain.plan import Plan
from cleveragents.domain.policy import ContextPolicy, ContextPolicyChanges
from cleveragents.domain.validation import build
from tests.fake_storage import FakeSecretScanner
from tests.fakes import FakeStore, FakeTokenCounter, FakeUnitOfWorkFactory


class World:
    """The services wired to one shared fake store, with a fresh factory to count calls."""

    def __init__(self) -> None:
        self.store = FakeStore()
        self.factory = FakeUnitOfWorkFactory(self.store)
        self.counter = FakeTokenCounter()
        self.projects = ProjectService(self.factory)
        self.plans = PlanService(self.factory, self.counter, FakeSecretScanner())
        self.spawner = ChildPlanSpawner(
            self.factory, SkeletonCompressorService(), FakeSecretScanner()
        )

    def stored_plan(self, plan_id: str) -> Plan:
        plan = self.store.state.plans.get(plan_id)
        assert plan is not None
        return plan


@pytest.fixture
def world() -> World:
    return World()


def example_parent(world: World, ratio: float | None = None) -> Plan:
    """The documented example plan (docs/skeleton-compressor.md): A (0.9, 400), B (0.6, 300),
    C (0.3, 300)."""
    world.projects.create("demo")
    if ratio is not None:
        world.projects.set_context("demo", ContextPolicyChanges(skeleton_ratio=ratio))
    plan = world.plans.create("demo", "parent")
    for fragment_id, relevance, tokens in (("A", 0.9, 400), ("B", 0.6, 300), ("C", 0.3, 300)):
        world.plans.decide(
            plan.id,
            f"fragment {fragment_id}",
            relevance=relevance,
            token_count=tokens,
            fragment_id=fragment_id,
        )
    return world.stored_plan(plan.id)


# --- fakes ------------------------------------------------------------------------------------


def test_fake_unit_of_work_rolls_back_uncommitted_changes(world: World) -> None:
    from cleveragents.domain.project import Project

    with world.factory() as uow:
        uow.projects.add(Project(name="lost"))
        assert uow.projects.get_by_name("lost") is not None
    assert world.factory.created[-1].committed is False
    with world.factory() as uow:
        assert uow.projects.get_by_name("lost") is None
        uow.projects.add(Project(name="kept"))
        uow.commit()
    assert world.factory.created[-1].committed is True
    assert [p.name for p in world.store.state.projects.values()] == ["kept"]


# --- ProjectService ---------------------------------------------------------------------------


def test_create_project(world: World) -> None:
    project = world.projects.create("demo")
    assert project.name == "demo"
    assert project.policy == ContextPolicy()
    assert world.store.state.projects == {project.id: project}
    assert world.factory.created[-1].committed
    assert world.projects.get("demo") == project
    assert world.projects.list() == [project]


def test_list_projects_by_name(world: World) -> None:
    for name in ("zeta", "alpha", "mid"):
        world.projects.create(name)
    assert [p.name for p in world.projects.list()] == ["alpha", "mid", "zeta"]


def test_create_duplicate_project(world: World) -> None:
    first = world.projects.create("demo")
    with pytest.raises(ProjectAlreadyExistsError, match="'demo' already exists"):
        world.projects.create("demo")
    assert list(world.store.state.projects.values()) == [first]
    assert world.factory.created[-1].committed is False


@pytest.mark.parametrize("name", ["", "has space", "-x", "a" * 101])
def test_create_invalid_project_name(world: World, name: str) -> None:
    with pytest.raises(InvalidInputError, match="invalid project name"):
        world.projects.create(name)
    assert world.factory.calls == 0
    assert world.store.state.projects == {}


def test_get_unknown_project(world: World) -> None:
    with pytest.raises(ProjectNotFoundError, match="unknown project 'nope'"):
        world.projects.get("nope")


def test_set_context_saves_and_merges(world: World) -> None:
    world.projects.create("demo")
    updated = world.projects.set_context(
        "demo", ContextPolicyChanges(skeleton_ratio=0.5, context_window=100_000)
    )
    assert updated.policy.skeleton_ratio == 0.5
    assert updated.policy.context_window == 100_000
    again = world.projects.set_context("demo", ContextPolicyChanges(reserve_tokens=1000))
    assert again.policy.skeleton_ratio == 0.5  # untouched fields keep their values
    assert again.policy.reserve_tokens == 1000
    assert world.projects.get("demo").policy == again.policy
    zero = world.projects.set_context("demo", ContextPolicyChanges(skeleton_ratio=0.0))
    assert zero.policy.skeleton_ratio == 0.0


@pytest.mark.parametrize(
    "changes",
    [
        {"skeleton_ratio": 1.5},
        {"skeleton_ratio": -0.1},
        {"skeleton_ratio": math.nan},
        {"skeleton_ratio": True},
        {"context_window": 0},
        {"reserve_tokens": -1},
        {"keep_recent_tokens": 0},
    ],
)
def test_set_context_validates_before_touching_the_store(
    world: World, changes: dict[str, object]
) -> None:
    world.projects.create("demo")
    before = world.store.state.projects.copy()
    calls = world.factory.calls
    with pytest.raises(InvalidInputError):
        # The changes are refused as they are made: the service is never reached.
        world.projects.set_context("demo", build(ContextPolicyChanges, **changes))
    assert world.factory.calls == calls  # no unit of work was even opened
    assert world.store.state.projects == before


def test_set_context_incoherent_policy_commits_nothing(world: World) -> None:
    world.projects.create("demo")
    world.projects.set_context("demo", ContextPolicyChanges(skeleton_ratio=0.4))
    before = world.store.state.projects.copy()
    commits = world.store.commits
    with pytest.raises(InvalidPolicyError, match="lower reserve_tokens"):
        world.projects.set_context(
            "demo",
            ContextPolicyChanges(skeleton_ratio=0.9, context_window=1000, reserve_tokens=1000),
        )
    assert world.store.commits == commits
    assert world.factory.created[-1].committed is False
    assert world.store.state.projects == before
    assert world.projects.get("demo").policy.skeleton_ratio == 0.4


def test_set_context_unknown_project(world: World) -> None:
    with pytest.raises(ProjectNotFoundError):
        world.projects.set_context("nope", ContextPolicyChanges(skeleton_ratio=0.5))
    assert world.store.commits == 0


# --- PlanService ------------------------------------------------------------------------------


def test_create_plan(world: World) -> None:
    project = world.projects.create("demo")
    plan = world.plans.create("demo", "  Build it  ")
    assert plan.title == "Build it"
    assert plan.project_id == project.id
    assert plan.parent_id is None
    assert plan.skeleton_metadata is None
    assert plan.fragments == () == plan.inherited_fragments
    assert world.stored_plan(plan.id) == plan


def test_create_plan_unknown_project(world: World) -> None:
    with pytest.raises(ProjectNotFoundError):
        world.plans.create("nope", "title")
    assert world.store.state.plans == {}


def test_create_plan_blank_title(world: World) -> None:
    world.projects.create("demo")
    with pytest.raises(InvalidInputError, match="title"):
        world.plans.create("demo", "   ")
    assert world.store.state.plans == {}


def test_decide_counts_tokens_when_not_given(world: World) -> None:
    world.projects.create("demo")
    plan = world.plans.create("demo", "p")
    decision = world.plans.decide(plan.id, "use the  offline\ttokenizer now")
    assert decision.fragment.token_count == 5
    assert world.counter.counted == ["use the  offline\ttokenizer now"]
    assert decision.fragment.relevance == DEFAULT_RELEVANCE
    assert decision.fragment.content == "use the  offline\ttokenizer now"
    assert world.stored_plan(plan.id).fragments == (decision.fragment,)


def test_decide_uses_given_token_count(world: World) -> None:
    world.projects.create("demo")
    plan = world.plans.create("demo", "p")
    decision = world.plans.decide(plan.id, "three words here", token_count=42)
    assert decision.fragment.token_count == 42
    assert world.counter.counted == []
    zero = world.plans.decide(plan.id, "more words", token_count=0)
    assert zero.fragment.token_count == 0
    assert world.counter.counted == []


def test_decide_default_fragment_id_is_decision_id(world: World) -> None:
    world.projects.create("demo")
    plan = world.plans.create("demo", "p")
    decision = world.plans.decide(plan.id, "x", relevance=0.8)
    assert decision.fragment.fragment_id == decision.id
    assert decision.fragment.decision_id == decision.id
    assert decision.plan_id == plan.id
    assert decision.fragment.relevance == 0.8


def test_decide_accepts_lower_case_plan_id(world: World) -> None:
    world.projects.create("demo")
    plan = world.plans.create("demo", "p")
    decision = world.plans.decide(plan.id.lower(), "x", token_count=1)
    assert decision.plan_id == plan.id
    assert len(world.stored_plan(plan.id).fragments) == 1


def test_decide_duplicate_fragment_id_in_own_context(world: World) -> None:
    world.projects.create("demo")
    plan = world.plans.create("demo", "p")
    world.plans.decide(plan.id, "first", fragment_id="f")
    with pytest.raises(DuplicateFragmentError, match="'f'"):
        world.plans.decide(plan.id, "second", fragment_id="f")
    assert [f.content for f in world.stored_plan(plan.id).fragments] == ["first"]


def test_decide_duplicate_fragment_id_in_inherited_context(world: World) -> None:
    parent = example_parent(world)
    child = world.spawner.spawn_child(parent.id, "child", skeleton_ratio=0.0)
    assert {f.fragment_id for f in child.inherited_fragments} == {"A", "B", "C"}
    with pytest.raises(DuplicateFragmentError):
        world.plans.decide(child.id, "again", fragment_id="B", token_count=1)
    assert world.stored_plan(child.id).fragments == ()
    # A fresh id is fine.
    world.plans.decide(child.id, "new", fragment_id="D", token_count=1)


@pytest.mark.parametrize(
    "changes",
    [
        {"relevance": 1.5},
        {"relevance": math.nan},
        {"token_count": -1},
        {"fragment_id": "  "},
    ],
)
def test_decide_invalid_fragment_writes_nothing(world: World, changes: dict[str, object]) -> None:
    world.projects.create("demo")
    plan = world.plans.create("demo", "p")
    calls = world.factory.calls
    with pytest.raises(InvalidInputError):
        world.plans.decide(plan.id, "x", **changes)  # type: ignore[arg-type]
    assert world.factory.calls == calls
    assert world.stored_plan(plan.id).fragments == ()


@pytest.mark.parametrize("plan_id", ["", "nope", "01HX3Z8Q9V6W2Y4K5M7N8P0RIS", "8" * 26])
def test_decide_malformed_plan_id(world: World, plan_id: str) -> None:
    with pytest.raises(InvalidIdError, match="plan id"):
        world.plans.decide(plan_id, "x", token_count=1)
    assert world.factory.calls == 0


def test_decide_unknown_plan(world: World) -> None:
    unknown = new_ulid()
    with pytest.raises(PlanNotFoundError, match=unknown):
        world.plans.decide(unknown, "x", token_count=1)
    assert world.store.commits == 0


def test_status_and_list(world: World) -> None:
    parent = example_parent(world)
    child = world.spawner.spawn_child(parent.id, "child", skeleton_ratio=0.5)
    report = world.plans.status(parent.id)
    assert report.own_tokens == 1000
    assert report.inherited_tokens == 0
    assert report.children == (child.id,)
    child_report = world.plans.status(child.id.lower())
    assert child_report.inherited_tokens == 400
    assert child_report.plan.skeleton_metadata == child.skeleton_metadata
    summaries = world.plans.list("demo")
    assert [(s.id, s.decision_count, s.has_skeleton) for s in summaries] == [
        (parent.id, 3, False),
        (child.id, 0, True),
    ]
    with pytest.raises(ProjectNotFoundError):
        world.plans.list("nope")
    with pytest.raises(PlanNotFoundError):
        world.plans.status(new_ulid())


# --- ChildPlanSpawner ----------------------------------------------------------------------


def test_spawn_child_documented_example(world: World) -> None:
    parent = example_parent(world)
    a = parent.fragments[0]
    assert a.fragment_id == "A"
    child = world.spawner.spawn_child(parent.id, "  child  ", skeleton_ratio=0.5)
    assert child.title == "child"
    assert child.parent_id == parent.id
    assert child.project_id == parent.project_id
    assert child.fragments == ()
    assert child.inherited_fragments == (a,)
    meta = child.skeleton_metadata
    assert meta is not None
    assert meta.ratio == 0.5
    assert meta.original_tokens == 1000
    assert meta.compressed_tokens == 400
    assert meta.source_decision_ids == (a.decision_id,)
    assert world.stored_plan(child.id) == child
    assert world.factory.created[-1].committed
    # The parent is not changed by spawning.
    assert world.stored_plan(parent.id) == parent


def test_spawn_child_accepts_lower_case_parent_id(world: World) -> None:
    parent = example_parent(world)
    child = world.spawner.spawn_child(parent.id.lower(), "child")
    assert child.parent_id == parent.id


@pytest.mark.parametrize(
    ("project_ratio", "plan_override", "explicit", "expected_ratio", "expected_ids"),
    [
        (None, None, None, 0.3, ["A", "B"]),  # default: budget 700
        (0.5, None, None, 0.5, ["A"]),  # project
        (0.0, None, None, 0.0, ["A", "B", "C"]),  # project 0.0 is set, not unset
        (0.5, 0.0, None, 0.0, ["A", "B", "C"]),  # parent override beats project
        (None, 1.0, None, 1.0, ["A"]),  # parent override beats default
        (0.0, 0.5, 0.3, 0.3, ["A", "B"]),  # explicit beats everything
        (0.5, 1.0, 0.0, 0.0, ["A", "B", "C"]),  # explicit 0.0 is set, not unset
    ],
)
def test_spawn_child_effective_ratio_precedence(
    world: World,
    project_ratio: float | None,
    plan_override: float | None,
    explicit: float | None,
    expected_ratio: float,
    expected_ids: list[str],
) -> None:
    parent = example_parent(world, project_ratio)
    if plan_override is not None:
        overridden = world.spawner.set_plan_context(parent.id, skeleton_ratio=plan_override)
        assert overridden.policy.skeleton_ratio == plan_override
        assert world.stored_plan(parent.id).policy.skeleton_ratio == plan_override
    child = world.spawner.spawn_child(parent.id, "child", skeleton_ratio=explicit)
    assert child.skeleton_metadata is not None
    assert child.skeleton_metadata.ratio == expected_ratio
    assert [f.fragment_id for f in child.inherited_fragments] == expected_ids


def test_set_plan_context_keeps_other_overrides_and_validates(world: World) -> None:
    parent = example_parent(world)
    world.spawner.set_plan_context(parent.id, skeleton_ratio=0.6)
    unchanged = world.spawner.set_plan_context(parent.id)
    assert unchanged.policy.skeleton_ratio == 0.6
    calls = world.factory.calls
    with pytest.raises(InvalidInputError):
        world.spawner.set_plan_context(parent.id, skeleton_ratio=2.0)
    assert world.factory.calls == calls
    with pytest.raises(PlanNotFoundError):
        world.spawner.set_plan_context(new_ulid(), skeleton_ratio=0.5)
    with pytest.raises(InvalidIdError):
        world.spawner.set_plan_context("bad", skeleton_ratio=0.5)


def test_grandchild_compresses_inherited_and_own(world: World) -> None:
    parent = example_parent(world)
    child = world.spawner.spawn_child(parent.id, "child", skeleton_ratio=0.5)
    assert [f.fragment_id for f in child.inherited_fragments] == ["A"]
    world.plans.decide(child.id, "d", relevance=1.0, token_count=100, fragment_id="D")
    world.plans.decide(child.id, "e", relevance=0.1, token_count=500, fragment_id="E")
    stored_child = world.stored_plan(child.id)
    assert [f.fragment_id for f in stored_child.accumulated_context] == ["A", "D", "E"]
    grandchild = world.spawner.spawn_child(child.id, "grandchild", skeleton_ratio=0.5)
    meta = grandchild.skeleton_metadata
    assert meta is not None
    assert meta.original_tokens == 400 + 100 + 500
    # budget 500: D (1.0, 100) then A (0.9, 400) = 500; E would overflow.
    assert [f.fragment_id for f in grandchild.inherited_fragments] == ["D", "A"]
    assert meta.compressed_tokens == 500
    inherited_a = stored_child.inherited_fragments[0]
    own_d = stored_child.fragments[0]
    assert meta.source_decision_ids == (own_d.decision_id, inherited_a.decision_id)
    assert world.plans.status(child.id).children == (grandchild.id,)


def test_grandchild_uses_project_ratio_not_parents_override(world: World) -> None:
    parent = example_parent(world, 0.0)
    world.spawner.set_plan_context(parent.id, skeleton_ratio=1.0)
    child = world.spawner.spawn_child(parent.id, "child")
    assert child.skeleton_metadata is not None
    assert child.skeleton_metadata.ratio == 1.0
    grandchild = world.spawner.spawn_child(child.id, "grandchild")
    assert grandchild.skeleton_metadata is not None
    assert grandchild.skeleton_metadata.ratio == 0.0  # the child has no override of its own


def test_spawn_from_empty_parent(world: World) -> None:
    world.projects.create("demo")
    parent = world.plans.create("demo", "empty")
    child = world.spawner.spawn_child(parent.id, "child")
    assert child.inherited_fragments == ()
    assert child.skeleton_metadata is not None
    assert child.skeleton_metadata.original_tokens == 0
    assert child.skeleton_metadata.compressed_tokens == 0
    assert child.skeleton_metadata.ratio == 0.3


@pytest.mark.parametrize("ratio", [1.5, -0.1, math.nan, math.inf, -math.inf, True, "0.5"])
def test_spawn_child_invalid_ratio_before_any_unit_of_work(ratio: object) -> None:
    factory = FakeUnitOfWorkFactory()
    spawner = ChildPlanSpawner(factory, SkeletonCompressorService(), FakeSecretScanner())
    with pytest.raises(ValueError, match="ratio") as caught:
        spawner.spawn_child(new_ulid(), "child", skeleton_ratio=ratio)  # type: ignore[arg-type]
    assert isinstance(caught.value, InvalidRatioError)
    assert factory.calls == 0


def test_spawn_child_malformed_parent_id_before_any_unit_of_work() -> None:
    factory = FakeUnitOfWorkFactory()
    spawner = ChildPlanSpawner(factory, SkeletonCompressorService(), FakeSecretScanner())
    with pytest.raises(InvalidIdError):
        spawner.spawn_child("not-a-plan", "child")
    assert factory.calls == 0


def test_spawn_child_unknown_parent(world: World) -> None:
    with pytest.raises(PlanNotFoundError):
        world.spawner.spawn_child(new_ulid(), "child")
    assert world.store.commits == 0


def test_spawn_child_blank_title_writes_nothing(world: World) -> None:
    parent = example_parent(world)
    before = dict(world.store.state.plans)
    with pytest.raises(InvalidInputError, match="title"):
        world.spawner.spawn_child(parent.id, "   ")
    assert world.store.state.plans == before
    assert world.factory.created[-1].committed is False


# --- effective_skeleton_ratio -----------------------------------------------------------------


def test_effective_skeleton_ratio_precedence() -> None:
    unset = ContextPolicy()
    project = ContextPolicy(skeleton_ratio=0.5)
    plan = ContextPolicy(skeleton_ratio=0.8)
    assert effective_skeleton_ratio(None, unset, unset) == 0.3
    assert effective_skeleton_ratio(None, unset, project) == 0.5
    assert effective_skeleton_ratio(None, plan, project) == 0.8
    assert effective_skeleton_ratio(0.1, plan, project) == 0.1
    assert effective_skeleton_ratio(0.0, plan, project) == 0.0
    assert effective_skeleton_ratio(None, ContextPolicy(skeleton_ratio=0.0), project) == 0.0
    assert effective_skeleton_ratio(None, unset, ContextPolicy(skeleton_ratio=0.0)) == 0.0
    assert effective_skeleton_ratio(1, unset, unset) == 1.0


@pytest.mark.parametrize("ratio", [1.5, -0.1, math.nan, math.inf, True])
def test_effective_skeleton_ratio_validates_explicit(ratio: float) -> None:
    with pytest.raises(InvalidRatioError):
        effective_skeleton_ratio(ratio, ContextPolicy(), ContextPolicy())


def test_expected_errors_are_domain_errors() -> None:
    for error in (DuplicateFragmentError, InvalidIdError, PlanNotFoundError, ProjectNotFoundError):
        assert issubclass(error, CleverAgentsError)
