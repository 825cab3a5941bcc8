"""The markdown compressor on the Rust RFCs (rust-lang/rfcs, MIT/Apache-2.0) of
`../shared/corpus/markdown/` (skipped when the corpus is absent): Tier 2 keeps headings, tables and
code verbatim; smart mode ranks every heading first and every requirement before first sentences."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.markdown.compressor import (
    MarkdownCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.conftest import corpus_file, corpus_files
from tests.markdown_samples import EXCERPT, HEADING, PROSE, REQUIREMENT, assert_verbatim_piece

NO_TERMS = TaskTerms()
COMPRESSOR = MarkdownCompressor()
MARKDOWN_FILES = [*corpus_files("markdown", "*.md"), EXCERPT]
FENCE = re.compile(r"\s*(`{3,}|~{3,})")


def structure(text: str) -> tuple[list[str], list[str], list[tuple[str, ...]]]:
    """Headings (ATX), table lines and fenced code blocks, found independently of the parser
    under test with the simplest rules that hold for the RFCs."""
    headings: list[str] = []
    tables: list[str] = []
    blocks: list[tuple[str, ...]] = []
    current: list[str] | None = None
    fence = ""
    for line in text.split("\n"):
        if current is not None:
            current.append(line)
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                blocks.append(tuple(current))
                current = None
        elif match := FENCE.match(line):
            current, fence = [line], match.group(1)
        elif line.startswith("#"):
            headings.append(line)
        elif line.startswith("|"):
            tables.append(line)
    if current is not None:
        blocks.append(tuple(current))
    return headings, tables, blocks


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda path: path.name)
def test_tier2_keeps_headings_tables_and_code_verbatim(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = COMPRESSOR.tier2(text, NO_TERMS)
    headings, tables, blocks = structure(text)
    assert headings, "the RFCs have headings"
    assert structure(out) == (headings, tables, blocks)  # all of them, verbatim, in order
    assert len(out) < len(text)
    assert out == COMPRESSOR.tier2(text, NO_TERMS)


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda path: path.name)
def test_real_documents_rank_every_heading_first_and_cut_verbatim(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    plan = COMPRESSOR.line_plan(lines, NO_TERMS)
    assert len(plan.priorities) == len(lines)
    headings = {index for index, line in enumerate(lines) if line in structure(text)[0]}
    assert headings
    assert {index for index, rank in enumerate(plan.priorities) if rank == HEADING} >= headings
    for index, short in plan.short_forms.items():
        assert_verbatim_piece(short.text, lines[index])
        assert short.priority < plan.priorities[index]
    assert plan == COMPRESSOR.line_plan(lines, NO_TERMS)


def test_every_requirement_of_a_real_rfc_is_ranked_before_first_sentences() -> None:
    # RFC 3392 writes a paragraph per line: its requirements must come out of long lines alone.
    lines = corpus_file("markdown/rfc-3392-leadership-council.md").read_text().split("\n")
    plan = COMPRESSOR.line_plan(lines, NO_TERMS)
    sentence = 'The Council must review subteam membership in the "launching pad" every 6 months'
    (index,) = [index for index, line in enumerate(lines) if sentence in line]
    assert plan.short_forms[index].priority == REQUIREMENT
    assert plan.short_forms[index].text.startswith(sentence)
    assert plan.priorities[index] == PROSE
    requirement = re.compile(r"\b(?:must|should|shall|MUST|SHOULD|SHALL)\b")
    cut = 0
    for index, line in enumerate(lines):
        if not requirement.search(line) or line.lstrip().startswith(("#", "- [", "[", "|", "`")):
            continue
        short = plan.short_forms.get(index)
        assert plan.priorities[index] == REQUIREMENT or (
            short is not None and short.priority == REQUIREMENT and requirement.search(short.text)
        ), line
        cut += short is not None
    assert cut > 50
