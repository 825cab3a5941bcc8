"""Unit tests of the source compressor's smart-mode plan: the ranks it gives the roles of the
lines, the pattern-based roles of files without a tree, and its omission markers."""

from __future__ import annotations

import pytest

from cleveragents.application.ports.source_skeleton import SourceLines
from cleveragents.application.services.artifact_compression.kinds.source import SourceCompressor
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from tests.source_samples import (
    BODY,
    ERROR_OR_DOC,
    NAME,
    OUTLINE,
    QUIET,
    SIGNATURE,
    TASK,
    FixedRoles,
    ranks,
)

NO_TERMS = TaskTerms()


def ranked(source: str, language: str) -> dict[str, int]:
    """Each stripped non-blank line's rank."""
    lines = source.split("\n")
    return {
        line.strip(): rank
        for line, rank in zip(lines, ranks(source, language), strict=True)
        if line.strip()
    }


# --- from the port's roles --------------------------------------------------------------------


def test_the_roles_from_the_port_rank_in_their_order() -> None:
    lines = [*(f"line {index}" for index in range(6)), "# cache", "# other", "a", "b", "", " cache"]
    roles = SourceLines(
        names=frozenset({0}),
        signatures=frozenset({0, 1}),
        docstrings=frozenset({2}),
        errors=frozenset({3, 1}),
        closers=frozenset({4}),
        members=frozenset({5, 2}),
        comments=frozenset({6, 7}),
    )
    skeletonizer = FixedRoles(roles)
    compressor = SourceCompressor(skeletonizer, "python")
    plan = compressor.line_plan(lines, TaskTerms.from_task("cache"))
    assert list(plan.priorities) == [
        NAME,
        SIGNATURE,  # a signature before an error
        ERROR_OR_DOC,  # a docstring before a member
        ERROR_OR_DOC,
        OUTLINE,
        OUTLINE,
        TASK,  # a comment naming the task
        QUIET,
        BODY,
        BODY,
        QUIET,
        TASK,
    ]
    assert skeletonizer.asked == [("\n".join(lines), "python")]
    assert list(compressor.line_plan(lines, NO_TERMS).priorities)[6:] == [
        QUIET,
        QUIET,
        BODY,
        BODY,
        QUIET,
        BODY,
    ]


def test_a_line_too_long_for_any_budget_is_kept_as_its_head_first() -> None:
    long_line = "x = [" + "1, " * 1000 + "]"
    plan = SourceCompressor(FixedRoles(SourceLines()), "python").line_plan(
        ["def f():", long_line], NO_TERMS
    )
    assert plan.short_forms[1].text.startswith("x = [1, 1, ")
    assert plan.short_forms[1].priority == BODY
    assert plan.priorities[1] > BODY


# --- files without a tree ---------------------------------------------------------------------

BROKEN_PYTHON = '''\
"""A module that does not parse."""
import os

def broken(:
    return 1

class Store:
    """Keeps blobs."""

    LIMIT = 3

    @property
    def size(
        self,
    ) -> int:
        """
        The size.
        """
        # Count them.
        def count():
            return 0
        raise ValueError("never")
'''


def test_python_that_does_not_parse_is_read_by_patterns() -> None:
    found = ranked(BROKEN_PYTHON, "python")
    assert {line: found[line] for line in found if found[line] == NAME} == {
        "def broken(:": NAME,
        "class Store:": NAME,
        "def size(": NAME,
        "def count():": NAME,
    }
    assert found['"""A module that does not parse."""'] == SIGNATURE
    assert found["import os"] == SIGNATURE
    assert found["@property"] == SIGNATURE
    assert found["self,"] == SIGNATURE
    assert found[") -> int:"] == SIGNATURE
    assert found['"""Keeps blobs."""'] == ERROR_OR_DOC
    assert found["The size."] == ERROR_OR_DOC
    assert found['raise ValueError("never")'] == ERROR_OR_DOC
    assert found["LIMIT = 3"] == OUTLINE
    assert found["return 1"] == BODY  # the broken header ends at its colon
    assert found["return 0"] == BODY
    assert found["# Count them."] == QUIET


RUBY = """\
require "json"

# A store of blobs.
class Store
  LIMIT = 10

  def put(key, data)
    raise ArgumentError, "empty key" if key.empty?
    @data[key] = data
  end
end
"""


def test_ruby_classes_methods_their_ends_and_doc_comments() -> None:
    assert ranks(RUBY, "ruby") == [
        SIGNATURE,
        QUIET,
        ERROR_OR_DOC,  # the doc comment of the class
        NAME,
        OUTLINE,
        QUIET,
        NAME,
        ERROR_OR_DOC,
        BODY,
        OUTLINE,  # `end` of put
        OUTLINE,  # `end` of Store
        QUIET,
    ]


