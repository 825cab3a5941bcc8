"""Log files: the Tier 2 compressor, and the line plan of smart mode.

The design keeps every ERROR and WARNING line and the first and last 10 lines, and summarizes
runs of INFO lines. A line's severity is `severity`'s; smart mode's ranks are `line_plan`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import compress, count
from operator import itemgetter

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.kinds.logs.line_plan import (
    ERROR_STATEMENT,
    FIRST_ROUTINE,
    HEAD_LINES,
    LAST_ERROR,
    LAST_REPEAT,
    LEVELLED_ERROR,
    LONG_LINE_CHARS,
    LONG_LINE_DEMOTION,
    TAIL_LINES,
    LineRanker,
    last_true,
    mark_last_occurrences,
    short_form,
)
from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    Severity,
    classify,
    describe_lines,
    digit_keys,
)
from cleveragents.application.services.artifact_compression.kinds.logs.streaming import (
    LogCandidates,
    collect_log_candidates,
)
from cleveragents.application.services.artifact_compression.kinds.logs.trouble import (
    last_trouble_lines,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

__all__ = [
    "HEAD_LINES",
    "TAIL_LINES",
    "LogCompressor",
]


def info_marker(omitted_lines: int) -> str:
    """Tier 2 summary of a run of info (and debug, unleveled) lines."""
    return f"... ({omitted_lines} info lines omitted)"


_MARKER = re.compile(r"\.\.\. \((\d+) info lines omitted\)\r?")


def _split(text: str) -> tuple[list[str], bool]:
    """The lines of `text` (split on ``\\n`` only, so nothing else is taken for a line break)
    and whether it ended with a newline."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
        return lines, True
    return lines, False


def _omitted(line: str) -> int:
    """How many original lines `line` stands for: its count if it is an earlier marker."""
    match = _MARKER.fullmatch(line)
    return int(match.group(1)) if match else 1


class LogCompressor(KindCompressor):
    """The design's log compressor: errors, warnings, traces, task lines, head and tail verbatim;
    every run of other lines becomes ``... (N info lines omitted)``.

    A run whose text is no longer than its marker would be (a blank line, a short `ok`) is kept
    as it is, so Tier 2 never makes a log longer; earlier markers inside a run are added into the
    new count, so compressing twice still counts every original line.
    """

    kind = ArtifactKind.LOG
    streams = True  # smart mode packs a log too large to hold from one pass over its lines
    rewrites_text = False

    def tier2(self, text: str, terms: TaskTerms) -> str:
        lines, final_newline = _split(text)
        tail_start = len(lines) - TAIL_LINES
        out: list[str] = []
        run: list[str] = []

        def flush() -> None:
            if not run:
                return
            marker = info_marker(sum(_omitted(line) for line in run))
            marker += "\r" if run[0].endswith("\r") else ""
            if sum(len(line) + 1 for line in run) - 1 <= len(marker):
                out.extend(run)  # shorter than its marker: the lines themselves say more
            else:
                out.append(marker)
            run.clear()

        for index, (line, severity) in enumerate(classify(lines)):
            if (
                index < HEAD_LINES
                or index >= tail_start
                or severity <= Severity.WARNING
                or terms.matches(line)
            ):
                flush()
                out.append(line)
            else:
                run.append(line)
        flush()
        return "\n".join(out) + ("\n" if final_newline else "")

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        keys = digit_keys(lines)
        described = describe_lines(lines, keys)
        ranked = LineRanker(terms).rank_rows(described, keys)
        # The rest reads the ranked rows column by column, in C (map, zip, list.index): a
        # Python loop turn per line would cost what ranking them did.
        ranks = list(map(itemgetter(0), ranked))
        messages = list(map(itemgetter(1), ranked))
        mark_last_occurrences(ranks, messages, ranked)
        for index in range(min(HEAD_LINES, len(lines))):
            ranks[index] = min(ranks[index], FIRST_ROUTINE)
        for index in range(max(len(lines) - TAIL_LINES, 0), len(lines)):
            ranks[index] = min(ranks[index], FIRST_ROUTINE)
        trouble = last_trouble_lines(lines)
        for index in trouble.values():
            ranks[index] = min(ranks[index], LAST_REPEAT)
        for column in (ERROR_STATEMENT, LEVELLED_ERROR):
            last = last_true(list(map(itemgetter(column), ranked)))
            if last is not None:
                ranks[last] = LAST_ERROR
        if trouble:  # the last line that mentions trouble, whatever its level
            ranks[max(trouble.values())] = LAST_ERROR
        short_forms: dict[int, ShortForm] = {}
        long_lines = compress(count(), map(LONG_LINE_CHARS.__lt__, map(len, lines)))
        for index in long_lines:
            short_forms[index] = ShortForm(short_form(lines[index]), ranks[index])
            ranks[index] += LONG_LINE_DEMOTION
        return LinePlan(ranks, short_forms, messages)

    def stream_candidates(
        self, lines: Iterable[str], terms: TaskTerms, budget: int
    ) -> LogCandidates:
        return collect_log_candidates(lines, terms, budget)
