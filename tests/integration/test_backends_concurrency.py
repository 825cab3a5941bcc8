"""Many workers on one store, on each backend: real processes (spawned, as separate machines
would be), released together by a barrier so that their transactions overlap.

- 8 workers x 200 decisions on one plan: all 1600 recorded, each once;
- 8 children spawned at once from one parent: all 8 there, each with its skeleton;
- 8 first uses of an empty database at once: all succeed, the schema migrated once;
- 8 first imports at once into a store without its default project: all stored, one project.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from cleveragents.application.services.artifact_store.artifact_store import ImportResult
from cleveragents.container import Container, build_container
from cleveragents.domain.plan import Plan
from cleveragents.domain.policy import ContextPolicyChanges
from cleveragents.domain.project import Project

pytestmark = pytest.mark.slow

WORKERS = 8
DECISIONS_PER_WORKER = 200
JOIN_TIMEOUT = 600  # seconds: a guard against a hung worker, never a measure of speed


def _in_worker(job: Callable[..., Any], barrier: Any, results: Any, args: tuple[Any, ...]) -> None:
    """A worker's body: run the job, which calls ``start`` once it is ready and must then wait
    for the others (so that what follows overlaps), and report its value or its traceback."""

    def start() -> None:
        barrier.wait(timeout=JOIN_TIMEOUT)

    try:
        results.put(("ok", job(start, *args)))
    except BaseException:
        results.put(("failed", traceback.format_exc()))


def _run_workers(job: Callable[..., Any], args_per_worker: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Runs one process per argument tuple; their values, or the test fails with every
    worker's traceback."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(args_per_worker))
    results = context.Queue()
    processes = [
        context.Process(target=_in_worker, args=(job, barrier, results, args))
        for args in args_per_worker
    ]
    for process in processes:
        process.start()
    # Drained before joining: a process exits only once what it put on the queue is read.
    outcomes = [results.get(timeout=JOIN_TIMEOUT) for _ in processes]
    for process in processes:
        process.join(timeout=JOIN_TIMEOUT)
    failures = [detail for status, detail in outcomes if status != "ok"]
    assert failures == [], "\n".join(failures)
    assert [process.exitcode for process in processes] == [0] * len(processes)
    return [value for _, value in outcomes]


def _opened(url: str, home: str) -> Container:
    """A worker's container with the store's first check done (the database is migrated)."""
    container = build_container(url, home=Path(home))
    container.store().sessions  # noqa: B018 - brings the schema to head before the race
    return container


def _decide_many(start: Callable[[], None], url: str, home: str, plan_id: str, worker: int) -> int:
    container = _opened(url, home)
    try:
        plans = container.plan_service()
        start()
        for index in range(DECISIONS_PER_WORKER):
            plans.decide(
                plan_id,
                f"worker {worker} decision {index}",
                relevance=(index % 10) / 10,
                token_count=1 + index % 7,
                fragment_id=f"w{worker}-{index}",
            )
        return DECISIONS_PER_WORKER
    finally:
        container.store().dispose()


def _spawn_child(
    start: Callable[[], None], url: str, home: str, parent_id: str, worker: int
) -> str:
    container = _opened(url, home)
    try:
        spawner = container.child_plan_spawner()
        start()
        child: Plan = spawner.spawn_child(parent_id, f"child {worker}")
        return child.id
    finally:
        container.store().dispose()


def _first_use(start: Callable[[], None], url: str, home: str, worker: int) -> str:
    container = build_container(url, home=Path(home))  # lazy: the database is not touched yet
    try:
        projects = container.project_service()
        start()
        project: Project = projects.create(f"project-{worker}")
        return project.name
    finally:
        container.store().dispose()


def _import_output(start: Callable[[], None], url: str, home: str, worker: int) -> str:
    container = _opened(url, home)
    try:
        store = container.artifact_store()
        data = f"worker {worker} output\n".encode() * 100
        start()
        result: ImportResult = store.import_output(data, f"run-{worker}")
        return result.artifact.id
    finally:
        container.store().dispose()


def test_eight_workers_record_200_decisions_each_on_one_plan(
    container: Container, database_url: str, home: Path
) -> None:
    container.project_service().create("busy")
    plan = container.plan_service().create("busy", "shared plan")

    recorded = _run_workers(
        _decide_many, [(database_url, str(home), plan.id, w) for w in range(WORKERS)]
    )

    assert recorded == [DECISIONS_PER_WORKER] * WORKERS
    fragments = container.plan_service().status(plan.id).plan.fragments
    expected = {f"w{w}-{i}" for w in range(WORKERS) for i in range(DECISIONS_PER_WORKER)}
    assert len(fragments) == WORKERS * DECISIONS_PER_WORKER  # 1600: none lost, none doubled
    assert {fragment.fragment_id for fragment in fragments} == expected


def test_eight_children_spawned_at_once_from_one_parent_each_get_their_skeleton(
    container: Container, database_url: str, home: Path
) -> None:
    container.project_service().create("fanout")
    container.project_service().set_context("fanout", ContextPolicyChanges(skeleton_ratio=0.5))
    plans = container.plan_service()
    parent = plans.create("fanout", "parent")
    for index in range(40):
        plans.decide(
            parent.id,
            f"decision {index}",
            relevance=(index % 9) / 9,
            token_count=10 + index,
            fragment_id=f"d{index}",
        )
    context = plans.status(parent.id).plan.accumulated_context
    skeleton = container.skeleton_compressor_service().compress(context, 0.5)
    assert 0 < len(skeleton.fragments) < len(context)  # a skeleton, not everything or nothing

    spawned = _run_workers(
        _spawn_child, [(database_url, str(home), parent.id, w) for w in range(WORKERS)]
    )

    assert len(set(spawned)) == WORKERS
    assert sorted(plans.status(parent.id).children) == sorted(spawned)
    for child_id in spawned:
        child = plans.status(child_id).plan
        assert child.parent_id == parent.id
        assert child.skeleton_metadata == skeleton.metadata
        assert [f.fragment_id for f in child.inherited_fragments] == [
            f.fragment_id for f in skeleton.fragments
        ]


def test_eight_first_uses_of_an_empty_database_all_succeed(
    empty_database_url: str, home: Path
) -> None:
    created = _run_workers(_first_use, [(empty_database_url, str(home), w) for w in range(WORKERS)])

    assert sorted(created) == sorted(f"project-{w}" for w in range(WORKERS))
    container = build_container(empty_database_url, home=home)
    try:
        store = container.store()
        assert store.current_revision() == store.head_revision()
        names = {project.name for project in container.project_service().list()}
        assert names == set(created)
    finally:
        container.store().dispose()


def test_eight_first_imports_into_the_default_project_all_succeed(
    container: Container, database_url: str, home: Path, request: pytest.FixtureRequest
) -> None:
    """The first import creates the default project: eight at once must not conflict."""
    assert container.project_service().list() == []

    stored = _run_workers(_import_output, [(database_url, str(home), w) for w in range(WORKERS)])

    assert [project.name for project in container.project_service().list()] == ["default"]
    assert sorted(artifact.id for artifact in container.artifact_store().list()) == sorted(stored)
