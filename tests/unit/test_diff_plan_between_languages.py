"""A file of no known language between two files of one language: the declaration pattern of
that language is searched over the run of hunks in one go, which reads the lines in between
too; those lines still rank as lines of no language (nothing there is a declaration)."""

from __future__ import annotations

from tests.diff_plan_samples import CONTEXT, OPENING, SHAPE, plan_of


def _file(path: str, body: list[str]) -> list[str]:
    return [
        f"diff --git a/{path} b/{path}",
        f"--- a/{path}",
        f"+++ b/{path}",
        f"@@ -1,{sum(not line.startswith('+') for line in body)} "
        f"+1,{sum(not line.startswith('-') for line in body)} @@",
        *body,
    ]


def test_lines_of_no_language_between_two_python_files_are_no_declarations() -> None:
    python = [" import os", "+def added(x):", "+    return x"]
    notes = [" @click.command()", "+def not_code(x):", " class notes"]
    text = "\n".join([*_file("a.py", python), *_file("notes.txt", notes), *_file("b.py", python)])
    lines, plan = plan_of(text + "\n")
    ranks = dict(zip(lines, plan.priorities, strict=False))
    assert ranks["+def added(x):"] == SHAPE  # a declaration in a Python file
    at = lines.index(" @click.command()")
    assert plan.priorities[at : at + 3] == [CONTEXT, OPENING, CONTEXT]
