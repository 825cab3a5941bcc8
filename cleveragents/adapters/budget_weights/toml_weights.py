"""The budget-weights port over the TOML weights files (`heuristics_file`)."""

from __future__ import annotations

from cleveragents.adapters.budget_weights.heuristics_file import load_heuristics
from cleveragents.application.ports.budget_weights import BudgetWeightsReader
from cleveragents.domain.context_budget import BudgetHeuristics


class TomlBudgetWeights(BudgetWeightsReader):
    """The shipped ``weights.default.toml``, and a project's TOML file read over it."""

    def heuristics(self, text: str | None = None, *, source: str = "default") -> BudgetHeuristics:
        return load_heuristics(text, source=source)
