"""Benchmark: artifact compression of 1 MB and 10 MB inputs, and of a 200 MB log.

For each artifact type (log, diff, JSON, markdown, Python source) a ~1 MB and a ~10 MB input are
built from the shared corpus, and compressed in tiered and smart mode at budgets of 0.5x, 0.8x,
1.2x and 1.4x the raw token count. Baseline, measured in the same run on the same text: one
tiktoken ``encode`` (cl100k_base, best of 5: three before the compressions, two after);
compressions are best of 3 (1 MB) or 2 (10 MB). Target: compression at most 3 times that
encode, in wall-clock time. The process's CPU time is printed beside it (the service and the
tokenizer adapter run on the caller's thread: above the wall time only when something else in
the process works, below it when the machine is busy).
Peak memory is tracemalloc's peak during a separate (untimed) call, next to the input's size.

Then a 200 MB log is written to a temporary directory and compressed from the file in smart mode
to 4,000 tokens (the service streams files over 32 MiB), and in tiered mode for comparison. Each
run is a child process, so its peak RSS can be read; the baseline is a child that only builds
the container and counts a short string. The time baseline is one streaming token count of the
same file (``TokenCounter.count_stream`` over 1 MiB chunks), also in a child.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.report import Result, print_line, print_section
from benchmarks.timing import best, peak_bytes, repeat, timed, timed_with_cpu
from cleveragents.adapters.tokens.tiktoken_counter import load_encoding
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.container import Container, build_container
from cleveragents.domain.artifact import CompressedArtifact, CompressionMode

_REPO = Path(__file__).resolve().parent.parent
CORPUS = _REPO.parent / "shared" / "corpus"

MB = 1_000_000
SIZES = (1 * MB, 10 * MB)
FACTORS = (0.5, 0.8, 1.2, 1.4)
# 10 MB at every budget and mode takes too long for this suite: its edges only.
LARGE_FACTORS = (0.5, 1.4)
# tracemalloc slows a call several times over: at 10 MB the peak is taken where the work is.
LARGE_PEAKS = ((0.5, CompressionMode.SMART),)
LARGE_INPUT = 10 * MB
ENCODE_REPEATS = 3
ENCODE_AFTER_REPEATS = 2
COMPRESS_REPEATS = {1 * MB: 3, 10 * MB: 2}
TARGET_RATIO = 3.0
MODES = (CompressionMode.TIERED, CompressionMode.SMART)

HUGE_BYTES = 200 * MB
HUGE_BUDGET = 4000
HUGE_MARKER_AT = 0.95
HUGE_NAME = "big.log"
STREAM_CHUNK = 1 << 20


@dataclass(frozen=True)
class ArtifactType:
    """A type of artifact: the corpus files it is built from, and the name it is given."""

    key: str
    directory: str
    pattern: str
    file_name: str


TYPES = (
    ArtifactType("log", "logs", "*.log", "bench.log"),
    ArtifactType("diff", "diffs", "*.diff", "bench.diff"),
    ArtifactType("json", "json", "*.json", "bench.json"),
    ArtifactType("markdown", "markdown", "*.md", "bench.md"),
    ArtifactType("code", "code", "*.py", "bench.py"),
)


def corpus_files(kind: ArtifactType) -> list[Path]:
    files = sorted((CORPUS / kind.directory).glob(kind.pattern))
    if not files:
        raise FileNotFoundError(f"no {kind.pattern} files in {CORPUS / kind.directory}")
    return files


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def build_input(kind: ArtifactType, size: int) -> str:
    """About `size` bytes of `kind` made of its corpus files, repeated.

    Logs and markdown are cut at the last line boundary before `size`; diffs and code are
    whole files (a cut diff would be malformed), so they may run over by up to one file; JSON
    is an array of the corpus documents, repeated, so it stays valid JSON.
    """
    files = corpus_files(kind)
    if kind.key == "json":
        documents = [json.loads(_read(path)) for path in files]
        # Each item costs about its indented size plus two spaces a line (nested one level).
        sizes = []
        for document in documents:
            dumped = json.dumps(document, indent=2)
            sizes.append(len(dumped.encode("utf-8")) + 2 * (dumped.count("\n") + 1) + 2)
        items: list[Any] = []
        total = 2
        while total < size:
            index = len(items) % len(documents)
            items.append(documents[index])
            total += sizes[index]
        return json.dumps(items, indent=2) + "\n"
    texts = [_with_newline(_read(path)) for path in files]
    parts: list[str] = []
    total = 0
    index = 0
    while total < size:
        text = texts[index % len(texts)]
        parts.append(text)
        total += len(text.encode("utf-8"))
        index += 1
    joined = "".join(parts)
    if kind.key in ("log", "markdown") and len(joined) > size:
        joined = joined[: joined.rfind("\n", 0, size) + 1]
    return joined


def _mb(size_bytes: float) -> float:
    return size_bytes / MB


def _peak_text(peak: int | None, encode_peak: int) -> str:
    if peak is None:
        return f"peak {'(not taken)':>20}"
    return f"peak {_mb(peak):>6.1f} MB ({peak / encode_peak:>4.1f}x enc)"


@dataclass(frozen=True)
class Row:
    kind: str
    size: int
    input_bytes: int
    raw_tokens: int
    factor: float
    budget: int
    mode: str
    compress_s: float
    cpu_s: float  # the process's CPU time
    encode_s: float
    peak_bytes: int | None
    encode_peak_bytes: int
    compacted_tokens: int
    truncated: bool

    @property
    def ratio(self) -> float:
        return self.compress_s / self.encode_s

    @property
    def fits(self) -> bool:
        return self.compacted_tokens <= self.budget


def _measure_input(
    service: ArtifactCompressorService, kind: ArtifactType, size: int, container: Container
) -> list[Row]:
    text = build_input(kind, size)
    input_bytes = len(text.encode("utf-8"))
    encoding = load_encoding("cl100k_base")

    def encode() -> list[int]:
        return encoding.encode(text, disallowed_special=())

    raw_tokens = len(encode())  # also a warm-up
    encode_times = repeat(encode, ENCODE_REPEATS)
    encode_peak = peak_bytes(encode)
    factors = LARGE_FACTORS if size >= LARGE_INPUT else FACTORS
    repeats = COMPRESS_REPEATS[size]
    note = ""
    if kind.key == "code":
        parsed = container.source_skeletonizer().skeleton(text, "python") is not None
        note = (
            ", tree-sitter outline: yes"
            if parsed
            else ", tree-sitter outline: NO (plain-text fallback)"
        )
    measured: list[
        tuple[float, CompressionMode, int, float, float, int | None, CompressedArtifact]
    ] = []
    for factor in factors:
        budget = max(int(raw_tokens * factor), 1)
        for mode in MODES:
            call = partial(service.compress_text, kind.file_name, text, budget, mode=mode)
            times: list[float] = []
            cpu_times: list[float] = []
            outcome: CompressedArtifact | None = None
            for _ in range(repeats):
                elapsed, cpu, outcome = timed_with_cpu(call)
                cpu_times.append(cpu)
                times.append(elapsed)
            assert outcome is not None
            outcome = outcome.model_copy(update={"content": ""})  # the figures are enough
            measure_peak = size < LARGE_INPUT or (factor, mode) in LARGE_PEAKS
            peak = peak_bytes(call) if measure_peak else None
            measured.append((factor, mode, budget, best(times), best(cpu_times), peak, outcome))
    # Encode again after the compressions, so that a busy moment on the machine does not set
    # the baseline: the baseline is the best of the encodes before and after.
    encode_times += repeat(encode, ENCODE_AFTER_REPEATS)
    encode_s = best(encode_times)
    print_line(
        f"{kind.key} {_mb(input_bytes):.2f} MB, {raw_tokens:,} tokens, one encode "
        f"{encode_s * 1000:.1f} ms (best of {len(encode_times)}, before and after), its peak "
        f"{_mb(encode_peak):.1f} MB{note}"
    )
    rows = []
    for factor, mode, budget, compress_s, cpu_s, peak, outcome in measured:
        row = Row(
            kind=kind.key,
            size=size,
            input_bytes=input_bytes,
            raw_tokens=raw_tokens,
            factor=factor,
            budget=budget,
            mode=mode.value,
            compress_s=compress_s,
            cpu_s=cpu_s,
            encode_s=encode_s,
            peak_bytes=peak,
            encode_peak_bytes=encode_peak,
            compacted_tokens=outcome.compacted_tokens,
            truncated=outcome.truncated,
        )
        rows.append(row)
        print_line(
            f"  {factor:>4.1f}x {mode.value:<5} | {row.compress_s * 1000:>9.1f} ms | "
            f"{row.ratio:>6.2f}x {'ok' if row.ratio <= TARGET_RATIO else 'OVER':<4} | "
            f"cpu {row.cpu_s / row.encode_s:>5.2f}x | "
            f"{_peak_text(peak, encode_peak)} | "
            f"{row.compacted_tokens:>9,} / {budget:>9,} tokens"
            f"{'' if row.fits else ' OVER BUDGET'}{' truncated' if row.truncated else ''}"
        )
    return rows


def _summaries(rows: list[Row]) -> list[Result]:
    """One result per type, size and mode: the worst ratio over the budgets."""
    results = []
    groups: dict[tuple[str, int, str], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.kind, row.size, row.mode), []).append(row)
    for (kind, size, mode), group in groups.items():
        worst = max(group, key=lambda row: row.ratio)
        factors = "/".join(f"{row.factor:g}" for row in group)
        results.append(
            Result(
                name=f"artifact {kind} {size // MB} MB {mode} (worst of {factors}x: "
                f"{worst.factor:g}x)",
                measured=worst.compress_s,
                baseline=worst.encode_s,
                ratio=worst.ratio,
                unit="s",
                target=f"<= {TARGET_RATIO:g}x encode",
                met=all(row.ratio <= TARGET_RATIO and row.fits for row in group),
                baseline_label="tiktoken encode",
                details={
                    "input_bytes": worst.input_bytes,
                    "raw_tokens": worst.raw_tokens,
                    "budgets": [
                        {
                            "factor": row.factor,
                            "budget": row.budget,
                            "compress_s": row.compress_s,
                            "cpu_s": row.cpu_s,
                            "ratio": row.ratio,
                            "peak_mb": None if row.peak_bytes is None else _mb(row.peak_bytes),
                            "compacted_tokens": row.compacted_tokens,
                            "truncated": row.truncated,
                        }
                        for row in group
                    ],
                    "max_peak_mb": max(
                        (_mb(row.peak_bytes) for row in group if row.peak_bytes is not None),
                        default=None,
                    ),
                    "encode_peak_mb": _mb(worst.encode_peak_bytes),
                },
            )
        )
    return results


# --- the 200 MB log ----------------------------------------------------------------------------

IMPORTANT_LOG_LINE = re.compile(
    r"\b(?:ERROR|WARN|WARNING|FATAL)\b|\[(?i:error|warn|warning|fatal|crit)\]"
    r"|: (?i:error|fatal|warning|warn):"
)


def _marker_line(token: str) -> str:
    return (
        f"081109 235959 999 ERROR dfs.DataNode: benchmark marker {token}: "
        "disk failure on /data/7, block pool lost"
    )


def write_huge_log(path: Path, size: int, marker: str) -> int:
    """Write `size` bytes of corpus log lines to `path`, streaming, with `marker` at 95%.

    After the marker only lines with no level above INFO follow, so it is the last error line
    of the file. Returns the bytes written.
    """
    logs = corpus_files(TYPES[0])
    block = "".join(_with_newline(_read(p)) for p in logs).encode("utf-8")
    quiet = "".join(
        line
        for p in logs
        for line in _with_newline(_read(p)).splitlines(keepends=True)
        if not IMPORTANT_LOG_LINE.search(line)
    ).encode("utf-8")
    marker_at = int(size * HUGE_MARKER_AT)
    written = 0
    with path.open("wb") as handle:
        while written + len(block) <= marker_at:
            handle.write(block)
            written += len(block)
        head = block[: block.rfind(b"\n", 0, marker_at - written) + 1]
        handle.write(head)
        written += len(head)
        line = (marker + "\n").encode("utf-8")
        handle.write(line)
        written += len(line)
        while written < size:
            piece = quiet[: min(len(quiet), size - written)]
            if written + len(piece) >= size:
                piece = piece[: piece.rfind(b"\n") + 1] or piece
            handle.write(piece)
            written += len(piece)
    return written


def _chunks(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        while chunk := handle.read(STREAM_CHUNK):
            yield chunk


def child_main(argv: list[str]) -> None:
    """In a child process: one measurement, printed as JSON (`task`, file path, marker)."""
    task, path_text, marker = argv
    path = Path(path_text)
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-child-") as tmp:
        container = build_container(f"sqlite:///{tmp}/x.db", home=Path(tmp))
        counter = container.token_counter()
        report: dict[str, Any] = {"task": task}
        if task == "baseline":
            report["tokens"] = counter.count("container built, tokenizer loaded")
        elif task == "count":
            start = time.perf_counter()
            report["tokens"] = counter.count_stream(_chunks(path))
            report["elapsed_s"] = time.perf_counter() - start
        else:
            mode = CompressionMode(task)
            service = container.artifact_compressor_service()
            start = time.perf_counter()
            outcome = service.compress(path.name, HUGE_BUDGET, workdir=str(path.parent), mode=mode)
            report["elapsed_s"] = time.perf_counter() - start
            result = outcome.result
            report["error"] = outcome.error
            report["raw_tokens"] = result.raw_tokens
            report["compacted_tokens"] = result.compacted_tokens
            report["recounted_tokens"] = counter.count(result.content)
            report["marker_kept"] = marker in result.content
            report["content_lines"] = result.content.count("\n") + 1
        report["maxrss_kb"] = peak_rss_kb()
    print(json.dumps(report))


def peak_rss_kb() -> int:
    """This process's peak RSS in KiB: VmHWM, which starts afresh at exec. (ru_maxrss keeps the
    high-water mark of the forked parent across exec, so a child of a large parent reads the
    parent's peak.)"""
    with suppress(OSError):
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _run_child(task: str, path: Path, marker: str) -> dict[str, Any]:
    code = "import sys\nfrom benchmarks.artifacts import child_main\nchild_main(sys.argv[1:])\n"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(_REPO), env.get("PYTHONPATH"))))
    completed = subprocess.run(
        [sys.executable, "-c", code, task, str(path), marker],
        cwd=_REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"child {task!r} failed:\n{completed.stderr}")
    report: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return report


