"""Recall of compaction (not a timing benchmark), checks of what the summary says, and a
comparison with Claude Code's own LLM summaries.

For each corpus transcript: the facts a resumed agent needs are computed from the full
transcript by fixed rules (`compaction.recall`: latest request, user requests, files
modified and read, commands and their outcomes, errors, unfinished todos, decisions, the next
step, uncertain effects), the transcript is compacted (forced, default policy), and the share
of the facts present in the compacted transcript is printed per category. Target: 100% for the
latest request, files modified and unfinished work.

Then the summary itself is checked (`compaction.recall.summary_checks`, rules of their own):
how many of its decisions are narration (goal 0), how many of its uncertain effects a later
call had already settled (goal 0), whether it names the work in progress at the cut (the
in-progress todo item or tracker task of the folded messages; n/a when the agent tracked none),
how many announced steps it lists as not reached and how many of those a later tool call had
named (goal 0), and the summary's tokens beside its budget (goal: within it).

Claude Code comparison: every session Claude Code compacted itself holds its summary (the user
message flagged ``isCompactSummary``). For each such session, the facts of the messages that
summary replaced are looked for in Claude Code's summary and in our compaction of the same
messages (default policy), category by category, with the tokens of each. Met when ours
recovers at least Claude Code's share in every category and takes at most the default
policy's recent window plus its summary budget. Besides the corpus, the sessions named by the
environment variable ``CLEVERAGENTS_BENCH_SESSIONS`` are compared: a directory (its
``*.jsonl`` files, recursively), a ``.jsonl`` session file, or a text file listing session
paths one per line (relative to that file; ``#`` starts a comment); several entries are
separated by the platform's path separator.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.report import Result, print_line, print_section
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recall import (
    TARGET_CATEGORIES,
    FactCategory,
    RecoveryReport,
    claude_code_compaction_point,
    message_workspace,
    presence,
    recovery_facts,
)
from cleveragents.application.services.compaction.recall.summary_checks import (
    SummaryChecks,
    check_summary,
)
from cleveragents.container import Container, build_container
from cleveragents.domain.policy import (
    DEFAULT_KEEP_RECENT_TOKENS,
    DEFAULT_SUMMARY_TOKENS,
    ContextPolicy,
)
from cleveragents.domain.transcript import Message

_REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = _REPO.parent / "shared" / "corpus" / "transcripts"
SUMMARY_MARK = "__agent-acompact-"
SESSIONS_VARIABLE = "CLEVERAGENTS_BENCH_SESSIONS"
TOKEN_LIMIT = DEFAULT_KEEP_RECENT_TOKENS + DEFAULT_SUMMARY_TOKENS
"""Ours may take the default policy's recent window plus its summary budget."""

_SHORT = {
    FactCategory.LATEST_REQUEST: "latest",
    FactCategory.USER_REQUESTS: "requests",
    FactCategory.FILES_MODIFIED: "modified",
    FactCategory.FILES_READ: "read",
    FactCategory.COMMANDS: "commands",
    FactCategory.ERRORS: "errors",
    FactCategory.UNFINISHED: "unfinished",
    FactCategory.DECISIONS: "decisions",
    FactCategory.NEXT_STEP: "next",
    FactCategory.UNCERTAIN_EFFECTS: "uncertain",
}


def session_paths(value: str | None) -> list[Path]:
    """The session files `value` (the environment variable's text) names, in order, each once
    (Claude Code's ``agent-acompact`` side files, which are summarising requests, left out)."""
    found: list[Path] = []
    for entry in (value or "").split(os.pathsep):
        if not entry.strip():
            continue
        path = Path(entry.strip()).expanduser()
        if path.is_dir():
            candidates = sorted(path.rglob("*.jsonl"))
        elif path.suffix == ".jsonl":
            candidates = [path]
        elif path.is_file():
            candidates = _listed(path)
        else:
            print_line(f"{SESSIONS_VARIABLE}: no such file or directory: {path}")
            continue
        for candidate in candidates:
            if SUMMARY_MARK not in candidate.name and candidate.resolve() not in found:
                found.append(candidate.resolve())
    return found


