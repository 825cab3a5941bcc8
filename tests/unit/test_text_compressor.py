"""Unit tests of the plain-text compressor, the fallback kind: Tier 2 and smart mode's
line ranks.

Real data: `tests/data/HDFS_head.log` (loghub, see tests/data/README.md) and the Rust RFCs in
`../shared/corpus/markdown/`, read as plain text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import ShortForm
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from tests.conftest import TEST_DATA, corpus_files

TEXT_FILES = [TEST_DATA / "HDFS_head.log", *corpus_files("markdown", "*.md")]

NO_TERMS = TaskTerms()
COMPRESSOR = PlainTextCompressor()


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda path: path.name)
def test_tier2_on_real_text_is_idempotent_deterministic_and_no_longer(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = COMPRESSOR.tier2(text, NO_TERMS)
    assert out == COMPRESSOR.tier2(text, NO_TERMS)
    assert COMPRESSOR.tier2(out, NO_TERMS) == out
    assert len(out) <= len(text)
    assert out.split() == text.split()  # only whitespace changes


def test_tier2_normalises_whitespace_but_keeps_indentation() -> None:
    text = "  a\t\tb   c  \r\n\n\n\n\tx  y\n \n"
    assert COMPRESSOR.tier2(text, NO_TERMS) == "  a b c\n\n\tx y\n\n"
    assert COMPRESSOR.tier2("no newline  ", NO_TERMS) == "no newline"


def test_line_plan_ranks_errors_terms_both_ends_then_the_rest_and_blank_lines() -> None:
    lines = [f"line {index}" for index in range(50)]
    lines[25] = "java.io.IOException: boom"
    lines[26] = "Warning: disk almost full"
    lines[27] = "the cache was hit"
    lines[28] = ""
    lines[29] = "   "
    lines[3] = ""  # a blank line among the first 20 frames the text like its neighbours
    lines[45] = "Build FAILED"
    plan = COMPRESSOR.line_plan(lines, TaskTerms.from_task("cache"))
    priorities = list(plan.priorities)
    assert priorities[:20] == [3] * 20
    assert priorities[30:] == [3] * 15 + [1] + [3] * 4
    assert priorities[20:30] == [4, 4, 4, 4, 4, 1, 1, 2, 5, 5]
    assert plan.short_forms == {}
    assert list(COMPRESSOR.line_plan(["FATAL at start"], NO_TERMS).priorities) == [1]
    assert COMPRESSOR.marker("lines 5-9") == "[… lines 5-9]"
    assert COMPRESSOR.kind is ArtifactKind.TEXT


def test_a_long_line_gets_its_head_at_its_rank_and_the_whole_line_two_ranks_later() -> None:
    minified = "var a=1;" * 1_000  # 8,000 characters on one line
    failing = "error: " + "x" * 2_500
    lines = ["start", *["filler"] * 30, minified, failing, *["filler"] * 30, "end"]
    plan = COMPRESSOR.line_plan(lines, NO_TERMS)
    assert plan.priorities[31] == 4 + 2
    assert plan.priorities[32] == 1 + 2
    assert plan.short_forms[31] == ShortForm(minified[:300] + " …", 4)
    assert plan.short_forms[32] == ShortForm(failing[:300] + " …", 1)
    assert sorted(plan.short_forms) == [31, 32]
    at_the_limit = ["y" * 2_000]
    assert COMPRESSOR.line_plan(at_the_limit, NO_TERMS).short_forms == {}


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


@given(st.text())
def test_tier2_is_idempotent_and_keeps_the_final_newline(text: str) -> None:
    out = COMPRESSOR.tier2(text, NO_TERMS)
    assert COMPRESSOR.tier2(out, NO_TERMS) == out
    assert out.endswith("\n") == text.endswith("\n")
    lines = out.split("\n")
    assert len(COMPRESSOR.line_plan(lines, NO_TERMS).priorities) == len(lines)
