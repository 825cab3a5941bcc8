"""Log files: per-line severity, and a line's part in a failure report (tracebacks, stack traces).

The design keeps every ERROR and WARNING line and the first and last 10 lines, and summarizes
runs of INFO lines. Real logs write their level in many ways, so a line's severity is the
*leftmost* level token in it, in any of these forms:

* a prefix that only the format has: Android logcat's letter (``03-17 16:13:38.811  1702  2395
  D Tag: ...``, ``E/Tag( 123): ...``), glog's and Kubernetes' ``E0101 12:00:00.123456``, the
  syslog priority ``<34>`` (RFC 3164 and 5424; the severity is the priority modulo 8), apt's
  ``E: ...``;
* an upper-case word: log4j ``2015-10-18 18:01:47,978 INFO [main] ...``, HDFS, Spark, Hadoop,
  Zookeeper, Python's ``ERROR:root:msg`` and ``... - name - WARNING - msg``, BGL's ``RAS
  KERNEL FATAL``, Java's ``SEVERE``, zerolog's ``WRN``;
* a bracketed word in any case: Apache ``[error]`` and 2.4's ``[proxy:warn]``, nginx ``[crit]``,
  Maven ``[ERROR]``, and macOS's ``<Error>``;
* a key and its value: ``level=error``, ``"level": "warn"``, bunyan's ``"level":50``, Windows
  events' ``Level: Error`` and ``Type: Warning``;
* a word and a colon after a colon or a space: OpenSSH ``sshd[24324]: error: ...``, compilers'
  ``x.c:1:2: error: ...``, PHP's ``PHP Warning:  ...``, Proxifier's and HPC's ``error : ...``;
* a capitalised word in a column: Windows CBS ``2016-09-28 04:30:30, Info      CBS ...``,
  event logs exported as CSV (``Error,9/28/2016 ...``) or as a table.

Leftmost wins, so an INFO line that *mentions* an error stays INFO; and only whole level words
in these places count, so ``Information``, a logger named ``error_handler`` or ``0 errors`` in a
message make nothing an error. A line without any level is still important when it is part of
a failure report: a Python traceback (``Traceback (most recent call last):``, its indented
frames and its final ``SomethingError: msg`` line), a Java stack trace (``at pkg.Cls.method(...)``,
``Caused by:``, ``... 12 more``, and the exception line right above the first frame), or an
unlevelled line that reports trouble (OpenSSH's ``Failed password``, ``Invalid user``,
``authentication failure``, the kernel's ``EXT4-fs error``, ``Out of memory: Killed process``,
``segfault``, ``panic``, ``timed out``, ``fatal``, ``critical``; not ``0 failed``, ``no errors``
or ``no timeout``), which counts as a warning: a syslog without levels keeps its trouble. A
compiler's coded level at a line's start (``error[E0308]: ...``) is a level like ``error:``.

`line_severity` and `is_important` look at one line; `classify` and `describe` add the little
state that tracebacks need (which frames follow which header), streaming, reading a batch of
lines ahead. Everything is one pass with precompiled, backtracking-safe patterns, and a line's
own severity is worked out once for all the lines equal to it but for their digits (a message
repeated with other numbers), where no rule reads a digit's value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import islice
from operator import itemgetter
from typing import NamedTuple, cast

from cleveragents.application.services.artifact_compression.kinds.logs.digits import DIGITS_AS_ONE
from cleveragents.application.services.artifact_compression.kinds.logs.joined_lines import (
    lines_holding,
    lines_starting,
)

__all__ = [
    "Described",
    "LineKind",
    "LogLine",
    "Severity",
    "classify",
    "describe",
    "describe_lines",
    "digit_keys",
    "is_important",
    "line_severity",
]


class Severity(IntEnum):
    """How bad a log line is; lower is worse, like the ranks."""

    FATAL = 0  # fatal, critical, severe, emergency, alert, panic
    ERROR = 1  # errors, and the lines of tracebacks and stack traces
    WARNING = 2  # warnings, and unlevelled lines that report a failure
    INFO = 3  # info, notice, debug, trace: routine
    OTHER = 4  # no level found


_WORD_SEVERITY: dict[str, Severity] = {
    **dict.fromkeys(
        ("fatal", "critical", "crit", "severe", "emerg", "emergency", "alert", "panic", "ftl"),
        Severity.FATAL,
    ),
    **dict.fromkeys(("error", "err", "eror", "failure"), Severity.ERROR),
    **dict.fromkeys(("warn", "warning", "wrn"), Severity.WARNING),
    **dict.fromkeys(
        (
            *("info", "information", "informational", "inf", "notice", "debug", "dbug", "dbg"),
            *("trace", "trc", "fine", "finer", "finest", "config", "verbose", "vrb"),
        ),
        Severity.INFO,
    ),
    # bunyan's and pino's numbers: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal
    **dict.fromkeys(("10", "20", "30"), Severity.INFO),
    "40": Severity.WARNING,
    "50": Severity.ERROR,
    "60": Severity.FATAL,
}
_LETTER_SEVERITY: dict[str, Severity] = {  # logcat's and glog's one-letter levels
    **dict.fromkeys("VDI", Severity.INFO),
    "W": Severity.WARNING,
    "E": Severity.ERROR,
    **dict.fromkeys("FA", Severity.FATAL),  # A: logcat's assert
}
_SYSLOG_SEVERITY = (  # RFC 5424 severities 0-7
    *(Severity.FATAL,) * 3,  # emergency, alert, critical
    Severity.ERROR,
    Severity.WARNING,
    *(Severity.INFO,) * 3,  # notice, informational, debug
)

# Levels that only a line's start can hold: the syslog priority, glog's letter and date,
# logcat's letter after the pid and tid (threadtime) or before the tag and pid (brief, time).
_PREFIX_LEVEL = re.compile(
    r"<(\d{1,3})>"
    r"|([IWEF])\d{4} \d\d:\d\d:\d\d\.\d++ "
    r"|(?:(?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d\.\d++ ++)?"
    r"(?:\d++ ++\d++ ++([VDIWEFA]) |([VDIWEFA])/[^(\n]*+\( *+\d++\): )"
)
_LINE_START_LEVELS = ("fatal:", "error:", "warning:", "warn:", "panic:")  # `fatal: not a git repo`
# A compiler's level with its code: `error[E0308]: mismatched types`, `warning[unused]: ...`
_CODED_LEVEL = re.compile(r"(fatal|error|warning|warn)\[[\w-]{1,40}\]:")
_PREFIX_FIRST = ("<", "I", "W", "E", "F")  # what `_PREFIX_LEVEL` starts with, besides digits
_CODED_FIRST = ("e", "w", "f")
_APT_LEVELS = {"E: ": Severity.ERROR, "W: ": Severity.WARNING}

_LEVEL_KEYS = ("level", "lvl", "severity", "loglevel", "levelname", "type", "entrytype")
_COLON_WORDS = ("error", "warning", "warn", "fatal", "critical")
# Candidates for the leftmost level token. The pattern starts with a character set so that the
# regex engine skips, in C, every position where no token can start (3 times faster on real
# logs than a pattern that starts with `\b`); the look-behinds then check the first character
# and the word boundary before it (`(?<!\w.)`). A word is a level only when `_WORD_SEVERITY`
# knows it, so `finditer` goes on past `BLOCK*` or `[main]` to the real token.
_KEY_VALUE_LEVEL = "|".join(  # the key before the `=` or `:` just read
    rf"(?<=(?<![A-Za-z])(?i:{key}){quote_or_space}.)"
    for key in _LEVEL_KEYS
    for quote_or_space in ("", '"', " ")
)
_SPACED_COLON_LEVEL = "|".join(rf"(?<=(?<![\w])({word}) :)" for word in _COLON_WORDS)
# The rest of a capitalised level word after its capital (the word is checked whole against
# `_WORD_SEVERITY`, so `Xrror` is none).
_CAPITALISED = r"(?:nfo(?:rmation)?|arn(?:ing)?|rror|atal|ritical|evere|lert|otice|ebug|erbose)"
# The alternatives are grouped by the character that starts them, so a position fails after one
# look-behind per group (timestamps' colons and CamelCase names are the common case), and no
# alternative scans a word to find out that it is none.
_LEVEL = re.compile(
    r"[A-Z\[<=:](?:"
    r"(?<=[A-Z])(?:"
    r"(?<!\w.)(?:"
    r"[A-Z]{1,8}\b"  # INFO, ERROR, WARN, SEVERE, WRN
    # Windows' aligned lists: `EntryType          : Error`, `LevelDisplayName : Warning`
    r"|(?:evel(?:DisplayName)?|ype|ntryType|everity)[ \t]*+:[ \t]*+([A-Za-z]++)"
    r")"
    # Info, Error, Warning in a column: a CSV or TSV field (`Error,9/28/2016 ...`), before two
    # spaces or a tab (CBS, event log tables), or before a colon (`Error: `, `PHP Warning:  `)
    rf"|(?<![^,\t].){_CAPITALISED}(?=[,\t])"
    rf"|(?<![^ ,\t].){_CAPITALISED}(?=\t|  |(?: error)?:(?:[ \t]|$))"
    r")"
    r"|(?<=\[)(?:[\w-]++:)?([A-Za-z]{3,11})\d?\]"  # [error], [core:error], [ssl:trace3]
    r"|(?<=<)([A-Z][a-z]{3,8})>"  # <Error>, <Notice>
    # level=error, "level": "warn", "level":50, Level: Error, lvl=eror
    rf'|(?<=[A-Za-z" ][=:])(?:{_KEY_VALUE_LEVEL})[ \t]*+"?([A-Za-z]++|\d\d)(?![\w])'
    r"|(?<=:)[ \t]((?i:fatal|error|warning|warn|panic|critical|crit|severe))(?=:)"  # : error:
    rf"|(?<= :)(?:{_SPACED_COLON_LEVEL})(?=[ \t])"  # Proxifier's and HPC's `error : `
    r")"
)
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
_BLANKS = (" ", "\t")
_EXCEPTION_FIRST = ("_", "$", " ", "\t")  # besides letters: what an exception line starts with
_CAUSE = re.compile(r"[ \t]*+(?:Caused by|Suppressed): ")
_EXCEPTION_LINE = re.compile(  # `ValueError: msg`, `java.io.IOException`, `KeyboardInterrupt`
    r"[ \t]*+(?:Exception in thread "
    r"|(?:[A-Za-z_$][\w$]*+\.)*+[\w$]*?(?:Error|Exception|Throwable|Interrupt|Exit)"
    r"(?::|[ \t\r]*+$))"
)
_FAILURE = re.compile(  # on the lower-cased line; starts with a character set, like `_LEVEL`
    r"[fidrectpaosk](?<!\w.)"
    r"(?:(?<=f)(?:ail(?:s|ed|ures?|ing)?|atal)|(?<=i)nvalid|(?<=d)enied|(?<=r)efused"
    r"|(?<=e)(?:rrors?|xceptions?)|(?<=c)ritical|(?<=t)(?:imeouts?|imed out|raceback)"
    r"|(?<=p)anic(?:s|ked)?|(?<=a)bort(?:s|ed|ing)?|(?<=s)egfault|(?<=o)om|(?<=k)illed)\b"
)
_NONE = re.compile(r"(?:^|[^\w.])(?:0|no|zero) $")  # `0 failed`, `no failures`: no failure
_TRACEBACK = "Traceback (most recent call last):"


def _prefix_level(line: str) -> Severity | None:
    match = _PREFIX_LEVEL.match(line)
    if match is None:
        return None
    priority, glog, threadtime, brief = match.groups()
    if priority is not None:
        return _SYSLOG_SEVERITY[int(priority) % 8] if int(priority) < 192 else None
    return _LETTER_SEVERITY[glog or threadtime or brief]


def _level(line: str) -> Severity:
    """The severity named by the leftmost level token of `line`, or OTHER."""
    first = line[:1]
    if first in _PREFIX_FIRST or first.isdigit() or line[1:2] == "/":
        prefixed = _prefix_level(line)
        if prefixed is not None:
            return prefixed
        if line[1:3] == ": " and line[:3] in _APT_LEVELS:
            return _APT_LEVELS[line[:3]]
    if line.startswith(_LINE_START_LEVELS):
        return _WORD_SEVERITY[line[: line.index(":")]]
    if first in _CODED_FIRST and (coded := _CODED_LEVEL.match(line)):
        return _WORD_SEVERITY[coded.group(1)]
    for match in _LEVEL.finditer(line):
        word = match.group(match.lastindex) if match.lastindex else match.group()
        severity = _WORD_SEVERITY.get(word.lower())
        if severity is not None:
            return severity
    return Severity.OTHER


def _reports_failure(line: str) -> bool:
    """Whether an unlevelled line reports a failure (`Failed password`, `access denied`), not
    its absence (`0 failed`, `no failures`)."""
    lowered = line.lower()
    for match in _FAILURE.finditer(lowered):
        if not _NONE.search(lowered, max(0, match.start() - 6), match.start()):
            return True
    return False


def line_severity(line: str) -> Severity:
    """The severity of one line on its own (no traceback state): see the module docstring.

    Fast on the routine majority: one regex finds the level; the trace patterns run only on
    lines whose first character allows them, and the failure words only after a substring test.
    """
    return _on_its_own(line, line[:1], _is_traceback_start(line))[0]


def is_important(line: str) -> bool:
    """Whether Tier 2 keeps this line for its own sake (error, warning or trace line); the
    lines of a Python traceback after its header need `classify`'s state."""
    return line_severity(line) <= Severity.WARNING


