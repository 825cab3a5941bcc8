"""The log compressor on generated text: arbitrary text compresses, streaming agrees with the
line plan, and the leftmost level of a line wins."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.logs.line_plan import LAST_ERROR
from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    Severity,
    line_severity,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.log_samples import (
    COMPRESSOR,
    JAVA_STACK,
    PYTHON_TRACEBACK,
    info_lines,
    lines_of,
    plan_of,
    stream_of,
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [*PYTHON_TRACEBACK, *JAVA_STACK, "INFO x", "... (3 info lines omitted)", "\r"]
            ),
            st.text(max_size=40),
        ),
        max_size=60,
    ),
    st.booleans(),
)
def test_arbitrary_text(parts: list[str], final_newline: bool) -> None:
    text = "\n".join(parts) + ("\n" if final_newline and parts else "")
    terms = TaskTerms.from_task("job0007 worker")
    out = COMPRESSOR.tier2(text, terms)
    assert out.endswith("\n") == text.endswith("\n")
    assert out.count("\n") <= text.count("\n")
    assert len(out) <= len(text)
    plan = COMPRESSOR.line_plan(lines_of(text), terms)
    assert len(plan.priorities) == len(lines_of(text))
    assert plan.templates is not None
    assert len(plan.templates) == len(lines_of(text))
    assert all(rank >= LAST_ERROR for rank in plan.priorities)
    assert COMPRESSOR.line_plan(lines_of(text), terms) == plan


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [*PYTHON_TRACEBACK, *JAVA_STACK, *info_lines(3), "WARN x 1", "WARN x 2", "ERROR y", ""]
        ),
        max_size=80,
    )
)
def test_streaming_agrees_with_the_line_plan(lines: list[str]) -> None:
    plan = plan_of(lines, "worker")
    streamed = stream_of(lines, budget=10**5, task="worker")
    assert [line.priority for line in streamed.lines] == list(plan.priorities)
    assert [line.template for line in streamed.lines] == list(plan.templates or ())


_MESSAGE_WORDS = st.sampled_from(
    [
        *("ERROR", "error:", "[error]", "level=error", "Error:", "FATAL", "0 errors", "failed"),
        *("error_handler", "Information", "WARN", "<Error>", ": error :", "x", "42", "a=b"),
    ]
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(
        [
            ("2024-01-01 10:00:00,123 INFO [main] app:", Severity.INFO),
            ("2024-01-01 10:00:00,123 - app - WARNING -", Severity.WARNING),
            ("03-17 16:13:38.811  1702  2395 D Tag:", Severity.INFO),
            ("[Sun Dec 04 04:47:44 2005] [notice]", Severity.INFO),
            ("<14>Oct 11 22:14:15 host app:", Severity.INFO),
            ("2016-09-28 04:30:30, Info                  CBS   ", Severity.INFO),
        ]
    ),
    st.lists(_MESSAGE_WORDS, max_size=8),
)
def test_the_leftmost_level_wins(prefix: tuple[str, Severity], words: list[str]) -> None:
    # Whatever the message says about errors, the line's own level is the one its format puts
    # first.
    line, severity = prefix
    assert line_severity(f"{line} {' '.join(words)}") is severity
