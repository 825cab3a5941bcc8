"""The markdown compressor on generated text: any text compresses and keeps its final newline, and
any lines get one rank each and verbatim short forms."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.markdown.compressor import (
    MarkdownCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.markdown_samples import assert_verbatim_piece

COMPRESSOR = MarkdownCompressor()
MARKDOWNISH = st.text(alphabet="#`~|->*1.= \t\nAaTe:<![]()", max_size=300)


@given(st.one_of(st.text(), MARKDOWNISH))
def test_any_text_compresses_and_keeps_the_final_newline(text: str) -> None:
    out = COMPRESSOR.tier2(text, TaskTerms.from_task("tea"))
    assert out.endswith("\n") == text.endswith("\n")


@given(st.one_of(st.text(), MARKDOWNISH, st.text(alphabet="Ab .,`1MUST must\n-#|", max_size=600)))
def test_any_lines_get_one_rank_each_and_verbatim_short_forms(text: str) -> None:
    lines = text.split("\n")
    plan = COMPRESSOR.line_plan(lines, TaskTerms.from_task("tea"))
    assert len(plan.priorities) == len(lines)
    assert all(0 <= rank <= 6 for rank in plan.priorities)
    for index, short in plan.short_forms.items():
        assert_verbatim_piece(short.text, lines[index])
        assert short.priority < plan.priorities[index]
