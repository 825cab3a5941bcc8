"""The summary's own budget on generated budgets: the rendered summary never exceeds it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.compaction.summary.budget import fit_summary
from cleveragents.domain.compaction_summary import render_summary
from tests.summary_samples import busy_summary, count


@given(st.integers(60, 3_000))
def test_the_rendered_summary_never_exceeds_its_budget(budget: int) -> None:
    fitted = fit_summary(busy_summary(), budget, count)
    assert count(render_summary(fitted)) <= budget
