"""Benchmark 3: how long a command takes to start, each figure paired with its baseline in the
same run.

* ``agents --help``: median <= 0.5 s (``python -c pass`` shown beside it, the interpreter's own
  start).
* ``agents tokens count`` of a small file against a plain tiktoken script that loads the same
  vocabulary the same offline way the adapter does and counts the same file: ratio <= 1.3.
* ``agents project list`` on an existing SQLite store at the current schema, holding a few
  projects: median <= 0.5 s (``python -c pass`` shown for reference). Such a store is read with
  sqlite3 alone; a store to create or migrate goes through the container and is not what this
  measures.

Each command runs in a fresh interpreter; a command and its baseline are interleaved so that
drift in the machine's load affects both alike. Targets are on wall-clock medians; the CPU time
(user + system) of each run is printed and kept too, to tell a loaded machine from a slow
command. One untimed run of each first writes any
missing bytecode caches; the store that ``project list`` reads is created before, untimed.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import median
from cleveragents.adapters.tokens.offline_encodings import DEFAULT_ENCODING, OFFLINE_ENCODINGS

RUNS = 10
HELP_TARGET_SECONDS = 0.5
COUNT_TARGET_RATIO = 1.3
PROJECT_LIST_TARGET_SECONDS = 0.5
PYTHON_PASS = (sys.executable, "-c", "pass")
SMALL_TEXT = "def greet(name):\n    return f'hello, {name}'\n\nprint(greet('world'))\n" * 20


@dataclass(frozen=True)
class Runs:
    """Wall-clock seconds of each run, and the CPU seconds (user + system) each one used: on a
    machine that other work shares, the CPU time shows what the command itself costs."""

    wall: list[float]
    cpu: list[float]


def _run_once(command: tuple[str, ...], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        stderr = completed.stderr.decode(errors="replace").strip()
        raise RuntimeError(f"{' '.join(command)} exited {completed.returncode}: {stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def _interleaved(
    command: tuple[str, ...], baseline: tuple[str, ...], env: dict[str, str]
) -> tuple[Runs, Runs]:
    _run_once(command, env)
    _run_once(baseline, env)
    measured, reference = Runs([], []), Runs([], [])
    for _ in range(RUNS):
        for runs, argv in ((measured, command), (reference, baseline)):
            wall, cpu = _run_once(argv, env)
            runs.wall.append(wall)
            runs.cpu.append(cpu)
    return measured, reference


def _medians(label: str, runs: Runs) -> str:
    return f"{label} {median(runs.wall) * 1000:.1f} ms (CPU {median(runs.cpu) * 1000:.1f} ms)"


def _details(command: tuple[str, ...], measured: Runs, baseline: Runs) -> dict[str, object]:
    return {
        "command": list(command),
        "times_s": measured.wall,
        "cpu_times_s": measured.cpu,
        "median_cpu_s": median(measured.cpu),
        "baseline_times_s": baseline.wall,
        "baseline_cpu_times_s": baseline.cpu,
        "baseline_median_cpu_s": median(baseline.cpu),
    }


def _agents() -> tuple[str, ...]:
    """The console script a user runs, else the module entry point."""
    script = Path(sys.executable).parent / "agents"
    return (str(script),) if script.exists() else (sys.executable, "-m", "cleveragents.cli")


def plain_tiktoken_script(path: Path, encoding_name: str = DEFAULT_ENCODING) -> tuple[str, ...]:
    """A script that counts `path` with tiktoken alone, loading the vocabulary as the adapter
    does: the installed file, hash-checked by tiktoken, with the encoding's own pattern and
    special tokens (cl100k_base's file is plain, so there is nothing to decompress)."""
    spec = OFFLINE_ENCODINGS[encoding_name]
    program = (
        "from importlib.resources import files\n"
        "import tiktoken\n"
        "from tiktoken.load import load_tiktoken_bpe\n"
        f"vocabulary = str(files({spec.package!r}).joinpath({spec.resource!r}))\n"
        f"ranks = load_tiktoken_bpe(vocabulary, expected_hash={spec.sha256!r})\n"
        f"encoding = tiktoken.Encoding(name={spec.name!r}, pat_str={spec.pattern!r}, "
        f"mergeable_ranks=ranks, special_tokens={spec.special_tokens!r})\n"
        f"text = open({str(path)!r}, encoding='utf-8').read()\n"
        "print(len(encoding.encode_ordinary(text)))\n"
    )
    return (sys.executable, "-c", program)


def help_startup(env: dict[str, str]) -> Result:
    command = (*_agents(), "--help")
    measured, baseline = _interleaved(command, PYTHON_PASS, env)
    measured_median, baseline_median = median(measured.wall), median(baseline.wall)
    print_line(
        f"{_medians('agents --help: median', measured)} vs {_medians('python -c pass', baseline)}"
    )
    return Result(
        name="agents --help",
        measured=measured_median,
        baseline=baseline_median,
        ratio=measured_median / baseline_median,
        unit="s",
        target=f"median <= {HELP_TARGET_SECONDS:g} s",
        met=measured_median <= HELP_TARGET_SECONDS,
        baseline_label="python -c pass",
        details={
            **_details(command, measured, baseline),
            "ratio_is": "median(agents --help) / median(python -c pass)",
        },
    )


def tokens_count_startup(env: dict[str, str], workdir: Path) -> Result:
    small = workdir / "small.txt"
    small.write_text(SMALL_TEXT, encoding="utf-8")
    command = (*_agents(), "tokens", "count", str(small))
    script = plain_tiktoken_script(small)
    measured, baseline = _interleaved(command, script, env)
    measured_median, baseline_median = median(measured.wall), median(baseline.wall)
    ratio = measured_median / baseline_median
    cpu_ratio = median(measured.cpu) / median(baseline.cpu)
    print_line(
        f"{_medians(f'agents tokens count ({small.stat().st_size} bytes): median', measured)} "
        f"vs {_medians('a plain tiktoken script', baseline)}, ratio {ratio:.2f}x "
        f"(CPU {cpu_ratio:.2f}x)"
    )
    return Result(
        name="agents tokens count, small file",
        measured=measured_median,
        baseline=baseline_median,
        ratio=ratio,
        unit="s",
        target=f"ratio <= {COUNT_TARGET_RATIO:g}x",
        met=ratio <= COUNT_TARGET_RATIO,
        baseline_label="plain tiktoken script",
        details={
            **_details(command, measured, baseline),
            "baseline_program": script[-1],
            "cpu_ratio": cpu_ratio,
            "ratio_is": "median(agents tokens count) / median(plain tiktoken script)",
        },
    )


LISTED_PROJECTS = ("checkout-service", "search", "billing")


def project_list_startup(env: dict[str, str]) -> Result:
    for name in LISTED_PROJECTS:  # the store, with something to list
        _run_once((*_agents(), "project", "create", name), env)
    command = (*_agents(), "project", "list")
    measured, baseline = _interleaved(command, PYTHON_PASS, env)
    measured_median, baseline_median = median(measured.wall), median(baseline.wall)
    print_line(
        f"{_medians('agents project list: median', measured)} vs "
        f"{_medians('python -c pass', baseline)}"
    )
    return Result(
        name="agents project list",
        measured=measured_median,
        baseline=baseline_median,
        ratio=measured_median / baseline_median,
        unit="s",
        target=f"median <= {PROJECT_LIST_TARGET_SECONDS:g} s",
        met=measured_median <= PROJECT_LIST_TARGET_SECONDS,
        baseline_label="python -c pass",
        details={
            **_details(command, measured, baseline),
            "ratio_is": "median(agents project list) / median(python -c pass)",
        },
    )


def run() -> list[Result]:
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    # Wall-clock times stretch on a busy machine; the CPU times beside them do not as much.
    print_section(f"CLI start-up ({RUNS} runs each, medians; load average {load})")
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-cli-") as home:
        env = dict(os.environ, CLEVERAGENTS_HOME=home)
        env.pop("CLEVERAGENTS_DATABASE_URL", None)
        return [
            help_startup(env),
            tokens_count_startup(env, Path(home)),
            project_list_startup(env),
        ]