def _is_traceback_start(line: str) -> bool:
    return "Traceback" in line and line.rstrip().endswith(_TRACEBACK)


class LineKind(IntEnum):
    """A line's part in a failure report."""

    ENTRY = 0  # a log entry of its own (most lines; a levelled error heads its stack trace)
    EXCEPTION = 1  # what a trace says went wrong: `ValueError: x`, `Caused by: ...`
    DETAIL = 2  # the rest of a trace: frames, `Traceback (...)`, `... 12 more`, source lines


class LogLine(NamedTuple):
    """A line with its severity (traceback state included) and its part in a trace."""

    text: str
    severity: Severity
    kind: LineKind


def _on_its_own(line: str, first: str, opens_traceback: bool) -> tuple[Severity, LineKind]:
    """A line's severity and kind on its own (no traceback state), `first` its first character.

    Each pattern runs at most once, and the kind follows from what found the severity: a trace
    line (`_TRACE_LINE`, which only a line starting with a blank or a `_TRACE_STARTS` word can
    match, and which holds `_CAUSE`) is an exception when it is a cause, else a detail; a
    traceback's header is a detail; an error by its exception line alone is an exception;
    every other line is an entry."""
    if (first in _BLANKS or line.startswith(_TRACE_STARTS)) and _TRACE_LINE.match(line):
        return Severity.ERROR, LineKind.EXCEPTION if _CAUSE.match(line) else LineKind.DETAIL
    severity = _level(line)
    if severity <= Severity.ERROR:
        return severity, LineKind.DETAIL if opens_traceback else LineKind.ENTRY
    if (first.isalpha() or first in _EXCEPTION_FIRST) and _EXCEPTION_LINE.match(line):
        return Severity.ERROR, LineKind.DETAIL if opens_traceback else LineKind.EXCEPTION
    if opens_traceback:
        return Severity.ERROR, LineKind.DETAIL
    if severity is Severity.OTHER and _reports_failure(line):
        return Severity.WARNING, LineKind.ENTRY
    return severity, LineKind.ENTRY


