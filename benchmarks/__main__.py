"""Run the benchmark suite: ``python -m benchmarks [--only NAME ...]``.

Every figure is printed next to a baseline measured in the same run, with their ratio and
whether the target is met; the results are also written to benchmarks/results/latest.json
(and each benchmark's to benchmarks/results/NAME.json).
Performance is measured here on demand, never gated on in tests.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from benchmarks import (
    artifact_import,
    artifact_survival,
    artifacts,
    backends,
    budget,
    cli_startup,
    compaction,
    proxy,
    recovery,
    secret_scanning,
    skeleton,
    spawn,
    speed_targets,
    strategies,
    tokens_stream,
)
from benchmarks.report import RESULTS_DIR, Result, render_table, write_json

SUITE: dict[str, Callable[[], list[Result]]] = {
    "skeleton": skeleton.run,
    "spawn": spawn.run,
    "cli": cli_startup.run,
    "artifacts": artifacts.run,
    "speed": speed_targets.run,
    "survival": artifact_survival.run,
    "secrets": secret_scanning.run,
    "import": artifact_import.run,
    "compaction": compaction.run,
    "recovery": recovery.run,
    "strategies": strategies.run,
    "budget": budget.run,
    "tokens-stream": tokens_stream.run,
    "backends": backends.run,
    "proxy": proxy.run,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--only", action="append", choices=sorted(SUITE), help="run only this benchmark"
    )
    args = parser.parse_args(argv)
    selected = args.only or list(SUITE)
    results: list[Result] = []
    for name in selected:
        suite_results = SUITE[name]()
        # Each benchmark's own file survives later `--only` runs of the others.
        write_json(suite_results, RESULTS_DIR / f"{name}.json")
        results.extend(suite_results)
    print("\n" + render_table(results))
    path = write_json(results)
    print(f"\nresults written to {path} (and per benchmark to {RESULTS_DIR}/NAME.json)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
