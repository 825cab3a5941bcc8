"""Child plans: spawned with a skeleton of the parent's accumulated context as their own context."""

from __future__ import annotations

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from cleveragents.application.services.governance.text_redaction import redact_document
from cleveragents.application.services.plans.skeleton_compressor import SkeletonCompressorService
from cleveragents.domain.errors import InvalidInputError, PlanNotFoundError
from cleveragents.domain.ids import parse_ulid
from cleveragents.domain.plan import Plan
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.ratio import validate_ratio
from cleveragents.domain.validation import build


def effective_skeleton_ratio(
    explicit: float | None, parent_policy: ContextPolicy, project_policy: ContextPolicy
) -> float:
    """The ratio in force: this spawn's > the parent plan's override > the project's > default."""
    if explicit is not None:
        return validate_ratio(explicit)
    if parent_policy.skeleton_ratio is not None:
        return parent_policy.skeleton_ratio
    return project_policy.effective_skeleton_ratio


class ChildPlanSpawner:
    """Spawns child plans (and grandchildren, the same way)."""

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        compressor: SkeletonCompressorService,
        scanner: SecretScanner,
    ) -> None:
        self._uow_factory = uow_factory
        self._compressor = compressor
        self._scanner = scanner

    def spawn_child(self, parent_id: str, title: str, skeleton_ratio: float | None = None) -> Plan:
        """Compress the parent's accumulated context (inherited + own) and create the child
        with the kept fragments as its inherited context, in one transaction."""
        canonical_id = parse_ulid(parent_id, "plan id")
        if skeleton_ratio is not None:
            validate_ratio(skeleton_ratio)  # before the store is touched
        title = redact_document(title.strip(), self._scanner).text

        def spawn(uow: UnitOfWork) -> Plan:
            parent = uow.plans.lock(canonical_id)
            if parent is None:
                raise PlanNotFoundError(canonical_id)
            project = uow.projects.get(parent.project_id)
            if project is None:  # pragma: no cover - a foreign key guarantees it
                raise InvalidInputError(f"plan {canonical_id} has no project")
            ratio = effective_skeleton_ratio(skeleton_ratio, parent.policy, project.policy)
            skeleton = self._compressor.compress(parent.accumulated_context, ratio)
            child = build(
                Plan,
                project_id=parent.project_id,
                parent_id=parent.id,
                title=title,
                skeleton_metadata=skeleton.metadata,
                inherited_fragments=skeleton.fragments,
            )
            uow.plans.add(child)
            uow.commit()
            return child

        # Run again from the start if the database rolls it back (a deadlock between workers).
        return self._uow_factory().run(spawn)

    def set_plan_context(self, plan_id: str, skeleton_ratio: float | None = None) -> Plan:
        """Override the project's skeleton ratio for the children of one plan."""
        canonical_id = parse_ulid(plan_id, "plan id")
        changes = build(ContextPolicy, skeleton_ratio=skeleton_ratio)

        def save(uow: UnitOfWork) -> Plan:
            plan = uow.plans.lock(canonical_id)
            if plan is None:
                raise PlanNotFoundError(canonical_id)
            policy = plan.policy.overridden_by(changes)
            uow.plans.save_policy(canonical_id, policy)
            uow.commit()
            return plan.model_copy(update={"policy": policy})

        return self._uow_factory().run(save)
