"""Benchmark 2: spawning a child from a parent with 10,000 fragments on SQLite.

Baseline, measured in the same run: the bare cost of writing the same number of rows as the
child keeps (same columns, same primary key and unique constraint) with the stdlib ``sqlite3``
``executemany`` into a fresh table in a fresh WAL file, in one transaction, with the product's
``synchronous=NORMAL``.
"""

from __future__ import annotations

import random
import sqlite3
import tempfile
import time
from pathlib import Path

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import best, gc_paused, median, timed
from cleveragents.container import Container, build_container
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ids import new_ulid
from cleveragents.domain.plan import Decision

FRAGMENTS = 10_000
REPEATS = 3
SEED = 20240602
TARGET_SECONDS = 1.0
# The shared corpus beside the repository, else the copy in the tests' data.
_REPO = Path(__file__).resolve().parent.parent
CORPUS = _REPO.parent / "shared" / "corpus" / "logs"
if not CORPUS.is_dir():
    CORPUS = _REPO / "tests" / "data"
_FALLBACK_LINES = (
    "081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 for block "
    "blk_38865049064139660 terminating",
    "Dec 10 06:55:46 LabSZ sshd[24200]: reverse mapping checking getaddrinfo for "
    "ns.marryaldkfaczcz.com [173.234.31.186] failed - POSSIBLE BREAK-IN ATTEMPT!",
)


def corpus_lines() -> list[str]:
    lines: list[str] = []
    for path in sorted(CORPUS.glob("*.log")):
        text = path.read_text(encoding="utf-8", errors="replace")
        lines.extend(line.strip() for line in text.splitlines() if line.strip())
    return lines or list(_FALLBACK_LINES)


def make_contents(count: int, rng: random.Random) -> list[str]:
    """`count` texts of 100 to 300 characters, made of log lines drawn at random."""
    lines = corpus_lines()
    contents = []
    for _ in range(count):
        length = rng.randint(100, 300)
        text = rng.choice(lines)
        while len(text) < length:
            text += "\n" + rng.choice(lines)
        contents.append(text[:length])
    return contents


def record_decisions(container: Container, plan_id: str, contents: list[str], seed: int) -> None:
    """Record one decision per content through the unit of work, in one transaction.

    `PlanService.decide` reloads the whole plan on every call (one transaction each), which
    makes 10,000 of them quadratic; the repository path writes the same rows.
    """
    rng = random.Random(seed)
    counter = container.token_counter()
    with container.unit_of_work() as uow:
        for content in contents:
            decision_id = new_ulid()
            fragment = ContextFragment(
                fragment_id=decision_id,
                decision_id=decision_id,
                relevance=rng.randrange(1001) / 1000,
                token_count=counter.count(content),
                content=content,
            )
            uow.plans.add_decision(Decision(id=decision_id, plan_id=plan_id, fragment=fragment))
        uow.commit()


def sqlite_baseline(
    directory: Path, rows: list[tuple[str, int, str, str, float, int, str]]
) -> float:
    """Seconds to write `rows` with sqlite3.executemany into a fresh WAL file, one transaction."""
    path = directory / f"baseline-{new_ulid()}.db"
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute(
            "CREATE TABLE inherited_fragments (plan_id VARCHAR(26) NOT NULL, "
            "position INTEGER NOT NULL, fragment_id VARCHAR(200) NOT NULL, "
            "decision_id VARCHAR(26) NOT NULL, relevance FLOAT NOT NULL, "
            "token_count BIGINT NOT NULL, content TEXT NOT NULL, "
            "PRIMARY KEY (plan_id, position), UNIQUE (plan_id, fragment_id))"
        )
        with gc_paused():
            start = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany(
                "INSERT INTO inherited_fragments VALUES (?, ?, ?, ?, ?, ?, ?)", rows
            )
            connection.execute("COMMIT")
            elapsed = time.perf_counter() - start
    finally:
        connection.close()
    return elapsed


