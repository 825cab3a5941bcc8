"""The plain-text compressor on the Rust RFCs of `../shared/corpus/markdown/`, read as plain text
(skipped when the corpus is absent): Tier 2 is idempotent, deterministic and no longer, and the
line plan ranks every line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.conftest import TEST_DATA, corpus_files

NO_TERMS = TaskTerms()
COMPRESSOR = PlainTextCompressor()
TEXT_FILES = [TEST_DATA / "HDFS_head.log", *corpus_files("markdown", "*.md")]


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda path: path.name)
def test_tier2_on_real_text_is_idempotent_deterministic_and_no_longer(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = COMPRESSOR.tier2(text, NO_TERMS)
    assert out == COMPRESSOR.tier2(text, NO_TERMS)
    assert COMPRESSOR.tier2(out, NO_TERMS) == out
    assert len(out) <= len(text)
    assert out.split() == text.split()  # only whitespace changes


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda path: path.name)
def test_line_plan_of_real_text(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    plan = COMPRESSOR.line_plan(lines, NO_TERMS)
    assert len(plan.priorities) == len(lines)
    assert set(plan.priorities) <= {1, 2, 3, 4, 5}
    for index, line in enumerate(lines):
        if "error" in line.lower() or "warning" in line.lower():
            assert plan.priorities[index] == 1, line
        elif not line.strip() and 20 <= index < len(lines) - 20:
            assert plan.priorities[index] == 5