def _huge() -> list[Result]:
    print_section(
        f"artifact compression: {HUGE_BYTES // MB} MB log from a file, budget {HUGE_BUDGET:,} "
        "(each run in a child process)"
    )
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-huge-") as tmp:
        path = Path(tmp) / HUGE_NAME
        marker = _marker_line(f"ERR-{os.getpid()}-{time.time_ns()}")
        write_s, written = timed(lambda: write_huge_log(path, HUGE_BYTES, marker))
        print_line(
            f"wrote {_mb(written):.1f} MB in {write_s:.1f} s, unique ERROR line at "
            f"{HUGE_MARKER_AT:.0%} (the last error line of the file)"
        )
        base = _run_child("baseline", path, marker)
        count = _run_child("count", path, marker)
        runs = {mode: _run_child(mode.value, path, marker) for mode in MODES}
    base_mb = base["maxrss_kb"] / 1024
    count_s: float = count["elapsed_s"]
    print_line(
        f"baseline child (container + tokenizer, one short count): peak RSS {base_mb:.1f} MB"
    )
    print_line(
        f"count_stream of the file, 1 MiB chunks: {count_s:.2f} s, {count['tokens']:,} tokens, "
        f"peak RSS {count['maxrss_kb'] / 1024:.1f} MB "
        f"(+{count['maxrss_kb'] / 1024 - base_mb:.1f} MB)"
    )
    results = []
    for mode, run in runs.items():
        delta_mb = run["maxrss_kb"] / 1024 - base_mb
        fits = run["compacted_tokens"] <= HUGE_BUDGET and run["recounted_tokens"] <= HUGE_BUDGET
        ratio = run["elapsed_s"] / count_s
        print_line(
            f"{mode.value:<5}: {run['elapsed_s']:.2f} s ({ratio:.2f}x count_stream), "
            f"peak RSS {run['maxrss_kb'] / 1024:.1f} MB (+{delta_mb:.1f} MB over baseline), "
            f"compacted {run['compacted_tokens']:,} tokens (recounted {run['recounted_tokens']:,})"
            f" <= {HUGE_BUDGET:,}: {'yes' if fits else 'NO'}, "
            f"last ERROR line kept: {'yes' if run['marker_kept'] else 'no'}"
        )
        checks_met = fits and (mode is CompressionMode.TIERED or bool(run["marker_kept"]))
        details = {**run, "baseline_maxrss_kb": base["maxrss_kb"], "file_bytes": written}
        results.append(
            Result(
                name=f"{HUGE_BYTES // MB} MB log {mode.value}, budget {HUGE_BUDGET:,}: time",
                measured=run["elapsed_s"],
                baseline=count_s,
                ratio=ratio,
                unit="s",
                target=(
                    "fits, last ERROR kept" if mode is CompressionMode.SMART else "fits (reported)"
                ),
                met=checks_met,
                baseline_label="count_stream",
                details=details,
            )
        )
        results.append(
            Result(
                name=f"{HUGE_BYTES // MB} MB log {mode.value}: peak RSS over baseline",
                measured=delta_mb,
                baseline=_mb(written),
                ratio=delta_mb / _mb(written),
                unit="MB",
                target="< file size (streamed)",
                met=delta_mb < _mb(written),
                baseline_label="file size",
            )
        )
    return results


def run() -> list[Result]:
    print_section(
        "artifact compression vs one tiktoken encode (cl100k_base), tiered and smart mode; "
        f"1 MB at {'/'.join(f'{f:g}' for f in FACTORS)}x raw, "
        f"10 MB at {'/'.join(f'{f:g}' for f in LARGE_FACTORS)}x only, "
        f"best of {COMPRESS_REPEATS[1 * MB]} (1 MB) / {COMPRESS_REPEATS[10 * MB]} (10 MB); "
        "peak = tracemalloc peak of a separate call (10 MB: at "
        + ", ".join(f"{f:g}x {m.value}" for f, m in LARGE_PEAKS)
        + " only), vs one encode's peak"
    )
    started = time.perf_counter()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-") as tmp:
        directory = Path(tmp)
        container = build_container(f"sqlite:///{directory}/bench.db", home=directory)
        try:
            service = container.artifact_compressor_service()
            for size in SIZES:
                for kind in TYPES:
                    rows.extend(_measure_input(service, kind, size, container))
        finally:
            container.store().dispose()
    results = _summaries(rows)
    results.extend(_huge())
    print_line(f"artifact benchmark total: {time.perf_counter() - started:.0f} s")
    return results
