"""Markdown's Tier 2 in pieces: the pieces join into `tier2`'s text, each copied piece is the
original's text at the byte offset it names, and the count of the pieces from the raw text's
token starts is the exact count of the result (the real tokenizer), on any text, real plans
and generated ones."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.generated_markdown import generated_markdown
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.markdown.compressor import (
    MarkdownCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.markdown_samples import EXCERPT

COMPRESSOR = MarkdownCompressor()
COUNTER = TiktokenCounter()
TERMS = (TaskTerms(), TaskTerms.from_task("scheduler budget must"))
MARKDOWNISH = st.text(alphabet="#`~|->*1.= \t\nAaTe:<![]()é", max_size=400)
PROSE = st.text(alphabet="Ab .,`1MUST must the\n\n-#|ü", max_size=600)


def _assert_pieces_count_exactly(text: str, terms: TaskTerms) -> None:
    pieces = COMPRESSOR.tier2_pieces(text, terms)
    joined = "".join(piece.text for piece in pieces)
    assert joined == COMPRESSOR.tier2(text, terms)
    raw = text.encode("utf-8", errors="surrogatepass")
    for piece in pieces:
        if piece.origin is not None:
            copied = piece.text.encode("utf-8", errors="surrogatepass")
            assert raw[piece.origin : piece.origin + len(copied)] == copied
    assert COUNTER.count_pieces(pieces, COUNTER.token_starts(text)) == COUNTER.count(joined)


@given(st.one_of(MARKDOWNISH, PROSE), st.sampled_from(TERMS))
def test_any_text_in_pieces_counts_exactly(text: str, terms: TaskTerms) -> None:
    _assert_pieces_count_exactly(text, terms)


@pytest.mark.parametrize("size", [2_000, 40_000, 200_000])
def test_generated_plans_in_pieces_count_exactly(size: int) -> None:
    for terms in TERMS:
        _assert_pieces_count_exactly(generated_markdown(size), terms)


def test_a_real_plan_copies_its_code_and_headings_in_few_pieces() -> None:
    text = EXCERPT.read_text(encoding="utf-8")
    _assert_pieces_count_exactly(text, TERMS[0])
    pieces = COMPRESSOR.tier2_pieces(text, TERMS[0])
    copies = [piece for piece in pieces if piece.origin is not None]
    assert copies
    assert any("\n" in piece.text for piece in copies)  # neighbouring copies are one piece


def test_copies_join_across_one_empty_line_only() -> None:
    fence = "```\ncode\n```"
    joined = COMPRESSOR.tier2_pieces(f"# Title\n\n{fence}\n", TERMS[0])
    assert [piece.origin for piece in joined] == [0, None]  # the copy, then the final newline
    apart = COMPRESSOR.tier2_pieces(f"# Title\n\n\n{fence}\n", TERMS[0])
    assert [piece.origin for piece in apart] == [0, None, 10, None]
    spaces = COMPRESSOR.tier2_pieces(f"# Title\n  \n{fence}\n", TERMS[0])
    assert "".join(piece.text for piece in spaces) == f"# Title\n\n{fence}\n"
    assert [piece.origin for piece in spaces] == [0, None, 11, None]
