"""Benchmark: `agents tokens count` of a few-hundred-MB file, in bounded memory.

The count streams the file (1 MiB pieces, a bounded window of text in the tokenizer), so its
peak memory should not grow with the file. Measured beside a baseline in the same run: a plain
Python process that reads the same file whole into a string (what the command did before; the
counting then took some ten times more again). Each is a fresh interpreter; its peak resident
memory is the kernel's figure for that child (``wait4``'s ``ru_maxrss``).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.report import Result, print_line, print_section

SIZE_MB = int(os.environ.get("BENCH_TOKENS_STREAM_MB", "200"))
TARGET_PEAK_MB = 256
"""Bounded: the count of a file of any size peaks under this (the interpreter, the app and the
vocabulary take about 150 MB of it)."""

_WORDS = ("INFO", "WARN", "ERROR", "worker", "batch", "déjà", "queue", "日本", "ms", "=", "🙂")


def _generate(path: Path, size_mb: int) -> None:
    """A log-like UTF-8 file of `size_mb` MB: the same block of varied lines, repeated."""
    rng = random.Random(14)
    block = "".join(
        f"2024-05-01 10:{i % 60:02d}:{i % 59:02d} "
        + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 16)))
        + f" {rng.randint(0, 10**9)}\n"
        for i in range(20_000)
    ).encode("utf-8")
    with path.open("wb") as stream:
        for _ in range(size_mb * 1_000_000 // len(block) + 1):
            stream.write(block)


def _peak(command: list[str], scratch: Path) -> tuple[float, float, str]:
    """Peak resident memory (MB), wall time (s) and stdout of `command` in a fresh process.

    Spawned and reaped with ``wait4``, which gives that one child's own peak."""
    out_path, err_path = scratch / "stdout", scratch / "stderr"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        start = time.perf_counter()
        pid = os.posix_spawn(
            command[0],
            command,
            dict(os.environ),
            file_actions=[
                (os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                (os.POSIX_SPAWN_DUP2, err.fileno(), 2),
            ],
        )
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {err_path.read_text(errors='replace')}")
    return usage.ru_maxrss / 1024, elapsed, out_path.read_text()


def run() -> list[Result]:
    print_section(f"tokens count of a {SIZE_MB} MB file (peak resident memory)")
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-tokens-") as directory:
        path = Path(directory) / "big.log"
        _generate(path, SIZE_MB)
        size_mb = path.stat().st_size / 1_000_000
        scratch = Path(directory)
        count_peak, count_time, output = _peak(
            [sys.executable, "-m", "cleveragents.cli", "tokens", "count", str(path)], scratch
        )
        read_whole = f"len(open({str(path)!r}, encoding='utf-8').read())"
        read_peak, _, _ = _peak([sys.executable, "-c", read_whole], scratch)
    print_line(
        f"agents tokens count: peak {count_peak:.0f} MB for {size_mb:.0f} MB in {count_time:.1f} s "
        f"({' '.join(output.split())}); "
        f"reading it whole: peak {read_peak:.0f} MB"
    )
    return [
        Result(
            name=f"tokens count {size_mb:.0f} MB file: peak RSS",
            measured=count_peak,
            baseline=read_peak,
            ratio=count_peak / read_peak,
            unit="MB",
            target=f"peak < {TARGET_PEAK_MB} MB",
            met=count_peak < TARGET_PEAK_MB,
            baseline_label="python reading the file whole",
            details={
                "file_mb": size_mb,
                "count_seconds": count_time,
                "ratio_is": "peak(tokens count) / peak(read the file whole)",
            },
        )
    ]