def _listed(listing: Path) -> list[Path]:
    paths: list[Path] = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            paths.append((listing.parent / Path(entry).expanduser()).resolve())
    return paths


def _cell(report: RecoveryReport, category: FactCategory) -> str:
    entry = report[category]
    share = "  n/a" if entry.share is None else f"{entry.share:5.0%}"
    return f"{entry.recovered:>3}/{entry.total:<3} {share}"


def _cells(report: RecoveryReport) -> str:
    return " | ".join(f"{_SHORT[c]} {_cell(report, c).strip()}" for c in FactCategory)


def _compact(
    container: Container, messages: Sequence[Message]
) -> tuple[RecoveryReport, str, int, SummaryChecks]:
    settings = CompactionSettings.from_policy(ContextPolicy())
    outcome = container.context_compactor().compact(messages, settings, force=True)
    facts = recovery_facts(messages, workspace=message_workspace(messages))
    status = f"{outcome.status} -> {outcome.tokens_after:,} tokens"
    if outcome.reason:
        status += f" ({outcome.reason})"
    at = next((i for i, m in enumerate(outcome.messages) if m.is_summary), None)
    # The messages after the summary are the recent ones kept as they were (one for one).
    folded = messages[: len(messages) - (len(outcome.messages) - at - 1)] if at is not None else []
    text = outcome.messages[at].text if at is not None else ""
    checks = replace(
        check_summary(folded, text),
        summary_tokens=container.token_counter().count(text) if text else 0,
        summary_budget=settings.summary_tokens,
    )
    return presence(facts, outcome.messages), status, outcome.tokens_after, checks


def _checks_line(checks: SummaryChecks) -> str:
    if checks.work_at_cut is None:
        work = "n/a (no task tracked)"
    else:
        work = f"{'yes' if checks.work_named else 'NO'} ({checks.work_at_cut[:40]})"
    return (
        f"decisions that are narration {len(checks.narration)}/{checks.decisions} | "
        f"uncertain effects settled later {len(checks.settled)}/{checks.uncertain_effects} | "
        f"work in progress at the cut named: {work} | "
        f"announced steps open {checks.steps_open} (reached later {len(checks.steps_reached)})"
        f" | summary {checks.summary_tokens or 0:,} of {checks.summary_budget or 0:,} tokens"
    )


def _checks_details(checks: SummaryChecks) -> dict[str, object]:
    return {
        "decisions": checks.decisions,
        "narration": list(checks.narration),
        "uncertain_effects": checks.uncertain_effects,
        "settled_later": list(checks.settled),
        "work_at_cut": checks.work_at_cut,
        "work_named": checks.work_named,
        "announced_steps_open": checks.steps_open,
        "announced_steps_reached_later": list(checks.steps_reached),
        "summary_tokens": checks.summary_tokens,
        "summary_budget": checks.summary_budget,
    }


def _checks_met(checks: SummaryChecks) -> bool:
    return (
        not checks.narration
        and not checks.settled
        and not checks.steps_reached
        and checks.work_named is not False
        and (checks.summary_tokens or 0) <= (checks.summary_budget or 0)
    )


def _target_result(name: str, report: RecoveryReport, checks: SummaryChecks) -> Result:
    shares = [share for c in TARGET_CATEGORIES if (share := report[c].share) is not None]
    worst = min(shares, default=1.0)
    return Result(
        name=name,
        measured=worst,
        baseline=1.0,
        ratio=worst,
        unit="share",
        target="100% of latest request, files modified, unfinished; summary checks clean",
        met=report.meets_target and _checks_met(checks),
        baseline_label="all facts",
        details={**report.as_dict(), "summary_checks": _checks_details(checks)},
    )


def behind(ours: RecoveryReport, theirs: RecoveryReport) -> list[FactCategory]:
    """The categories where ours recovers a smaller share than theirs."""
    return [
        category
        for category in FactCategory
        if (theirs[category].share or 0.0) > (ours[category].share or 0.0)
    ]


