"""Log files: smart mode's rank of each line.

Smart mode ranks every line by what it adds (lower is kept first; see `LineRanker`): the last
error of the log and its last line that mentions trouble at any level (`trouble`, added by
`LogCompressor.line_plan`, which also ranks the last line of each other trouble word with the
last occurrences); the first occurrence of each error message (its template, see
`templates`), with the first line and the exception lines of its stack trace; the first
occurrence of each warning and of each line naming the task; the first occurrence of every
other message and the first and last lines; then the last occurrence of each error and warning;
then the other repeats: of errors and of lines naming the task, of warnings, of routine lines.
So a log that repeats one warning a thousand times keeps each of its other messages once before
the second copy of that warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.logs.joined_lines import (
    lines_holding,
)
from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    Described,
    LineKind,
    LogLine,
    Severity,
)
from cleveragents.application.services.artifact_compression.kinds.logs.templates import (
    TemplateIndex,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

__all__ = [
    "ERROR_REPEAT",
    "ERROR_STATEMENT",
    "FIRST_ERROR",
    "FIRST_ROUTINE",
    "FIRST_WARNING",
    "LAST_ERROR",
    "LAST_REPEAT",
    "LEVELLED_ERROR",
    "LONG_LINE_CHARS",
    "LONG_LINE_DEMOTION",
    "ROUTINE_REPEAT",
    "WARNING_REPEAT",
    "LineRanker",
    "RankedLine",
    "RankedRow",
    "last_true",
    "mark_last_occurrences",
    "short_form",
]

HEAD_LINES = 10  # the first lines, kept by Tier 2 and ranked FIRST_ROUTINE at least
TAIL_LINES = 10  # the last lines, likewise

# Smart mode's ranks of log lines (lower is kept first).
LAST_ERROR = 0  # the last error of the log: how it ended
FIRST_ERROR = 1  # the first occurrence of each error message, and its trace's key lines
FIRST_WARNING = 2  # the same for warnings; lines naming the task; frames of a new error trace
FIRST_ROUTINE = 3  # the first occurrence of every other message; the first and last lines
LAST_REPEAT = 4  # the last occurrence of each error and warning, the first with another
# word in its varying place (another user), the last line of each trouble word
ERROR_REPEAT = 5  # the other repeats of errors, and repeated task lines
WARNING_REPEAT = 6  # the other repeats of warnings
ROUTINE_REPEAT = 7  # repeated routine lines, and omission markers of an earlier compression

# Messages and variants of errors and warnings remembered (memory stays bounded; past the limit
# a new one counts as new each time it shows).
MESSAGE_LIMIT = 200_000
VARIANT_LIMIT = 100_000
TRACE_HEAD_LINES = 10  # frames of a kept error's trace that rank right after it, new or not

LONG_LINE_CHARS = 500
"""A line longer than this is kept as its head first (see `short_form`), and whole later."""
SHORT_FORM_CHARS = 300
LONG_LINE_DEMOTION = 3  # ranks the whole of a long line falls behind its head


_MARKER_START = "... ("


def _is_marker(line: str) -> bool:
    """An omission marker of an earlier compression (``... (12 info lines omitted)``, ``...
    (lines 5-9 omitted)``): it stands for lines that are not here."""
    return line.startswith(_MARKER_START) and line.rstrip("\r").endswith(")")


def short_form(line: str) -> str:
    """The head of a long line that is kept before the whole of it."""
    return line[:SHORT_FORM_CHARS].rstrip() + " …"


# Errors and fatal lines are one class for the ranks, info and unlevelled lines another.
_MESSAGE_CLASS = {
    Severity.FATAL: Severity.ERROR,
    Severity.ERROR: Severity.ERROR,
    Severity.WARNING: Severity.WARNING,
    Severity.INFO: Severity.INFO,
    Severity.OTHER: Severity.INFO,
}
# Read once a line: module names, not attribute look-ups.
_ERROR, _INFO = Severity.ERROR, Severity.INFO
_ENTRY, _EXCEPTION, _DETAIL = LineKind.ENTRY, LineKind.EXCEPTION, LineKind.DETAIL
_FIRST = {Severity.ERROR: FIRST_ERROR, Severity.WARNING: FIRST_WARNING}
_REPEAT = {Severity.ERROR: ERROR_REPEAT, Severity.WARNING: WARNING_REPEAT}


RankedRow = tuple[int, int, bool, bool, bool]
"""A `RankedLine` as a plain tuple (cheaper to make: there is one per line)."""
ERROR_STATEMENT, LEVELLED_ERROR, REPEATED_PROBLEM = 2, 3, 4  # its columns of flags


class RankedLine(NamedTuple):
    """One line's rank as far as the lines before it tell, and what the ranks that need the
    whole log use: its message (one id per class and template, equal for repeats), whether it
    is an error statement (a levelled error or an exception line), a levelled error, and a
    repeat of an error or warning. (A named tuple: there is one per line.)"""

    rank: int
    message: int
    error_statement: bool
    levelled_error: bool
    repeated_problem: bool


@dataclass
class LineRanker:
    """Smart mode's ranks, one line after the other (so that a huge log can be streamed).

    `rank_batch` gives what the lines so far decide: the first occurrence of a message (a
    template of one class: an error and an info line never share one) ranks by its class, a
    repeat as a repeat, and the lines of a trace by the entry they belong to. What needs the
    whole log (the last error, the last occurrence of each message, the last lines) is added by
    `LogCompressor.line_plan` or the streaming collector.
    """

    terms: TaskTerms
    _templates: TemplateIndex = field(default_factory=TemplateIndex)
    _messages: dict[tuple[Severity, int], int] = field(default_factory=dict)
    _variants: set[tuple[Severity, int]] = field(default_factory=set)
    _task_messages: set[int] = field(default_factory=set)
    _message_count: int = 0
    # The entry the trace lines that follow belong to: its class, whether it was kept as the
    # first occurrence of its message, and how many trace lines it has had.
    _trace_class: Severity = Severity.ERROR  # before any entry: a program's bare stderr
    _trace_kept: bool = False
    _trace_lines: int = 0

    def rank_batch(self, lines: Sequence[LogLine]) -> list[RankedLine]:
        """The ranks of the next `lines` (in batches: templates are masked a batch at once)."""
        return list(map(RankedLine._make, self.rank_rows(lines)))

    def rank_rows(
        self, lines: Sequence[Described], keys: Sequence[str] | None = None
    ) -> list[RankedRow]:
        """`rank_batch` as plain tuples (one per line: the fields of `RankedLine`); `keys`: the
        lines' digits-as-one keys when the caller has them already."""
        texts = [line[0] for line in lines]
        assigned = self._templates.assign(texts, keys)
        # One loop with the ranker's state in locals (it runs once a line of the log); the
        # state goes back to the ranker at the end. Omission markers and lines naming the task
        # are ranked after it (`_rank_marked`): no other rank or state depends on them.
        messages = self._messages
        count = self._message_count
        trace_class, trace_kept, trace_lines = (
            self._trace_class,
            self._trace_kept,
            self._trace_lines,
        )
        ranked: list[RankedRow] = []
        append = ranked.append
        for (_, severity, kind), (template, variant) in zip(lines, assigned, strict=True):
            if kind is _ENTRY:
                message_class = _MESSAGE_CLASS[severity]
                key = (message_class, template)
                message = messages.get(key)
                first = message is None
                if message is None:
                    message = count
                    count += 1
                    if message < MESSAGE_LIMIT:
                        messages[key] = message
                trace_lines = 0
                if message_class is _INFO:  # routine
                    append(
                        (FIRST_ROUTINE if first else ROUTINE_REPEAT, message, False, False, False)
                    )
                    trace_class = _ERROR
                    trace_kept = False
                    continue
                rank = self._entry_rank(message_class, first, self._new(key, variant))
                trace_class = message_class
                trace_kept = first
                error = message_class is _ERROR
                append((rank, message, error, error, not first))
                continue
            key = (trace_class, template)
            message = messages.get(key)
            first = message is None
            if message is None:
                message = count
                count += 1
                if message < MESSAGE_LIMIT:
                    messages[key] = message
            # What went wrong, and where the trace starts; then where it went wrong.
            if kind is _EXCEPTION or trace_lines == 0:
                rank = _FIRST[trace_class] if first or trace_kept else _REPEAT[trace_class]
            elif first or (trace_kept and trace_lines + 1 <= TRACE_HEAD_LINES):
                rank = _FIRST[trace_class] + 1
            else:
                rank = _REPEAT[trace_class]
            trace_lines += 1
            detail = kind is _DETAIL
            append(
                (
                    rank,
                    message,
                    trace_class is _ERROR and not detail,
                    False,
                    not (first or detail),
                )
            )
        self._message_count = count
        self._trace_class, self._trace_kept, self._trace_lines = (
            trace_class,
            trace_kept,
            trace_lines,
        )
        self._rank_marked(texts, ranked)
        return ranked

    def _rank_marked(self, texts: list[str], ranked: list[RankedRow]) -> None:
        """Omission markers of an earlier compression rank last; a line naming the task ranks
        as a first occurrence the first time a line of its message does, else as a repeat."""
        joined = "\n".join(texts)
        markers = lines_holding(texts, (_MARKER_START,), joined)
        named: list[int] = []
        if self.terms.terms:
            named = lines_holding(texts, self.terms.terms, joined, lowered=True)
        task_lines = set(named)
        for index in sorted(task_lines.union(markers)):
            rank, message, error_statement, levelled_error, repeated = ranked[index]
            if _is_marker(texts[index]):
                rank = ROUTINE_REPEAT
            elif index in task_lines:
                task_first = message not in self._task_messages
                self._task_messages.add(message)
                rank = min(rank, FIRST_WARNING if task_first else ERROR_REPEAT)
            ranked[index] = (rank, message, error_statement, levelled_error, repeated)

    def _new(self, key: tuple[Severity, int], variant: int) -> bool:
        """Whether `variant` of the message is new (another word in its varying place)."""
        seen = (key[0], variant)
        if seen in self._variants:
            return False
        if len(self._variants) < VARIANT_LIMIT:
            self._variants.add(seen)
        return True

    @staticmethod
    def _entry_rank(message_class: Severity, first: bool, new_variant: bool) -> int:
        if message_class is Severity.INFO:
            return FIRST_ROUTINE if first else ROUTINE_REPEAT
        if first:
            return _FIRST[message_class]
        # A message seen before with other words in a place that varies (another user, another
        # host): kept with the last occurrences, before the other repeats.
        return LAST_REPEAT if new_variant else _REPEAT[message_class]


def mark_last_occurrences(
    ranks: list[int], messages: list[int], ranked: Sequence[RankedRow]
) -> None:
    """The last occurrence of each repeated error and warning message ranks before the other
    repeats: the last time a problem showed is as telling as the first. (`messages`: the
    message of each line, as `ranked` holds it.)"""
    last_of_each = dict(zip(messages, range(len(messages)), strict=True))  # the later wins
    for index in last_of_each.values():
        if ranked[index][REPEATED_PROBLEM]:
            ranks[index] = min(ranks[index], LAST_REPEAT)


def last_true(flags: list[bool]) -> int | None:
    """The index of the last true flag, or None."""
    if True not in flags:
        return None
    return len(flags) - 1 - flags[::-1].index(True)
