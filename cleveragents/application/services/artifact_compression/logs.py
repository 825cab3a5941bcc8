"""Log files: the seed's Tier 2 strategy, and the per-line severity it is built on.

The seed keeps every ERROR and WARNING line and the first and last 10 lines, and summarizes
runs of INFO lines. Real logs write their level in many ways, so a line's severity is the
*leftmost* level token in it, in any of these forms:

* an upper-case word: HDFS ``081109 203615 148 INFO dfs...``, Spark ``17/06/09 20:10:40 INFO``,
  Hadoop ``... WARN [main] ...``, Zookeeper ``... - WARN  [...]``, Python's ``ERROR:root:msg``;
* a bracketed word in any case: Apache ``[error]``, ``[warn]``, Maven ``[ERROR]``;
* a key-value pair: ``level=error``, ``"level": "warn"``;
* a word followed by a colon after a colon, as syslog daemons write it: OpenSSH
  ``sshd[24324]: error: ...``, ``fatal: ...``.

Leftmost wins, so an INFO line that *mentions* an error stays INFO. A line without any level is
still important when it is part of a failure report: a Python traceback (``Traceback (most recent
call last):``, its indented frames and its final ``SomethingError: msg`` line), a Java stack trace
(``at pkg.Cls.method(...)``, ``Caused by:``, ``... 12 more``, and the exception line right above
the first frame), or an unlevelled line that reports a failure (OpenSSH's ``Failed password``,
``Invalid user``, ``authentication failure``), which counts as a warning.

`line_severity` and `is_important` look at one line, for a streaming pass over huge logs;
`classify` adds the little state that tracebacks need (which frames follow which header) and is
what the strategy uses. Everything is one pass with precompiled, backtracking-safe patterns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum

from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

__all__ = ["LogStrategy", "Severity", "classify", "is_important", "line_severity"]

HEAD_LINES = 10
TAIL_LINES = 10


class Severity(IntEnum):
    """How bad a log line is; lower is worse, like `Priority`."""

    FATAL = 0  # fatal, critical, severe, emergency, alert, panic
    ERROR = 1  # errors, and the lines of tracebacks and stack traces
    WARNING = 2  # warnings, and unlevelled lines that report a failure
    INFO = 3  # info, notice, debug, trace: routine
    OTHER = 4  # no level found


_WORD_SEVERITY: dict[str, Severity] = {
    **dict.fromkeys(
        ("fatal", "critical", "crit", "severe", "emerg", "emergency", "alert", "panic"),
        Severity.FATAL,
    ),
    **dict.fromkeys(("error", "err"), Severity.ERROR),
    **dict.fromkeys(("warn", "warning"), Severity.WARNING),
    **dict.fromkeys(
        ("info", "notice", "debug", "trace", "fine", "finer", "finest", "config", "verbose"),
        Severity.INFO,
    ),
}

# Candidates for the leftmost level token. The pattern starts with a character set so that the
# regex engine skips, in C, every position where no token can start (3 times faster on real
# logs than a pattern that starts with `\b`); the look-behinds then check the word boundary.
# An upper-case word or a bracketed or `level=` word is a level only when `_WORD_SEVERITY` knows
# it, so `finditer` goes on past `BLOCK*` or `[main]` to the real token.
_LEVEL = re.compile(
    r"[A-Z\[lL:]"
    r"(?:(?<=[A-Z])(?<!\w.)[A-Z]{2,9}\b"  # INFO, ERROR, WARN
    r"|(?<=\[)([A-Za-z]{3,9})\]"  # [error], [warn], [ERROR]
    r"|(?<=[lL])(?<!\w.)(?i:evel)\"?[ \t]*+[=:][ \t]*+\"?([A-Za-z]++)"  # level=error
    r"|(?<=:)[ \t](fatal|error|warning|warn|panic)(?=:))"  # sshd[1]: error: ...
)
_LINE_START_LEVELS = ("fatal:", "error:", "warning:", "warn:", "panic:")  # `fatal: not a git repo`
_FRAME = re.compile(r"[ \t]++at [\w$.<>\[\] /-]*+\(")  # Java or JavaScript stack frame
_TRACE_STARTS = ("Caused by", "Suppressed", "During handling", "The above exception")
_TRACE_LINE = re.compile(
    r"[ \t]++at [\w$.<>\[\] /-]*+\("
    r"|[ \t]*+(?:Caused by|Suppressed): "
    r"|[ \t]++\.\.\. \d++ (?:more|common frames omitted)"
    r"|[ \t]++File \"[^\"]*+\", line \d"  # Python frame
    r"|(?:During handling of the above exception, another exception occurred"
    r"|The above exception was the direct cause of the following exception):"
)
_EXCEPTION_LINE = re.compile(  # `ValueError: msg`, `java.io.IOException`, `KeyboardInterrupt`
    r"[ \t]*+(?:Exception in thread "
    r"|(?:[A-Za-z_$][\w$]*+\.)*+[\w$]*?(?:Error|Exception|Throwable|Interrupt|Exit)"
    r"(?::|[ \t\r]*+$))"
)
_FAILURE_WORDS = ("fail", "invalid", "denied", "refused")
_FAILURE = re.compile(  # on the lower-cased line; starts with a character set, like `_LEVEL`
    r"[fidr](?<!\w.)(?:(?<=f)ail(?:s|ed|ure)?|(?<=i)nvalid|(?<=d)enied|(?<=r)efused)\b"
)
_TRACEBACK = "Traceback (most recent call last):"


def info_marker(omitted_lines: int) -> str:
    """The seed's Tier 2 summary of a run of info (and debug, unleveled) lines."""
    return f"... ({omitted_lines} info lines omitted)"


