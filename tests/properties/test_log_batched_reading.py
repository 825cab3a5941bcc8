"""A log's lines are described in batches (each line on its own once per digits-as-one key,
then only the lines a neighbour can change read again in order) and found by `str.find` in their
joined text: the same as reading every line one by one, in any batch size."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.logs import severity
from cleveragents.application.services.artifact_compression.kinds.logs.joined_lines import (
    lines_holding,
    lines_starting,
)
from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    Described,
    LineKind,
    Severity,
    describe,
    describe_lines,
)

PIECES = [
    "2024-01-01 10:00:0{n} INFO api: served request {n}",
    "2024-01-01 10:00:0{n} ERROR worker: batch {n} failed",
    "2024-01-01 10:00:0{n} WARN disk {n} almost full",
    "Traceback (most recent call last):",
    "  Traceback (most recent call last):",
    '  File "/app/w.py", line {n}, in run',
    "    result = process(batch)",
    "ValueError: bad batch {n}",
    "com.acme.RequestFailure: upstream returned 50{n}",
    "\tat com.acme.Client.call(Client.java:{n})",
    "    at handler (/srv/app.js:{n}:7)",
    "Caused by: java.net.SocketTimeoutException: Read timed out",
    "\t... {n} more",
    "During handling of the above exception, another exception occurred:",
    "",
    " ",
    "\t",
    "<1{n}>sshd[4{n}]: session opened",
    '{{"level":{n}0,"msg":"write failed"}}',
    "batch {n}: {n} failed",
    "request failed with Traceback in its text",
    "plain words {n}",
    "a line\nTraceback (most recent call last):",  # a newline inside a line: read one by one
    "ERROR x\n\tat a.B.c(B.java:{n})",
    "... (1{n} info lines omitted)",
]
LINE = st.tuples(st.sampled_from(PIECES), st.integers(0, 9)).map(
    lambda piece: piece[0].format(n=piece[1])
)
LINES = st.lists(LINE | st.text(alphabet=" \tTrbac0x9:ERO()", max_size=12), max_size=40)


def _one_by_one(lines: list[str]) -> list[Described]:
    """Every line read on its own and then with the traceback's state, one after the other."""
    out: list[Described] = []
    in_traceback = False
    for line in lines:
        first = line[:1]
        blank_first = first in (" ", "\t")
        opens = "Traceback" in line and line.rstrip().endswith(severity._TRACEBACK)
        found, kind = severity._on_its_own(line, first, opens)
        if in_traceback:
            in_traceback = blank_first
            if in_traceback:
                found, kind = Severity.ERROR, LineKind.DETAIL
            elif line.strip():
                found = min(found, Severity.ERROR)
                kind = LineKind.EXCEPTION if kind is LineKind.ENTRY else kind
        if opens:
            in_traceback = True
        if blank_first and out:
            above, above_severity, _ = out[-1]
            if above_severity > Severity.ERROR and severity._FRAME.match(line):
                unlevelled = severity._level(above) > Severity.WARNING
                out[-1] = (
                    above,
                    Severity.ERROR,
                    LineKind.EXCEPTION if unlevelled else LineKind.ENTRY,
                )
        out.append((line, found, kind))
    return out


@settings(max_examples=300, deadline=None)
@given(LINES)
@example(["x", "Traceback (most recent call last):", "  File 'a'", "  x = 1", "KeyError: 1"])
@example(["com.acme.X: boom", "\tat a.B.c(B.java:1)", "2024 INFO ok", "\tat a.B.c(B.java:2)"])
def test_batched_reading_is_the_line_by_line_reading(lines: list[str]) -> None:
    expected = _one_by_one(lines)
    assert describe_lines(lines) == expected
    assert [tuple(line) for line in describe(lines)] == expected


@settings(max_examples=100, deadline=None)
@given(LINES, st.integers(1, 5))
def test_any_batch_size_reads_the_same(lines: list[str], batch: int) -> None:
    original = severity.KEY_BATCH_LINES
    severity.KEY_BATCH_LINES = batch
    try:
        streamed = [tuple(line) for line in describe(lines)]
    finally:
        severity.KEY_BATCH_LINES = original
    assert streamed == _one_by_one(lines)


NEEDLES = st.lists(st.text(alphabet="aB(. ", min_size=1, max_size=3), min_size=1, max_size=3)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abB(. \t\n", max_size=8), min_size=1, max_size=12), NEEDLES)
def test_lines_found_in_the_joined_text_are_the_lines_holding_them(
    lines: list[str], needles: list[str]
) -> None:
    words = tuple(needles)
    assert lines_holding(lines, words) == [
        index for index, line in enumerate(lines) if any(word in line for word in words)
    ]
    lower = tuple(word.lower() for word in words)
    assert lines_holding(lines, lower, lowered=True) == [
        index for index, line in enumerate(lines) if any(word in line.lower() for word in lower)
    ]
    assert lines_starting(lines, words) == [
        index for index, line in enumerate(lines) if line.startswith(words)
    ]
