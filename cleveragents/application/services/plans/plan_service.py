"""Plans and the decisions recorded on them."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.application.ports.repositories import PlanSummary
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from cleveragents.application.services.governance.text_redaction import redact_document
from cleveragents.domain.errors import (
    DuplicateFragmentError,
    InvalidInputError,
    PlanNotFoundError,
    ProjectNotFoundError,
)
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ids import new_ulid, parse_ulid
from cleveragents.domain.plan import Decision, Plan
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.tokens import MAX_TOKEN_COUNT
from cleveragents.domain.validation import build

DEFAULT_RELEVANCE = 0.5


@dataclass(frozen=True, slots=True)
class PlanStatusReport:
    """What `agents plan status` shows."""

    plan: Plan
    project: Project
    children: tuple[str, ...]

    @property
    def own_tokens(self) -> int:
        return sum(fragment.token_count for fragment in self.plan.fragments)

    @property
    def inherited_tokens(self) -> int:
        return sum(fragment.token_count for fragment in self.plan.inherited_fragments)

    @property
    def effective_policy(self) -> ContextPolicy:
        return self.project.policy.overridden_by(self.plan.policy)


class PlanService:
    """Create plans, record decisions, report status."""

    def __init__(
        self, uow_factory: UnitOfWorkFactory, token_counter: TokenCounter, scanner: SecretScanner
    ) -> None:
        self._uow_factory = uow_factory
        self._token_counter = token_counter
        self._scanner = scanner

    def create(self, project_name: str, title: str) -> Plan:
        with self._uow_factory() as uow:
            project = uow.projects.get_by_name(project_name)
            if project is None:
                raise ProjectNotFoundError(project_name)
            title = redact_document(title.strip(), self._scanner).text
            plan = build(Plan, project_id=project.id, title=title)
            uow.plans.add(plan)
            uow.commit()
        return plan

    def decide(
        self,
        plan_id: str,
        content: str,
        *,
        relevance: float = DEFAULT_RELEVANCE,
        token_count: int | None = None,
        fragment_id: str | None = None,
    ) -> Decision:
        """Record a decision carrying one context fragment.

        `token_count` None counts `content` with the real tokenizer; a given one must be within
        [0, `MAX_TOKEN_COUNT`]. `fragment_id` None uses the
        decision's own ULID, which sorts by recording time. A fragment id already present in the
        plan's accumulated context (own or inherited) is refused: ranking ties are broken by
        fragment id, so ids must be unique for the order to be deterministic.
        """
        canonical_id = parse_ulid(plan_id, "plan id")
        decision_id = new_ulid()
        # A credential never enters a plan: what a child plan inherits goes into its prompt.
        content = redact_document(content, self._scanner).text
        if token_count is None:
            token_count = self._token_counter.count(content)
        elif not 0 <= token_count <= MAX_TOKEN_COUNT:
            raise InvalidInputError(
                f"a decision's token count must be within [0, {MAX_TOKEN_COUNT:,}], "
                f"got {_shown(token_count)}"
            )
        fragment = build(
            ContextFragment,
            fragment_id=decision_id if fragment_id is None else fragment_id,
            decision_id=decision_id,
            relevance=relevance,
            token_count=token_count,
            content=content,
        )
        decision = Decision(id=decision_id, plan_id=canonical_id, fragment=fragment)

        def record(uow: UnitOfWork) -> Decision:
            # Existence checks, not a load: recording stays constant-time as a plan grows.
            if not uow.plans.lock_exists(canonical_id):
                raise PlanNotFoundError(canonical_id)
            if uow.plans.contains_fragment(canonical_id, fragment.fragment_id):
                raise DuplicateFragmentError(canonical_id, fragment.fragment_id)
            uow.plans.add_decision(decision)
            uow.commit()
            return decision

        # Run again from the start if the database rolls it back (a deadlock between workers).
        return self._uow_factory().run(record)

    def status(self, plan_id: str) -> PlanStatusReport:
        canonical_id = parse_ulid(plan_id, "plan id")
        with self._uow_factory() as uow:
            plan = _require_plan(uow, canonical_id)
            project = uow.projects.get(plan.project_id)
            if project is None:  # pragma: no cover - a foreign key guarantees it
                raise InvalidInputError(f"plan {canonical_id} has no project")
            children = tuple(uow.plans.children(canonical_id))
        return PlanStatusReport(plan=plan, project=project, children=children)

    def list(self, project_name: str | None = None) -> list[PlanSummary]:
        with self._uow_factory() as uow:
            project_id = None
            if project_name is not None:
                project = uow.projects.get_by_name(project_name)
                if project is None:
                    raise ProjectNotFoundError(project_name)
                project_id = project.id
            return uow.plans.list(project_id)


def _require_plan(uow: UnitOfWork, plan_id: str) -> Plan:
    plan = uow.plans.get(plan_id)
    if plan is None:
        raise PlanNotFoundError(plan_id)
    return plan


def _shown(number: int) -> str:
    # Python refuses to print an int of more than 4,300 digits; such a count is only absurd.
    return f"{number:,}" if abs(number) < 10**40 else f"a number of {number.bit_length():,} bits"
