"""Recovery correctness of compaction on the corpus transcripts (not a timing benchmark).

For each corpus transcript: the facts a resumed agent needs are computed from the full
transcript (latest request, files modified, commands and test outcomes, unfinished items,
uncertain effects; `compaction.recovery`), the transcript is compacted (forced, default policy),
and the share of the facts present in the compacted transcript is printed per category.

The main session was compacted by Claude Code itself; its LLM summary is in the
``...__agent-acompact-...jsonl`` file. For the part of the session that summary covered, the
same facts are measured in that summary and in our compaction of the same messages, side by
side. Target: 100% for the latest request, files modified and unfinished work.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.report import Result, print_line, print_section
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recovery import (
    TARGET_CATEGORIES,
    FactCategory,
    RecoveryReport,
    claude_code_compaction_point,
    llm_summary_text,
    message_workspace,
    presence,
    recovery_facts,
)
from cleveragents.container import Container, build_container
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.transcript import Message

_REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = _REPO.parent / "shared" / "corpus" / "transcripts"
SUMMARY_MARK = "__agent-acompact-"


def _cells(report: RecoveryReport) -> str:
    cells = []
    for category in FactCategory:
        entry = report[category]
        share = "  n/a" if entry.share is None else f"{entry.share:5.0%}"
        cells.append(f"{category.value} {entry.recovered}/{entry.total} {share}")
    return " | ".join(cells)


def _ours(container: Container, messages: Sequence[Message]) -> tuple[RecoveryReport, str]:
    settings = CompactionSettings.from_policy(ContextPolicy())
    outcome = container.context_compactor().compact(messages, settings, force=True)
    facts = recovery_facts(messages, workspace=message_workspace(messages))
    status = f"{outcome.status} {outcome.tokens_before:>7,} -> {outcome.tokens_after:>6,} tokens"
    if outcome.reason:
        status += f" ({outcome.reason})"
    return presence(facts, outcome.messages), status


def _result(name: str, report: RecoveryReport) -> Result:
    shares = [share for c in TARGET_CATEGORIES if (share := report[c].share) is not None]
    worst = min(shares, default=1.0)
    return Result(
        name=name,
        measured=worst,
        baseline=1.0,
        ratio=worst,
        unit="share",
        target="100% of latest request, files modified, unfinished",
        met=report.meets_target,
        baseline_label="all facts",
        details=report.as_dict(),
    )


def run() -> list[Result]:
    print_section(
        "recovery correctness: facts of the full transcript present after compaction "
        "(forced, default policy), per category: recovered/total share"
    )
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-recovery-") as tmp:
        container = build_container(f"sqlite:///{tmp}/r.db", home=Path(tmp))
        codec = container.transcript_codec()
        sessions = sorted(p for p in TRANSCRIPTS.glob("*.jsonl") if SUMMARY_MARK not in p.name)
        for path in sessions:
            messages = codec.read(path.read_text(encoding="utf-8")).messages
            report, status = _ours(container, messages)
            print_line(f"{path.name[:44]:44} {status}")
            print_line(f"  ours: {_cells(report)}")
            results.append(_result(f"recovery, {path.name[:40]}", report))
        for summary_path in sorted(TRANSCRIPTS.glob(f"*{SUMMARY_MARK}*.jsonl")):
            main = TRANSCRIPTS / (summary_path.name.split("__", 1)[0] + ".jsonl")
            messages = codec.read(main.read_text(encoding="utf-8")).messages
            point = claude_code_compaction_point(messages)
            if point is None:
                continue
            covered = messages[:point]
            facts = recovery_facts(covered, workspace=message_workspace(covered))
            summary = codec.read(summary_path.read_text(encoding="utf-8")).messages
            theirs = presence(facts, llm_summary_text(summary))
            ours, _ = _ours(container, covered)
            print_line(
                f"the first {point} messages of {main.name[:30]}, which Claude Code's own LLM "
                "compaction summarised:"
            )
            print_line(f"  Claude Code LLM summary: {_cells(theirs)}")
            print_line(f"  ours (deterministic):    {_cells(ours)}")
            results.append(_result("recovery, Claude Code's LLM summary", theirs))
            results.append(_result("recovery, ours on the same messages", ours))
    return results