# What makes a line's severity depend on its digits' values, not only on where they stand:
# a syslog priority (`<34>`), a numeric level after a level key (bunyan's `"level":50`), and a
# count before a failure word (`0 failed` reports none, `3 failed` does). A line whose key
# (every digit a 1, `digits.digits_as_one`) holds none of them has the severity and kind of
# any other line with that key: every other rule reads digits as a class.
# Two patterns, on the lower-cased key: a numeric level after a level key, and a count before a
# failure word. The count's starts with a literal (`1 `), which the regex engine finds at the
# speed of a substring search; the level's runs only on a key that holds a level key's stem.
_LEVEL_VALUE = re.compile("|".join(rf'{key}[" ]?[=:][ \t]*+"?1' for key in _LEVEL_KEYS))
_COUNT_VALUE = re.compile(
    r"1 (?<![\w.]..)(?:fail|fatal|invalid|denied|refused|err|exception|critical|time"
    r"|traceback|panic|abort|segfault|oom|killed)"
)


def _digit_values_matter(key: str) -> bool:
    """Whether the lines with digits-as-one `key` may differ in severity (see the patterns
    above)."""
    if key.startswith("<"):
        return True
    lowered = key.lower()
    if _COUNT_VALUE.search(lowered) is not None:
        return True
    # Every one of `_LEVEL_KEYS` holds one of these stems (four substring tests in C).
    holds_key = "level" in lowered or "lvl" in lowered or "severity" in lowered or "type" in lowered
    return holds_key and _LEVEL_VALUE.search(lowered) is not None


