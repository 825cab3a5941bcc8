"""Code diffs: the list of every changed file with its line counts, like ``git diff --stat``,
which smart mode writes before the packed lines when the diff's own headers do not all fit.

A reviewer's first question is which files changed; the headers of a large diff answer it only
when the budget holds every one of them (with the markers between them). The list answers it in
a few tokens a file: the path (``old => new`` for a rename or copy), lines added and removed,
and what else git says of the file (new, deleted, binary, a mode change, the similarity of a
rename).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

from cleveragents.application.services.artifact_compression.kinds.diff.parsing import (
    FILE_STARTS,
    DiffLineKind,
    Segments,
    diff_segments,
)


@dataclass(slots=True)
class _File:
    """What the list says of one file, gathered from its header and hunks."""

    path: str
    old_path: str | None = None  # a rename's or copy's source
    added: int = 0
    removed: int = 0
    notes: list[str] = field(default_factory=list)
    similarity: str | None = None  # git writes it before the rename: the list, after
    binary: bool = False

    def name(self) -> str:
        return f"{self.old_path} => {self.path}" if self.old_path else self.path

    def line(self) -> str:
        name = self.name()
        change = "binary" if self.binary else f"+{self.added} -{self.removed}"
        said = [*self.notes, *([self.similarity] if self.similarity else [])]
        notes = f" ({', '.join(said)})" if said else ""
        return f" {name} | {change}{notes}"


def file_lists(lines: list[str], segments: Segments | None = None) -> tuple[str, ...]:
    """The summaries smart mode may write first, richest first: the list with each file's
    counts (`file_list`), then the paths alone on one line, for a budget too small for the
    counts; none for a text that is no diff."""
    files = _files(lines, segments)
    if not files:
        return ()
    paths = ", ".join(f.name() for f in files)
    return ("\n".join(_listed(files)), f"diff: {len(files)} {_noun(files)} changed: {paths}")


def file_list(lines: list[str]) -> list[str] | None:
    """The list, a title line first (``diff: 3 files changed, +12 -4``), one line per file;
    None for a text with no file header (not a diff git or ``diff -u`` writes)."""
    files = _files(lines)
    return _listed(files) if files else None


def _noun(files: list[_File]) -> str:
    return "file" if len(files) == 1 else "files"


def _listed(files: list[_File]) -> list[str]:
    added = sum(f.added for f in files)
    removed = sum(f.removed for f in files)
    title = f"diff: {len(files)} {_noun(files)} changed, +{added} -{removed}"
    return [title, *(f.line() for f in files)]


_MARKER = itemgetter(slice(0, 1))  # a line's first character, or "" for an empty line


def _files(lines: list[str], segments: Segments | None = None) -> list[_File]:
    """Every file of the diff, in order, with what its headers and hunks say of it."""
    files: list[_File] = []
    current: _File | None = None
    headed = False  # the current file's `+++` line or a hunk was seen: a `---` starts the next
    for kind, _, start, end in diff_segments(lines) if segments is None else segments:
        if kind is DiffLineKind.BODY and current is not None:
            headed = True
            markers = list(map(_MARKER, lines[start:end]))
            current.added += markers.count("+")
            current.removed += markers.count("-")
            continue
        if kind is not DiffLineKind.FILE_HEADER:
            continue
        line = lines[start].removesuffix("\r")
        if line.startswith(FILE_STARTS) or (
            line.startswith("--- ") and (current is None or headed)
        ):
            current = _File(_git_path(line))
            files.append(current)
            headed = False
        elif current is not None:
            headed = headed or line.startswith("+++ ")
            _header(current, line)
    return files


def _header(current: _File, line: str) -> None:
    """What one extended header line (after ``diff --git``) says of the file."""
    if line.startswith(("rename from ", "copy from ")):
        current.old_path = line.split(" from ", 1)[1]
        current.notes.append("renamed" if line.startswith("rename") else "copied")
    elif line.startswith(("rename to ", "copy to ")):
        current.path = line.split(" to ", 1)[1]
    elif line.startswith("similarity index "):
        current.similarity = line.removeprefix("similarity index ") + " similar"
    elif line.startswith("new file mode "):
        current.notes.append("new")
    elif line.startswith("deleted file mode "):
        current.notes.append("deleted")
    elif line.startswith("old mode "):
        current.notes.append(f"mode {line.removeprefix('old mode ')}")
    elif line.startswith("new mode ") and current.notes and current.notes[-1].startswith("mode"):
        current.notes[-1] += f" => {line.removeprefix('new mode ')}"
    elif line.startswith(("Binary files ", "GIT binary patch")):
        current.binary = True
    elif line.startswith("+++ ") and not line.startswith("+++ /dev/null"):
        current.path = _side_path(line)


def _side_path(line: str) -> str:
    """The path of a ``--- a/x`` or ``+++ b/x`` line, without its side's prefix and the
    timestamp ``diff -u`` writes after a tab."""
    path = line[4:].split("\t", 1)[0].strip()
    if path.startswith('"') and path.endswith('"') and len(path) > 1:
        path = path[1:-1]
    return path[2:] if path.startswith(("a/", "b/")) else path


def _git_path(line: str) -> str:
    """The file a ``diff --git a/x b/x`` (or ``diff --cc x``, or ``--- x``) line names: its new
    path. Paths with spaces are told apart by the two sides being the same path; otherwise
    the ``+++`` or ``rename to`` line that follows corrects it."""
    if line.startswith("--- "):
        return _side_path(line)
    rest = line.split(" ", 2)[2] if line.count(" ") >= 2 else ""
    if line.startswith(("diff --cc ", "diff --combined ")):
        return rest
    if rest.startswith('"'):
        quoted = rest.rsplit('"', 2)
        return _side_path("+++ " + '"' + quoted[-2] + '"') if len(quoted) >= 3 else rest
    half = (len(rest) - 1) // 2
    if rest[:2] == "a/" and rest[half + 1 : half + 3] == "b/" and rest[2:half] == rest[half + 3 :]:
        return rest[half + 3 :]
    return rest.rsplit(" b/", 1)[-1] if " b/" in rest else rest
