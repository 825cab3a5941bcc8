"""The context budget planner: predict the implementation phase's footprint, warn before
starvation (docs/context-budget.md, docs/budget-heuristics.md)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.context_budget import (
    DEFAULT_AVAILABLE_TOKENS,
    DEFAULT_COMMITTED_TOKENS,
    PROTECTED_KINDS,
    ArtifactEstimate,
    AvailableSource,
    BudgetHeuristics,
    BudgetKind,
    BudgetReport,
    Compaction,
    Tier,
    count_lines,
    estimate_tokens,
)

COMPACTION_PRIORITY: tuple[tuple[BudgetKind, str], ...] = (
    (BudgetKind.LOG, "machine output: the errors and the tail carry the signal"),
    (BudgetKind.JSON, "data: its keys and shape matter more than every value"),
    (
        BudgetKind.MODULE_DOC,
        "reference only: the outline and the sections the change touches are enough",
    ),
    (BudgetKind.DIFF, "a patch: keep the hunks of the files this story changes"),
    (BudgetKind.DOC, "prose: keep the outline and the sections being edited"),
    (BudgetKind.TEST_PLAN, "keep the cases of this story's acceptance criteria"),
    (BudgetKind.SOURCE, "keep the bodies being changed; signatures stand in for the rest"),
)
"""The order compactions are recommended in: what loses least for the work comes first. Within a
kind, the largest saving first (then the path, for a stable order). Protected kinds (the active
spec) are absent: they are never compacted."""


class PlannedArtifact(BaseModel):
    """An artifact the implementation phase will read: its path, kind and text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    kind: BudgetKind
    text: str


class AvailableWindow(NamedTuple):
    """The context window a budget is planned against, and where it came from."""

    tokens: int
    source: AvailableSource


class ContextBudgetPlanner:
    """Estimates what the implementation phase will read, picks the tier, and recommends the
    compactions that bring an amber or red budget back under the amber boundary.

    Estimates use the per-line weights of `BudgetHeuristics`; with ``exact=True`` every
    artifact is also counted by `token_counter` and the budget uses those counts. `projects`
    is needed only to take the window from a project (`available_window`).
    """

    def __init__(self, token_counter: TokenCounter, projects: ProjectService | None = None) -> None:
        self._token_counter = token_counter
        self._projects = projects

    def available_window(
        self, available: int | None = None, project: str | None = None
    ) -> AvailableWindow:
        """The window to plan against: `available` when given, else the window the project
        named `project` declares, else `DEFAULT_AVAILABLE_TOKENS`. A project that does not
        exist is refused (`ProjectNotFoundError`) even when `available` makes its window moot:
        a typo in a project name never passes silently."""
        if project is None:
            if available is not None:
                return AvailableWindow(available, "option")
            return AvailableWindow(DEFAULT_AVAILABLE_TOKENS, "default")
        if self._projects is None:
            raise RuntimeError("this ContextBudgetPlanner was built without projects")
        policy = self._projects.get(project).policy
        if available is not None:
            return AvailableWindow(available, "option")
        if policy.context_window is not None:
            return AvailableWindow(policy.effective_context_window, "project")
        return AvailableWindow(DEFAULT_AVAILABLE_TOKENS, "default")

    def plan(
        self,
        artifacts: Sequence[PlannedArtifact],
        heuristics: BudgetHeuristics,
        *,
        available: int,
        committed: int = DEFAULT_COMMITTED_TOKENS,
        available_source: AvailableSource = "option",
        exact: bool = False,
    ) -> BudgetReport:
        """The budget of reading `artifacts` on top of `committed` tokens already held, in a
        window of `available` tokens (`available_window` says which, and its source)."""
        rows = tuple(self._estimate(artifact, heuristics, exact) for artifact in artifacts)
        report = BudgetReport(
            available=available,
            available_source=available_source,
            committed=committed,
            boundaries=heuristics.tiers,
            artifacts=rows,
            encoding=self._token_counter.encoding_name if exact else None,
        )
        if not report.tier.needs_compaction:
            return report
        compactions = recommend_compactions(report, heuristics)
        compacted = report.model_copy(update={"compactions": compactions})
        return compacted.model_copy(
            update={"split_recommended": compacted.tier_after_compactions is Tier.RED}
        )

    def _estimate(
        self, artifact: PlannedArtifact, heuristics: BudgetHeuristics, exact: bool
    ) -> ArtifactEstimate:
        lines = count_lines(artifact.text)
        weight = heuristics.weights[artifact.kind]
        return ArtifactEstimate(
            path=artifact.path,
            kind=artifact.kind,
            lines=lines,
            weight=weight,
            estimated_tokens=estimate_tokens(lines, weight),
            exact_tokens=self._token_counter.count(artifact.text) if exact else None,
        )


def overcommits_default_window(report: BudgetReport) -> bool:
    """The artifacts alone exceed a window nobody declared: the plan is against the default,
    and the caller should be told to give the real one."""
    return report.available_source == "default" and report.artifact_tokens > report.available


def recommend_compactions(
    report: BudgetReport, heuristics: BudgetHeuristics
) -> tuple[Compaction, ...]:
    """Compactions in priority order until the projected use falls under the amber boundary,
    or every allowed one when it never does. Never a protected artifact."""
    candidates = [
        _compaction(row, heuristics, reason)
        for kind, reason in COMPACTION_PRIORITY
        for row in sorted(
            (row for row in report.artifacts if row.kind is kind),
            key=lambda row: (-row.tokens, row.path),
        )
        if row.kind not in PROTECTED_KINDS
    ]
    chosen: list[Compaction] = []
    projected = report.projected
    for compaction in candidates:
        if not heuristics.tiers.tier_of(projected, report.available).needs_compaction:
            break
        if compaction.saving > 0:
            chosen.append(compaction)
            projected -= compaction.saving
    return tuple(chosen)


def _compaction(row: ArtifactEstimate, heuristics: BudgetHeuristics, reason: str) -> Compaction:
    # Round the target up: a compaction never promises more than its share saves.
    after = math.ceil(row.tokens * heuristics.retained[row.kind])
    return Compaction(
        path=row.path, kind=row.kind, tokens_before=row.tokens, tokens_after=after, reason=reason
    )
