"""Unit tests of the plain-text strategy, the fallback kind (SPEC C4).

Real data: `tests/data/HDFS_head.log` (loghub, see tests/data/README.md) and the Rust RFCs in
`../shared/corpus/markdown/`, read as plain text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.plain_text import PlainTextStrategy
from cleveragents.application.services.artifact_compression.strategy import Priority
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

# The same places as tests/conftest.py names; not imported from there, so that these unit tests
# do not load the application container.
REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
TEXT_FILES = [
    REPO_ROOT / "tests" / "data" / "HDFS_head.log",
    *sorted((CORPUS / "markdown").glob("*.md")),
]

NO_TERMS = TaskTerms()
STRATEGY = PlainTextStrategy()


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda path: path.name)
def test_tier2_on_real_text_is_idempotent_deterministic_and_no_longer(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = STRATEGY.tier2(text, NO_TERMS)
    assert out == STRATEGY.tier2(text, NO_TERMS)
    assert STRATEGY.tier2(out, NO_TERMS) == out
    assert len(out) <= len(text)
    assert out.split() == text.split()  # only whitespace changes


def test_tier2_normalises_whitespace_but_keeps_indentation() -> None:
    text = "  a\t\tb   c  \r\n\n\n\n\tx  y\n \n"
    assert STRATEGY.tier2(text, NO_TERMS) == "  a b c\n\n\tx y\n\n"
    assert STRATEGY.tier2("no newline  ", NO_TERMS) == "no newline"
    assert STRATEGY.shrink(text, NO_TERMS, 1) is None


def test_priorities_rank_errors_terms_and_both_ends() -> None:
    lines = [f"line {index}" for index in range(50)]
    lines[25] = "java.io.IOException: boom"
    lines[26] = "Warning: disk almost full"
    lines[27] = "the cache was hit"
    priorities = STRATEGY.priorities(lines, TaskTerms.from_task("cache"))
    assert priorities[:20] == [Priority.USEFUL] * 20
    assert priorities[30:] == [Priority.USEFUL] * 20
    assert priorities[20:30] == [
        *[Priority.CONTEXT] * 5,
        Priority.CRITICAL,
        Priority.CRITICAL,
        Priority.IMPORTANT,
        Priority.CONTEXT,
        Priority.CONTEXT,
    ]
    assert STRATEGY.priorities(["FATAL at start"], NO_TERMS) == [Priority.CRITICAL]
    assert STRATEGY.gap_marker(4) == "[... 4 lines omitted ...]"
    assert STRATEGY.kind is ArtifactKind.TEXT


@given(st.text())
def test_tier2_is_idempotent_and_keeps_the_final_newline(text: str) -> None:
    out = STRATEGY.tier2(text, NO_TERMS)
    assert STRATEGY.tier2(out, NO_TERMS) == out
    assert out.endswith("\n") == text.endswith("\n")
    lines = out.split("\n")
    assert len(STRATEGY.priorities(lines, NO_TERMS)) == len(lines)