_MARKER = re.compile(r"\.\.\. \((\d+) info lines omitted\)\r?")


def _level(line: str) -> Severity:
    """The severity named by the leftmost level token of `line`, or OTHER."""
    if line.startswith(_LINE_START_LEVELS):
        return _WORD_SEVERITY[line[: line.index(":")]]
    for match in _LEVEL.finditer(line):
        word = match.group(match.lastindex) if match.lastindex else match.group()
        severity = _WORD_SEVERITY.get(word.lower())
        if severity is not None:
            return severity
    return Severity.OTHER


def line_severity(line: str) -> Severity:
    """The severity of one line on its own (no traceback state): see the module docstring.

    Fast on the routine majority: one regex finds the level; the trace patterns run only on
    lines whose first character allows them, and the failure words only after a substring test.
    """
    first = line[:1]
    if (first in (" ", "\t") or line.startswith(_TRACE_STARTS)) and _TRACE_LINE.match(line):
        return Severity.ERROR
    severity = _level(line)
    if severity <= Severity.ERROR:
        return severity
    if (first.isalpha() or first in ("_", "$", " ", "\t")) and _EXCEPTION_LINE.match(line):
        return Severity.ERROR
    if _is_traceback_start(line):
        return Severity.ERROR
    if severity is Severity.OTHER:
        lowered = line.lower()
        if any(word in lowered for word in _FAILURE_WORDS) and _FAILURE.search(lowered):
            return Severity.WARNING
    return severity


def is_important(line: str) -> bool:
    """Whether the seed keeps this line for its own sake (error, warning or trace line); the
    lines of a Python traceback after its header need `classify`'s state."""
    return line_severity(line) <= Severity.WARNING


def _is_traceback_start(line: str) -> bool:
    return "Traceback" in line and line.rstrip().endswith(_TRACEBACK)


def classify(lines: Iterable[str]) -> Iterator[tuple[str, Severity]]:
    """Each line with its severity, in order, streaming (one line of look-ahead).

    On top of `line_severity`: every line of a Python traceback (its indented frames and source
    lines, and the exception line that ends it) is an ERROR, and so is the line right above a
    stack frame (the exception the frames belong to), whatever it looks like on its own.
    """
    in_traceback = False
    pending: tuple[str, Severity] | None = None
    for line in lines:
        severity = line_severity(line)
        if in_traceback:
            in_traceback = line[:1] in (" ", "\t")
            if in_traceback or line.strip():
                severity = min(severity, Severity.ERROR)
        if _is_traceback_start(line):
            in_traceback = True
        if pending is not None:
            previous, previous_severity = pending
            if previous_severity > Severity.ERROR and _FRAME.match(line):
                previous_severity = Severity.ERROR
            yield previous, previous_severity
        pending = (line, severity)
    if pending is not None:
        yield pending


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


class LogStrategy(ArtifactStrategy):
    """The seed's log strategy: errors, warnings, traces, task lines, head and tail verbatim;
    every run of other lines becomes ``... (N info lines omitted)``.

    A run whose text is no longer than its marker would be (a blank line, a short `ok`) is kept
    as it is, so Tier 2 never makes a log longer; earlier markers inside a run are added into the
    new count, so compressing twice still counts every original line.
    """

    kind = ArtifactKind.LOG

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

    def priorities(self, lines: list[str], terms: TaskTerms) -> list[Priority]:
        tail_start = len(lines) - TAIL_LINES
        result: list[Priority] = []
        for index, (line, severity) in enumerate(classify(lines)):
            if severity <= Severity.ERROR:
                result.append(Priority.CRITICAL)
            elif severity is Severity.WARNING or terms.matches(line):
                result.append(Priority.IMPORTANT)
            elif _MARKER.fullmatch(line):
                result.append(Priority.CONTEXT)
            elif index < HEAD_LINES or index >= tail_start:
                result.append(Priority.USEFUL)
            else:
                result.append(Priority.CONTEXT)
        return result

    def gap_marker(self, omitted_lines: int) -> str:
        # Smart mode drops lines of any level (warnings too, when errors fill the budget), so
        # its marker does not call them info lines.
        return f"... ({omitted_lines} lines omitted)"
