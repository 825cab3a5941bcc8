"""Smart mode's ranks of a diff's lines on generated text: any text gets one rank per line."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.diff_plan_samples import COMPRESSOR, NAMES, NOISE

DIFF_LINES = st.sampled_from(
    [
        "diff --git a/x.py b/x.py",
        "diff --cc y.go",
        "--- a/x.py",
        "+++ b/x.py",
        "+++ /dev/null",
        "deleted file mode 100644",
        "GIT binary patch",
        "literal 3",
        "Subject: [PATCH] x",
        " continued",
        "commit 0123456789",
        "    message",
        "-- ",
        "@@ -1,3 +1,3 @@",
        "@@@ -1 -1 +1 @@@",
        " def f():",
        "+    return 1",
        "++    raise X()",
        "-    # comment",
        "+/* open",
        "",
        "\\ No newline at end of file",
        "Only in a: b",
        "x" * 2_100,
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(DIFF_LINES, st.text(max_size=30)), max_size=40))
def test_any_text_gets_one_rank_per_line(lines: list[str]) -> None:
    plan = COMPRESSOR.line_plan(lines, TaskTerms.from_task("return value"))
    assert len(plan.priorities) == len(lines)
    assert all(NAMES <= rank <= NOISE + 2 for rank in plan.priorities)
    for index, short in plan.short_forms.items():
        assert len(lines[index]) > 2_000
        assert plan.priorities[index] == short.priority + 2
    assert plan == COMPRESSOR.line_plan(lines, TaskTerms.from_task("return value"))
