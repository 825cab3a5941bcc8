"""In-memory fakes of the application ports, for fast unit tests of the services.

The fakes subclass the port ABCs, so a port that grows an abstract method breaks them loudly.
`FakeStore` holds the committed state; each `FakeUnitOfWork` works on a private copy of it that
only `commit()` publishes, so leaving the block without committing (normally or by an exception)
loses every change, as the `UnitOfWork` contract says.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any

from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.repositories import (
    ArtifactRepository,
    PlanRepository,
    PlanSummary,
    ProjectRepository,
    TempOutputRecord,
    TempOutputRepository,
)
from cleveragents.application.ports.summarizer import Summarizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.ports.unit_of_work import UnitOfWork
from cleveragents.domain.compaction_summary import CompactionSummary, SummarySection
from cleveragents.domain.errors import ProjectAlreadyExistsError
from cleveragents.domain.event import RecordedEvent
from cleveragents.domain.plan import Decision, Plan
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus, StoredArtifact
from cleveragents.domain.transcript import Message


@dataclass
class FakeState:
    """Everything the store holds. Models are frozen, so a shallow copy is a full snapshot."""

    projects: dict[str, Project] = field(default_factory=dict)
    plans: dict[str, Plan] = field(default_factory=dict)
    decisions: dict[str, Decision] = field(default_factory=dict)
    artifacts: dict[str, StoredArtifact] = field(default_factory=dict)
    # Each issued reference with when it was issued (the row's created_at).
    temp_outputs: dict[str, tuple[TempOutputRecord, datetime]] = field(default_factory=dict)

    def copy(self) -> FakeState:
        return FakeState(
            projects=dict(self.projects),
            plans=dict(self.plans),
            decisions=dict(self.decisions),
            artifacts=dict(self.artifacts),
            temp_outputs=dict(self.temp_outputs),
        )


class FakeStore:
    """The committed state shared by every unit of work of one factory."""

    def __init__(self) -> None:
        self.state = FakeState()
        self.commits = 0


class FakeProjectRepository(ProjectRepository):
    def __init__(self, state: FakeState) -> None:
        self._state = state

    def add(self, project: Project) -> None:
        if any(p.name == project.name for p in self._state.projects.values()):
            raise ProjectAlreadyExistsError(project.name)
        self._state.projects[project.id] = project

    def get_by_name(self, name: str) -> Project | None:
        return next((p for p in self._state.projects.values() if p.name == name), None)

    def get(self, project_id: str) -> Project | None:
        return self._state.projects.get(project_id)

    def list(self) -> list[Project]:
        return sorted(self._state.projects.values(), key=lambda p: p.name)

    def save_policy(self, project_id: str, policy: ContextPolicy) -> None:
        project = self._state.projects[project_id]
        self._state.projects[project_id] = project.model_copy(update={"policy": policy})


class FakePlanRepository(PlanRepository):
    def __init__(self, state: FakeState) -> None:
        self._state = state

    def add(self, plan: Plan) -> None:
        if plan.fragments:
            raise ValueError("a new plan has no decisions yet; record them with add_decision")
        if plan.id in self._state.plans:
            raise ValueError(f"plan {plan.id} already stored")
        if plan.project_id not in self._state.projects:
            raise ValueError(f"plan {plan.id} refers to unknown project {plan.project_id}")
        self._state.plans[plan.id] = plan

    def get(self, plan_id: str) -> Plan | None:
        return self._state.plans.get(plan_id)

    def lock(self, plan_id: str) -> Plan | None:
        return self.get(plan_id)

    def lock_exists(self, plan_id: str) -> bool:
        return plan_id in self._state.plans

    def contains_fragment(self, plan_id: str, fragment_id: str) -> bool:
        return self._state.plans[plan_id].has_fragment(fragment_id)

    def add_decision(self, decision: Decision) -> None:
        plan = self._state.plans[decision.plan_id]
        self._state.plans[plan.id] = plan.model_copy(
            update={"fragments": (*plan.fragments, decision.fragment)}
        )
        self._state.decisions[decision.id] = decision

    def save_policy(self, plan_id: str, policy: ContextPolicy) -> None:
        plan = self._state.plans[plan_id]
        self._state.plans[plan_id] = plan.model_copy(update={"policy": policy})

    def children(self, plan_id: str) -> list[str]:
        return [p.id for p in self._state.plans.values() if p.parent_id == plan_id]

    def list(self, project_id: str | None = None) -> list[PlanSummary]:
        return [
            PlanSummary(
                id=plan.id,
                project_name=self._state.projects[plan.project_id].name,
                parent_id=plan.parent_id,
                title=plan.title,
                status=plan.status.value,
                decision_count=len(plan.fragments),
                has_skeleton=plan.skeleton_metadata is not None,
            )
            for plan in self._state.plans.values()
            if project_id is None or plan.project_id == project_id
        ]


class FakeArtifactRepository(ArtifactRepository):
    """Rows keyed by id; like the SQL one, `save` changes only status, retention and expiry."""

    def __init__(self, state: FakeState) -> None:
        self._state = state

    def add(self, artifact: StoredArtifact) -> None:
        if artifact.id in self._state.artifacts:
            raise ValueError(f"artifact {artifact.id} already stored")
        if artifact.project_id not in self._state.projects:
            raise ValueError(f"artifact {artifact.id} refers to unknown project")
        self._state.artifacts[artifact.id] = artifact

    def get(self, artifact_id: str) -> StoredArtifact | None:
        return self._state.artifacts.get(artifact_id)

    def save(self, artifact: StoredArtifact) -> None:
        stored = self._state.artifacts.get(artifact.id)
        if stored is None:
            return  # an UPDATE that matches no row
        self._state.artifacts[artifact.id] = stored.model_copy(
            update={
                "status": artifact.status,
                "retention_class": artifact.retention_class,
                "expires_at": artifact.expires_at,
                "expired_at": artifact.expired_at,
            }
        )

    def list(
        self, project_id: str | None = None, status: ArtifactStatus | None = None
    ) -> list[StoredArtifact]:
        return sorted(
            (
                artifact
                for artifact in self._state.artifacts.values()
                if (project_id is None or artifact.project_id == project_id)
                and (status is None or artifact.status is status)
            ),
            key=lambda artifact: (artifact.created_at, artifact.id),
        )

    def find_stored(self, sha256: str) -> StoredArtifact | None:
        stored = self.list(status=ArtifactStatus.STORED)
        return next((artifact for artifact in stored if artifact.sha256 == sha256), None)


class FakeTempOutputRepository(TempOutputRepository):
    def __init__(self, state: FakeState) -> None:
        self._state = state

    def add(self, record: TempOutputRecord, created_at: datetime) -> None:
        if record.selector in self._state.temp_outputs:
            raise ValueError(f"temporary output {record.selector} already issued")
        self._state.temp_outputs[record.selector] = (record, created_at)

    def get(self, selector: str) -> TempOutputRecord | None:
        entry = self._state.temp_outputs.get(selector)
        return None if entry is None else entry[0]

    def expired(self, now: datetime) -> list[TempOutputRecord]:
        return [
            record
            for record, _ in self._state.temp_outputs.values()
            if record.used_at is None and record.expires_at <= now
        ]

    def delete(self, selector: str) -> None:
        self._state.temp_outputs.pop(selector, None)

    def mark_used(self, selector: str, now: datetime) -> bool:
        entry = self._state.temp_outputs.get(selector)
        if entry is None:
            return False
        record, created_at = entry
        if record.used_at is not None or record.expires_at <= now:
            return False
        used = replace(record, used_at=now)
        self._state.temp_outputs[selector] = (used, created_at)
        return True


class FakeUnitOfWork(UnitOfWork):
    """One transaction over a private copy of the store's state.

    `committed` is True once `commit()` published the changes; `rolled_back` counts rollbacks.
    """

    def __init__(self, store: FakeStore) -> None:
        self._store = store
        self._working = store.state.copy()
        self.projects = FakeProjectRepository(self._working)
        self.plans = FakePlanRepository(self._working)
        self.artifacts = FakeArtifactRepository(self._working)
        self.temp_outputs = FakeTempOutputRepository(self._working)
        self.committed = False
        self.entered = False
        self.exited = False
        self.rollbacks = 0

    def __enter__(self) -> FakeUnitOfWork:
        self.entered = True
        self._reset(self._store.state.copy())
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.exited = True
        super().__exit__(exc_type, exc, tb)

    def commit(self) -> None:
        self._store.state = self._working.copy()
        self._store.commits += 1
        self.committed = True

    def rollback(self) -> None:
        self.rollbacks += 1
        self._reset(self._store.state.copy())

    def _reset(self, state: FakeState) -> None:
        self._working = state
        self.projects = FakeProjectRepository(state)
        self.plans = FakePlanRepository(state)
        self.artifacts = FakeArtifactRepository(state)
        self.temp_outputs = FakeTempOutputRepository(state)


class FakeUnitOfWorkFactory:
    """A `UnitOfWorkFactory` that records every unit of work it made."""

    def __init__(self, store: FakeStore | None = None) -> None:
        self.store = store if store is not None else FakeStore()
        self.created: list[FakeUnitOfWork] = []

    def __call__(self) -> FakeUnitOfWork:
        uow = FakeUnitOfWork(self.store)
        self.created.append(uow)
        return uow

    @property
    def calls(self) -> int:
        return len(self.created)

    @property
    def state(self) -> FakeState:
        """The committed state."""
        return self.store.state


class FakeTokenCounter(TokenCounter):
    """Counts whitespace-separated words; records every text it was asked to count."""

    def __init__(self) -> None:
        self.counted: list[str] = []

    @property
    def encoding_name(self) -> str:
        return "fake-words"

    def count(self, text: str) -> int:
        self.counted.append(text)
        return len(text.split())

    def count_stream(self, chunks: Iterable[str]) -> int:
        return self.count("".join(chunks))

    def token_starts(self, text: str) -> list[int]:
        import re

        data = text.encode("utf-8", errors="surrogatepass")
        return [match.start() for match in re.finditer(rb"\S+", data)]

    def prefix_within(self, text: str, max_tokens: int, starts: Sequence[int] | None = None) -> str:
        words = text.split()
        if len(words) <= max_tokens:
            return text
        if max_tokens <= 0:
            return ""
        # Cut right after the max_tokens-th word.
        position = 0
        for word in words[:max_tokens]:
            position = text.index(word, position) + len(word)
        return text[:position]


class FixedClock(Clock):
    """A clock that moves only when told to."""

    def __init__(self, now: datetime | None = None) -> None:
        self.current = now or datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, delta: timedelta) -> None:
        self.current += delta


class FakeEventSink(EventSink):
    """Keeps events in a list."""

    def __init__(self) -> None:
        self.events: list[RecordedEvent] = []

    def emit(self, kind: str, payload: dict[str, Any]) -> RecordedEvent:
        event = RecordedEvent(
            id=f"{len(self.events):026d}",
            kind=kind,
            payload=payload,
            created_at=datetime(2026, 11, 30, tzinfo=UTC),
        )
        self.events.append(event)
        return event

    def recorded(self, kind: str | None = None, limit: int | None = None) -> list[RecordedEvent]:
        wanted = [event for event in self.events if kind is None or event.kind == kind]
        return wanted[-limit:] if limit else wanted


class FakeSummarizer(Summarizer):
    """Summarises each folded user text as a goal; records what it was given; can fail."""

    def __init__(self, error: Exception | None = None, padding: int = 0) -> None:
        self.calls: list[tuple[int, CompactionSummary | None]] = []
        self.error = error
        self.padding = padding

    def summarize(
        self, folded: Sequence[Message], previous: CompactionSummary | None
    ) -> CompactionSummary:
        self.calls.append((len(folded), previous))
        if self.error is not None:
            raise self.error
        goals = [*(previous.items(SummarySection.GOALS) if previous else ())]
        goals += [m.text for m in folded if m.has_user_text and not m.is_summary]
        goals += ["padding " * self.padding] if self.padding else []
        return CompactionSummary(
            latest_request=goals[-1] if goals else None,
            sections={SummarySection.GOALS: tuple(goals)},
        )
