"""The log compressor on the loghub logs of the shared corpus (skipped when it is absent): what
Tier 2 keeps at full size and at a twentieth, and streaming ranks as the line plan does."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import LinePlan
from cleveragents.application.services.artifact_compression.kinds.logs.line_plan import LAST_ERROR
from cleveragents.application.services.artifact_compression.kinds.logs.trouble import (
    last_trouble_lines,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.conftest import corpus_files
from tests.log_samples import COMPRESSOR, MARKER, lines_of, plan_of, stream_of

DATA = Path(__file__).resolve().parents[1] / "data"
NO_TASK = TaskTerms()
# One simple, independent pattern per format for the lines Tier 2 must keep.
MUST_KEEP = {
    "Apache": re.compile(r"^\[[^]]+\] \[(?:error|warn|crit|alert|emerg)\]"),
    "HDFS": re.compile(r"^\d{6} \d{6} \d+ (?:WARN|ERROR|FATAL) "),
    "Hadoop": re.compile(r"^\S+ \S+ (?:WARN|ERROR|FATAL) "),
    "OpenSSH": re.compile(r": error: |: fatal: |Failed password|Invalid user"),
    "Spark": re.compile(r"^\S+ \S+ (?:WARN|ERROR|FATAL) "),
    "Zookeeper": re.compile(r" - (?:WARN|ERROR|FATAL) "),
}


def _corpus() -> list[Path]:
    return [*sorted(DATA.glob("*.log")), *corpus_files("logs", "*.log")]


CORPUS = _corpus()


def _format(path: Path) -> str:
    return path.name.split("_", 1)[0]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus(path: Path) -> None:
    text = path.read_text()
    lines = lines_of(text)
    out = COMPRESSOR.tier2(text, NO_TASK)
    out_lines = lines_of(out)
    must_keep = Counter(line for line in lines if MUST_KEEP[_format(path)].search(line))
    assert not must_keep - Counter(out_lines)  # every one of them, as often as it occurs
    if _format(path) == "Spark":
        assert not must_keep  # the Spark sample has no warnings: it collapses to almost nothing
        assert len(out_lines) < 30
    else:
        assert must_keep
    assert out_lines[:10] == lines[:10]
    assert out_lines[-10:] == lines[-10:]
    represented = 0
    for line in out_lines:
        match = MARKER.fullmatch(line)
        represented += int(match.group(1)) if match else 1
    assert represented == len(lines)
    assert len(out) < len(text)
    assert out.endswith("\n") == text.endswith("\n")
    assert COMPRESSOR.tier2(text, NO_TASK) == out


# The lines these tests count as errors and warnings, by their own patterns per format.
LEVELLED = {
    "Apache": re.compile(r"^\[[^]]+\] \[(?P<level>error|warn|crit|alert|emerg)\]"),
    "HDFS": re.compile(r"^\d{6} \d{6} \d+ (?P<level>WARN|ERROR|FATAL) "),
    "Hadoop": re.compile(r"^\S+ \S+ (?P<level>WARN|ERROR|FATAL) "),
    "OpenSSH": re.compile(r": (?P<level>error|fatal): "),
    "Spark": re.compile(r"^\S+ \S+ (?P<level>WARN|ERROR|FATAL) "),
    "Zookeeper": re.compile(r" - (?P<level>WARN|ERROR|FATAL) "),
}
ERROR_LEVELS = frozenset({"ERROR", "FATAL", "error", "fatal", "crit", "alert", "emerg"})


def _digit_masked(line: str) -> str:
    return re.sub(r"\S*\d\S*", "#", line)


def _inward(indices: list[int]) -> list[int]:
    order: list[int] = []
    low, high = 0, len(indices) - 1
    while low <= high:
        order.append(indices[low])
        if low != high:
            order.append(indices[high])
        low, high = low + 1, high - 1
    return order


def _pack(lines: list[str], plan: LinePlan, budget: int) -> set[int]:
    """Which lines a packer that follows the plan keeps in `budget` characters: by rank, within
    a rank from both ends inwards, each line if it still fits (short forms left out)."""
    by_rank: dict[int, list[int]] = {}
    for index, rank in enumerate(plan.priorities):
        by_rank.setdefault(rank, []).append(index)
    kept: set[int] = set()
    used = 0
    for rank in sorted(by_rank):
        for index in _inward(by_rank[rank]):
            cost = len(lines[index]) + 1
            if used + cost <= budget:
                kept.add(index)
                used += cost
    return kept


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_at_a_twentieth(path: Path) -> None:
    lines = lines_of(path.read_text())
    plan = plan_of(lines)
    assert plan.templates is not None
    assert len(set(plan.templates)) < len(lines) / 4
    levelled = [index for index, line in enumerate(lines) if LEVELLED[_format(path)].search(line)]
    errors = [
        index
        for index in levelled
        if (match := LEVELLED[_format(path)].search(lines[index]))
        and match["level"] in ERROR_LEVELS
    ]
    if errors:
        assert plan.priorities[errors[-1]] == LAST_ERROR
    # A twentieth, and room for the last line that mentions trouble at any level (an INFO
    # "Diagnostics report ... failed ... Exception" of 469 characters), which ranks beside the
    # last error.
    trouble = max(last_trouble_lines(lines).values(), default=None)
    room = len(lines[trouble]) + 1 if trouble is not None and trouble not in errors else 0
    kept = _pack(lines, plan, sum(len(line) + 1 for line in lines) // 20 + room)
    templates = {_digit_masked(lines[index]) for index in levelled}
    represented = {_digit_masked(lines[index]) for index in levelled if index in kept}
    assert len(represented) >= 0.9 * len(templates)
    if errors:
        assert errors[-1] in kept
    nearly_all = _pack(lines, plan, int(sum(len(line) + 1 for line in lines) / 1.2))
    assert len([index for index in levelled if index in nearly_all]) >= 0.95 * len(levelled)


@pytest.mark.parametrize("path", CORPUS[:6], ids=lambda p: p.name)
def test_streaming_ranks_as_the_line_plan_does(path: Path) -> None:
    lines = lines_of(path.read_text())
    plan = plan_of(lines, "block")
    streamed = stream_of(lines, budget=10**6, task="block")  # room for every line
    assert streamed.total_lines == len(lines)
    assert [line.position for line in streamed.lines] == list(range(len(lines)))
    assert [line.text for line in streamed.lines] == lines
    assert [line.priority for line in streamed.lines] == list(plan.priorities)
    assert [line.template for line in streamed.lines] == list(plan.templates or ())
    assert streamed.short_forms == plan.short_forms
