"""`BudgetPlanning`: the budget planner's use case, as every driver asks for it (fakes for its
ports; the real heuristics)."""

from __future__ import annotations

import pytest

from cleveragents.adapters.budget_weights.toml_weights import TomlBudgetWeights
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.budget import budget_planning
from cleveragents.application.services.budget.budget_planning import (
    BudgetDocuments,
    BudgetPlanning,
    DocumentRoles,
    DuplicateDocumentError,
)
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.context_budget import BudgetKind, InvalidHeuristicsError
from cleveragents.domain.errors import InvalidInputError, ProjectNotFoundError
from cleveragents.domain.policy import ContextPolicyChanges
from tests.fakes import FakeTokenCounter, FakeUnitOfWorkFactory

TEXTS = {
    "spec.md": "the spec\n" * 40,
    "plan.md": "a case\n" * 10,
    "core.md": "reference\n" * 5,
    "src/app.py": "x = 1\n" * 30,
    "ci.log": "ERROR boom\n" * 200,
    "weights.toml": "[weights]\nlog = 1.0\n",
}


class Files:
    """Serves `TEXTS`, recording what was read in order."""

    def __init__(self) -> None:
        self.read: list[str] = []

    def document(self, path: str) -> str:
        self.read.append(path)
        if path not in TEXTS:
            raise InvalidInputError(f"file not found: {path}")
        return TEXTS[path]

    def weights_file(self, path: str) -> str:
        self.read.append(path)
        return TEXTS[path]


class Counters:
    """One fake counter per encoding asked for."""

    def __init__(self) -> None:
        self.asked: list[str | None] = []
        self.made: dict[str | None, FakeTokenCounter] = {}

    def __call__(self, encoding: str | None) -> TokenCounter:
        self.asked.append(encoding)
        return self.made.setdefault(encoding, FakeTokenCounter())


@pytest.fixture
def factory() -> FakeUnitOfWorkFactory:
    return FakeUnitOfWorkFactory()


def planning(factory: FakeUnitOfWorkFactory, counters: Counters | None = None) -> BudgetPlanning:
    def projects() -> ProjectService:
        return ProjectService(factory)

    return BudgetPlanning(TomlBudgetWeights(), counters or Counters(), projects)


DOCUMENTS = BudgetDocuments(
    "spec.md", "plan.md", module_docs=("core.md",), changed=("src/app.py", "ci.log")
)


def test_every_document_is_read_in_the_report_order_with_its_kind(
    factory: FakeUnitOfWorkFactory,
) -> None:
    files = Files()
    plan = planning(factory).plan(DOCUMENTS, files, available=50_000)
    assert files.read == ["spec.md", "plan.md", "core.md", "src/app.py", "ci.log"]
    rows = [(row.path, row.kind, row.lines) for row in plan.report.artifacts]
    assert rows == [
        ("spec.md", BudgetKind.SPEC, 40),
        ("plan.md", BudgetKind.TEST_PLAN, 10),
        ("core.md", BudgetKind.MODULE_DOC, 5),
        ("src/app.py", BudgetKind.SOURCE, 30),
        ("ci.log", BudgetKind.LOG, 200),
    ]
    assert plan.weights_file == "default"
    assert plan.report.committed == 30_000
    assert plan.report.available_source == "option"
    assert plan.as_json()["artifacts"][4]["kind"] == "log"
    assert plan.markdown().startswith("## Context Budget")


def test_a_file_given_twice_is_refused_before_anything_is_read(
    factory: FakeUnitOfWorkFactory,
) -> None:
    files = Files()
    twice = BudgetDocuments("spec.md", changed=("./spec.md",))
    with pytest.raises(DuplicateDocumentError, match=r"\(spec and changed\)"):
        planning(factory).plan(twice, files)
    roles = DocumentRoles("--spec", "--test-plan", "--module-doc", "--changed")
    with pytest.raises(DuplicateDocumentError, match=r"\(--spec and --changed\)"):
        planning(factory).plan(twice, files, roles=roles)
    assert files.read == []