def test_shell_functions_and_lua_functions() -> None:
    shell = "#!/bin/sh\nsource ./env.sh\nbuild() {\n  make all || exit 2\n}\nbuild\n"
    assert ranks(shell, "shell") == [QUIET, SIGNATURE, NAME, ERROR_OR_DOC, OUTLINE, OUTLINE, QUIET]
    lua = 'local json = require("json")\n-- Adds.\nlocal function add(a, b)\n  return a + b\nend\n'
    assert ranks(lua, "lua") == [SIGNATURE, ERROR_OR_DOC, NAME, BODY, OUTLINE, QUIET]


def test_sql_and_kotlin_use_their_families_patterns_and_comments() -> None:
    sql = "-- The users.\nCREATE TABLE users (\n  id INT,\n  name TEXT\n);\n"
    assert ranks(sql, "sql") == [ERROR_OR_DOC, NAME, SIGNATURE, SIGNATURE, SIGNATURE, QUIET]
    kotlin = (
        "package shop\n\n/** A store. */\ndata class Store(val size: Int) {\n"
        "    fun put(key: String) {\n        require(key.isNotEmpty())\n    }\n}\n"
    )
    assert ranks(kotlin, "kotlin") == [
        SIGNATURE,
        QUIET,
        ERROR_OR_DOC,
        NAME,
        NAME,
        BODY,
        OUTLINE,
        OUTLINE,
        QUIET,
    ]


def test_c_family_without_a_tree_follows_braces_block_comments_and_a_brace_below() -> None:
    source = (
        "#include <stdio.h>\n"
        "/*\n * Adds.\n */\n"
        "static int add(int a,\n"
        "               int b)\n"
        "{\n"
        "    if (a < 0) {\n"
        "        abort();\n"
        "    }\n"
        "    return a + b;\n"
        "}\n"
    )
    assert ranks(source, "c") == [
        SIGNATURE,
        QUIET,
        ERROR_OR_DOC,  # the first worded line of the doc comment
        QUIET,
        NAME,
        SIGNATURE,
        SIGNATURE,  # the brace below the signature
        BODY,
        ERROR_OR_DOC,
        BODY,
        BODY,
        OUTLINE,
        QUIET,
    ]


def test_javascript_without_a_tree_keeps_arrow_functions_and_methods() -> None:
    source = (
        "export const double = (x) => x * 2;\n"
        "class Store {\n"
        "  put(key) {\n"
        '    throw new Error("no");\n'
        "  }\n"
        "}\n"
    )
    assert ranks(source, "javascript") == [NAME, NAME, NAME, ERROR_OR_DOC, OUTLINE, OUTLINE, QUIET]


def test_a_language_of_no_known_family_has_no_comments_and_no_signatures() -> None:
    source = "# heading\nfoo bar\n\n"
    assert ranks(source, "cobol") == [OUTLINE, OUTLINE, QUIET, QUIET]


def test_task_lines_come_after_signatures_and_errors() -> None:
    source = "def load(path):\n    cache = {}\n    # the cache\n    return cache\n"
    assert ranks(source, "python", "cache") == [NAME, TASK, TASK, TASK, QUIET]


# --- markers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "comment"),
    [
        ("python", "#"),
        ("ruby", "#"),
        ("shell", "#"),
        ("sql", "--"),
        ("lua", "--"),
        ("go", "//"),
        ("rust", "//"),
        ("kotlin", "//"),
    ],
)
def test_the_marker_is_a_comment_of_the_language(language: str, comment: str) -> None:
    compressor = SourceCompressor(FixedRoles(), language)
    assert compressor.marker("lines 5-9") == f"{comment} … lines 5-9"
    assert compressor.kind is ArtifactKind.SOURCE


def test_the_marker_is_indented_like_the_first_omitted_line_that_is_not_blank() -> None:
    lines = ["class A:", "    def f(self):", "", "        return 1", "    x = 2"]
    compressor = SourceCompressor(FixedRoles(), "python")
    compressor.line_plan(lines, NO_TERMS)
    stored = "lines 2-4 of 01ARTIFACT"
    assert compressor.marker("lines 3-4") == "        # … lines 3-4"
    assert compressor.marker("line 5") == "    # … line 5"
    assert compressor.marker(stored) == f"    # … {stored}"
    repeats = "×3 like the line above: lines 4-5"
    assert compressor.marker(repeats) == f"        # … {repeats}"
    # A marker after a cut line stands on that line: no indentation of its own.
    assert compressor.marker("rest of line 4") == "# … rest of line 4"
    assert compressor.marker("line 3") == "# … line 3"  # only a blank line
    assert compressor.marker("lines 90-99") == "# … lines 90-99"
