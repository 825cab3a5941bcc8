"""What planning a context budget returns, in the shapes every driver shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cleveragents.application.services.budget.context_budget_planner import (
    overcommits_default_window,
)
from cleveragents.domain.context_budget import BudgetReport
from cleveragents.domain.context_budget_contract import compress_command, render_markdown


@dataclass(frozen=True, slots=True)
class BudgetPlan:
    """A context budget: the report (per-artifact estimates, the tier, the compactions that
    bring it back under amber) and the weights file it was estimated with (``default`` for
    the shipped one). `agents context budget` prints `markdown()` or `as_json()`; the Python
    API and the MCP tool give the same."""

    report: BudgetReport
    weights_file: str

    @property
    def overcommits_default_window(self) -> bool:
        """The artifacts alone exceed a window nobody declared: the plan is against the
        default, and the caller should be told to give the real one."""
        return overcommits_default_window(self.report)

    def overcommit_note(self) -> str | None:
        """When `overcommits_default_window`, the sentence that says so (a driver adds how to
        declare the window in its own terms); else None."""
        if not self.overcommits_default_window:
            return None
        report = self.report
        what = "count" if report.exact else "estimate"
        return (
            f"the {what} alone ({report.artifact_tokens:,} tokens) exceeds the default window of "
            f"{report.available:,} tokens and no window was declared"
        )

    def markdown(self) -> str:
        """The markdown report (## Context Budget, the Summary line, the per-artifact table,
        the recommended compactions) that `agents context budget lint` checks."""
        return render_markdown(self.report)

    def as_json(self) -> dict[str, Any]:
        """The same data as the markdown, structured: what `agents context budget --json`
        prints."""
        report = self.report

        def share(tokens: int) -> float:
            return round(tokens / report.available, 4)

        return {
            "tier": report.tier.value,
            "available": report.available,
            "available_source": report.available_source,
            "committed": report.committed,
            "estimated_tokens": report.estimated_total,
            "exact_tokens": report.exact_total,
            "encoding": report.encoding,
            "projected": report.projected,
            "projected_share": share(report.projected),
            "boundaries": {
                name: float(value) for name, value in report.boundaries.model_dump().items()
            },
            "weights_file": self.weights_file,
            "artifacts": [
                {
                    "path": row.path,
                    "kind": row.kind.value,
                    "protected": row.protected,
                    "lines": row.lines,
                    "tokens_per_line": float(row.weight),
                    "estimated_tokens": row.estimated_tokens,
                    "exact_tokens": row.exact_tokens,
                    "error": None if row.error is None else round(float(row.error), 4),
                }
                for row in report.artifacts
            ],
            "compactions": [
                {
                    "path": compaction.path,
                    "kind": compaction.kind.value,
                    "tokens_before": compaction.tokens_before,
                    "tokens_after": compaction.tokens_after,
                    "saving": compaction.saving,
                    "command": compress_command(compaction),
                    "reason": compaction.reason,
                }
                for compaction in report.compactions
            ],
            "projected_after_compactions": report.projected_after_compactions,
            "projected_share_after_compactions": share(report.projected_after_compactions),
            "tier_after_compactions": report.tier_after_compactions.value,
            "split_into_smaller_stories": report.split_recommended,
        }
