"""Benchmark 3: ``agents --help`` cold start against ``python -c pass``, in the same run.

Each command runs in a fresh interpreter; the two are interleaved so that drift in the machine's
load affects both alike. One untimed run of each first writes any missing bytecode caches.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import median

RUNS = 10
TARGET_SECONDS = 0.3
BASELINE = (sys.executable, "-c", "pass")


def _run_once(command: tuple[str, ...], env: dict[str, str]) -> float:
    start = time.perf_counter()
    completed = subprocess.run(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        stderr = completed.stderr.decode(errors="replace").strip()
        raise RuntimeError(f"{' '.join(command)} exited {completed.returncode}: {stderr}")
    return elapsed


def compare(name: str, command: tuple[str, ...], env: dict[str, str]) -> Result:
    _run_once(command, env)
    _run_once(BASELINE, env)
    measured: list[float] = []
    baseline: list[float] = []
    for _ in range(RUNS):
        measured.append(_run_once(command, env))
        baseline.append(_run_once(BASELINE, env))
    measured_median, baseline_median = median(measured), median(baseline)
    difference = measured_median - baseline_median
    print_line(
        f"{name}: median {measured_median * 1000:.1f} ms vs python -c pass "
        f"{baseline_median * 1000:.1f} ms, difference {difference * 1000:.1f} ms "
        f"({RUNS} runs each, interleaved)"
    )
    return Result(
        name=f"{name} (median-baseline)",
        measured=difference,
        baseline=baseline_median,
        ratio=measured_median / baseline_median,
        unit="s",
        target=f"difference < {TARGET_SECONDS:g} s",
        met=difference < TARGET_SECONDS,
        baseline_label="python -c pass",
        details={
            "command": list(command),
            "median_s": measured_median,
            "times_s": measured,
            "baseline_times_s": baseline,
            "ratio_is": "median(command) / median(python -c pass)",
        },
    )


def run() -> list[Result]:
    print_section(f"CLI cold start ({RUNS} runs each, medians)")
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-cli-") as home:
        env = dict(os.environ, CLEVERAGENTS_HOME=home)
        results = [
            compare(
                "python -m cleveragents.cli --help",
                (sys.executable, "-m", "cleveragents.cli", "--help"),
                env,
            )
        ]
        script = Path(sys.executable).parent / "agents"
        if script.exists():
            results.append(compare("agents --help", (str(script), "--help"), env))
        else:
            print_line(f"{script} not found: skipped")
    return results
