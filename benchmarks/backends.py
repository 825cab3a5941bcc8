"""Many workers on one store, on each backend: 8 processes record decisions on one plan, then
8 processes spawn children from one parent. Throughput and the p50/p99 latency of one decide
and one spawn, SQLite and PostgreSQL side by side in the same run (the ratio is PostgreSQL's
throughput over SQLite's).

SQLite is the embedded default: one writer at a time, so its throughput is what one file
allows. PostgreSQL takes writers concurrently (a decide locks only its plan's row). The
PostgreSQL server is `$CLEVERAGENTS_BENCH_POSTGRES_URL` (else the tests' one), else a
throwaway server started for the run (benchmarks/postgres_server.py); each run gets a fresh
database in it.
"""

from __future__ import annotations

import multiprocessing
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from benchmarks.postgres_server import postgres_url
from benchmarks.report import Result, print_line, print_section
from cleveragents.container import build_container

WORKERS = 8
DECIDES_PER_WORKER = 100
SPAWNS_PER_WORKER = 10
PARENT_DECISIONS = 200
CONTENT = "Use the payment provider's webhooks; retry with backoff on 5xx. " * 3


@dataclass(frozen=True)
class Timings:
    start: float
    end: float
    latencies: list[float]


def _decide_worker(url: str, plan_id: str, worker: int, count: int) -> Timings:
    container = build_container(url, auto_migrate=False)
    plans = container.plan_service()
    latencies = []
    start = time.time()
    for i in range(count):
        began = time.perf_counter()
        plans.decide(plan_id, f"{CONTENT} ({worker}.{i})", relevance=0.5, token_count=40)
        latencies.append(time.perf_counter() - began)
    end = time.time()
    container.store().dispose()
    return Timings(start, end, latencies)


def _spawn_worker(url: str, parent_id: str, worker: int, count: int) -> Timings:
    container = build_container(url, auto_migrate=False)
    coordinator = container.child_plan_spawner()
    latencies = []
    start = time.time()
    for i in range(count):
        began = time.perf_counter()
        coordinator.spawn_child(parent_id, f"child {worker}.{i}", skeleton_ratio=0.5)
        latencies.append(time.perf_counter() - began)
    end = time.time()
    container.store().dispose()
    return Timings(start, end, latencies)


@dataclass(frozen=True)
class Figures:
    throughput: float  # operations per second, all workers together
    p50: float
    p99: float
    operations: int


def _figures(results: list[Timings]) -> Figures:
    latencies = sorted(t for result in results for t in result.latencies)
    wall = max(r.end for r in results) - min(r.start for r in results)
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))]
    return Figures(len(latencies) / wall, statistics.median(latencies), p99, len(latencies))


@dataclass(frozen=True)
class BackendRun:
    decide: Figures
    spawn: Figures
    recorded: int  # decisions on the shared plan afterwards
    children: int  # children of the parent afterwards

    def figures(self, operation: str) -> Figures:
        return self.decide if operation == "decide" else self.spawn

    def count(self, operation: str) -> int:
        return self.recorded if operation == "decide" else self.children


def _run_backend(url: str) -> BackendRun:
    """Decides, then spawns, by 8 processes each; and what the store holds afterwards."""
    setup = build_container(url)
    projects, plans = setup.project_service(), setup.plan_service()
    projects.create("bench")
    target = plans.create("bench", "Shared plan")
    parent = plans.create("bench", "Parent")
    for i in range(PARENT_DECISIONS):
        plans.decide(parent.id, f"{CONTENT} [{i}]", relevance=(i % 100) / 100, token_count=40)
    context = multiprocessing.get_context("spawn")
    with context.Pool(WORKERS) as pool:
        decided = pool.starmap(
            _decide_worker, [(url, target.id, w, DECIDES_PER_WORKER) for w in range(WORKERS)]
        )
        spawned = pool.starmap(
            _spawn_worker, [(url, parent.id, w, SPAWNS_PER_WORKER) for w in range(WORKERS)]
        )
    recorded = len(plans.status(target.id).plan.fragments)
    children = len(plans.status(parent.id).children)
    setup.store().dispose()
    return BackendRun(_figures(decided), _figures(spawned), recorded, children)


def _fresh_database(server_url: str) -> tuple[str, str]:
    """A new database on the server, and its URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"bench_{uuid.uuid4().hex[:12]}"
    parsed = make_url(server_url)
    admin = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return name, parsed.set(database=name).render_as_string(hide_password=False)


def _drop_database(server_url: str, name: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(server_url).set(drivername="postgresql")
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _print(backend: str, run: BackendRun) -> None:
    decide, spawn, recorded, children = run.decide, run.spawn, run.recorded, run.children
    print_line(
        f"{backend}: decide {decide.throughput:,.0f}/s (p50 {decide.p50 * 1000:.1f} ms, "
        f"p99 {decide.p99 * 1000:.1f} ms), {recorded}/{WORKERS * DECIDES_PER_WORKER} recorded; "
        f"spawn {spawn.throughput:,.0f}/s (p50 {spawn.p50 * 1000:.1f} ms, "
        f"p99 {spawn.p99 * 1000:.1f} ms), {children}/{WORKERS * SPAWNS_PER_WORKER} children"
    )


def run() -> list[Result]:
    print_section(
        f"backends: {WORKERS} workers x {DECIDES_PER_WORKER} decides on one plan, then "
        f"x {SPAWNS_PER_WORKER} spawns from one parent of {PARENT_DECISIONS} decisions"
    )
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-") as home:
        sqlite_url = f"sqlite:///{Path(home) / 'bench.db'}"
        sqlite = _run_backend(sqlite_url)
    _print("SQLite", sqlite)
    with postgres_url() as server:
        if server is None:
            print_line("PostgreSQL: skipped (no server given and none could be started)")
            return []
        name, url = _fresh_database(server)
        try:
            postgres = _run_backend(url)
        finally:
            _drop_database(server, name)
    _print("PostgreSQL", postgres)
    results = []
    expected = {"decide": WORKERS * DECIDES_PER_WORKER, "spawn": WORKERS * SPAWNS_PER_WORKER}
    for operation in ("decide", "spawn"):
        lite, pg = sqlite.figures(operation), postgres.figures(operation)
        complete = sqlite.count(operation) == postgres.count(operation) == expected[operation]
        results.append(
            Result(
                name=f"{operation} throughput, {WORKERS} workers, PostgreSQL vs SQLite",
                measured=pg.throughput,
                baseline=lite.throughput,
                ratio=pg.throughput / lite.throughput,
                unit="ops/s",
                target="every operation recorded on both",
                met=complete,
                baseline_label="SQLite, same run",
                details={
                    "postgres": {"p50_ms": pg.p50 * 1000, "p99_ms": pg.p99 * 1000},
                    "sqlite": {"p50_ms": lite.p50 * 1000, "p99_ms": lite.p99 * 1000},
                    "operations": pg.operations,
                },
            )
        )
    return results
