"""Code diffs (git's unified format): the compressor, with Tier 2 here and smart mode's line
ranks in `line_plan`.

The design: "Keep function signatures, class declarations, and error messages. Summarize method
bodies with `// ... (implementation omitted for brevity)`. Remove comments and blank lines."

What a judge needs from a diff is *where* the change is and *what shape* it has, so every file
header and every hunk header is kept verbatim. Inside a hunk each line's code (after its one-char
marker) is read in the language of its file (from the ``+++ b/...`` path):

* kept: signatures and declarations, error reporting (raise, throw, panic, ``error``/``fail`` in a
  string, ``logger.error(``, assert), the ``\\ No newline at end of file`` marker, and lines that
  name a term of the task (even comments: the task asked for them);
* removed: blank lines and comment lines (the comment syntax of the file's language; files of an
  unknown language have no comments, since ``#`` starts a Markdown heading);
* everything else is body: each maximal run of it becomes one placeholder line, written in the
  file's comment syntax, with the marker of the run (``+``/``-`` when the whole run is added or
  removed, else a context space) and the indentation of the run's first line.

Reading the diff is `parsing` (where each line stands) and `roles` (what a body line's code is).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from cleveragents.application.services.artifact_compression.kinds.diff.file_list import file_lists
from cleveragents.application.services.artifact_compression.kinds.diff.line_plan import (
    DiffLineRanker,
)
from cleveragents.application.services.artifact_compression.kinds.diff.parsing import (
    FILE_STARTS,
    DiffLineKind,
    diff_segments,
    scan_diff,
    split_diff,
)
from cleveragents.application.services.artifact_compression.kinds.diff.roles import (
    Comments,
    Role,
    line_role,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    LONG_LINE_CHARS,
    plan_with_short_long_lines,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from cleveragents.domain.languages import (
    IMPLEMENTATION_OMITTED,
    line_comment,
)

__all__ = ["DiffCompressor"]

_KEPT_ROLES = frozenset({Role.NO_NEWLINE, Role.DECLARATION, Role.ERROR})


class DiffCompressor(KindCompressor):
    """The design's code-diff compressor, and smart mode's ranks; see the module docstring."""

    kind = ArtifactKind.DIFF
    streams = False
    rewrites_text = False

    def tier2(self, text: str, terms: TaskTerms) -> str:
        lines, final_newline = split_diff(text)
        out: list[str] = []
        run: list[str] = []  # body lines waiting to become one placeholder
        run_language: str | None = None
        hunks = 0

        def flush() -> None:
            if not run:
                return
            markers = {line[:1] for line in run}
            marker = markers.pop() if len(markers) == 1 and markers <= {"+", "-"} else " "
            first = run[0]
            code = first[1:]
            indent = code[: len(code) - len(code.lstrip(" \t"))]
            comment = line_comment(run_language)
            eol = "\r" if first.endswith("\r") else ""
            placeholder = f"{marker}{indent}{comment} {IMPLEMENTATION_OMITTED}{eol}"
            if len(placeholder) < sum(len(line) + 1 for line in run) - 1:
                out.append(placeholder)
            else:  # a short run (`}`, `return x`) says more, in fewer characters, than its summary
                out.extend(run)
            run.clear()

        for line, (kind, language, role) in zip(lines, _classified(lines), strict=True):
            if kind is not DiffLineKind.BODY:
                hunks += kind is DiffLineKind.HUNK_HEADER
                flush()
                out.append(line)
                continue
            if role is Role.BLANK:
                continue
            mentioned = role is not Role.PLACEHOLDER and terms.matches(line[1:])
            if role is Role.COMMENT and not mentioned:
                continue
            if role in _KEPT_ROLES or mentioned:
                flush()
                out.append(line)
            else:
                run.append(line)
                run_language = language
        flush()
        if hunks and not any(line.startswith("@@") for line in out):
            raise MalformedCompressionError("the compressed diff lost every hunk header")
        return "\n".join(out) + ("\n" if final_newline else "")

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        ranker = DiffLineRanker(terms)
        priorities: list[int] = []
        previous = DiffLineKind.OTHER
        named: list[int] = []  # the lines that start a file's diff, naming it
        segments = list(diff_segments(lines))  # read again by the file list, when it is needed
        ranker.scan(lines, segments)
        for kind, language, start, end in segments:
            if kind is DiffLineKind.BODY:
                ranker.rank_body(lines, start, end, language, priorities)
            else:  # a line of its own
                line = lines[start]
                starts_file = kind is DiffLineKind.FILE_HEADER and (
                    previous is not DiffLineKind.FILE_HEADER or line.startswith(FILE_STARTS)
                )
                if starts_file:
                    named.append(start)
                priorities.append(ranker.rank(line, kind, starts_file))
            previous = kind
        # When the packed lines lose a file's first line, a list of every file comes first.
        summaries = partial(file_lists, lines, segments)
        if max(map(len, lines), default=0) <= LONG_LINE_CHARS:
            # No short forms: spares the helper its loop.
            return LinePlan(priorities, summaries=summaries, summarized=named)
        plan = plan_with_short_long_lines(lines, priorities)
        return replace(plan, summaries=summaries, summarized=named)


def _classified(lines: list[str]) -> list[tuple[DiffLineKind, str | None, Role | None]]:
    """Each line's kind, language and (for body lines) role, as Tier 2 reads them."""
    comments = Comments()
    classified: list[tuple[DiffLineKind, str | None, Role | None]] = []
    for line, (kind, language) in zip(lines, scan_diff(lines), strict=True):
        if kind is not DiffLineKind.BODY:
            if kind is not DiffLineKind.OTHER:
                comments.reset()
            classified.append((kind, language, None))
        else:
            classified.append((kind, language, line_role(line, language, comments)))
    return classified
