"""The budget-weights port: the planner's heuristics, the shipped ones or a file over them."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cleveragents.domain.context_budget import BudgetHeuristics


class BudgetWeightsReader(ABC):
    """Gives the context budget planner its heuristics: per-line weights, tier boundaries and
    compaction targets (docs/budget-heuristics.md)."""

    @abstractmethod
    def heuristics(self, text: str | None = None, *, source: str = "default") -> BudgetHeuristics:
        """The shipped defaults when `text` is None, else the weights file `text` read over
        them (what it leaves out keeps the default). `source` names the file in errors and in
        the heuristics returned. Raises `InvalidHeuristicsError` for a malformed file, an
        unknown section or kind, or a value out of range."""
