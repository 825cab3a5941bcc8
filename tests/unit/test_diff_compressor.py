"""Unit tests of the code-diff compressor, `DiffCompressor`: its Tier 2 and its line plan.

Real data: `tests/data/click-*.diff` are unmodified commits of pallets/click (BSD-3-Clause), copied
from `shared/corpus/diffs/`. Other languages than Python use small synthetic diffs. The whole
shared corpus: tests/integration/test_diff_compressor_corpus.py; arbitrary text: tests/properties.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.diff.compressor import (
    DiffCompressor,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED
from tests.diff_samples import is_subsequence

DATA = Path(__file__).resolve().parents[1] / "data"
NO_TASK = TaskTerms()
COMPRESSOR = DiffCompressor()


def test_kind_and_marker() -> None:
    assert COMPRESSOR.kind is ArtifactKind.DIFF
    assert COMPRESSOR.marker("lines 120-340") == "[… lines 120-340]"


def test_placeholder_marker_and_indentation() -> None:
    diff = (
        "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,4 +1,6 @@\n"
        " def f():\n"
        "     total = compute_the_total(first_value)\n"
        "+    # a comment\n"
        "+    adjusted = adjust_for_inflation(total)\n"
        "+\n"
        "+    rounded = round_to_cents(adjusted)\n"
        "     return rounded\n"
    )
    body = COMPRESSOR.tier2(diff, NO_TASK).split("\n")[4:]
    assert body == [" def f():", f"     # {IMPLEMENTATION_OMITTED}", ""]
    added_only = diff.replace("\n     ", "\n+    ")
    body = COMPRESSOR.tier2(added_only, NO_TASK).split("\n")[4:]
    assert body == [" def f():", f"+    # {IMPLEMENTATION_OMITTED}", ""]


def test_a_run_shorter_than_its_placeholder_stays() -> None:
    diff = "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n def f():\n-    return 1\n+    return 2\n"
    assert COMPRESSOR.tier2(diff, NO_TASK) == diff


SYNTHETIC = {
    "web/app.js": (
        "+// Helpers.\n"
        "+/*\n"
        "+ * Block comment.\n"
        "+ */\n"
        "+export async function load(url) {\n"
        "+  const res = await fetch(url);\n"
        "+  const started = performance.now();\n"
        "+\n"
        "+  if (!res.ok) throw new Error(`bad status ${res.status}`);\n"
        "+  const body = await res.json();\n"
        "+  report(performance.now() - started);\n"
        "+  return body;\n"
        "+}\n"
        "+class Store {\n"
        "+  save(item) {\n"
        "+    this.items.push(item);\n"
        "+    this.listeners.forEach((listener) => listener(item));\n"
        "+  }\n"
        "+}\n"
        "+const add = (a, b) => {\n"
        "+  return a + b;\n"
        "+};\n",
        [
            "+export async function load(url) {",
            "+  if (!res.ok) throw new Error(`bad status ${res.status}`);",
            "+class Store {",
            "+  save(item) {",
            "+const add = (a, b) => {",
        ],
    ),
    "src/types.ts": (
        "+/** Docs. */\n"
        "+export interface Item {\n"
        "+  id: number;\n"
        "+}\n"
        "+export function total(items: Item[]): number {\n"
        "+  const counted = items.filter((item) => item.id > 0);\n"
        "+  return counted.length; // count\n"
        "+}\n",
        ["+export interface Item {", "+export function total(items: Item[]): number {"],
    ),
    "main.go": (
        "+// Package doc.\n"
        "+type Server struct {\n"
        "+\taddr string\n"
        "+}\n"
        "+func (s *Server) Run() error {\n"
        '+\tif s.addr == "" {\n'
        '+\t\treturn errors.New("no address")\n'
        "+\t}\n"
        "+\ts.listener = listen(s.addr, s.timeoutSeconds)\n"
        "+\treturn nil\n"
        "+}\n",
        [
            "+type Server struct {",
            "+func (s *Server) Run() error {",
            '+\t\treturn errors.New("no address")',
        ],
    ),
    "src/lib.rs": (
        "+/// Docs.\n"
        "+#[derive(Debug)]\n"
        "+pub struct Point {\n"
        "+    x: i32,\n"
        "+}\n"
        "+impl Point {\n"
        "+    pub fn norm(&self) -> i32 {\n"
        "+        let squared = self.x * self.x + self.y * self.y;\n"
        "+        (squared as f64).sqrt() as i32\n"
        "+    }\n"
        "+}\n",
        [
            "+#[derive(Debug)]",
            "+pub struct Point {",
            "+impl Point {",
            "+    pub fn norm(&self) -> i32 {",
        ],
    ),
    "App.java": (
        "+/**\n"
        "+ * Javadoc.\n"
        "+ */\n"
        "+public class App {\n"
        "+    public static int parse(String s) {\n"
        "+        int x = Integer.parseInt(s);\n"
        "+        if (x < 0) {\n"
        '+            throw new IllegalArgumentException("negative");\n'
        "+        }\n"
        "+        return x;\n"
        "+    }\n"
        "+}\n",
        [
            "+public class App {",
            "+    public static int parse(String s) {",
            '+            throw new IllegalArgumentException("negative");',
        ],
    ),
    "lib.c": (
        "+/* A C file. */\n"
        "+#include <stdio.h>\n"
        "+static int count(const char *s) {\n"
        "+    int n = 0;\n"
        "+    while (*s++) n++;\n"
        '+    fprintf(stdout, "%d characters\\n", n);\n'
        "+    return n;\n"
        "+}\n",
        ["+static int count(const char *s) {"],
    ),
}


@pytest.mark.parametrize("path", sorted(SYNTHETIC))
def test_other_languages(path: str) -> None:
    body, expected = SYNTHETIC[path]
    count = body.count("\n")
    diff = f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n"
    diff += f"@@ -0,0 +1,{count} @@\n{body}"
    out = COMPRESSOR.tier2(diff, NO_TASK)
    lines = out.split("\n")
    assert lines[:5] == diff.split("\n")[:5]
    assert is_subsequence(expected, lines)
    assert f"// {IMPLEMENTATION_OMITTED}" in out
    assert "#" + " " + IMPLEMENTATION_OMITTED not in out
    assert lines[-1] == ""
    for line in lines[5:-1]:
        code = line[1:].strip()
        assert code
        assert not code.startswith(("//", "/*", "* ", "*/")) or code.endswith(
            IMPLEMENTATION_OMITTED
        )
    assert len(out) < len(diff)


def test_removed_line_that_looks_like_a_header_is_body() -> None:
    diff = (
        "diff --git a/q.sql b/q.sql\n--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,2 @@\n"
        "--- old comment\n"
        "+++ this is not a header: SELECT name FROM users WHERE id = 1;\n"
        " SELECT name, email FROM accounts;\n"
    )
    out = COMPRESSOR.tier2(diff, NO_TASK).split("\n")
    assert "--- old comment" not in out  # a SQL comment, removed
    assert out[4:] == [f" -- {IMPLEMENTATION_OMITTED}", ""]


def test_task_term_keeps_a_body_line() -> None:
    text = (DATA / "click-4ffa1ef3.diff").read_text()
    line = "         elif isinstance(text, (bytes, bytearray)):"
    assert line in text.split("\n")
    assert line not in COMPRESSOR.tier2(text, NO_TASK).split("\n")
    assert line in COMPRESSOR.tier2(text, TaskTerms.from_task("isinstance checks")).split("\n")


def test_preamble_and_no_newline_marker_are_kept() -> None:
    diff = (
        "From abc\nSubject: [PATCH] fix\n\n---\n x.py | 1 +\n\n"
        "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n"
        "-a = 1\n\\ No newline at end of file\n+a = 2\n\\ No newline at end of file\n"
        "-- \n2.39.0\n"
    )
    out = COMPRESSOR.tier2(diff, NO_TASK)
    assert out.startswith("From abc\nSubject: [PATCH] fix\n\n---\n x.py | 1 +\n\n")
    assert out.count("\\ No newline at end of file") == 2
    assert out.endswith("-- \n2.39.0\n")


def test_newline_at_end_is_preserved() -> None:
    text = (DATA / "click-b7e5fd4c.diff").read_text()
    assert COMPRESSOR.tier2(text, NO_TASK).endswith("\n")
    assert not COMPRESSOR.tier2(text.rstrip("\n"), NO_TASK).endswith("\n")
    assert COMPRESSOR.tier2("", NO_TASK) == ""
