"""Recording a built prefix for a project: the stable_prefix_built event the metrics list."""

from __future__ import annotations

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.services.prefixes.stable_prefix_builder import StablePrefixBuilder
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.errors import ProjectNotFoundError
from cleveragents.domain.event import STABLE_PREFIX_BUILT
from cleveragents.domain.stable_prefix.spec_parsing import parse_prefix_spec
from tests.fakes import FakeEventSink, FakeUnitOfWorkFactory

SPEC = parse_prefix_spec(
    {"core_rules": "Be careful.", "stable_facts": {"python": "3.11"}, "professional_skills": []}
)


class CountingEvents:
    """The event sink's factory, counting how often it is asked for the sink."""

    def __init__(self) -> None:
        self.sink = FakeEventSink()
        self.calls = 0

    def __call__(self) -> FakeEventSink:
        self.calls += 1
        return self.sink


@pytest.fixture
def projects() -> ProjectService:
    service = ProjectService(FakeUnitOfWorkFactory())
    service.create("shop")
    return service


def test_record_emits_the_fingerprints_scoped_to_the_project(projects: ProjectService) -> None:
    events = CountingEvents()
    builder = StablePrefixBuilder(PatternSecretScanner(), projects=projects, events=events)
    built = builder.build(SPEC)
    recorded = builder.record(built, "shop")
    assert events.sink.events == [recorded]
    assert recorded.kind == STABLE_PREFIX_BUILT
    assert recorded.payload == {
        "project_id": projects.get("shop").id,
        "sha256": built.sha256,
        "sections": {section.name.value: section.sha256 for section in built.sections},
    }
    assert set(recorded.payload["sections"]) == {
        "core_rules",
        "project_instructions",
        "tools",
        "stable_facts",
        "professional_skills",
    }


def test_building_and_comparing_never_ask_for_the_event_sink(projects: ProjectService) -> None:
    events = CountingEvents()
    builder = StablePrefixBuilder(PatternSecretScanner(), projects=projects, events=events)
    built = builder.build(SPEC)
    assert builder.diff(built, built).identical
    assert events.calls == 0


def test_an_unknown_project_is_refused_and_nothing_is_recorded(projects: ProjectService) -> None:
    events = CountingEvents()
    builder = StablePrefixBuilder(PatternSecretScanner(), projects=projects, events=events)
    with pytest.raises(ProjectNotFoundError, match="'nope'"):
        builder.record(builder.build(SPEC), "nope")
    assert events.sink.events == []


def test_a_builder_without_projects_and_events_cannot_record() -> None:
    builder = StablePrefixBuilder(PatternSecretScanner())
    with pytest.raises(RuntimeError, match="without projects and events"):
        builder.record(builder.build(SPEC), "shop")
