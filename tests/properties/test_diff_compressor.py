"""The code-diff compressor on generated text: arbitrary diff-like text never breaks Tier 2."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.diff.compressor import (
    DiffCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED

COMPRESSOR = DiffCompressor()
DIFFISH = st.sampled_from(
    [
        "diff --git a/x.py b/x.py",
        "diff --git a/y.js b/y.js",
        "--- a/x.py",
        "+++ b/x.py",
        "+++ /dev/null",
        "@@ -1,3 +1,3 @@",
        "@@ -1 +1 @@ def f():",
        "@@@ -1 -1 +1 @@@",
        " def f():",
        "+    return 1",
        "-    # comment",
        "+/* open",
        " */",
        "+",
        "",
        "\\ No newline at end of file",
        f" # {IMPLEMENTATION_OMITTED}",
        "+  raise ValueError('x')",
        "\r",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(DIFFISH, st.text(max_size=30)), max_size=40), st.booleans())
def test_arbitrary_text_never_breaks(parts: list[str], final_newline: bool) -> None:
    text = "\n".join(parts) + ("\n" if final_newline and parts else "")
    terms = TaskTerms.from_task("return value")
    lines = text.split("\n")
    assert len(COMPRESSOR.line_plan(lines, terms).priorities) == len(lines)
    try:
        out = COMPRESSOR.tier2(text, terms)
    except MalformedCompressionError:
        return
    assert out.endswith("\n") == text.endswith("\n")
    assert out.count("\n") <= text.count("\n")
