"""`ContextBudgetPlanner`: estimates, tiers and the compactions it recommends."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cleveragents.adapters.budget_weights.heuristics_file import default_heuristics, load_heuristics
from cleveragents.application.services.budget.context_budget_planner import (
    COMPACTION_PRIORITY,
    ContextBudgetPlanner,
    PlannedArtifact,
)
from cleveragents.domain.context_budget import (
    PROTECTED_KINDS,
    BudgetKind,
    Tier,
)
from tests.fakes import FakeTokenCounter

# One token per line for every kind: the arithmetic of the tests stays readable.
UNIT_WEIGHTS = load_heuristics(
    "[weights]\n" + "\n".join(f"{kind.value} = 1" for kind in BudgetKind), "unit.toml"
)


def lines(count: int, words: int = 1) -> str:
    return ("w " * words + "\n") * count


def artifact(path: str, kind: BudgetKind, line_count: int, words: int = 1) -> PlannedArtifact:
    return PlannedArtifact(path=path, kind=kind, text=lines(line_count, words))


def test_each_artifact_is_its_lines_times_its_kinds_weight() -> None:
    spec = PlannedArtifact(path="spec.md", kind=BudgetKind.SPEC, text=lines(10))
    log = PlannedArtifact(path="ci.log", kind=BudgetKind.LOG, text=lines(3) + "no newline")
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        [spec, log], default_heuristics(), available=200_000, committed=30_000
    )
    assert [(row.lines, row.weight, row.estimated_tokens) for row in report.artifacts] == [
        (10, Decimal("12.5"), 125),
        (4, Decimal("46.5"), 186),
    ]
    assert report.projected == 30_000 + 125 + 186
    assert report.exact_total is None
    assert report.encoding is None


@pytest.mark.parametrize(
    ("spec_lines", "committed", "tier"),
    [(100, 0, Tier.GREEN), (100, 400, Tier.YELLOW), (100, 600, Tier.AMBER), (100, 750, Tier.RED)],
)
def test_the_tier_is_committed_plus_estimate_over_available(
    spec_lines: int, committed: int, tier: Tier
) -> None:
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        [artifact("spec.md", BudgetKind.SPEC, spec_lines)],
        UNIT_WEIGHTS,
        available=1000,
        committed=committed,
    )
    assert report.tier is tier


def test_green_and_yellow_recommend_nothing() -> None:
    planner = ContextBudgetPlanner(FakeTokenCounter())
    doc = artifact("docs/big.md", BudgetKind.MODULE_DOC, 600)
    report = planner.plan([doc], UNIT_WEIGHTS, available=1000, committed=0)
    assert report.tier is Tier.YELLOW
    assert report.compactions == ()
    assert not report.split_recommended


def test_amber_stops_compacting_once_under_the_amber_boundary() -> None:
    planner = ContextBudgetPlanner(FakeTokenCounter())
    report = planner.plan(
        [
            artifact("spec.md", BudgetKind.SPEC, 100),
            artifact("src/app.py", BudgetKind.SOURCE, 300),
            artifact("docs/module.md", BudgetKind.MODULE_DOC, 400),
        ],
        UNIT_WEIGHTS,
        available=1000,
        committed=0,
    )
    assert report.tier is Tier.AMBER
    # The module doc comes first and alone is enough: 800 - (400 - 100) = 500, yellow.
    assert [(c.path, c.tokens_before, c.tokens_after) for c in report.compactions] == [
        ("docs/module.md", 400, 100)
    ]
    assert report.projected_after_compactions == 500
    assert report.tier_after_compactions is Tier.YELLOW
    assert not report.split_recommended


def test_compactions_follow_the_priority_order_then_the_largest_first() -> None:
    compactable = [kind for kind, _ in COMPACTION_PRIORITY]
    artifacts = [artifact("spec.md", BudgetKind.SPEC, 10)]
    for kind in reversed(compactable):  # given in the opposite order
        artifacts.append(artifact(f"small.{kind.value}", kind, 100))
        artifacts.append(artifact(f"large.{kind.value}", kind, 200))
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        artifacts, UNIT_WEIGHTS, available=1000, committed=5000
    )
    assert [c.path for c in report.compactions] == [
        f"{size}.{kind.value}" for kind in compactable for size in ("large", "small")
    ]
    assert report.split_recommended


def test_the_priority_order_covers_every_compactable_kind_once() -> None:
    kinds = [kind for kind, _ in COMPACTION_PRIORITY]
    assert sorted(kinds) == sorted(set(BudgetKind) - PROTECTED_KINDS)
    assert kinds[0] is BudgetKind.LOG
    assert kinds[-1] is BudgetKind.SOURCE


def test_the_spec_is_never_compacted_and_red_asks_to_split_the_work() -> None:
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        [artifact("spec.md", BudgetKind.SPEC, 950), artifact("a.py", BudgetKind.SOURCE, 40)],
        UNIT_WEIGHTS,
        available=1000,
        committed=0,
    )
    assert report.tier is Tier.RED
    assert [c.path for c in report.compactions] == ["a.py"]
    assert report.tier_after_compactions is Tier.RED
    assert report.split_recommended


def test_a_red_budget_that_compaction_rescues_does_not_ask_to_split() -> None:
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        [artifact("spec.md", BudgetKind.SPEC, 100), artifact("ci.log", BudgetKind.LOG, 800)],
        UNIT_WEIGHTS,
        available=1000,
        committed=0,
    )
    assert report.tier is Tier.RED
    assert report.compactions[0].tokens_after == 80  # logs keep 10%
    assert report.tier_after_compactions is Tier.GREEN
    assert not report.split_recommended


def test_compaction_targets_round_up_and_skip_what_saves_nothing() -> None:
    report = ContextBudgetPlanner(FakeTokenCounter()).plan(
        [
            artifact("spec.md", BudgetKind.SPEC, 990),
            artifact("one.log", BudgetKind.LOG, 1),  # ceil(1 * 0.1) = 1: no saving
            artifact("b.py", BudgetKind.SOURCE, 3),  # ceil(3 * 0.4) = 2
        ],
        UNIT_WEIGHTS,
        available=1000,
        committed=0,
    )
    assert [(c.path, c.tokens_after) for c in report.compactions] == [("b.py", 2)]


def test_exact_counts_replace_the_estimate_and_report_its_error() -> None:
    counter = FakeTokenCounter()
    report = ContextBudgetPlanner(counter).plan(
        [artifact("spec.md", BudgetKind.SPEC, 10, words=3)],
        UNIT_WEIGHTS,
        available=1000,
        committed=0,
        exact=True,
    )
    (row,) = report.artifacts
    assert (row.estimated_tokens, row.exact_tokens, row.tokens) == (10, 30, 30)
    assert float(row.error or 0) == pytest.approx(-2 / 3)
    assert report.encoding == "fake-words"
    assert report.projected == 30
    assert counter.counted == [lines(10, words=3)]


def test_estimates_do_not_call_the_tokenizer() -> None:
    counter = FakeTokenCounter()
    ContextBudgetPlanner(counter).plan(
        [artifact("spec.md", BudgetKind.SPEC, 10)], UNIT_WEIGHTS, available=1000, committed=0
    )
    assert counter.counted == []
