"""The context budget on the shared corpus with the real tokenizer: the estimates of real files
against their exact counts, a story's tier, and the shipped weights measured again."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from benchmarks.budget_weights import ENCODING, derived_weights, measure, weights_table
from cleveragents.adapters.budget_weights.heuristics_file import (
    default_heuristics,
    default_weights_text,
)
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.budget.context_budget_planner import (
    ContextBudgetPlanner,
    PlannedArtifact,
)
from cleveragents.domain.context_budget import BudgetKind, Tier, count_lines
from tests.conftest import CORPUS, corpus_file, needs_corpus


@pytest.mark.parametrize(
    ("relative", "kind"),
    [
        ("markdown/rfc-2394-async_await.md", BudgetKind.SPEC),
        ("code/click-types.py", BudgetKind.SOURCE),
        ("diffs/click-8bc91271.diff", BudgetKind.DIFF),
        ("logs/OpenSSH_2k.log", BudgetKind.LOG),
        ("json/github-labels.json", BudgetKind.JSON),
    ],
)
def test_corpus_files_estimated_and_counted_exactly(relative: str, kind: BudgetKind) -> None:
    text = corpus_file(relative).read_text(encoding="utf-8")
    counter = TiktokenCounter("cl100k_base")
    report = ContextBudgetPlanner(counter).plan(
        [PlannedArtifact(path=relative, kind=kind, text=text)],
        default_heuristics(),
        available=200_000,
        committed=30_000,
        exact=True,
    )
    (row,) = report.artifacts
    weight = default_heuristics().weights[kind]
    assert row.estimated_tokens == math.ceil(count_lines(text) * weight)
    assert row.exact_tokens == counter.count(text)
    # The shipped weights were measured on these files: every kind lands within 50%.
    assert row.error is not None
    assert abs(row.error) < Fraction(1, 2)


def test_a_corpus_story_is_yellow_and_its_estimate_agrees_with_the_exact_tier() -> None:
    paths = {
        "markdown/rfc-2394-async_await.md": BudgetKind.SPEC,
        "markdown/rfc-3392-leadership-council.md": BudgetKind.TEST_PLAN,
        "markdown/rfc-2094-nll.md": BudgetKind.MODULE_DOC,
        "code/click-core.py": BudgetKind.SOURCE,
        "code/click-types.py": BudgetKind.SOURCE,
    }
    artifacts = [
        PlannedArtifact(path=p, kind=k, text=corpus_file(p).read_text(encoding="utf-8"))
        for p, k in paths.items()
    ]
    planner = ContextBudgetPlanner(TiktokenCounter("cl100k_base"))
    estimated = planner.plan(artifacts, default_heuristics(), available=200_000, committed=30_000)
    exact = planner.plan(
        artifacts, default_heuristics(), available=200_000, committed=30_000, exact=True
    )
    assert estimated.tier is exact.tier is Tier.YELLOW
    assert estimated.compactions == exact.compactions == ()
    # A smaller window turns the same story red: the logs-free story compacts docs first.
    red = planner.plan(artifacts, default_heuristics(), available=100_000, committed=30_000)
    assert red.tier is Tier.RED
    assert [c.kind for c in red.compactions][:1] == [BudgetKind.MODULE_DOC]
    assert all(c.kind is not BudgetKind.SPEC for c in red.compactions)


@needs_corpus
def test_the_shipped_weights_are_the_measured_ones() -> None:
    measured = derived_weights(measure(TiktokenCounter(ENCODING), CORPUS))
    assert measured == default_heuristics().weights
    # The file holds the table exactly as the script prints it.
    assert weights_table(measured) + "\n" in default_weights_text()
