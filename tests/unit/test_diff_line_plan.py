"""Smart mode's ranks of a diff's lines (`DiffCompressor.line_plan`): what changed where first,
then the shape of the change, then the change itself, then its context.

Real data: `tests/data/click-*.diff` (pallets/click, BSD-3-Clause); the shared corpus's diffs are
ranked in tests/integration/test_diff_line_plan_corpus.py. The other diffs were made for these
tests with git 2.39 and GNU diff (`format-patch` of two commits with a rename, a binary file, a
deleted file and a mode change; `git log -p`; a merge's combined diff; `diff -ru` of two
directories) or are generated here."""

from __future__ import annotations

import pytest

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import ShortForm
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from tests.diff_plan_samples import (
    ALERT,
    CHANGE,
    COMPRESSOR,
    CONTEXT,
    NAMES,
    NO_TASK,
    NOISE,
    OPENING,
    SHAPE,
    plan_of,
)


def rank_of(text: str, line: str, terms: TaskTerms = NO_TASK, occurrence: int = 0) -> int:
    """The rank of the `occurrence`-th line of `text` equal to `line`."""
    lines, plan = plan_of(text, terms)
    positions = [index for index, candidate in enumerate(lines) if candidate == line]
    return plan.priorities[positions[occurrence]]


def _many_files(files: int, hunks: int, lines_per_hunk: int) -> str:
    out = []
    for number in range(files):
        path = f"pkg/module_{number}.py"
        out.append(f"diff --git a/{path} b/{path}\nindex 1234567..89abcde 100644\n")
        out.append(f"--- a/{path}\n+++ b/{path}\n")
        for hunk in range(hunks):
            start = hunk * 100 + 1
            side = lines_per_hunk // 2 + 1  # the context line and one side of each pair
            out.append(f"@@ -{start},{side} +{start},{side} @@\n")
            out.append(f" class Part{hunk}:\n")
            for index in range(lines_per_hunk // 2):
                out.append(
                    f"-    value_{index} = old({index})\n+    value_{index} = new({index})\n"
                )
    return "".join(out)


@pytest.mark.parametrize(
    ("files", "hunks", "lines_per_hunk"), [(1, 1, 2), (40, 6, 20), (400, 3, 8)]
)
def test_every_header_is_rank_0_whatever_the_size(
    files: int, hunks: int, lines_per_hunk: int
) -> None:
    text = _many_files(files, hunks, lines_per_hunk)
    lines, plan = plan_of(text)
    for line, rank in zip(lines, plan.priorities, strict=True):
        header = line.startswith(("diff --git", "@@ "))
        assert (rank == NAMES) == header, line
        if line.startswith(("--- a/", "+++ b/")):
            assert rank == SHAPE, line  # the paths again: `diff --git` named the file


def test_the_first_changed_lines_of_each_hunk_come_before_the_others() -> None:
    """A small budget shows the start of every hunk instead of all of the first hunk."""
    text = _many_files(3, 4, 10)
    lines, plan = plan_of(text)
    per_hunk: list[list[int]] = []
    for line, rank in zip(lines, plan.priorities, strict=True):
        if line.startswith("@@"):
            per_hunk.append([])
        elif line[:1] in ("+", "-") and not line.startswith(("---", "+++")):
            per_hunk[-1].append(rank)
    assert len(per_hunk) == 12
    for ranks in per_hunk:
        assert ranks == [OPENING] * 3 + [CHANGE] * 7
    assert rank_of(text, " class Part0:") == CHANGE  # an unchanged declaration says where


FORMAT_PATCH = """\
From 1135c7041319874228ca94155494d33ea2689997 Mon Sep 17 00:00:00 2001
From: T <a@b.c>
Date: Tue, 1 Dec 2026 11:05:57 +0000
Subject: [PATCH 1/2] Store JSON, rename notes

The store now reads and writes JSON instead of raw text.
---
 notes.txt => NOTES.md |   0
 logo.png              | Bin 16 -> 16 bytes
 main.go               |   5 -----
 run.sh                |   0
 src/store.py          |   9 +++++++--
 5 files changed, 7 insertions(+), 7 deletions(-)
 rename notes.txt => NOTES.md (100%)
 delete mode 100644 main.go
 mode change 100644 => 100755 run.sh

diff --git a/notes.txt b/NOTES.md
similarity index 100%
rename from notes.txt
rename to NOTES.md
diff --git a/logo.png b/logo.png
index 029ace0fcbb58feb758971feed0457fd34dbb60b..7245348becb19e54b346793f38d1d99304d58d3a 100644
GIT binary patch
literal 16
XcmeAS@N?(olHy`uVBq!iaESl_8ngoB

literal 16
XcmeAS@N?(olHy`uVBq!ia0vnc8m<D~

diff --git a/main.go b/main.go
deleted file mode 100644
index d6e0156..0000000
--- a/main.go
+++ /dev/null
@@ -1,5 +0,0 @@
-package main
-
-func main() {
-\tprintln("hi")
-}
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/src/store.py b/src/store.py
index 94e3c99..77673a0 100644
--- a/src/store.py
+++ b/src/store.py
@@ -1,8 +1,13 @@
+import json
+
+
 def load(path):
     with open(path) as f:
-        return f.read()
+        return json.load(f)
\x20
\x20
 def save(path, data):
+    if not path:
+        raise ValueError("empty path")
     with open(path, "w") as f:
-        f.write(data)
+        json.dump(data, f)
--\x20
2.39.5


From 64671109f063522126614adce3c9b037b980cc46 Mon Sep 17 00:00:00 2001
From: T <a@b.c>
Date: Tue, 1 Dec 2026 11:06:01 +0000
Subject: [PATCH 2/2] Load returns a default for a missing file

---
 src/store.py | 9 ++++++---
 1 file changed, 6 insertions(+), 3 deletions(-)

diff --git a/src/store.py b/src/store.py
index 77673a0..92d10bc 100644
--- a/src/store.py
+++ b/src/store.py
@@ -1,9 +1,12 @@
 import json
\x20
\x20
-def load(path):
-    with open(path) as f:
-        return json.load(f)
+def load(path, default=None):
+    try:
+        with open(path) as f:
+            return json.load(f)
+    except FileNotFoundError:
+        return default
\x20
\x20
 def save(path, data):
--\x20
2.39.5

"""


def test_format_patch_of_two_commits() -> None:
    lines, plan = plan_of(FORMAT_PATCH)
    ranks = dict(zip(lines, plan.priorities, strict=False))  # the first occurrence wins
    for named in (
        "diff --git a/notes.txt b/NOTES.md",
        "similarity index 100%",
        "rename from notes.txt",
        "rename to NOTES.md",
        "GIT binary patch",
        "deleted file mode 100644",
        "+++ /dev/null",
        "old mode 100644",
        "new mode 100755",
        "@@ -1,8 +1,13 @@",
    ):
        assert ranks[named] == NAMES, named
    assert ranks["Subject: [PATCH 1/2] Store JSON, rename notes"] == SHAPE
    subject = "Subject: [PATCH 2/2] Load returns a default for a missing file"
    assert rank_of(FORMAT_PATCH, subject) == SHAPE
    assert ranks[" 5 files changed, 7 insertions(+), 7 deletions(-)"] == SHAPE
    assert ranks[" 1 file changed, 6 insertions(+), 3 deletions(-)"] == SHAPE
    assert ranks["The store now reads and writes JSON instead of raw text."] == OPENING
    assert ranks["From: T <a@b.c>"] == OPENING
    assert ranks[" src/store.py          |   9 +++++++--"] == OPENING
    # Binary data and the signature say nothing to a reader.
    assert ranks["XcmeAS@N?(olHy`uVBq!iaESl_8ngoB"] == NOISE
    assert ranks["literal 16"] == NOISE
    assert ranks["-- "] == ranks["2.39.5"] == NOISE
    # Signatures, then errors, then the first changes, then the rest, then context.
    assert ranks["+def load(path, default=None):"] == SHAPE
    assert ranks["-def load(path):"] == SHAPE
    assert ranks['+        raise ValueError("empty path")'] == ALERT
    assert ranks["+import json"] == OPENING
    assert ranks["+        json.dump(data, f)"] == CHANGE
    assert ranks["+"] == CONTEXT  # an added blank line
    assert ranks["     with open(path) as f:"] == CONTEXT
    assert ranks[" def save(path, data):"] == CHANGE
    # A deleted file's lines rank one lower: its header says it went.
    assert ranks["-func main() {"] == ALERT
    assert ranks["-package main"] == CHANGE


def test_task_terms_rank_changed_lines_and_commit_text_before_other_changes() -> None:
    terms = TaskTerms.from_task("why is the default missing")
    assert rank_of(FORMAT_PATCH, "+        return default", terms) == ALERT
    assert rank_of(FORMAT_PATCH, "+        return default") == CHANGE
    context = "     with open(path) as f:"
    assert rank_of(FORMAT_PATCH, context, TaskTerms.from_task("open")) == CHANGE
    assert rank_of(FORMAT_PATCH, context) == CONTEXT
    message = "The store now reads and writes JSON instead of raw text."
    assert rank_of(FORMAT_PATCH, message, TaskTerms.from_task("json")) == ALERT


def test_text_after_a_file_without_hunks_is_not_a_header() -> None:
    """A commit whose last file is only renamed: its signature and the next commit's message
    follow the rename lines directly, where git's reading is still in the file's header."""
    text = (
        "From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 1/2] Rename\n\n---\n"
        "diff --git a/a.py b/b.py\nsimilarity index 100%\nrename from a.py\nrename to b.py\n"
        "-- \n2.39.5\n\nFrom 2 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] Next\n\n"
        "Why the next change.\n"
    )
    lines, plan = plan_of(text)
    ranks = dict(zip(lines, plan.priorities, strict=False))
    assert ranks["rename to b.py"] == NAMES
    assert ranks["-- "] == ranks["2.39.5"] == NOISE
    assert ranks["Subject: [PATCH 2/2] Next"] == SHAPE
    assert ranks["Why the next change."] == OPENING
    assert ranks["From 2 Mon Sep 17 00:00:00 2001"] == OPENING


GIT_LOG = """\
commit 64671109f063522126614adce3c9b037b980cc46
Author: T <a@b.c>
Date:   Tue Dec 1 11:06:01 2026 +0000

    Load returns a default for a missing file

    The caller no longer checks first.

diff --git a/logo.png b/logo.png
index 029ace0..7245348 100644
Binary files a/logo.png and b/logo.png differ
diff --git a/src/store.py b/src/store.py
index 77673a0..92d10bc 100644
--- a/src/store.py
+++ b/src/store.py
@@ -1,3 +1,3 @@ import json
 def load(path):
-    return open(path).read()
+    return open(path).read().strip()
\\ No newline at end of file
"""


def test_git_log_subject_and_binary_files_line() -> None:
    lines, plan = plan_of(GIT_LOG)
    ranks = dict(zip(lines, plan.priorities, strict=True))
    assert ranks["    Load returns a default for a missing file"] == SHAPE
    assert ranks["    The caller no longer checks first."] == OPENING
    assert ranks["commit 64671109f063522126614adce3c9b037b980cc46"] == OPENING
    assert ranks["Binary files a/logo.png and b/logo.png differ"] == NAMES
    assert ranks["@@ -1,3 +1,3 @@ import json"] == NAMES


def test_no_newline_marker_goes_with_its_line() -> None:
    lines, plan = plan_of(GIT_LOG)
    marker = lines.index("\\ No newline at end of file")
    assert plan.priorities[marker] == plan.priorities[marker - 1] == OPENING
    lines, plan = plan_of(GIT_LOG.replace("().strip()", "().strip()\n+    raise OSError()"))
    marker = lines.index("\\ No newline at end of file")
    assert plan.priorities[marker] == plan.priorities[marker - 1] == ALERT


COMBINED = """\
commit fe414c1f3aa2744648945987728ff4f3cde01526
Merge: 6467110 6c5b2c9
Author: T <a@b.c>
Date:   Tue Dec 1 11:06:04 2026 +0000

    Merge branch side

diff --cc src/store.py
index 92d10bc,18d3af2..9c65569
--- a/src/store.py
+++ b/src/store.py
@@@ -1,12 -1,9 +1,12 @@@
  import json
\x20\x20
\x20\x20
 -def load(path):
 -    with open(path) as f:
 -        return json.loads(f.read())
 +def load(path, default=None):
 +    try:
 +        with open(path) as f:
-             return json.load(f)
++            return json.loads(f.read())
 +    except FileNotFoundError:
 +        return default
\x20\x20
\x20\x20
  def save(path, data):
"""


def test_combined_diff_reads_every_marker_column() -> None:
    lines, plan = plan_of(COMBINED)
    ranks = dict(zip(lines, plan.priorities, strict=False))
    assert ranks["diff --cc src/store.py"] == NAMES
    assert ranks["index 92d10bc,18d3af2..9c65569"] > NAMES
    assert ranks["@@@ -1,12 -1,9 +1,12 @@@"] == NAMES
    assert ranks["    Merge branch side"] == SHAPE
    assert ranks[" -def load(path):"] == SHAPE
    assert ranks[" +def load(path, default=None):"] == SHAPE
    assert ranks[" -    with open(path) as f:"] == OPENING
    assert ranks["++            return json.loads(f.read())"] == CHANGE
    assert ranks["  def save(path, data):"] == CHANGE
    assert ranks["  import json"] == CONTEXT


DIFF_R = """\
Binary files old/blob.bin and new/blob.bin differ
diff -ru old/lib/x.txt new/lib/x.txt
--- old/lib/x.txt\t2026-12-01 11:06:04.247128575 +0000
+++ new/lib/x.txt\t2026-12-01 11:06:04.247128575 +0000
@@ -1,3 +1,3 @@
 a
-b
+B
 c
Only in old: only_old.txt
"""


def test_diff_without_git_headers() -> None:
    _lines, plan = plan_of(DIFF_R)
    assert list(plan.priorities) == [
        NAMES,
        NAMES,
        NAMES,
        NAMES,
        NAMES,
        CONTEXT,
        OPENING,
        OPENING,
        CONTEXT,
        NAMES,
        CONTEXT,  # the empty string after the final newline
    ]
    plain = "--- a.txt\n+++ b.txt\n@@ -1 +1 @@\n-old\n+new\n"
    assert list(plan_of(plain)[1].priorities) == [NAMES, NAMES, NAMES, OPENING, OPENING, CONTEXT]


def test_a_removed_line_that_reads_like_a_header_is_a_change() -> None:
    text = (
        "diff --git a/q.sql b/q.sql\n--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,2 @@\n"
        "--- old comment\n+++ this is not a header\n SELECT 1;\n"
    )
    _lines, plan = plan_of(text)
    assert list(plan.priorities)[4:6] == [OPENING, OPENING]


def test_a_minified_line_is_kept_as_its_head_first() -> None:
    minified = "+" + "var a=function(){return 1};" * 200  # 5,401 characters
    text = (
        "diff --git a/app.min.js b/app.min.js\n--- a/app.min.js\n+++ b/app.min.js\n"
        f"@@ -1 +1 @@\n-x\n{minified}\n"
    )
    lines, plan = plan_of(text)
    index = lines.index(minified)
    assert plan.priorities[index] == OPENING + 2
    assert plan.short_forms == {index: ShortForm(minified[:300] + " …", OPENING)}
    assert plan.priorities[lines.index("-x")] == OPENING


@pytest.mark.parametrize("text", [FORMAT_PATCH, GIT_LOG, COMBINED, DIFF_R])
def test_crlf_lines_rank_as_lf_lines(text: str) -> None:
    lf = COMPRESSOR.line_plan(text.split("\n"), NO_TASK)
    crlf = COMPRESSOR.line_plan(text.replace("\n", "\r\n").split("\n"), NO_TASK)
    assert list(crlf.priorities) == list(lf.priorities)