SEEN_LIMIT = 16_384
SEEN_KEY_CHARS = 1_000
"""Keys remembered by one `describe` pass: this many, none longer than this (memory stays
bounded, some 16 MB at worst, whatever the log)."""


KEY_BATCH_LINES = 4096

Described = tuple[str, Severity, LineKind]
"""A line, its severity and its kind: what `LogLine` holds, as a plain tuple (one per line)."""


def digit_keys(lines: list[str]) -> list[str]:
    """The digits-as-one key of each line, made at once (one `str.translate` of a line costs
    about what it does of thousands joined)."""
    keys = "\n".join(lines).translate(DIGITS_AS_ONE).split("\n")
    if len(keys) != len(lines):  # a line held a newline of its own
        keys = [line.translate(DIGITS_AS_ONE) for line in lines]
    return keys


def _opens_traceback(line: str) -> bool:
    return "Traceback" in line and line.rstrip().endswith(_TRACEBACK)


@dataclass(slots=True)
class _Describer:
    """What `describe` carries from one line to the next: whether a Python traceback is open,
    and each line's severity and kind on its own by its digits-as-one key (see
    `_digit_values_matter`; None: worked out for each line).

    A batch of lines is described in two steps, so that no Python loop runs once a line: each
    line on its own, worked out once for each new key and looked up for the others (`map` over
    the keys); then the lines a neighbour can change, found by `str.find` in the joined batch
    (a traceback's header and the lines after it, a line that starts with a blank and the
    line above it), are read again in order with the traceback's state."""

    in_traceback: bool = False
    seen: dict[str, tuple[Severity, LineKind] | None] = field(default_factory=dict)

    def extend(self, lines: list[str], keys: list[str], out: list[Described]) -> None:
        """Append `lines` (their digits-as-one `keys` beside them) described to `out`, whose
        last line, when there is one, is the line before `lines[0]`: a stack frame makes the
        line above it the exception it belongs to, so that line may change."""
        own = self._on_their_own(lines, keys)
        base = len(out)
        out.extend(zip(lines, map(itemgetter(0), own), map(itemgetter(1), own), strict=True))
        self._in_context(lines, out, base)

    def _on_their_own(self, lines: list[str], keys: list[str]) -> list[tuple[Severity, LineKind]]:
        """Each line's severity and kind on its own (no traceback state); the new keys are
        remembered in order of first appearance, up to the limits (`SEEN_LIMIT`)."""
        seen = self.seen
        if len(seen) < SEEN_LIMIT:
            first_lines = dict(zip(reversed(keys), reversed(lines), strict=True))  # first wins
            for key in dict.fromkeys(keys):
                if key in seen or len(key) > SEEN_KEY_CHARS:
                    continue
                if len(seen) >= SEEN_LIMIT:
                    break
                line = first_lines[key]
                known = _on_its_own(line, line[:1], _opens_traceback(line))
                seen[key] = None if _digit_values_matter(key) else known
        own = list(map(seen.get, keys))
        for index in [index for index, known in enumerate(own) if known is None]:
            line = lines[index]  # its digits' values matter, or its key is not remembered
            own[index] = _on_its_own(line, line[:1], _opens_traceback(line))
        return cast("list[tuple[Severity, LineKind]]", own)  # every None was replaced

    def _in_context(self, lines: list[str], out: list[Described], base: int) -> None:
        """Apply to `out[base:]`, the lines of `lines` described on their own, what their
        neighbours tell: the lines of a Python traceback and the exception line that ends it,
        and the line above a stack frame."""
        joined = "\n".join(lines)
        headers = [
            i for i in lines_holding(lines, ("Traceback",), joined) if _opens_traceback(lines[i])
        ]
        blank_first = lines_starting(lines, _BLANKS, joined)
        # A traceback goes on while its lines start with a blank: every line it may hold is a
        # header's or a blank-first line's next one.
        read = {*headers, *blank_first}
        read.update([index + 1 for index in read if index + 1 < len(lines)])
        if self.in_traceback and lines:
            read.add(0)
        in_traceback = self.in_traceback
        opening = set(headers)
        for index in sorted(read):
            line = lines[index]
            _, severity, kind = out[base + index]
            first_blank = line[:1] in _BLANKS
            if in_traceback:
                in_traceback = first_blank
                if in_traceback:
                    severity, kind = Severity.ERROR, LineKind.DETAIL
                elif line.strip():  # the exception line that ends the traceback
                    severity = min(severity, Severity.ERROR)
                    kind = LineKind.EXCEPTION if kind is LineKind.ENTRY else kind
            if index in opening:
                in_traceback = True
            if first_blank and base + index > 0:
                above, above_severity, _ = out[base + index - 1]
                if above_severity > Severity.ERROR and _FRAME.match(line):
                    unlevelled = _level(above) > Severity.WARNING
                    out[base + index - 1] = (
                        above,
                        Severity.ERROR,
                        LineKind.EXCEPTION if unlevelled else LineKind.ENTRY,
                    )
            out[base + index] = (line, severity, kind)
        self.in_traceback = in_traceback