def test_a_missing_document_fails_the_plan_before_the_weights_are_read(
    factory: FakeUnitOfWorkFactory,
) -> None:
    files = Files()
    missing = BudgetDocuments("spec.md", changed=("gone.py",))
    with pytest.raises(InvalidInputError, match=r"gone\.py"):
        planning(factory).plan(missing, files, weights="weights.toml")
    assert "weights.toml" not in files.read


def test_a_weights_file_is_read_over_the_defaults_and_named(
    factory: FakeUnitOfWorkFactory,
) -> None:
    plan = planning(factory).plan(DOCUMENTS, Files(), weights="weights.toml", available=50_000)
    log = plan.report.artifacts[-1]
    assert float(log.weight) == 1.0
    assert log.estimated_tokens == 200
    assert plan.weights_file == "weights.toml" == plan.as_json()["weights_file"]


def test_a_malformed_weights_file_is_refused(factory: FakeUnitOfWorkFactory) -> None:
    TEXTS["bad.toml"] = "[weights\n"
    with pytest.raises(InvalidHeuristicsError, match=r"bad\.toml"):
        planning(factory).plan(DOCUMENTS, Files(), weights="bad.toml")


def test_the_window_comes_from_the_project_and_no_store_is_used_without_one(
    factory: FakeUnitOfWorkFactory,
) -> None:
    projects = ProjectService(factory)
    projects.create("shop")
    projects.set_context("shop", ContextPolicyChanges(context_window=128_000))
    calls = factory.calls
    plan = planning(factory).plan(DOCUMENTS, Files())
    assert (plan.report.available, plan.report.available_source) == (200_000, "default")
    assert factory.calls == calls  # no project named: the store is never asked
    plan = planning(factory).plan(DOCUMENTS, Files(), project="shop")
    assert plan.report.available_source == "project"
    with pytest.raises(ProjectNotFoundError):
        planning(factory).plan(DOCUMENTS, Files(), project="nope", available=10)


def test_exact_counts_with_the_encoding_asked_for(factory: FakeUnitOfWorkFactory) -> None:
    counters = Counters()
    plan = planning(factory, counters).plan(
        DOCUMENTS, Files(), exact=True, encoding="o200k_base", available=50_000
    )
    assert counters.asked == ["o200k_base"]
    assert counters.made["o200k_base"].counted == [TEXTS[row.path] for row in plan.report.artifacts]
    assert plan.report.artifacts[0].exact_tokens == 80  # "the spec" x 40, as the fake counts
    assert plan.report.encoding == "fake-words"


@pytest.mark.parametrize(("available", "committed"), [(0, None), (-5, None), (None, -1)])
def test_a_window_under_one_token_or_negative_committed_tokens_are_refused(
    factory: FakeUnitOfWorkFactory, available: int | None, committed: int | None
) -> None:
    with pytest.raises(InvalidInputError):
        planning(factory).plan(DOCUMENTS, Files(), available=available, committed=committed)


def test_the_default_window_overcommitted_is_said_once_in_the_plan(
    factory: FakeUnitOfWorkFactory,
) -> None:
    TEXTS["huge.log"] = "ERROR\n" * 10_000  # 10,000 lines x 46.5 tokens: over 200,000
    documents = BudgetDocuments("spec.md", changed=("huge.log",))
    plan = planning(factory).plan(documents, Files())
    assert plan.overcommits_default_window
    note = plan.overcommit_note()
    assert note is not None
    assert "exceeds the default window of 200,000 tokens" in note
    declared = planning(factory).plan(documents, Files(), available=200_000)
    assert not declared.overcommits_default_window
    assert declared.overcommit_note() is None


def test_documents_past_the_plan_limit_are_refused_while_they_are_read(
    factory: FakeUnitOfWorkFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(budget_planning, "MAX_PLANNED_CHARS", 400)  # the spec holds 360
    files = Files()
    with pytest.raises(InvalidInputError, match=r"more than 400 characters together \(at plan"):
        planning(factory).plan(DOCUMENTS, files)
    assert files.read == ["spec.md", "plan.md"]  # nothing read after the limit was passed
