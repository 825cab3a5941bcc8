"""Strategy comparison over every corpus transcript: the table, and how long it takes.

For each Claude Code session of the corpus, `StrategyComparison.compare` runs no compaction,
the deterministic compaction and observation masking on the same messages (default policy:
window 200,000, reserve 16,384, keep recent 20,000) and reports tokens after, whether that fits,
structural validity, recovery per fact category and latency. The baseline of the run time is
reading the same transcripts (the codec), measured in the same run.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks.report import Result, print_line, print_section
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recall import FactCategory
from cleveragents.container import build_container
from cleveragents.domain.policy import ContextPolicy

_REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = _REPO.parent / "shared" / "corpus" / "transcripts"


def _cell(entry: object) -> str:
    recovered, total = getattr(entry, "recovered", 0), getattr(entry, "total", 0)
    return f"{recovered}/{total}" if total else "-"


def run() -> list[Result]:
    print_section(
        "context strategies on every corpus transcript (default policy): tokens after, fits, "
        "valid, recovery (request/files/commands/unfinished/uncertain), latency"
    )
    paths = sorted(p for p in TRANSCRIPTS.glob("*.jsonl") if "__agent-acompact-" not in p.name)
    settings = CompactionSettings.from_policy(ContextPolicy())
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-strategies-") as tmp:
        container = build_container(f"sqlite:///{tmp}/s.db", home=Path(tmp))
        codec, comparison = container.transcript_codec(), container.strategy_comparison()
        start = time.perf_counter()
        transcripts = [codec.read(p.read_text(encoding="utf-8")) for p in paths]
        reading = time.perf_counter() - start
        start = time.perf_counter()
        tables = [comparison.compare(t.messages, settings) for t in transcripts]
        comparing = time.perf_counter() - start
    header = f"{'transcript':32} {'strategy':20} {'tokens':>15} fits valid  recovery"
    print_line(header)
    all_valid = True
    for path, results in zip(paths, tables, strict=True):
        for result in results:
            all_valid &= result.valid
            recovery = " ".join(_cell(result.recovery[c]) for c in FactCategory)
            print_line(
                f"{path.name[:32]:32} {result.strategy:20} "
                f"{result.tokens_before:>7,}->{result.tokens_after:>7,} "
                f"{'yes' if result.fits_window else 'no ':4} {'yes' if result.valid else 'NO':5}  "
                f"{recovery}  {result.latency_s * 1000:.0f} ms"
            )
    print_line(
        f"comparison of {len(paths)} transcripts: {comparing:.2f} s (reading them: {reading:.2f} s)"
    )
    return [
        Result(
            name=f"strategy comparison, {len(paths)} corpus transcripts",
            measured=comparing,
            baseline=reading,
            ratio=comparing / reading,
            unit="s",
            target="reported; every result valid",
            met=all_valid,
            baseline_label="reading the transcripts",
        )
    ]