def _compare(container: Container, path: Path) -> Result | None:
    codec = container.transcript_codec()
    try:
        messages = codec.read(path.read_text(encoding="utf-8")).messages
    except (OSError, ValueError) as error:
        print_line(f"{path.name}: not read ({error})")
        return None
    point = claude_code_compaction_point(messages)
    if point is None:
        return None
    covered = messages[:point]
    summary = messages[point].text
    facts = recovery_facts(covered, workspace=message_workspace(covered))
    theirs = presence(facts, summary)
    their_tokens = container.token_counter().count(summary)
    ours, status, our_tokens, checks = _compact(container, covered)
    print_line(
        f"{path.name}: the first {point} messages, which Claude Code's compaction summarised"
    )
    print_line(f"  {'category':18} {'ours':>13}   {'Claude Code':>13}")
    for category in FactCategory:
        print_line(f"  {category.value:18} {_cell(ours, category)}   {_cell(theirs, category)}")
    print_line(f"  {'tokens':18} {our_tokens:>13,}   {their_tokens:>13,}   (ours: {status})")
    print_line(f"  ours: {_checks_line(checks)}")
    lagging = behind(ours, theirs)
    if lagging:
        print_line(f"  ours behind in: {', '.join(c.value for c in lagging)}")
    return Result(
        name=f"recall vs Claude Code, {path.name[:30]}",
        measured=our_tokens,
        baseline=their_tokens,
        ratio=our_tokens / their_tokens if their_tokens else 0.0,
        unit="tokens",
        target=f"share >= Claude Code's in every category; <= {TOKEN_LIMIT:,} tokens",
        met=not lagging and our_tokens <= TOKEN_LIMIT and _checks_met(checks),
        baseline_label="Claude Code's summary",
        details={
            "messages_summarised": point,
            "ours": {"tokens": our_tokens, "status": status, "recovery": ours.as_dict()},
            "claude_code": {"tokens": their_tokens, "recovery": theirs.as_dict()},
            "behind": [category.value for category in lagging],
            "summary_checks": _checks_details(checks),
        },
    )


def run() -> list[Result]:
    print_section(
        "recall: facts of the full transcript present after compaction "
        "(forced, default policy), per category: recovered/total share"
    )
    results: list[Result] = []
    corpus = sorted(p for p in TRANSCRIPTS.glob("*.jsonl") if SUMMARY_MARK not in p.name)
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-recovery-") as tmp:
        container = build_container(f"sqlite:///{tmp}/r.db", home=Path(tmp))
        codec = container.transcript_codec()
        for path in corpus:
            messages = codec.read(path.read_text(encoding="utf-8")).messages
            report, status, _, checks = _compact(container, messages)
            print_line(f"{path.name[:44]:44} {status}")
            print_line(f"  ours: {_cells(report)}")
            print_line(f"  summary: {_checks_line(checks)}")
            for item in checks.narration:
                print_line(f"    narration: {item[:100]}")
            for item in checks.settled:
                print_line(f"    settled later: {item[:100]}")
            for item in checks.steps_reached:
                print_line(f"    step reached later: {item[:100]}")
            results.append(_target_result(f"recall, {path.name[:40]}", report, checks))
        print_section(
            "recall vs Claude Code's own summary, on the messages it replaced "
            f"(ours: forced, default policy; tokens limit {TOKEN_LIMIT:,})"
        )
        added = session_paths(os.environ.get(SESSIONS_VARIABLE))
        known = [p.resolve() for p in corpus]
        sessions = known + [p for p in added if p not in known]
        compared = 0
        for path in sessions:
            result = _compare(container, path)
            if result is not None:
                results.append(result)
                compared += 1
        print_line(
            f"{compared} of {len(sessions)} sessions ({len(added)} from {SESSIONS_VARIABLE}) "
            "hold a Claude Code compaction"
        )
    return results
