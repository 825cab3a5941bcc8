"""The settings a compaction runs with: a project's context policy (else the product defaults)
with the caller's overrides over it, refused when together they leave no room.

One place for what `agents context compact` and `compare`, the Python API and the MCP server
would otherwise each put together from the policy, the flags and the project lookup.
"""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.policy import ContextPolicy, ContextPolicyChanges


@dataclass(frozen=True, slots=True)
class ProjectCompactionSettings:
    """The coherent settings, and the id of the project whose policy they start from (None:
    the product defaults)."""

    settings: CompactionSettings
    project_id: str | None = None

    @property
    def scope(self) -> dict[str, str] | None:
        """What the compaction's events are scoped to: the project, when there is one (so
        `agents metrics show --project` counts them)."""
        return None if self.project_id is None else {"project_id": self.project_id}


def compaction_settings(
    projects: ProjectService,
    project: str | None = None,
    overrides: ContextPolicyChanges | None = None,
    *,
    policy: ContextPolicy | None = None,
) -> ProjectCompactionSettings:
    """The settings of the project named `project` (the defaults when None), with the fields
    `policy` sets over its policy, then `overrides` over that. `ProjectNotFoundError` for an
    unknown project, `InvalidPolicyError` when the result leaves no room (a reserve not below
    the window, say); the store is only read, and only when a project is named."""
    found = projects.get(project) if project is not None else None
    effective = found.policy if found is not None else ContextPolicy()
    if policy is not None:
        effective = effective.overridden_by(policy)
    settings = CompactionSettings.from_policy(effective, overrides)
    return ProjectCompactionSettings(settings, project_id=found.id if found is not None else None)
