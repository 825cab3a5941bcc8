"""Smart mode's packer: what it keeps first, and that its two entry points agree."""

from __future__ import annotations

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.packing import (
    Line,
    pack_columns,
    pack_lines,
)
from cleveragents.application.services.artifact_compression.strategy import Priority

COUNTER = TiktokenCounter("cl100k_base")


def marker(omitted: int) -> str:
    return f"[... {omitted} lines omitted ...]"


def pack(texts: list[str], priorities: list[Priority], budget: int) -> str:
    raw = COUNTER.count("\n".join(texts) + "\n")
    packed = pack_columns(
        range(len(texts)), texts, priorities, len(texts), budget, raw, COUNTER, marker
    )
    assert packed.tokens == COUNTER.count(packed.content) <= budget
    return packed.content


def test_within_a_priority_the_ends_come_first() -> None:
    """The first line says where trouble began, the last how it ended: with room for two
    lines of twenty, those two are kept."""
    texts = [f"step {index} finished" for index in range(20)]
    generous = pack(texts, [Priority.CONTEXT] * 20, 10_000)
    assert all(text in generous for text in texts)
    budget = 1
    while "step 19" not in (content := pack(texts, [Priority.CONTEXT] * 20, budget)):
        budget += 1
    assert "step 0 finished" in content
    assert sum(text in content for text in texts) == 2


def test_priority_comes_before_position() -> None:
    """The first budget at which the error line fits keeps it, however many context lines
    come before it. (A tighter budget may keep a cheaper context line instead: each line is
    taken if it still fits, and a line in the middle costs a second gap marker.)"""
    texts = [f"line {index}" for index in range(30)]
    priorities = [Priority.CONTEXT] * 30
    priorities[17] = Priority.CRITICAL
    texts[17] = "ERROR disk full"
    raw = COUNTER.count("\n".join(texts) + "\n")
    # The packer's own estimate for the error line alone: the final marker, two gap markers
    # (each at its longest) and the line.
    final = COUNTER.count(f"\n[TRUNCATED: content exceeds budget, remaining {raw} tokens omitted]")
    budget = final + 2 * COUNTER.count(marker(30) + "\n") + COUNTER.count("ERROR disk full\n")
    content = pack(texts, priorities, budget)
    assert "ERROR disk full" in content
    assert "line 16" not in content


def test_sparse_lines_and_columns_pack_alike() -> None:
    texts = [f"{'WARN' if index % 7 == 0 else 'info'} item {index}" for index in range(50)]
    priorities = [Priority.IMPORTANT if index % 7 == 0 else Priority.CONTEXT for index in range(50)]
    raw = COUNTER.count("\n".join(texts) + "\n")
    for budget in (5, 40, 120, 400):
        lines = [Line(i, t, p) for i, (t, p) in enumerate(zip(texts, priorities, strict=True))]
        sparse = pack_lines(lines[::-1], 50, budget, raw, COUNTER, marker)
        dense = pack_columns(range(50), texts, priorities, 50, budget, raw, COUNTER, marker)
        assert sparse == dense
