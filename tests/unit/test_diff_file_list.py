"""The list of changed files smart mode writes before a diff whose headers do not all fit."""

from __future__ import annotations

from benchmarks.generated_structured import diff_mixed
from cleveragents.application.services.artifact_compression.kinds.diff.file_list import (
    file_list,
    file_lists,
)

RENAME_BINARY_MODE = """\
diff --git a/src/old name.py b/src/new name.py
similarity index 91%
rename from src/old name.py
rename to src/new name.py
index 1111111..2222222 100644
--- a/src/old name.py
+++ b/src/new name.py
@@ -1,3 +1,3 @@
 keep
-old
+new
diff --git a/assets/logo.png b/assets/logo.png
index 3333333..4444444 100644
Binary files a/assets/logo.png and b/assets/logo.png differ
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 5555555..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-a
--- not a header, a removed line
"""


def test_every_file_with_its_counts_and_what_git_says_of_it() -> None:
    assert file_list(RENAME_BINARY_MODE.splitlines()) == [
        "diff: 4 files changed, +1 -3",
        " src/old name.py => src/new name.py | +1 -1 (renamed, 91% similar)",
        " assets/logo.png | binary",
        " run.sh | +0 -0 (mode 100644 => 100755)",
        " gone.txt | +0 -2 (deleted)",
    ]


def test_plain_unified_diffs_without_git_headers() -> None:
    text = (
        "--- a/x.c\t2026-01-01\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n"
        "--- y.c\n+++ y.c\n@@ -1 +1,2 @@\n a\n+b\n"
    )
    assert file_list(text.splitlines()) == [
        "diff: 2 files changed, +2 -1",
        " x.c | +1 -1",
        " y.c | +1 -0",
    ]


def test_text_that_is_no_diff_has_no_list() -> None:
    assert file_list(["hello", "world"]) is None


def test_the_generated_diff_names_every_file_once() -> None:
    diff = diff_mixed(24)
    listed = file_list(diff.text.splitlines())
    assert listed is not None
    assert len(listed) == 1 + len(diff.files)
    for path, line in zip(diff.files, listed[1:], strict=True):
        assert path in line


def test_the_paths_alone_come_second_for_a_budget_too_small_for_the_counts() -> None:
    full, paths = file_lists(RENAME_BINARY_MODE.splitlines())
    assert full.split("\n") == file_list(RENAME_BINARY_MODE.splitlines())
    assert paths == (
        "diff: 4 files changed: src/old name.py => src/new name.py, assets/logo.png, run.sh, "
        "gone.txt"
    )
    assert file_lists(["hello"]) == ()
