"""The context budget's markdown contract, on generated plans: whatever the artifacts, heuristics
and window, what the planner prints passes the linter."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.adapters.budget_weights.heuristics_file import default_heuristics
from cleveragents.application.services.budget.context_budget_planner import (
    ContextBudgetPlanner,
    PlannedArtifact,
)
from cleveragents.domain.context_budget import (
    PROTECTED_KINDS,
    BudgetHeuristics,
    BudgetKind,
    Tier,
    TierBoundaries,
)
from cleveragents.domain.context_budget_contract import (
    NONE_LINE,
    first_violation,
    render_markdown,
)
from tests.fakes import FakeTokenCounter

_PATHS = st.text(min_size=1, max_size=24)
_ARTIFACT = st.tuples(_PATHS, st.sampled_from(list(BudgetKind)), st.lists(st.text(), max_size=8))


@st.composite
def _heuristics(draw: st.DrawFn) -> BudgetHeuristics:
    cuts = sorted(draw(st.sets(st.integers(1, 100), min_size=3, max_size=3)))
    weight = st.decimals(min_value=Decimal("0.1"), max_value=Decimal(80), places=1)
    share = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("0.99"), places=2)
    return default_heuristics().model_copy(
        update={
            "tiers": TierBoundaries(
                yellow=Decimal(cuts[0]) / 100,
                amber=Decimal(cuts[1]) / 100,
                red=Decimal(cuts[2]) / 100,
            ),
            "weights": {kind: draw(weight) for kind in BudgetKind},
            "retained": {kind: draw(share) for kind in BudgetKind if kind not in PROTECTED_KINDS},
        }
    )


@given(
    spec=st.lists(st.text(), max_size=8),
    others=st.lists(_ARTIFACT, max_size=8),
    heuristics=_heuristics(),
    available=st.integers(1, 400_000),
    committed=st.integers(0, 400_000),
    exact=st.booleans(),
)
def test_the_planners_output_always_passes_the_linter(
    spec: list[str],
    others: list[tuple[str, BudgetKind, list[str]]],
    heuristics: BudgetHeuristics,
    available: int,
    committed: int,
    exact: bool,
) -> None:
    artifacts = [PlannedArtifact(path="spec.md", kind=BudgetKind.SPEC, text="\n".join(spec))]
    artifacts += [
        PlannedArtifact(path=path, kind=kind, text="\n".join(lines) * 40)
        for path, kind, lines in others
    ]
    result = ContextBudgetPlanner(FakeTokenCounter()).plan(
        artifacts, heuristics, available=available, committed=committed, exact=exact
    )
    text = render_markdown(result)
    assert first_violation(text) is None, (first_violation(text), text)
    assert all(c.kind not in PROTECTED_KINDS for c in result.compactions)
    if not result.tier.needs_compaction:
        assert result.compactions == ()
        assert text.endswith(f"\n{NONE_LINE}\n")
    assert result.split_recommended == (
        result.tier.needs_compaction and result.tier_after_compactions is Tier.RED
    )
    if result.tier.needs_compaction and not result.split_recommended:
        # Compaction stopped as soon as it left amber, or ran out of candidates.
        assert result.tier_after_compactions is not Tier.RED
