"""Smart mode's ranks of the diffs of the shared corpus (skipped when it is absent): file and
hunk headers come before every other line, changed signatures before other changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import corpus_files
from tests.diff_plan_samples import CHANGE, NAMES, NOISE, OPENING, SHAPE, plan_of

DATA = Path(__file__).resolve().parents[1] / "data"
HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
PY_DEF = re.compile(r"\s*(?:async\s+)?(?:def|class)\s")
HEADER_STARTS = ("diff --git ", "index ", "--- ", "+++ ", "new file mode ", "deleted file mode ")


def _corpus() -> list[Path]:
    by_name = {path.name: path for path in sorted(DATA.glob("click-*.diff"))}
    by_name.update({path.name: path for path in corpus_files("diffs", "*.diff")})
    return [by_name[name] for name in sorted(by_name)]


def read_git_diff(text: str) -> list[tuple[str, str, str]]:
    """(path, line, kind) for every line of a git diff: kind is header, hunk, body or other.
    An independent, count-based reading of the unified format."""
    rows = []
    path, old, new = "", 0, 0
    for line in text.split("\n"):
        if old > 0 or new > 0:
            old -= line[:1] in (" ", "-", "")
            new -= line[:1] in (" ", "+", "")
            rows.append((path, line, "body"))
        elif line.startswith("@@"):
            match = HUNK.match(line)
            assert match is not None
            old, new = int(match.group(1) or 1), int(match.group(2) or 1)
            rows.append((path, line, "hunk"))
        elif line.startswith("diff --git "):
            path = line.rsplit(" b/", 1)[-1]
            rows.append((path, line, "header"))
        elif line.startswith(HEADER_STARTS) and rows and rows[-1][2] == "header":
            rows.append((path, line, "header"))
        else:
            rows.append((path, line, "other"))
    return rows


@pytest.mark.parametrize("path", _corpus(), ids=lambda path: path.name)
def test_corpus_file_and_hunk_headers_come_before_every_other_line(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rows = read_git_diff(text)
    _lines, plan = plan_of(text)
    for (_, line, kind), rank in zip(rows, plan.priorities, strict=True):
        if kind == "header" and line.startswith("index "):
            assert rank > NAMES, line  # blob hashes name nothing
        elif kind == "header" and line.startswith(("--- ", "+++ ")):
            # the paths `diff --git` named already, unless one is /dev/null (added, deleted)
            assert rank == (NAMES if line.endswith("/dev/null") else NAMES + 1), line
        elif kind in ("header", "hunk"):
            assert rank == NAMES, line
        else:
            assert rank > NAMES, line


@pytest.mark.parametrize("path", _corpus(), ids=lambda path: path.name)
def test_corpus_changed_signatures_come_before_other_changes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rows = read_git_diff(text)
    lines, plan = plan_of(text)
    deleted = {file for file, line, _ in rows if line == "+++ /dev/null"}
    signatures, others = [], []
    for (file, line, kind), rank in zip(rows, plan.priorities, strict=True):
        changed = line[:1] in ("+", "-")
        if kind != "body" or not file.endswith(".py") or not changed or file in deleted:
            continue
        code = line[1:]
        if PY_DEF.match(code) or code.lstrip().startswith("@"):  # decorators are declarations
            signatures.append(rank)
        elif code.strip() and not re.search(r"raise|Error|Exception|assert|fail|error", code):
            others.append(rank)
    assert signatures or "b7e5fd4c" in path.name  # that commit changes no Python signature
    assert set(signatures) <= {SHAPE}
    assert set(others) <= {OPENING, CHANGE}
    assert set(plan.priorities) <= set(range(NOISE + 1))
    assert lines[1].startswith("Subject: ")
    assert plan.priorities[1] == SHAPE
