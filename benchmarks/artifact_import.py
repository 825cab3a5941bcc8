"""Benchmark: importing a 1 GB output into the governed store, with the secret scan.

Throughput against a plain SHA-256 of the same file measured in the same run (the floor: the
import also writes, fsyncs and scans), and peak memory of a child process that imports it,
against a child that starts the same container and imports a tiny file (the difference is what
the file's size costs: it must not grow with the file). Targets: at least 50 MB/s, under 100 MB.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from benchmarks.report import Result, print_line, print_section

SIZE_BYTES = 1_000_000_000
THROUGHPUT_TARGET_MB_S = 50.0
MEMORY_TARGET_MB = 100.0
_REPO = Path(__file__).resolve().parent.parent
_LOGS = _REPO.parent / "shared" / "corpus" / "logs"

CHILD = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    from cleveragents.container import build_container

    home, workspace, name = sys.argv[1:4]
    container = build_container(f"sqlite:///{home}/bench.db", home=Path(home))
    store = container.artifact_store()
    start = time.perf_counter()
    result = store.import_file(workspace, name)
    elapsed = time.perf_counter() - start
    print(json.dumps({
        "seconds": elapsed,
        "status": result.artifact.status.value,
        "bytes": result.artifact.byte_count,
        # VmHWM, not ru_maxrss: ru_maxrss keeps the forking parent's high-water mark across
        # exec, so a child of a big benchmark process would report the parent's memory.
        "max_rss_mb": next(
            int(line.split()[1]) for line in open("/proc/self/status")
            if line.startswith("VmHWM:")
        ) / 1024,
    }))
    """
)


def _write_big_file(path: Path, size: int) -> None:
    """Corpus log lines repeated to `size` bytes, written in 8 MiB blocks (never held)."""
    sources = sorted(_LOGS.glob("*.log")) if _LOGS.is_dir() else []
    block = b"".join(p.read_bytes() for p in sources) or b"INFO step ok\n" * 1000
    block = (block * (8 * 2**20 // len(block) + 1))[: 8 * 2**20]
    written = 0
    with path.open("wb") as out:
        while written < size:
            piece = block[: size - written]
            out.write(piece)
            written += len(piece)


def _sha256_seconds(path: Path) -> float:
    digest = hashlib.sha256()
    start = time.perf_counter()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return time.perf_counter() - start


def _child(home: Path, workspace: Path, name: str) -> dict[str, float | str]:
    home.mkdir(mode=0o700)  # the store's database goes in it, and must have a directory
    output = subprocess.run(
        [sys.executable, "-c", CHILD, str(home), str(workspace), name],
        capture_output=True,
        text=True,
        check=True,
        cwd=_REPO,
    ).stdout

    data: dict[str, float | str] = json.loads(output.strip().splitlines()[-1])
    return data


def run() -> list[Result]:
    print_section(f"artifact import of {SIZE_BYTES / 1e9:.0f} GB with the secret scan")
    with tempfile.TemporaryDirectory(prefix="cleveragents-import-bench-") as tmp:
        root = Path(tmp)
        workspace = root / "ws"
        workspace.mkdir()
        big = workspace / "big.log"
        _write_big_file(big, SIZE_BYTES)
        (workspace / "tiny.log").write_bytes(b"INFO one line\n")
        sha_seconds = _sha256_seconds(big)
        small = _child(root / "home-small", workspace, "tiny.log")
        large = _child(root / "home-large", workspace, "big.log")
        os.sync()
    megabytes = SIZE_BYTES / 1e6
    import_rate = megabytes / float(large["seconds"])
    sha_rate = megabytes / sha_seconds
    rss_large = float(large["max_rss_mb"])
    rss_small = float(small["max_rss_mb"])
    print_line(
        f"import: {float(large['seconds']):.1f} s, {import_rate:.1f} MB/s "
        f"(status {large['status']})"
    )
    print_line(f"sha256 alone: {sha_seconds:.2f} s, {sha_rate:.0f} MB/s")
    print_line(
        f"peak RSS: {rss_large:.1f} MB importing 1 GB, {rss_small:.1f} MB importing "
        f"14 bytes: the file's size costs {rss_large - rss_small:+.1f} MB"
    )
    return [
        Result(
            name="import 1 GB (stream, hash, scan, fsync)",
            measured=import_rate,
            baseline=sha_rate,
            ratio=import_rate / sha_rate,
            unit="MB/s",
            target=f">= {THROUGHPUT_TARGET_MB_S:.0f} MB/s",
            met=import_rate >= THROUGHPUT_TARGET_MB_S,
            baseline_label="sha256 of the same file",
        ),
        Result(
            name="import 1 GB peak RSS",
            measured=rss_large,
            baseline=rss_small,
            ratio=rss_large / rss_small,
            unit="MB",
            target=f"< {MEMORY_TARGET_MB:.0f} MB",
            met=rss_large < MEMORY_TARGET_MB,
            baseline_label="same process importing 14 bytes",
        ),
    ]