def run() -> list[Result]:
    print_section(f"spawn_child from a parent with {FRAGMENTS:,} fragments (SQLite)")
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-") as tmp:
        directory = Path(tmp)
        container = build_container(f"sqlite:///{directory}/bench.db", home=directory)
        try:
            return _run(container, directory)
        finally:
            container.store().dispose()


def _run(container: Container, directory: Path) -> list[Result]:
    rng = random.Random(SEED)
    contents = make_contents(FRAGMENTS, rng)
    container.project_service().create("bench")
    parent = container.plan_service().create("bench", "parent")
    setup_s, _ = timed(lambda: record_decisions(container, parent.id, contents, SEED + 1))
    print_line(f"setup: recorded {FRAGMENTS:,} decisions in one unit of work in {setup_s:.2f} s")

    # Diagnostics: the parts of a spawn, timed on their own.
    def load_parent() -> int:
        with container.unit_of_work() as uow:
            plan = uow.plans.get(parent.id)
            return 0 if plan is None else len(plan.fragments)

    load_s, loaded = timed(load_parent)
    with container.unit_of_work() as uow:
        loaded_plan = uow.plans.get(parent.id)
    if loaded_plan is None:
        raise RuntimeError("the parent plan was not stored")
    compressor = container.skeleton_compressor_service()
    compress_s, _ = timed(lambda: compressor.compress(loaded_plan.accumulated_context, None))
    print_line(
        f"parts: load parent ({loaded:,} fragments) {load_s * 1000:.1f} ms, "
        f"compress {compress_s * 1000:.1f} ms"
    )

    coordinator = container.child_plan_spawner()
    spawn_times: list[float] = []
    kept = 0
    child_rows: list[tuple[str, int, str, str, float, int, str]] = []
    for attempt in range(REPEATS):
        elapsed, child = timed(lambda: coordinator.spawn_child(parent.id, "child"))
        spawn_times.append(elapsed)
        kept = len(child.inherited_fragments)
        child_rows = [
            (
                child.id,
                position,
                f.fragment_id,
                f.decision_id,
                f.relevance,
                f.token_count,
                f.content,
            )
            for position, f in enumerate(child.inherited_fragments)
        ]
        print_line(f"spawn {attempt + 1}: {elapsed * 1000:.1f} ms, kept {kept:,} fragments")

    baseline_times = [sqlite_baseline(directory, child_rows) for _ in range(REPEATS)]
    spawn_best, spawn_median = best(spawn_times), median(spawn_times)
    base_best, base_median = best(baseline_times), median(baseline_times)
    print_line(
        f"spawn_child     best {spawn_best * 1000:.1f} ms, median {spawn_median * 1000:.1f} ms"
    )
    print_line(
        f"sqlite3 baseline best {base_best * 1000:.1f} ms, median {base_median * 1000:.1f} ms "
        f"({kept:,} rows, executemany, WAL, one transaction)"
    )
    return [
        Result(
            name=f"spawn_child, {FRAGMENTS:,}-fragment parent (best)",
            measured=spawn_best,
            baseline=base_best,
            ratio=spawn_best / base_best,
            unit="s",
            target=f"< {TARGET_SECONDS:g} s",
            met=spawn_best < TARGET_SECONDS,
            baseline_label="sqlite3 executemany",
            details={
                "spawn_times_s": spawn_times,
                "spawn_median_s": spawn_median,
                "baseline_times_s": baseline_times,
                "baseline_median_s": base_median,
                "kept_fragments": kept,
                "setup_record_s": setup_s,
                "load_parent_s": load_s,
                "compress_loaded_s": compress_s,
            },
        ),
        Result(
            name=f"spawn_child, {FRAGMENTS:,}-fragment parent (median)",
            measured=spawn_median,
            baseline=base_median,
            ratio=spawn_median / base_median,
            unit="s",
            target=f"< {TARGET_SECONDS:g} s",
            met=spawn_median < TARGET_SECONDS,
            baseline_label="sqlite3 executemany",
        ),
    ]