def describe_lines(lines: list[str], keys: list[str] | None = None) -> list[Described]:
    """`describe` of lines held in memory, as plain tuples: what smart mode's line plan reads.
    `keys`: their `digit_keys`, when the caller has them already."""
    described: list[Described] = []
    _Describer().extend(lines, digit_keys(lines) if keys is None else keys, described)
    return described


def describe(lines: Iterable[str]) -> Iterator[LogLine]:
    """Each line with its severity and kind, in order, streaming (`KEY_BATCH_LINES` ahead).

    On top of `line_severity`: every line of a Python traceback (its indented frames and source
    lines, and the exception line that ends it) is an ERROR, and so is the line right above a
    stack frame (the exception the frames belong to), whatever it looks like on its own.
    """
    describer = _Describer()
    iterator = iter(lines)
    held: list[Described] = []  # the last line described: the next batch's frames may change it
    while batch := list(islice(iterator, KEY_BATCH_LINES)):
        describer.extend(batch, digit_keys(batch), held)
        last = held.pop()
        yield from map(LogLine._make, held)
        held = [last]
    yield from map(LogLine._make, held)


def classify(lines: Iterable[str]) -> Iterator[tuple[str, Severity]]:
    """Each line with its severity, in order, streaming: `describe` without the kinds."""
    for line in describe(lines):
        yield line.text, line.severity
