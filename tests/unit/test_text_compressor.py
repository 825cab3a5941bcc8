"""Unit tests of the plain-text compressor, the fallback kind: Tier 2 and smart mode's
line ranks.

Real data: `tests/data/HDFS_head.log` (loghub, see tests/data/README.md). The Rust RFCs of
`../shared/corpus/markdown/`, read as plain text: tests/integration/test_text_compressor_corpus.py;
generated text: tests/properties."""

from __future__ import annotations

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import ShortForm
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

NO_TERMS = TaskTerms()
COMPRESSOR = PlainTextCompressor()


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
